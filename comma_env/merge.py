"""Recompute the result tables of a rollout folder from all its episode files.

    python -m comma_env.merge OUT_DIR [OUT_DIR ...] [--out MERGED_DIR]

Reads ``episodes.jsonl`` and every ``episodes.shard{i}of{k}.jsonl`` in the folders (shards
of one run, or several runs to pool), keeps one record per (puzzle, seed), and writes
``results.json`` and ``results.md`` into the first folder (or ``--out``). Torn last lines
left by a killed shard are skipped (files are not modified).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from comma_env.results import attach_judgements, build_results, latest_per_episode, read_episodes, render_console, write_results


def episode_files(out_dir: str | Path) -> list[Path]:
    folder = Path(out_dir)
    return sorted(p for p in folder.glob("episodes*.jsonl") if p.is_file())


def merge(out_dirs: Sequence[str | Path], dest: str | Path | None = None, quiet: bool = False) -> dict[str, Any]:
    """Pool the episodes of `out_dirs`, write the tables into `dest` (default: the first
    folder) and return results.json's content."""
    files = [f for d in out_dirs for f in episode_files(d)]
    if not files:
        raise FileNotFoundError(f"no episodes*.jsonl in {', '.join(map(str, out_dirs))}")
    records = [r for f in files for r in read_episodes(f, repair=False)]
    unique = list(latest_per_episode(records).values())
    for folder in out_dirs:
        unique = attach_judgements(unique, folder)
    duplicates = len(records) - len(unique)
    meta = {"merged_files": [str(f) for f in files], "episodes_recorded": len(unique)}
    if duplicates:
        meta["duplicates_dropped"] = duplicates
    results = build_results(unique, meta)
    target = Path(dest) if dest else Path(out_dirs[0])
    write_results(target, results)
    if not quiet:
        print(render_console(results))
        print(f"merged {len(files)} file(s), {len(unique)} episodes -> {target / 'results.md'}")
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dirs", nargs="+", help="rollout output folder(s)")
    parser.add_argument("--out", default=None, help="where to write results.json/.md (default: the first folder)")
    args = parser.parse_args(argv)
    try:
        merge(args.out_dirs, args.out)
    except FileNotFoundError as error:
        print(f"comma_env.merge: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
