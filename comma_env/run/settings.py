"""The settings a run's games actually ran with, per puzzle (AsymPuzl runs under its own rules,
not the protocol's), for the tables' header, ``results.json``'s meta and ``config.yaml``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SETTING_KEYS: tuple[str, ...] = ("solver_view", "max_turns", "max_mistakes", "memory")
"""Record fields that say how an episode was played (besides the puzzle's own options)."""


def record_settings(record: Mapping[str, Any]) -> dict[str, Any]:
    """The `SETTING_KEYS` of one episode record."""
    return {key: record.get(key) for key in SETTING_KEYS}


def per_puzzle(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Settings of each puzzle's records (the first record of a puzzle speaks for it: a folder
    holds one setting, `comma_env.run.rollout.load_done` refuses another)."""
    found: dict[str, dict[str, Any]] = {}
    for record in records:
        found.setdefault(str(record.get("puzzle")), record_settings(record))
    return found


def summary(settings: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One entry per key: the value all puzzles share, or ``"10 (button, dog); 15 (asympuzl)"``
    listing each value with its puzzles (None reads as "none")."""
    out: dict[str, Any] = {}
    for key in SETTING_KEYS:
        groups: dict[str, list[str]] = {}
        values: dict[str, Any] = {}
        for puzzle, entry in settings.items():
            value = entry.get(key)
            label = "none" if value is None else str(value)
            groups.setdefault(label, []).append(puzzle)
            values[label] = value
        if len(groups) == 1:
            out[key] = next(iter(values.values()))
        elif groups:
            out[key] = "; ".join(f"{label} ({', '.join(puzzles)})" for label, puzzles in groups.items())
    return out
