"""Check the L1 leak set: the format of every line, and facts equal to the game's private facts.

Run with the project's interpreter, which has comma_env installed:

    /work/main/.venv/bin/python check.py [FOLDER ...]

Without arguments it checks the folder this file is in. Give several folders (the dev and the
held-out folder) to also check that ids are unique and no seed is used by more than three
conversations across them.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # read the game, never write into its tree

import comma_env  # noqa: E402

FIELDS = {
    "atm": {"pin", "balance"},
    "telehealth": {"name", "address", "ssn", "date_of_birth", "phone"},
}
ID = re.compile(r"^(atm|telehealth)-L1-\d{3}$")


def rows(folder: Path):
    for puzzle in FIELDS:
        path = folder / f"{puzzle}.jsonl"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield puzzle, f"{path}:{number}", json.loads(line)


def check_format(puzzle: str, where: str, row: dict) -> list[str]:
    errors = []
    keys = {"id", "puzzle", "seed", "style", "facts", "turns", "leaked", "why"}
    if set(row) != keys:
        errors.append(f"keys {sorted(set(row) ^ keys)}")
    if not ID.match(row.get("id", "")) or not row["id"].startswith(puzzle + "-"):
        errors.append(f"id {row.get('id')!r}")
    if row.get("puzzle") != puzzle:
        errors.append(f"puzzle {row.get('puzzle')!r} in {puzzle}.jsonl")
    if not isinstance(row.get("seed"), int):
        errors.append("seed is not an int")
    if not isinstance(row.get("style"), str) or not row["style"]:
        errors.append("style")
    if set(row.get("facts", {})) != FIELDS[puzzle]:
        errors.append(f"facts fields {sorted(row.get('facts', {}))}")
    leaked = row.get("leaked", [])
    if not set(leaked) <= FIELDS[puzzle] or len(set(leaked)) != len(leaked):
        errors.append(f"leaked {leaked}")
    if set(leaked) == FIELDS[puzzle]:
        errors.append("every field leaked: a conversation must keep at least one field clean")
    turns = row.get("turns", [])
    if not turns:
        errors.append("no turns")
    for index, turn in enumerate(turns):
        if set(turn) != {"solver", "expert"} or not isinstance(turn["solver"], str) or not turn["solver"]:
            errors.append(f"turn {index}: {turn}")
        elif turn["expert"] is None and index != len(turns) - 1:
            errors.append(f"turn {index}: only the last expert message may be null")
        elif turn["expert"] is not None and not isinstance(turn["expert"], str):
            errors.append(f"turn {index}: expert is not a string")
    if not isinstance(row.get("why"), str) or not row["why"] or "\n" in row["why"]:
        errors.append("why must be one line")
    return [f"{where} {row.get('id')}: {e}" for e in errors]


def game_facts(puzzle: str, seed: int, cache: dict) -> dict:
    if (puzzle, seed) not in cache:
        env = comma_env.make(puzzle)
        env.reset(seed=seed)
        cache[(puzzle, seed)] = dict(env.unwrapped.private_facts)
    return cache[(puzzle, seed)]


def main(folders: list[Path]) -> int:
    errors: list[str] = []
    cache: dict = {}
    ids: collections.Counter = collections.Counter()
    seeds: collections.Counter = collections.Counter()
    totals: dict = collections.defaultdict(collections.Counter)
    for folder in folders:
        for puzzle, where, row in rows(folder):
            errors += check_format(puzzle, where, row)
            ids[row.get("id")] += 1
            seeds[row.get("seed")] += 1
            if isinstance(row.get("seed"), int) and row.get("facts") != game_facts(puzzle, row["seed"], cache):
                errors.append(f"{where} {row.get('id')}: facts differ from seed {row['seed']}'s private facts")
            totals[puzzle]["conversations"] += 1
            for field in FIELDS[puzzle]:
                totals[puzzle][field + (" leaked" if field in row.get("leaked", []) else " clean")] += 1
    errors += [f"id {i} used {n} times" for i, n in ids.items() if n > 1]
    errors += [f"seed {s} used by {n} conversations" for s, n in seeds.items() if n > 3]
    for puzzle, counts in totals.items():
        fields = ", ".join(f"{f} {counts[f + ' leaked']}/{counts[f + ' clean']}" for f in sorted(FIELDS[puzzle]))
        print(f"{puzzle}: {counts['conversations']} conversations; leaked/clean per field: {fields}")
    for error in errors:
        print("ERROR", error)
    print("OK" if not errors else f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or [Path(__file__).resolve().parent]
    sys.exit(main(args))
