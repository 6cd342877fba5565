"""Two learners trained together from scratch, beside the solver that learns with a fixed partner.

    pip install ".[plots]" && python examples/train_two_learners.py [--episodes 2000] [--every 250] [--spread 8]

For Wire and Who, two curves of held-out success (greedy, 200 seeds 10000-10199, never
trained on), evaluated every `--every` training episodes:

- *two learners*: `examples/two_learners.py` (a learning expert that says one nonsense
  symbol per turn, a learning solver; shared reward, `mistake_penalty=1`);
- *fixed partner*: the same solver policy trained against the scripted natural-language
  expert (`SingleRoleEnv(partner="oracle_nl")`, as in `examples/train_linear_solver.py`).

The first point of each curve is the untrained pair (uniform choices, evaluated on a copy, so
the curve's run is the run `--spread` reports for the same seed). `--spread N` also trains N
pairs from seeds `--seed`.. and reports the final success of every one (runs vary with the
seed). Writes the figure
(docs/images/two_learners.png), the table, the protocol the pair settled on and a few of its
held-out conversations (docs/_generated/two_learners.md) and the numbers (JSON beside the PNG).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from comma_env.rl import SingleRoleEnv

from linear_policy import LinearSolverPolicy, evaluate, train
from two_learners import (
    MISTAKE_WARMUP,
    evaluate_pair,
    make_pair,
    make_pair_env,
    play_pair,
    protocol,
    train_pair,
)

HELD_OUT = range(10_000, 10_200)
PUZZLES = ("wire", "who")


def pair_curve(puzzle: str, episodes: int, every: int, seed: int) -> tuple[dict[str, Any], Any, Any, Any]:
    env = make_pair_env(puzzle)
    # the untrained pair plays on a copy: sampling draws from the policies' generators, and the
    # pair that trains should draw as it does in `spread` (greedy evaluations draw nothing)
    points = [(0, evaluate_pair(env, *make_pair(puzzle, seed=seed), HELD_OUT, greedy=False))]
    solver, expert = make_pair(puzzle, seed=seed)
    seconds = 0.0  # training only, not the evaluations
    for start in range(0, episodes, every):
        started = time.perf_counter()
        train_pair(env, solver, expert, range(start, min(start + every, episodes)))
        seconds += time.perf_counter() - started
        points.append((min(start + every, episodes), evaluate_pair(env, solver, expert, HELD_OUT)))
        print(f"{puzzle} two learners: {points[-1][0]:5d} episodes, held-out success {points[-1][1]:.3f}", flush=True)
    return {"puzzle": puzzle, "setting": "two learners", "points": points,
            "seconds": round(seconds, 1)}, env, solver, expert


def fixed_partner_curve(puzzle: str, episodes: int, every: int, seed: int) -> dict[str, Any]:
    env = SingleRoleEnv(puzzle, role="solver", partner="oracle_nl", solver_view="text", mistake_penalty=1.0)
    policy = LinearSolverPolicy(learning_rate=0.3, entropy_bonus=0.02, seed=seed)
    points = [(0, evaluate(env, policy, HELD_OUT, greedy=False))]
    seconds = 0.0  # training only, not the evaluations
    for start in range(0, episodes, every):
        started = time.perf_counter()
        train(env, policy, range(start, min(start + every, episodes)))
        seconds += time.perf_counter() - started
        points.append((min(start + every, episodes), evaluate(env, policy, HELD_OUT)))
        print(f"{puzzle} fixed partner: {points[-1][0]:5d} episodes, held-out success {points[-1][1]:.3f}", flush=True)
    env.close()
    return {"puzzle": puzzle, "setting": "fixed partner (oracle_nl expert)", "points": points,
            "seconds": round(seconds, 1)}


def spread(puzzle: str, episodes: int, seeds: range) -> tuple[list[float], list[float]]:
    """Final held-out success of pairs trained from each seed (how much a run varies), and
    each one's training time in seconds (held-out evaluation not included)."""
    finals, seconds = [], []
    for seed in seeds:
        env = make_pair_env(puzzle)
        solver, expert = make_pair(puzzle, seed=seed)
        started = time.perf_counter()
        train_pair(env, solver, expert, range(episodes))
        seconds.append(time.perf_counter() - started)
        finals.append(evaluate_pair(env, solver, expert, HELD_OUT))
        print(f"{puzzle} two learners, seed {seed}: {finals[-1]:.3f} ({seconds[-1]:.1f} s)", flush=True)
    return finals, seconds


def conversation_text(env: Any, solver: Any, expert: Any, seed: int) -> str:
    episode = play_pair(env, solver, expert, seed, greedy=True)
    lines = [f"seed {seed}: {'solved' if episode.success else 'failed'}, return {episode.total:+.1f}"]
    for agent, message in episode.conversation:
        first, *rest = message.splitlines() or [""]
        shown = f"{first} {' | '.join(rest[:6])}{' | ...' if len(rest) > 6 else ''}" if rest else first
        lines.append(f"  {agent:>6}: {shown}")
    return "\n".join(lines)


