"""Build the leaderboard of submitted run folders.

Exit codes: 0 the site is written (whatever the verdicts), 2 bad arguments, 1 it could not be written."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from comma_env.leaderboard.board import Board, build_board, build_entries
from comma_env.leaderboard.submission import Limits, load_submission
from comma_env.run.exits import EXIT_CONFIG_ERROR, EXIT_OK, EXIT_RUN_ERROR


def build(folders: Sequence[str | Path], out: str | Path, workers: int | None = None,
          data_roots: Mapping[str, str] | None = None, limits: Limits | None = None) -> tuple[Board, float]:
    """Read, replay and rank `folders`, write the site into `out`; returns the board and the
    seconds the replays took."""
    from comma_env.leaderboard.site import write_site  # Jinja2 (the web extra)

    submissions = [load_submission(f, limits) for f in folders]
    started = time.perf_counter()
    board = build_board(build_entries(submissions, workers=workers, data_roots=data_roots))
    seconds = time.perf_counter() - started
    write_site(board, out)
    return board, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.leaderboard", description=__doc__.split("\n\n")[0])
    parser.add_argument("submissions", nargs="+", help="submitted run folders")
    parser.add_argument("--out", required=True, help="the site's folder (its pages are rewritten by each build)")
    parser.add_argument("--workers", type=int, default=None, help="replay processes (default: the CPU count)")
    parser.add_argument("--padufes-root", default=None,
                        help="PAD-UFES-20 folder for Telehealth episodes recorded with real photos")
    args = parser.parse_args(argv)
    missing = [f for f in args.submissions if not Path(f).is_dir()]
    if missing:
        print(f"comma_env.leaderboard: not a folder: {', '.join(missing)}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    roots = {"padufes_root": args.padufes_root} if args.padufes_root else None
    try:
        board, seconds = build(args.submissions, args.out, workers=args.workers, data_roots=roots)
    except ImportError as error:
        from comma_env.protocol.resources import install_hint

        print(f"comma_env.leaderboard: {error}; install the web extra: {install_hint('web')}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    except ValueError as error:  # an unsafe site folder
        print(f"comma_env.leaderboard: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    except OSError as error:
        print(f"comma_env.leaderboard: cannot write the site: {error}", file=sys.stderr)
        return EXIT_RUN_ERROR
    for entry in board.entries:
        standing = f"rank {entry.rank}" if entry.rank else entry.status
        verdict = f"verified ({standing})" if entry.verified else "NOT verified"
        print(f"{entry.name}: {verdict}, "
              f"{len(entry.records)} episodes, {entry.mismatches} differ, "
              f"{len(entry.submission.problems)} unusable line(s) or file(s)")
    episodes = sum(len(entry.records) for entry in board.entries)
    print(f"{episodes} episodes replayed in {seconds:.1f} s; site: {Path(args.out) / 'index.html'}")
    return EXIT_OK
