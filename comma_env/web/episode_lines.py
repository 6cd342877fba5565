"""Reading episode files for the report: any file, however damaged, gives the records whose
fields have the types the report reads, and a warning naming each line that does not."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_SEED = 2**63 - 1
MAX_LIMIT = 10**6  # turns or mistakes: more is a corrupt record, not a setting

Count = Annotated[int, Field(ge=0, le=MAX_SEED)]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT)]
Number = Annotated[float, Field(allow_inf_nan=False)]
STRICT = ConfigDict(strict=True, extra="allow")


class Turn(BaseModel):
    """The fields of a transcript turn the report reads, with their types."""

    model_config = STRICT
    turn: Count | None = None
    solver: str | None = None
    solver_raw: str | None = None
    expert: str | None = None
    expert_raw: str | None = None
    actions: list[str] | None = None
    outcomes: list[bool] | None = None
    leaks: list[str] | None = None
    progress: Number | None = None
    solver_tokens: Count | None = None
    expert_tokens: Count | None = None


class Record(BaseModel):
    """The top-level fields of a record the report and the tables read, with their types."""

    model_config = STRICT
    puzzle: str = Field(min_length=1)
    seed: Count
    success: bool | None = None
    progress: Number | None = None
    mistakes: Count | None = None
    turns: Count | None = None
    turns_played: Count | None = None
    tokens: Count | None = None
    prompt_tokens: Count | None = None
    max_turns: Limit | None = None
    max_mistakes: Limit | None = None
    end_reason: str | None = None
    error: str | None = None
    solver_model: str | None = None
    expert_model: str | None = None
    memory: str | None = None
    solver_view: str | None = None
    action_matching: str | None = None
    privacy_leaks: list[str] | None = None
    privacy_unsure: list[str] | None = None
    error_types: list[str] | None = None
    skills: list[str] | None = None
    leaked: bool | None = None
    repetition_loop: bool | None = None
    puzzle_options: dict[str, Any] | None = None
    tokens_by_role: dict[str, dict[str, Any]] | None = None
    seconds: Number | None = None
    transcript: list[Turn] | None = None


def problem(record: Any) -> str | None:
    """What makes `record` unusable for the report (None: it is fine)."""
    if not isinstance(record, dict):
        return "not a JSON object"
    try:
        Record.model_validate(record)
    except ValidationError as error:
        first = error.errors()[0]
        key, *inner = first["loc"]
        if key == "puzzle":
            return "puzzle is missing or not a string"
        if first["type"] == "missing":
            return f"{key} is missing"
        if key != "transcript":
            return f"{key} has an unexpected value or type ({type(record[key]).__name__})"
        if not inner:
            return "transcript is not a list"
        if len(inner) == 1:
            return f"transcript[{inner[0]}] is not an object"
        return f"transcript[{inner[0]}].{inner[1]} has an unexpected value or type"
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
