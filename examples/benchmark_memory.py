"""Memory per live image-view episode: MiB of resident memory per environment when
`--episodes` (default 1,000) image-view episodes are alive at once, each reset to its own
seed, a few random turns in, with its current observation drawn, and that memory over the
size of the episode's picture (the one thing an image-view episode must hold).

Each puzzle is measured in a fresh subprocess (a clean heap): the resident set size (RSS)
after making the episodes, minus the RSS before, divided by the number of episodes. What a
process keeps for every episode (glyphs, drawn panels, lesion photos) is part of that
difference, amortised over the episodes. Linux only (reads /proc/self/statm). Run:

    python examples/benchmark_memory.py [--episodes 1000] [--puzzles wire telehealth ...] [--markdown]

With ``--markdown`` the table is written to ``docs/_generated/memory.md`` (included by the
performance page) under a line naming the machine and the versions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

MIB = 2**20


def rss_bytes() -> int:
    """Resident set size of this process."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(puzzle: str, episodes: int, turns: int) -> dict[str, str | float]:
    """Run in the child: RSS growth per live episode of `puzzle`."""
    import gc

    import numpy as np

    import comma_env

    warm = comma_env.make(puzzle)  # imports, fonts, backgrounds: not per-episode memory
    warm.reset(seed=10**6)
    warm.unwrapped.image()
    gc.collect()
    before = rss_bytes()
    rng = np.random.default_rng(0)
    live = []
    for seed in range(episodes):
        env = comma_env.make(puzzle)
        env.reset(seed=seed)
        for _ in range(turns):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                break
            actions = info["valid_actions"]
            env.step(actions[int(rng.integers(len(actions)))])
            if env.agent_selection == "expert" and not (env.terminations["expert"] or env.truncations["expert"]):
                env.step("go on")
        env.observe("solver")  # the current image is drawn and held
        live.append(env)
    gc.collect()
    after = rss_bytes()
    return {"puzzle": puzzle, "episodes": episodes, "mib_per_episode": (after - before) / MIB / episodes,
            "total_mib": after / MIB, "picture_mib": live[-1].unwrapped.image().nbytes / MIB}


def main() -> None:
    from comma_env.registry import COMMA_PUZZLES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000, help="image-view episodes alive at once")
    parser.add_argument("--turns", type=int, default=2, help="random solver turns played in each before measuring")
    parser.add_argument("--puzzles", nargs="*", default=list(COMMA_PUZZLES))
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/memory.md")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.episodes, args.turns)))
        return
    print(f"{'environment':<15}{'MiB/episode':>12}{'x picture':>10}{'process MiB':>13}   "
          f"({args.episodes} live image-view episodes)")
    lines = ["| environment | MiB per live episode | x its picture | process MiB |", "|---|---|---|---|"]
    for puzzle in args.puzzles:
        out = subprocess.run([sys.executable, __file__, "--child", puzzle, "--episodes", str(args.episodes),
                              "--turns", str(args.turns)], check=True, capture_output=True, text=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        times = row["mib_per_episode"] / row["picture_mib"]
        print(f"{puzzle + '_v0':<15}{row['mib_per_episode']:>12.2f}{times:>10.1f}{row['total_mib']:>13.0f}", flush=True)
        lines.append(f"| {puzzle}_v0 | {row['mib_per_episode']:.2f} | {times:.1f} | {row['total_mib']:,.0f} |")
    print(f"\nPython {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    if args.markdown:
        from doc_tables import write_table  # examples/ is on sys.path when run as a script

        print(write_table("memory", "\n".join(lines),
                          note=f"{args.episodes} image-view episodes alive, {args.turns} random solver turns "
                               f"into each, each puzzle in a fresh process."))

if __name__ == "__main__":
    main()
