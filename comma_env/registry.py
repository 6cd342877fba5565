"""The puzzles of the suite and their registration in PettingZoo's registry, all derived from each
puzzle's ``SPEC``; reading the specs imports the rules modules only."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pettingzoo import register

from comma_env.protocol.spec import PuzzleSpec

if TYPE_CHECKING:
    from comma_env.protocol.game import Game

SPEC_MODULES: tuple[str, ...] = ("comma_env.asympuzl.spec",)
"""Modules holding a ``SPEC`` outside `comma_env.puzzles` (whose modules are all read)."""


def _discover() -> dict[str, PuzzleSpec]:
    import comma_env.puzzles as package

    names = [f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__)]
    found: dict[str, PuzzleSpec] = {}
    for module_name in [*sorted(names), *SPEC_MODULES]:
        spec = getattr(importlib.import_module(module_name), "SPEC", None)
        if isinstance(spec, PuzzleSpec):
            if spec.name in found:
                raise ValueError(f"two puzzles are named {spec.name!r} ({module_name})")
            found[spec.name] = spec
    rank = {"comma": 0, "v1": 1, "game": 2, "extra": 3}
    return dict(sorted(found.items(), key=lambda item: (rank[item[1].suite], item[1].order, item[0])))


SPECS: dict[str, PuzzleSpec] = _discover()
"""Every known puzzle's spec by name (`register_puzzle` adds more)."""


def _suite(suite: str) -> tuple[str, ...]:
    return tuple(name for name, spec in SPECS.items() if spec.suite == suite)


COMMA_PUZZLES: tuple[str, ...] = _suite("comma")
"""The ten puzzles of the COMMA paper (final version), in the suite's order (`paper_order` is the tables')."""

V1_PUZZLES: tuple[str, ...] = _suite("v1")
"""The first version's puzzles the final paper dropped: playable, not in the default ten."""

GAMES: tuple[str, ...] = _suite("game")
"""Two-agent testbeds with agents of their own (AsymPuzl's ``alice`` and ``bob``), not in the default ten."""

VERSIONS: dict[str, int] = {name: spec.version for name, spec in SPECS.items()}
"""Puzzle name -> the ``k`` of its ``-v<k>`` ids."""

TITLES: dict[str, str] = {name: spec.title for name, spec in SPECS.items()}
"""Display names (also in the Gymnasium ids, ``comma/Wire-solver-v0``)."""


def puzzle_spec(puzzle: str) -> PuzzleSpec:
    """The spec of a known puzzle."""
    try:
        return SPECS[puzzle]
    except KeyError:
        raise KeyError(f"unknown puzzle {puzzle!r}; known: {', '.join(SPECS)}") from None


def paper_order() -> tuple[str, ...]:
    """The final paper's puzzles in the column order of its tables."""
    columns = {spec.paper_column: name for name, spec in SPECS.items() if spec.paper_column is not None}
    return tuple(columns[column] for column in sorted(columns))


def env_id(puzzle: str) -> str:
    """PettingZoo registry id, e.g. ``comma/wire-v0``."""
    return puzzle_spec(puzzle).env_id


def env_module(puzzle: str) -> ModuleType:
    """The versioned module of a puzzle (``comma_env.wire_v0``)."""
    return importlib.import_module(puzzle_spec(puzzle).env_module)


def game(puzzle: str) -> type[Game]:
    """The environment class a puzzle plays (its versioned module's ``raw_env``), a
    `comma_env.protocol.game.Game`: what the rollout builds, seats and records."""
    return env_module(puzzle).raw_env


def make(puzzle: str, **kwargs: Any) -> Any:
    """Shortcut for ``comma_env.<puzzle>_v<k>.env(**kwargs)``."""
    return env_module(puzzle).env(**kwargs)


def puzzle_title(puzzle: str) -> str:
    """Display name of a puzzle (its name capitalised when it is unknown)."""
    return TITLES.get(puzzle) or puzzle.capitalize()


def register_puzzle(spec: PuzzleSpec) -> None:
    """Add a puzzle declared outside the package and register its PettingZoo id (again: a no-op)."""
    known = SPECS.get(spec.name)
    if known is spec:
        return
    if known is not None:
        raise ValueError(f"a different puzzle is already registered as {spec.name!r}")
    SPECS[spec.name] = spec
    VERSIONS[spec.name] = spec.version
    TITLES[spec.name] = spec.title
    register("aec", spec.env_id, entry_point=f"{spec.env_module}:env")


def unregister_puzzle(name: str) -> None:
    """Forget a puzzle that `register_puzzle` added, and its PettingZoo id (a no-op for an unknown name)."""
    from pettingzoo.env_registry.registration import aec_registry

    spec = SPECS.pop(name, None)
    VERSIONS.pop(name, None)
    TITLES.pop(name, None)
    if spec is not None:
        aec_registry.pop(spec.env_id, None)


def register_all() -> None:
    """PettingZoo ids (``comma/wire-v0``); `comma_env.rl.registration` adds the Gymnasium ones."""
    for spec in SPECS.values():
        register("aec", spec.env_id, entry_point=f"{spec.env_module}:env")
