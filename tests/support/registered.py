"""The puzzles that the generic checks run on: `comma_env.registry.SPECS` as it stands when the
tests are collected. A puzzle registered before that (by a pytest plugin, ``pytest -p
my_puzzle``, or a conftest that calls `comma_env.registry.register_puzzle`) is checked like the
suite's own puzzles; tests/registry/test_adding_a_puzzle.py shows it for examples/new_puzzle/."""

from __future__ import annotations

from collections.abc import Callable

from comma_env.protocol.spec import PuzzleSpec
from comma_env.registry import SPECS


def puzzles(where: Callable[[PuzzleSpec], object] | None = None) -> list[str]:
    """Every registered solver/expert puzzle (its spec has rules), in the registry's order, that
    `where` accepts: e.g. ``puzzles(lambda spec: spec.phrasebook)`` for those the
    natural-language oracle can word."""
    return [name for name, spec in SPECS.items() if spec.rules is not None and (where is None or where(spec))]


def games() -> list[str]:
    """Every registered puzzle and game (AsymPuzl's too): what the rollout can play."""
    return list(SPECS)
