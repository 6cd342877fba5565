"""docs/fidelity.md's table: our random baseline against the final paper's Random row, with
the paper's own standard errors and the gap in combined standard errors (writes
docs/_generated/fidelity_random.md).

    python examples/fidelity_table.py [--episodes 1000]
"""

from __future__ import annotations

import argparse

from doc_tables import write_table

import comma_env
from comma_env.agents.random_policy import RandomSolver
from comma_env.protocol.metrics import mean, standard_error
from comma_env.registry import COMMA_PUZZLES
from comma_env.run.fidelity import PAPER_RANDOM, PAPER_RANDOM_SE, gap_in_se
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    args = parser.parse_args()
    lines = ["| puzzle | ours PSR | paper PSR | gap | ours SR | paper SR | gap |", "|---|---|---|---|---|---|---|"]
    for puzzle in [p for p in PAPER_ORDER if p in COMMA_PUZZLES]:
        progress, success = random_scores(puzzle, args.episodes)
        cells = []
        for index, values in enumerate((progress, success)):
            ours, ours_se = 100 * mean(values), 100 * standard_error(values)
            paper, paper_se = PAPER_RANDOM[puzzle][index], PAPER_RANDOM_SE[puzzle][index]
            cells += [f"{ours:.1f} ± {ours_se:.1f}", f"{paper:.0f} ± {paper_se:.1f}",
                      f"{gap_in_se(ours, ours_se, paper, paper_se):.1f} SE"]
        lines.append(f"| {title(puzzle)} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    print(write_table("fidelity_random", "\n".join(lines), f"Random solver, silent expert, default protocol, "
                      f"seeds 0-{args.episodes - 1} per puzzle; paper: Table 1 PSR / Table 3 SR, 100 episodes."))

if __name__ == "__main__":
    main()
