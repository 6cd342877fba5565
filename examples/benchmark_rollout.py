"""Does the rollout stay linear as the run grows? (issue 10, point 1)

    python examples/benchmark_rollout.py                       # episodes=1000 vs 5000, ten puzzles, bar on
    python examples/benchmark_rollout.py --small 100 --large 500 --rounds 3

Runs the real command (``python -m comma_env.rollout``, random baseline, progress bar on,
into a fresh folder) at both sizes, interleaved round by round so that drift in this
machine's speed hits both alike, and prints the medians and their ratio. Linear means the
ratio stays near large/small (goal: 5x the episodes in at most 6x the time). A resume of
the finished large run (every episode already done) is timed too: reading back what a
folder holds must stay cheap.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed_run(episodes: int, out_dir: Path, puzzles: str | None) -> tuple[float, float]:
    """Wall and CPU seconds of one rollout command (progress bar on, drawn into a pipe we
    discard). CPU time is what the ratio is judged on: other jobs on a shared machine
    stretch wall time, not the CPU the run itself needs."""
    args = [sys.executable, "-m", "comma_env.rollout", f"episodes={episodes}", f"out_dir={out_dir}",
            "progress_bar=true"]
    if puzzles:
        args.append(f"puzzles=[{puzzles}]")
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"rollout failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=1000, help="episodes per puzzle of the small run")
    parser.add_argument("--large", type=int, default=5000, help="episodes per puzzle of the large run")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (median reported)")
    parser.add_argument("--puzzles", default=None, help="comma-separated subset (default: all ten)")
    args = parser.parse_args()
    small, large, resume = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench_rollout_") as tmp:
        for index in range(args.rounds):
            small.append(timed_run(args.small, Path(tmp) / f"s{index}", args.puzzles))
            large.append(timed_run(args.large, Path(tmp) / f"l{index}", args.puzzles))
            resume.append(timed_run(args.large, Path(tmp) / f"l{index}", args.puzzles))
            print(f"round {index + 1}: " + ", ".join(f"{name} {w:.1f} s wall / {c:.1f} s CPU" for name, (w, c) in
                  ((args.small, small[-1]), (args.large, large[-1]), (f"resume of {args.large}", resume[-1]))),
                  flush=True)
    puzzles = len(args.puzzles.split(",")) if args.puzzles else 10
    med = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
           for name, runs in (("small", small), ("large", large), ("resume", resume))}
    for name, size in (("small", args.small), ("large", args.large)):
        wall, cpu = med[name]
        print(f"episodes={size} ({size * puzzles:,} episodes): {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"({size * puzzles / cpu:,.0f} episodes per CPU second)")
    goal = 1.2 * args.large / args.small
    print(f"ratio for {args.large / args.small:.0f}x the episodes: CPU {med['large'][1] / med['small'][1]:.2f}x, "
          f"wall {med['large'][0] / med['small'][0]:.2f}x (goal <= {goal:.0f}x); "
          f"resuming the finished large run: {med['resume'][0]:.1f} s wall / {med['resume'][1]:.1f} s CPU")

if __name__ == "__main__":
    main()
