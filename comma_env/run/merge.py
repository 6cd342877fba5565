"""Recompute the result tables of a rollout folder from all its episode files.

One record per (puzzle, seed) over every shard (the later file wins; an error never replaces a finished one)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from comma_env.run import settings as run_settings
from comma_env.run.console import render_console
from comma_env.run.provenance import provenance
from comma_env.run.results import (
    RUN_SETTINGS,
    attach_judgements,
    build_results,
    describe_mismatch,
    latest_per_episode,
    read_episodes,
    settings_mismatch,
    write_results,
)


def episode_files(out_dir: str | Path) -> list[Path]:
    folder = Path(out_dir)
    return sorted(p for p in folder.glob("episodes*.jsonl") if p.is_file())


def mixed_settings(records: Sequence[Mapping[str, Any]]) -> str | None:
    """A description of the first disagreement in run settings among `records` (puzzle
    options compared per puzzle), or None when they all agree."""
    first: dict[str, Any] = {}
    per_puzzle: dict[str, Mapping[str, Any]] = {}
    for record in records:
        for key in RUN_SETTINGS:
            if key in record:
                first.setdefault(key, record[key])
        puzzle = str(record.get("puzzle"))
        reference = {**first, "puzzle_options": (per_puzzle.setdefault(puzzle, record).get("puzzle_options") or {})}
        mismatch = settings_mismatch(record, reference)
        if mismatch:
            where = f"{record.get('puzzle')} seed {record.get('seed')}"
            return f"{where}: " + describe_mismatch(mismatch, "has", "others have")
    return None


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder/.merge.lock`` (POSIX), so shards finishing at the
    same time merge one after the other."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # no flock (Windows): unique temp files still keep writes whole
        yield
        return
    with open(folder / ".merge.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def merge(out_dirs: Sequence[str | Path], dest: str | Path | None = None, quiet: bool = False,
          files: Sequence[str | Path] | None = None, allow_mixed: bool = False) -> dict[str, Any]:
    """Pool the episodes of `out_dirs` (or only `files`), write the tables into `dest` (default: the
    first folder) and return results.json's content; mixed settings raise ValueError unless `allow_mixed`."""
    paths = [Path(f) for f in files] if files is not None else [f for d in out_dirs for f in episode_files(d)]
    paths = [f for f in paths if f.is_file()]
    if not paths:
        raise FileNotFoundError(f"no episodes*.jsonl in {', '.join(map(str, out_dirs))}")
    records = [r for f in paths for r in read_episodes(f, repair=False)]
    unique = list(latest_per_episode(records).values())
    mixed = mixed_settings(unique)
    if mixed and not allow_mixed:
        raise ValueError(f"episodes of different settings in {', '.join(map(str, paths))} ({mixed}); "
                         "merge them separately, or pass --allow-mixed to pool them anyway")
    if mixed:
        print(f"comma_env.merge: warning: pooling episodes of different settings ({mixed})", file=sys.stderr)
    for folder in out_dirs:
        unique = attach_judgements(unique, folder)
    duplicates = len(records) - len(unique)
    meta: dict[str, Any] = {"merged_files": [str(f) for f in paths], "episodes_recorded": len(unique),
                            **run_settings.summary(run_settings.per_puzzle(unique)), "provenance": provenance()}
    if duplicates:
        meta["duplicates_dropped"] = duplicates
        if not quiet:
            print(f"comma_env.merge: {duplicates} repeated episode record(s); kept the last of each "
                  "(a finished record over an error)", file=sys.stderr)
    if mixed:
        meta["mixed_settings"] = mixed
    target = Path(dest) if dest else Path(out_dirs[0])
    results = build_results(unique, meta)
    with folder_lock(target):
        write_results(target, results)
    if not quiet:
        print(render_console(results))
        print(f"merged {len(paths)} file(s), {len(unique)} episodes -> {target / 'results.md'}")
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.merge", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dirs", nargs="+", help="rollout output folder(s)")
    parser.add_argument("--out", default=None, help="where to write results.json/.md (default: the first folder)")
    parser.add_argument("--allow-mixed", action="store_true", help="pool episodes run with different settings")
    args = parser.parse_args(argv)
    try:
        merge(args.out_dirs, args.out, allow_mixed=args.allow_mixed)
    except (FileNotFoundError, ValueError) as error:
        print(f"comma_env.merge: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
