"""Run folders read back for reports: one `Run` per rollout output folder."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comma_env.run.console import model_label
from comma_env.run.merge import episode_files
from comma_env.run.results import attach_judgements, build_results, latest_per_episode, ordered
from comma_env.web.episode_lines import read_records


@dataclass
class Run:
    """The episodes and tables of one rollout folder."""

    folder: Path
    slug: str  # a file-name-safe id, unique within one report
    label: str  # "solver / expert" as in the paper's tables
    records: list[dict[str, Any]]
    results: dict[str, Any] = field(default_factory=dict)

    @property
    def puzzles(self) -> list[str]:
        return list(self.results.get("puzzles", {}))


def slug(text: str) -> str:
    """A file-name-safe form of `text` (run folders, puzzle names in report paths)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "run"


def load_run(folder: str | Path, warn: Callable[[str], None] | None = None) -> Run:
    """All episode files of `folder`, one record per (puzzle, seed), judge labels attached, tables
    recomputed; unusable lines are skipped with a warning (`read_records`)."""
    path = Path(folder)
    files = episode_files(path)
    if not files:
        raise FileNotFoundError(f"no episodes*.jsonl in {path}")
    records = [r for f in files for r in read_records(f, warn)]
    unique = attach_judgements(list(latest_per_episode(records).values()), path)
    order = ordered(str(r.get("puzzle")) for r in unique)
    unique.sort(key=lambda r: (order.index(str(r.get("puzzle"))), int(r.get("seed") or 0)))
    results = build_results(unique, setting(unique))
    return Run(folder=path, slug=slug(path.name), label=model_label(results), records=unique, results=results)


def setting(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The settings the records share (``mixed`` where they differ), as results' ``meta``:
    the published rows are shown only beside a run in the paper's setting."""
    meta: dict[str, Any] = {}
    for key, default in (("max_turns", 10), ("max_mistakes", 3), ("memory", "full")):
        values = {r.get(key, default) for r in records}
        meta[key] = values.pop() if len(values) == 1 else "mixed"
    return meta


def load_runs(folders: list[str | Path], warn: Callable[[str], None] | None = None) -> list[Run]:
    """`load_run` for each folder, with slugs and labels made unique (two runs of the same
    models in other settings are told apart by their folder name)."""
    runs = [load_run(f, warn) for f in folders]
    seen: Counter[str] = Counter()
    for run in runs:
        seen[run.slug] += 1
        if seen[run.slug] > 1:
            run.slug = f"{run.slug}-{seen[run.slug]}"
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} ({run.folder.name})"
    return runs
