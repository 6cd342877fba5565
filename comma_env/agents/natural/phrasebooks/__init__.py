"""Each puzzle's plain English, both ways and in both seats (`base.Phrasebook`): one module
per puzzle, named by the puzzle's spec (``PuzzleSpec.phrasebook``)."""

from __future__ import annotations

from comma_env.agents.natural.phrasebooks.atm import AtmPhrases
from comma_env.agents.natural.phrasebooks.base import Phrasebook, Steps
from comma_env.agents.natural.phrasebooks.button import ButtonPhrases
from comma_env.agents.natural.phrasebooks.color import ColorPhrases
from comma_env.agents.natural.phrasebooks.dog import DogPhrases
from comma_env.agents.natural.phrasebooks.keypad import KeypadPhrases
from comma_env.agents.natural.phrasebooks.led import LedPhrases
from comma_env.agents.natural.phrasebooks.maze import MazePhrases
from comma_env.agents.natural.phrasebooks.memory import MemoryPhrases
from comma_env.agents.natural.phrasebooks.password import PasswordPhrases
from comma_env.agents.natural.phrasebooks.sound import SoundPhrases
from comma_env.agents.natural.phrasebooks.telehealth import TelehealthPhrases
from comma_env.agents.natural.phrasebooks.who import WhoPhrases
from comma_env.agents.natural.phrasebooks.wire import WirePhrases
from comma_env.protocol.puzzle import Puzzle

__all__ = ["AtmPhrases", "ButtonPhrases", "ColorPhrases", "DogPhrases", "KeypadPhrases", "LedPhrases", "MazePhrases",
           "MemoryPhrases", "PasswordPhrases", "SoundPhrases", "TelehealthPhrases", "Phrasebook", "Steps",
           "WhoPhrases", "WirePhrases", "phrasebook"]


def phrasebook(puzzle_cls: type[Puzzle]) -> Phrasebook:
    """The phrasebook of a puzzle class, named by its spec (``PuzzleSpec.phrasebook``)."""
    spec = getattr(puzzle_cls, "spec", None)
    if spec is None:
        raise KeyError(f"{puzzle_cls.__name__} has no PuzzleSpec, so no natural-language phrasebook")
    book: type[Phrasebook] = spec.load_phrasebook()
    return book(puzzle_cls)
