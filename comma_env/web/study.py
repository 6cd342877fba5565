"""A human-baseline study: a fixed schedule of (puzzle, seed) games in ``OUT_DIR/study.json`` (mode
0600), its progress derived from the episode file, so a restarted server resumes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comma_env.run.results import read_episodes
from comma_env.web.records import write_private_json
from comma_env.web.session import ABANDONED, PLAYABLE, SEED_SPACE, SessionStore

STUDY_FILE = "study.json"


@dataclass(frozen=True)
class Slot:
    puzzle: str
    seed: int


class Schedule:
    """The study's slots in the order they are offered."""

    def __init__(self, puzzles: list[str], seeds: list[int]) -> None:
        self.puzzles = list(puzzles)
        self.seeds = list(seeds)
        self.slots = [Slot(p, s) for s in self.seeds for p in self.puzzles]

    @classmethod
    def open(cls, out_dir: Path, puzzles: list[str], games_per_puzzle: int, seeds: list[int] | None) -> Schedule:
        """Load the folder's schedule, or fix a new one; refuse settings that differ from it."""
        unknown = [p for p in puzzles if p not in PLAYABLE]
        if not puzzles or unknown:
            raise ValueError(f"puzzles must list puzzles of {', '.join(PLAYABLE)}"
                             + (f"; unknown: {unknown}" if unknown else ""))
        if games_per_puzzle < 1:
            raise ValueError("games_per_puzzle must be >= 1")
        if seeds is not None and (len(seeds) != games_per_puzzle or len(set(seeds)) != len(seeds) or min(seeds) < 0):
            raise ValueError("seeds must be games_per_puzzle distinct seeds >= 0")
        path = out_dir / STUDY_FILE
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            if data["puzzles"] != list(puzzles) or len(data["seeds"]) != games_per_puzzle \
                    or (seeds is not None and data["seeds"] != list(seeds)):
                raise ValueError(f"{path} is a study of puzzles={data['puzzles']} "
                                 f"games_per_puzzle={len(data['seeds'])}; "
                                 "use those settings to resume it, or another folder")
            return cls(data["puzzles"], [int(s) for s in data["seeds"]])
        if seeds is None:  # secret, as `secrets` draws them
            seeds = sorted(random.SystemRandom().sample(range(SEED_SPACE), games_per_puzzle))
        write_private_json(out_dir, STUDY_FILE, {"puzzles": list(puzzles), "seeds": list(seeds)})
        return cls(list(puzzles), list(seeds))


class Progress:
    """What the records and the live sessions say about each slot."""

    def __init__(self, schedule: Schedule, store: SessionStore) -> None:
        self.schedule = schedule
        self.store = store
        self._records: list[dict[str, Any]] | None = None

    def records(self) -> list[dict[str, Any]]:
        """The folder's records (read once, again after each saved game: `forget`)."""
        if self._records is None:
            self._records = read_episodes(self.store.out_dir / "episodes.jsonl", repair=False)
        return self._records

    def forget(self) -> None:
        self._records = None

    def done(self) -> set[Slot]:
        return {Slot(str(r["puzzle"]), int(r["seed"])) for r in self.records() if not r.get("error")}

    def in_play(self) -> set[Slot]:
        return {Slot(s.puzzle, s.seed) for s in self.store.sessions.values() if s.participants and not s.done}

    def free_slots(self) -> list[Slot]:
        """The slots neither done nor in play, in schedule order."""
        busy = self.done() | self.in_play()
        return [slot for slot in self.schedule.slots if slot not in busy]

    def complete(self) -> bool:
        return self.done() >= set(self.schedule.slots)

    def table(self) -> dict[str, dict[str, int]]:
        """Per puzzle: target, finished, solved, abandoned, failed (other errors), in play."""
        rows = {p: {"target": len(self.schedule.seeds), "finished": 0, "solved": 0, "abandoned": 0, "failed": 0,
                    "in_play": 0} for p in self.schedule.puzzles}
        slots = set(self.schedule.slots)
        counted: set[Slot] = set()
        for record in self.records():
            slot = Slot(str(record.get("puzzle")), int(record.get("seed") or 0))
            if slot not in slots:
                continue
            row = rows[slot.puzzle]
            if record.get("end_reason") == ABANDONED:
                row["abandoned"] += 1
            elif record.get("error"):
                row["failed"] += 1
            elif slot not in counted:
                counted.add(slot)
                row["finished"] += 1
                row["solved"] += int(bool(record.get("success")))
        for slot in self.in_play():
            if slot.puzzle in rows:
                rows[slot.puzzle]["in_play"] += 1
        return rows
