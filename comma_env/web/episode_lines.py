"""Reading episode files for the report: any file, however damaged, gives the records whose
fields have the types the report reads, and a warning naming each line that does not."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from numbers import Real
from pathlib import Path
from typing import Any

MAX_SEED = 2**63 - 1
MAX_LIMIT = 10**6  # turns or mistakes: more is a corrupt record, not a setting

_Check = Callable[[Any], bool]


def _int(low: int = 0, high: int = MAX_SEED) -> _Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _number(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(float(v))


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _bools(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, bool) for x in v)


def _optional(check: _Check) -> _Check:
    return lambda v: v is None or check(v)


FIELDS: dict[str, _Check] = {
    "seed": _int(),
    "success": _optional(lambda v: isinstance(v, bool)),
    "progress": _optional(_number),
    "mistakes": _optional(_int()),
    "turns": _optional(_int()),
    "turns_played": _optional(_int()),
    "tokens": _optional(_int()),
    "prompt_tokens": _optional(_int()),
    "max_turns": _optional(_int(1, MAX_LIMIT)),
    "max_mistakes": _optional(_int(1, MAX_LIMIT)),
    "end_reason": _optional(_str),
    "error": _optional(_str),
    "solver_model": _optional(_str),
    "expert_model": _optional(_str),
    "memory": _optional(_str),
    "solver_view": _optional(_str),
    "action_matching": _optional(_str),
    "privacy_leaks": _optional(_strings),
    "privacy_unsure": _optional(_strings),
    "error_types": _optional(_strings),
    "skills": _optional(_strings),
    "leaked": _optional(lambda v: isinstance(v, bool)),
    "repetition_loop": _optional(lambda v: isinstance(v, bool)),
    "puzzle_options": _optional(lambda v: isinstance(v, dict)),
    "tokens_by_role": _optional(lambda v: isinstance(v, dict) and all(isinstance(x, dict) for x in v.values())),
    "seconds": _optional(_number),
}
"""Top-level fields the report and the tables read, with the type each must have."""

TURN_FIELDS: dict[str, _Check] = {
    "turn": _optional(_int()),
    "solver": _optional(_str),
    "solver_raw": _optional(_str),
    "expert": _optional(_str),
    "expert_raw": _optional(_str),
    "actions": _optional(_strings),
    "outcomes": _optional(_bools),
    "leaks": _optional(_strings),
    "progress": _optional(_number),
    "solver_tokens": _optional(_int()),
    "expert_tokens": _optional(_int()),
}


def problem(record: Any) -> str | None:
    """What makes `record` unusable for the report (None: it is fine)."""
    if not isinstance(record, dict):
        return "not a JSON object"
    if not isinstance(record.get("puzzle"), str) or not record["puzzle"]:
        return "puzzle is missing or not a string"
    for key, check in FIELDS.items():
        if key in record and not check(record[key]):
            return f"{key} has an unexpected value or type ({type(record[key]).__name__})"
    if "seed" not in record:
        return "seed is missing"
    transcript = record.get("transcript")
    if transcript is None:
        return None
    if not isinstance(transcript, list):
        return "transcript is not a list"
    for index, turn in enumerate(transcript):
        if not isinstance(turn, dict):
            return f"transcript[{index}] is not an object"
        for key, check in TURN_FIELDS.items():
            if key in turn and not check(turn[key]):
                return f"transcript[{index}].{key} has an unexpected value or type"
    return None


def read_records(path: str | Path, warn: Callable[[str], None] | None = None) -> Iterator[dict[str, Any]]:
    """The usable records of an episodes file, read only; every other non-empty line is
    skipped with a warning naming ``file:line`` and why."""
    warn = warn or (lambda text: print(text, file=sys.stderr))
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                record = json.loads(line)
            except (ValueError, RecursionError) as error:
                warn(f"comma_env.report: skipping {where}: not valid JSON ({str(error)[:80]})")
                continue
            reason = problem(record)
            if reason is not None:
                warn(f"comma_env.report: skipping {where}: {reason}")
                continue
            yield record
