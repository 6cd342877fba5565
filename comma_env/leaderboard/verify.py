"""Replay every episode of a submission and compare what it earns with what it claims: one field or
turn that differs makes it not verified, and the scores shown are always the replayed ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from comma_env.web.replay import REPLAY_KEYS, in_processes, walk

CHECKED = ("success", "progress", "mistakes", "turns", "privacy_leaks")
"""Fields of a record recomputed by the replay and compared with it."""

SCORED = (*CHECKED, "solved_at_turn", "leaked", "repetition_loop", "end_reason", "turns_played")
"""Fields of a record the leaderboard takes from the replay rather than from the record."""


@dataclass
class Check:
    """The verdict on one episode: its differences (none: verified) and the replayed fields."""

    puzzle: str
    seed: int
    differences: list[str] = field(default_factory=list)
    replayed: dict[str, Any] = field(default_factory=dict)


def _unplayable(record: Mapping[str, Any]) -> dict[str, Any]:
    """What an episode the replay cannot rebuild earns: nothing."""
    turns = int(record.get("max_turns") or 10)
    return {"success": False, "progress": 0.0, "mistakes": 0, "turns": turns, "privacy_leaks": [],
            "solved_at_turn": None, "leaked": False, "repetition_loop": False, "end_reason": "not replayed",
            "turns_played": 0}


def differences(record: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """``"field: X recorded, Y replayed"`` for every `CHECKED` field that disagrees (leaks are
    compared as sets of field names, progress to 1e-9)."""
    out = []
    for key in CHECKED:
        claimed: Any = record.get(key)
        earned: Any = replayed.get(key)
        if claimed is None:
            out.append(f"{key}: missing in the record, {earned!r} replayed")
            continue
        if key == "privacy_leaks":
            claimed, earned = sorted(claimed), sorted(earned or [])
        same = abs(float(claimed) - float(earned or 0.0)) <= 1e-9 if key == "progress" else claimed == earned
        if not same:
            out.append(f"{key}: {claimed!r} recorded, {earned!r} replayed")
    return out


def check_record(record: Mapping[str, Any], data_roots: Mapping[str, str] | None = None) -> Check:
    """Replay one record and compare; never raises (a replay that fails is a difference)."""
    walked = walk(record, data_roots)
    out = Check(str(record.get("puzzle")), int(record.get("seed") or 0))
    summary = walked.summary
    out.replayed = {k: summary.get(k) for k in SCORED} if summary is not None else _unplayable(record)
    if walked.final_state is not None and summary is not None:  # the replay followed every turn
        out.differences = differences(record, out.replayed)
    if walked.mismatch and not out.differences:
        out.differences = [walked.mismatch]
    return out


def _check_chunk(records: Sequence[Mapping[str, Any]], roots: dict[str, str] | None) -> list[Check]:
    return [check_record(r, roots) for r in records]


def check_records(records: Sequence[Mapping[str, Any]], workers: int | None = None,
                  data_roots: Mapping[str, str] | None = None) -> list[Check]:
    """`check_record` for every record, in `workers` processes (default: the CPU count)."""
    roots = dict(data_roots) if data_roots else None
    return in_processes(_check_chunk, records, (*REPLAY_KEYS, *CHECKED), roots, workers=workers)


def rescored(record: Mapping[str, Any], check: Check) -> dict[str, Any]:
    """The record with every `SCORED` field replaced by the replay's."""
    return {**record, **check.replayed}
