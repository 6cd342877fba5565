"""The puzzles of the suite and their registration in PettingZoo's registry."""

from __future__ import annotations

import importlib
from types import ModuleType

from pettingzoo import register

COMMA_PUZZLES: tuple[str, ...] = (
    "wire", "who", "keypad", "led", "memory", "password", "maze", "color", "atm", "telehealth",
)
"""The ten puzzles of the COMMA paper (final version), in the order of its tables."""

V1_PUZZLES: tuple[str, ...] = ("button", "dog", "sound")
"""The first version's puzzles that the final paper dropped (real-time reaction and audio);
registered and playable (``puzzles=[button,dog,sound]``), not in the default ten."""

GAMES: tuple[str, ...] = ("asympuzl",)
"""Two-agent testbeds with their own agents (not solver/expert): AsymPuzl's ``alice`` and
``bob``. Playable in the rollout (``puzzles=[asympuzl]``), never in the default ten."""

VERSIONS: dict[str, int] = {name: 0 for name in COMMA_PUZZLES + V1_PUZZLES + GAMES}


def env_id(puzzle: str) -> str:
    """PettingZoo registry id, e.g. ``comma/wire-v0``."""
    return f"comma/{puzzle}-v{VERSIONS[puzzle]}"


def module_name(puzzle: str) -> str:
    return f"comma_env.{puzzle}_v{VERSIONS[puzzle]}"


def env_module(puzzle: str) -> ModuleType:
    """The versioned module of a puzzle (``comma_env.wire_v0``)."""
    if puzzle not in VERSIONS:
        raise KeyError(f"unknown puzzle {puzzle!r}; known: {', '.join(VERSIONS)}")
    return importlib.import_module(module_name(puzzle))


def make(puzzle: str, **kwargs):
    """Shortcut for ``comma_env.<puzzle>_v<k>.env(**kwargs)``."""
    return env_module(puzzle).env(**kwargs)


TITLES: dict[str, str] = {
    "wire": "Wire", "who": "Who", "keypad": "Keypad", "led": "LED", "memory": "Memory",
    "password": "Password", "maze": "Maze", "color": "Color", "atm": "ATM", "telehealth": "Telehealth",
    "button": "Button", "dog": "Dog", "sound": "Sound",
}
"""Display names used in the Gymnasium ids (``comma/Wire-solver-v0``) without importing
the puzzle modules (the puzzles' ``title``; a test keeps them equal)."""


def puzzle_title(puzzle: str) -> str:
    return TITLES.get(puzzle) or puzzle.capitalize()


def register_all() -> None:
    """PettingZoo ids (``comma/wire-v0``). The single-role Gymnasium ids (``comma/Wire-solver-v0``)
    are registered by `comma_env.rl.registration`, which reads this module (not the reverse)."""
    for puzzle in VERSIONS:
        register("aec", env_id(puzzle), entry_point=f"{module_name(puzzle)}:env")