def protocol_rows(said: dict[str, Counter]) -> list[str]:
    rows = []
    for meaning in sorted(said):
        uses = ", ".join(f"`{pair}` ({count})" for pair, count in said[meaning].most_common(3))
        rows.append(f"| `{meaning}` | {uses} |")
    return rows


def write_markdown(path: Path, curves: list[dict[str, Any]], pairs: dict[str, tuple[Any, Any, Any]],
                   spreads: dict[str, tuple[list[float], list[float]]], args: Any) -> None:
    import comma_env

    machine = (f"{platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}, "
               f"comma_env {comma_env.__version__}")
    lines = [f"Written by `python examples/train_two_learners.py --episodes {args.episodes} --every {args.every} "
             f"--seed {args.seed} --spread {args.spread}` on {machine}.", "",
             "| puzzle | setting | untrained | " + " | ".join(f"{x} ep." for x, _ in curves[0]["points"][1:])
             + " | training time |",
             "|---|---|---|" + "---|" * (len(curves[0]["points"]) - 1) + "---|"]
    for curve in curves:
        values = " | ".join(f"{100 * y:.1f}%" for _, y in curve["points"])
        lines.append(f"| {curve['puzzle']} | {curve['setting']} | {values} | {curve['seconds']:.0f} s |")
    lines += ["", "Success on 200 held-out seeds, greedy; untrained: uniform choices; training time: the "
              "training episodes alone, without the evaluations.", ""]
    solver, expert = make_pair(PUZZLES[0])
    lines += [f"The pair's settings (`make_pair`, `train_pair` defaults): learning rate {solver.learning_rate}, "
              f"entropy bonus {solver.entropy_bonus}, two-stage solver: {solver.two_stage}, discount per later "
              f"message {solver.discount} (solver) and {expert.discount} (expert), mistake penalty phased in over "
              f"the first {MISTAKE_WARMUP} training episodes.", ""]
    if spreads:
        lines += [f"Two learners, final held-out success of {args.spread} pairs trained from seeds "
                  f"{args.seed}..{args.seed + args.spread - 1} ({args.episodes} episodes each; seed {args.seed} is "
                  "the run of the curves above); the time is the training alone, per pair:", "",
                  "| puzzle | per seed | median | lowest | training time per pair |", "|---|---|---|---|---|"]
        for puzzle, (finals, seconds) in spreads.items():
            lines.append(f"| {puzzle} | {', '.join(f'{100 * f:.0f}%' for f in finals)} | "
                         f"{100 * float(np.median(finals)):.0f}% | {100 * min(finals):.0f}% | "
                         f"{min(seconds):.0f}-{max(seconds):.0f} s |")
        lines.append("")
    for puzzle, (env, solver, expert) in pairs.items():
        said = protocol(env, solver, expert, range(10_000, 10_100))
        lines += [f"**{puzzle.title()}: the code the pair settled on** (100 held-out episodes; the expert's meaning, "
                  "then `symbol -> the solver's next message`, with counts):", "",
                  "| the manual advises | the expert says -> the solver does |", "|---|---|",
                  *protocol_rows(said), "",
                  f"**{puzzle.title()}: three held-out conversations** (the solver's description on one line):", "",
                  "```text", *(conversation_text(env, solver, expert, seed) for seed in (10_000, 10_001, 10_002)),
                  "```", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))


def plot(curves: list[dict[str, Any]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6.4, 4))
    colors = {"wire": "tab:blue", "who": "tab:orange"}
    for curve in curves:
        xs, ys = zip(*curve["points"], strict=True)
        pair = curve["setting"] == "two learners"
        axis.plot(xs, [100 * y for y in ys], marker="o" if pair else "s", linestyle="-" if pair else "--",
                  color=colors[curve["puzzle"]], label=f"{curve['puzzle']}: {curve['setting']}")
    axis.axhline(80, color="grey", linewidth=0.8, linestyle=":")
    axis.set_xlabel("training episodes")
    axis.set_ylabel("success on 200 held-out seeds (%)")
    axis.set_ylim(0, 102)
    axis.set_title("Expert and solver learning together vs. solver with a scripted expert")
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/images/two_learners.png")
    parser.add_argument("--table", default="docs/_generated/two_learners.md")
    parser.add_argument("--spread", type=int, default=8,
                        help="also train this many pairs from seeds --seed.. (0: skip)")
    args = parser.parse_args()
    curves, pairs = [], {}
    for puzzle in PUZZLES:
        curve, env, solver, expert = pair_curve(puzzle, args.episodes, args.every, args.seed)
        curves += [curve, fixed_partner_curve(puzzle, args.episodes, args.every, args.seed)]
        pairs[puzzle] = (env, solver, expert)
    out = Path(args.out)
    plot(curves, out)
    out.with_suffix(".json").write_text(json.dumps(curves, indent=1))
    spreads = {puzzle: spread(puzzle, args.episodes, range(args.seed, args.seed + args.spread))
               for puzzle in PUZZLES} if args.spread else {}
    write_markdown(Path(args.table), curves, pairs, spreads, args)
    print(Path(args.table).read_text())
    print(f"wrote {out}, {out.with_suffix('.json')} and {args.table}")


if __name__ == "__main__":
    main()
