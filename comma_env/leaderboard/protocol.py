"""Was a submission run under the paper's protocol (its puzzles and seeds, `PAPER_SETTINGS`, one model
per role, the verifier's release series)? Entries that were rank together; each departure is listed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import comma_env
from comma_env.registry import COMMA_PUZZLES
from comma_env.run.console import seed_ranges

SEED_SETS: dict[int, str] = {100: "the paper's instances 0-99", 1000: "the 1,000 sampled instances 0-999"}
"""Accepted seeds per puzzle (always 0..n-1) and how each set is named."""

PAPER_SETTINGS: dict[str, Any] = {"max_turns": 10, "max_mistakes": 3, "memory": "full", "solver_view": "image",
                                  "action_matching": "exact", "puzzle_options": {}}
"""Record fields and the value the paper's protocol needs (a missing field reads as the default)."""


@dataclass
class Protocol:
    """The settings of a submission and how they depart from the paper's protocol."""

    settings: dict[str, str] = field(default_factory=dict)  # what the records say, for display
    departures: list[str] = field(default_factory=list)  # empty: the paper's protocol

    @property
    def paper(self) -> bool:
        return not self.departures


def release(version: str) -> str:
    """``0.3.1`` -> ``0.3``: the release series whose puzzles and protocol are the same."""
    return ".".join(version.split(".")[:2])


def _values(records: Sequence[Mapping[str, Any]], key: str) -> list[Any]:
    default = PAPER_SETTINGS.get(key)
    seen: list[Any] = []
    for record in records:
        value = record.get(key, default)
        if value not in seen:
            seen.append(value)
    return seen


def _show(values: Sequence[Any]) -> str:
    return " | ".join("none" if v is None else str(v) for v in values) or "none"


def check_protocol(records: Sequence[Mapping[str, Any]], provenance: Mapping[str, str]) -> Protocol:
    """The settings of `records` (one per puzzle and seed) and their departures from the paper's."""
    out = Protocol()
    puzzles = sorted({str(r.get("puzzle")) for r in records})
    out.settings["puzzles"] = ", ".join(puzzles)
    missing = [p for p in COMMA_PUZZLES if p not in puzzles]
    extra = [p for p in puzzles if p not in COMMA_PUZZLES]
    if missing or extra:
        out.departures.append("puzzles: " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"not the paper's: {', '.join(extra)}"]
                                                                      if extra else [])))
    seeds = {p: sorted(int(r.get("seed") or 0) for r in records if r.get("puzzle") == p) for p in puzzles}
    shapes = {len(s) for s in seeds.values()}
    whole = all(s == list(range(len(s))) for s in seeds.values())
    size = next(iter(shapes)) if len(shapes) == 1 else None
    if size in SEED_SETS and whole:
        out.settings["seeds"] = f"0..{size - 1} ({SEED_SETS[size]})"
    else:
        out.settings["seeds"] = "; ".join(f"{p} {seed_ranges({'seed': s} for s in v)}" for p, v in seeds.items())
        out.departures.append("seeds: not 0-99 or 0-999 for every puzzle")
    for key, expected in PAPER_SETTINGS.items():
        values = _values(records, key)
        out.settings[key] = _show(values)
        if values != [expected]:
            out.departures.append(f"{key}: {_show(values)} (the paper's: {expected if expected != {} else 'none'})")
    for key in ("solver_model", "expert_model"):
        values = _values(records, key)
        out.settings[key] = _show(values)
        if len(values) != 1 or values[0] is None:
            out.departures.append(f"{key}: {_show(values)} (one model per role)")
    version = provenance.get("comma_env")
    out.settings["package version"] = version or "not recorded"
    if not version:
        out.departures.append("package version: not recorded (config.yaml or results.json)")
    elif release(version) != release(comma_env.__version__):
        out.departures.append(f"package version: {version} (this leaderboard: {comma_env.__version__})")
    return out
