"""Each puzzle's plain English, both ways and in both seats (`base.Phrasebook`): one module
per puzzle, named by the puzzle's spec (``PuzzleSpec.phrasebook``)."""

from __future__ import annotations

from comma_env.agents.natural.phrasebooks.base import Phrasebook, Steps
from comma_env.protocol.puzzle import Puzzle

__all__ = ["Phrasebook", "Steps", "phrasebook"]


def phrasebook(puzzle_cls: type[Puzzle]) -> Phrasebook:
    """The phrasebook of a puzzle class, named by its spec (``PuzzleSpec.phrasebook``)."""
    spec = getattr(puzzle_cls, "spec", None)
    if spec is None:
        raise KeyError(f"{puzzle_cls.__name__} has no PuzzleSpec, so no natural-language phrasebook")
    book: type[Phrasebook] = spec.load_phrasebook()
    return book(puzzle_cls)
