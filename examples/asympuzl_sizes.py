"""Completion of the scripted AsymPuzl pairs over puzzle size N and distractors (docs,
AsymPuzl page): the share-all pair against the one-piece-per-message pair.

    python examples/asympuzl_sizes.py --episodes 300 [--markdown]

With ``--markdown`` the tables are written to ``docs/_generated/asympuzl_sizes.md`` under a
line naming the command, the machine and the versions.
"""

from __future__ import annotations

import argparse
import statistics

from comma_env.agents.asympuzl import AsymPuzlPairPolicy
from comma_env.agents.runner import play
from comma_env.asympuzl.env import env as make_env


def measure(strategy: str, episodes: int, **options) -> tuple[float, float | None]:
    """(completion %, mean turns to completion of the solved episodes) over seeds 0..episodes-1."""
    policy = AsymPuzlPairPolicy(strategy)
    turns = []
    for seed in range(episodes):
        env = make_env(**options)
        env.reset(seed=seed)
        result = play(env, {a: policy.player(a, env, seed) for a in ("alice", "bob")})
        if result.summary["success"]:
            turns.append(result.summary["solved_at_turn"])
    return 100.0 * len(turns) / episodes, (statistics.mean(turns) if turns else None)


def row(label: str, cells: list[tuple[float, float | None]]) -> str:
    return "| " + " | ".join([label,
                              *(f"{c:.1f} ({t:.1f})" if t is not None else f"{c:.1f} (-)" for c, t in cells)]) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/asympuzl_sizes.md")
    args = parser.parse_args()
    sizes = (3, 5, 10, 20)
    lines = ["| pair | " + " | ".join(f"N = {n} (T = {3 * n})" for n in sizes) + " |", "|---" * (len(sizes) + 1) + "|"]
    for strategy in ("share_all", "one_piece"):
        lines.append(row(strategy, [measure(strategy, args.episodes, n=n) for n in sizes]))
    lines.append("")
    settings = [(0, "alice")] + [(d, side) for side in ("alice", "bob") for d in (3, 5, 10)]
    header = " | ".join("D = 0" if d == 0 else f"D = {d} ({side})" for d, side in settings)
    lines += [f"| pair, N = 5 | {header} |",
              "|---" * (len(settings) + 1) + "|"]
    for strategy in ("share_all", "one_piece"):
        lines.append(row(strategy, [measure(strategy, args.episodes, n=5, distractors=d, distractor_side=side)
                                    for d, side in settings]))
    print("\n".join(lines))
    if args.markdown:
        from doc_tables import write_table  # examples/ is on sys.path when run as a script

        print(write_table("asympuzl_sizes", "\n".join(lines),
                          "Completion % (mean turns to completion of the solved episodes), "
                          f"seeds 0-{args.episodes - 1}, "
                          "own-detailed feedback."))

if __name__ == "__main__":
    main()
