"""What 10 turns allow: the realistic scripted pair (no foresight) on every puzzle.

Prints a Markdown table: PSR / SR at the paper's 10 turns with and without
the expert planning a stage ahead, the turns each puzzle needs with the limit lifted (min,
median, max over the seeds), and the paper's Human + GPT-4o row beside them.

    python examples/realistic_pair.py [--episodes 300]
"""

from __future__ import annotations

import argparse
import statistics

import comma_env
from comma_env.agents.realistic import RealisticPolicy
from comma_env.agents.runner import play
from comma_env.registry import COMMA_PUZZLES
from comma_env.run.fidelity import PAPER_HUMAN_GPT4O
from comma_env.run.results import PAPER_ORDER, title

UNCAPPED_TURNS = 40


def measure(puzzle: str, episodes: int, max_turns: int, plan_ahead: bool) -> tuple[float, float, list[int]]:
    """PSR, SR (percent) and the turns to success of the solved episodes."""
    env = comma_env.make(puzzle, max_turns=max_turns)
    policy = RealisticPolicy(plan_ahead=plan_ahead)
    progress, solved_at = [], []
    for seed in range(episodes):
        env.reset(seed=seed)
        summary = play(env, policy.player("solver", env, seed), policy.player("expert", env, seed)).summary
        progress.append(summary["progress"])
        if summary["success"]:
            solved_at.append(summary["solved_at_turn"])
    return 100 * sum(progress) / episodes, 100 * len(solved_at) / episodes, solved_at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    args = parser.parse_args()
    print(f"Seeds 0-{args.episodes - 1}. PSR / SR at 10 turns; turns needed with the limit lifted.\n")
    print("| puzzle | planning ahead | no planning ahead | turns needed (min / median / max) "
          "| turns needed, no planning | Human + GPT-4o (paper PSR) |")
    print("|---|---|---|---|---|---|")
    for puzzle in [p for p in PAPER_ORDER if p in COMMA_PUZZLES]:
        cells = []
        for plan in (True, False):
            psr, sr, _ = measure(puzzle, args.episodes, 10, plan)
            cells.append(f"{psr:.0f} / {sr:.0f}")
        for plan in (True, False):
            _, _, turns = measure(puzzle, args.episodes, UNCAPPED_TURNS, plan)
            cells.append(f"{min(turns)} / {statistics.median(turns):g} / {max(turns)}")
        print(f"| {title(puzzle)} | " + " | ".join(cells) + f" | {PAPER_HUMAN_GPT4O[puzzle]:.0f} |")


if __name__ == "__main__":
    main()
