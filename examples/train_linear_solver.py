"""Train the small numpy solver policy with REINFORCE through SingleRoleEnv and plot its curve.

    pip install ".[plots]" && python examples/train_linear_solver.py [--episodes 3000] [--out curve.png]

Solver role, text view, natural-language oracle expert (partner="oracle_nl"), reward = progress
increase minus 1 per mistake. Every `--every` training episodes the greedy policy is
evaluated on 200 held-out seeds (10000-10199, never trained on); the paper's random baseline
is drawn for reference. Writes the curve (PNG) and the numbers (JSON) next to it, and the
table of docs/training.md (docs/_generated/linear_solver.md), training time included.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from doc_tables import write_table

from comma_env.rl import SingleRoleEnv

from linear_policy import LinearSolverPolicy, evaluate, train

HELD_OUT = range(10_000, 10_200)
PAPER_RANDOM_SR = {"wire": 0.57, "who": 0.44}


def learning_curve(puzzle: str, episodes: int, every: int, seed: int) -> dict:
    env = SingleRoleEnv(puzzle, role="solver", partner="oracle_nl", solver_view="text", mistake_penalty=1.0)
    policy = LinearSolverPolicy(learning_rate=0.3, entropy_bonus=0.02, seed=seed)
    points = [(0, evaluate(env, policy, HELD_OUT, greedy=False))]  # untrained: uniform choices
    seconds = 0.0  # CPU time of training alone (the machine may be shared; evaluation not counted)
    for start in range(0, episodes, every):
        started = time.process_time()
        train(env, policy, range(start, min(start + every, episodes)))
        seconds += time.process_time() - started
        points.append((min(start + every, episodes), evaluate(env, policy, HELD_OUT)))
        print(f"{puzzle}: {points[-1][0]:5d} episodes, held-out success {points[-1][1]:.3f}", flush=True)
    env.close()
    return {"puzzle": puzzle, "points": points, "seconds": round(seconds, 1)}


def curve_table(curves: list[dict]) -> str:
    """Held-out success (%) after each number of training episodes, and the training time."""
    counts = [n for n, _ in curves[0]["points"]]
    rows = ["| episodes | " + " | ".join(str(n) for n in counts) + " | training CPU time |",
            "|---" * (len(counts) + 2) + "|"]
    for curve in curves:
        cells = " | ".join(f"{100 * rate:.1f}" for _, rate in curve["points"])
        rows.append(f"| {curve['puzzle']} | {cells} | {curve['seconds']:.0f} s |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="outputs/linear_solver_curve.png")
    args = parser.parse_args()
    curves = [learning_curve(p, args.episodes, args.every, args.seed) for p in ("wire", "who")]

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure, axis = plt.subplots(figsize=(6, 4))
    for curve, color in zip(curves, ("tab:blue", "tab:orange"), strict=True):
        xs, ys = zip(*curve["points"], strict=True)
        axis.plot(xs, [100 * y for y in ys], marker="o", color=color, label=f"{curve['puzzle']} (REINFORCE)")
        axis.axhline(100 * PAPER_RANDOM_SR[curve["puzzle"]], color=color, linestyle=":",
                     label=f"{curve['puzzle']} random baseline (paper)")
    axis.set_xlabel("training episodes")
    axis.set_ylabel("success on 200 held-out seeds (%)")
    axis.set_ylim(0, 102)
    axis.set_title("Linear solver policy, natural-language oracle expert")
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(out, dpi=120)
    out.with_suffix(".json").write_text(json.dumps(curves, indent=1))
    table = write_table("linear_solver", curve_table(curves),
                        note="Greedy policy on held-out seeds 10000-10199, success in %.")
    print(f"wrote {out}, {out.with_suffix('.json')} and {table}")


if __name__ == "__main__":
    main()
