"""The README's fidelity table: our random baseline against the paper's Random row, with the
paper's own standard errors and the gap in combined standard errors.

    python examples/fidelity_table.py [--episodes 1000] [--markdown]

With ``--markdown`` the table is written to ``docs/_generated/fidelity.md`` (included by the
fidelity page) under a line naming the machine, the versions and the date.
"""

from __future__ import annotations

import argparse

import comma_env
from comma_env.agents.random_policy import RandomSolver
from comma_env.run.fidelity import (PAPER_RANDOM, PAPER_RANDOM_OVERALL, PAPER_RANDOM_OVERALL_SE, PAPER_RANDOM_SE,
                                     gap_in_se)
from comma_env.protocol.metrics import mean, standard_error
from comma_env.registry import COMMA_PUZZLES
from comma_env.run.results import PAPER_ORDER, title


def random_scores(puzzle: str, episodes: int) -> tuple[list[float], list[float]]:
    env = comma_env.make(puzzle)
    progress, success = [], []
    for seed in range(episodes):
        env.reset(seed=seed)
        solver = RandomSolver([0, seed])
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last(observe=False)
            env.step(None if terminated or truncated else (solver.choose(info) if agent == "solver" else ""))
        progress.append(env.unwrapped.best_progress)
        success.append(float(env.unwrapped.puzzle.solved))
    return progress, success


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--markdown", action="store_true",
                        help="write the docs table docs/_generated/fidelity.md (and print it)")
    args = parser.parse_args()
    lines = ["| puzzle | ours PSR | paper PSR | gap | ours SR | paper SR | gap |", "|---|---|---|---|---|---|---|"]
    every: tuple[list[float], list[float]] = ([], [])
    for puzzle in [p for p in PAPER_ORDER if p in COMMA_PUZZLES]:
        progress, success = random_scores(puzzle, args.episodes)
        cells = []
        for index, values in enumerate((progress, success)):
            every[index].extend(values)
            ours, ours_se = 100 * mean(values), 100 * standard_error(values)
            paper, paper_se = PAPER_RANDOM[puzzle][index], PAPER_RANDOM_SE[puzzle][index]
            cells += [f"{ours:.1f} ± {ours_se:.1f}", f"{paper:.0f} ± {paper_se:.1f}",
                      f"{gap_in_se(ours, ours_se, paper, paper_se):.1f} SE"]
        lines.append(f"| {title(puzzle)} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    (psr, psr_se), (sr, sr_se) = ((100 * mean(v), 100 * standard_error(v)) for v in every)
    lines.append(f"\nOverall: ours {psr:.1f} ± {psr_se:.1f} PSR and {sr:.1f} ± {sr_se:.1f} SR; the paper's "
                 f"{PAPER_RANDOM_OVERALL[0]:.2f} ± {PAPER_RANDOM_OVERALL_SE[0]:.1f} and "
                 f"{PAPER_RANDOM_OVERALL[1]:.2f} ± {PAPER_RANDOM_OVERALL_SE[1]:.1f}.")
    print(lines[-1])
    if args.markdown:
        from doc_tables import write_table  # examples/ is on sys.path when run as a script

        print("wrote", write_table("fidelity", "\n".join(lines),
                                   note=f"Random solver, seeds 0-{args.episodes - 1} of each puzzle."))

if __name__ == "__main__":
    main()
