"""What the reward options do to a learner: the numpy REINFORCE solver trained under each
recommended setting, measured on held-out seeds.

    python examples/reward_settings.py [--episodes 1000] [--out docs/_generated/reward_settings.md]

Solver role, text view, natural-language oracle expert (`partner="oracle_nl"`), the linear
policy of `examples/linear_policy.py` with the settings of `examples/train_linear_solver.py`.
For each setting and puzzle (Wire, Who): train `--episodes` episodes (seeds 0..), then play
the greedy policy on 200 held-out seeds (10000-10199) and report success, mistakes, solver
turns and tokens per episode (both agents' messages, `comma_env.protocol.text.count_tokens`).
Writes a Markdown table for docs/training.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from comma_env.protocol.text import count_tokens
from comma_env.rl import SingleRoleEnv

from linear_policy import LinearSolverPolicy, train

HELD_OUT = range(10_000, 10_200)
SETTINGS: dict[str, dict[str, float]] = {
    "progress only (default)": {},
    "mistake_penalty=1": {"mistake_penalty": 1.0},
    "mistake_penalty=1, success_bonus=1": {"mistake_penalty": 1.0, "success_bonus": 1.0},
    "mistake_penalty=1, token_cost=1": {"mistake_penalty": 1.0, "token_cost": 1.0},
    "mistake_penalty=1, token_cost=5": {"mistake_penalty": 1.0, "token_cost": 5.0},
}
"""The settings the training docs recommend, by name."""


def held_out(env: SingleRoleEnv, policy: LinearSolverPolicy) -> dict[str, float]:
    """Greedy play on the held-out seeds: success rate and per-episode means."""
    rows = []
    for seed in HELD_OUT:
        _, info = env.reset(seed=seed)
        while True:
            message, _, _ = policy.act(info, greedy=True)
            _, _, terminated, truncated, info = env.step(message)
            if terminated or truncated:
                break
        episode = info["episode"]
        spoken = sum(count_tokens(entry["text"]) for entry in info["dialogue"] if entry["speaker"] != "environment")
        rows.append((episode["success"], episode["mistakes"], episode["turns_played"], spoken, episode["return"]))
    success, mistakes, turns, tokens, returns = (float(np.mean(column)) for column in zip(*rows, strict=True))
    return {"success": success, "mistakes": mistakes, "turns": turns, "tokens": tokens, "return": returns}


def measure(puzzle: str, options: dict[str, float], episodes: int, seed: int) -> dict[str, Any]:
    env = SingleRoleEnv(puzzle, role="solver", partner="oracle_nl", solver_view="text", **options)
    policy = LinearSolverPolicy(learning_rate=0.3, entropy_bonus=0.02, seed=seed)
    started = time.perf_counter()
    train(env, policy, range(episodes))
    seconds = time.perf_counter() - started
    result = held_out(env, policy)
    env.close()
    return dict(result, seconds=seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/_generated/reward_settings.md")
    args = parser.parse_args()
    import comma_env

    machine = (f"{platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}, "
               f"comma_env {comma_env.__version__}")
    lines = [f"Written by `python examples/reward_settings.py --episodes {args.episodes} --seed {args.seed}` "
             f"on {machine}. Linear REINFORCE solver, oracle_nl expert, {args.episodes} training "
             "episodes, greedy play on 200 held-out seeds; per episode means.", "",
             "| reward setting | puzzle | success | mistakes | solver turns | tokens | training time |",
             "|---|---|---|---|---|---|---|"]
    for name, options in SETTINGS.items():
        for puzzle in ("wire", "who"):
            r = measure(puzzle, options, args.episodes, args.seed)
            lines.append(f"| {name} | {puzzle} | {100 * r['success']:.1f}% | {r['mistakes']:.2f} | {r['turns']:.2f} | "
                         f"{r['tokens']:.0f} | {r['seconds']:.0f} s |")
            print(lines[-1], flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
