"""Env steps/s of the image view through each batching path, against one plain environment.

    python examples/benchmark_rl.py [--steps 1600] [--rounds 3] [--puzzle wire] [--markdown]

Paths: one `SingleRoleEnv` stepped in a loop (the reference); `GroupedEpisodes` (8 slots);
Gymnasium's `make_vec` in "sync" mode (8 environments) and in "async" mode (1, 2 and 8
environments, one worker process each). Every path plays the solver's image view against a
scripted partner (the silent expert of the random policy) with learners that say "hello",
then take the first valid action. Rounds interleave the paths (the machine's speed drifts);
ratios to the plain environment are taken within a round. Also measured: the start-up of
"async" mode at 32 environments (`make_vec` and the first `reset`). ``--markdown`` writes
``docs/_generated/vector_envs.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
from doc_tables import write_table

import comma_env  # noqa: F401  (registers the ids)
from comma_env.rl import GroupedEpisodes, SingleRoleEnv, gym_id

PARTNER: dict[str, Any] = {"partner": "random", "solver_view": "image"}


def first_valid(valid: Any) -> str:
    return str(valid[0]) if valid is not None and len(valid) else "hello"


def single(puzzle: str, steps: int) -> float:
    """One environment; the call after an episode's end is the next episode's `reset`, as a
    vector env's next-step autoreset makes it, and counts as a step as it does there."""
    env = SingleRoleEnv(puzzle, **PARTNER)
    try:
        _, info = env.reset(seed=0)
        turn, seed, ended = 0, 0, False
        started = time.perf_counter()
        for _ in range(steps):
            if ended:
                seed += 1
                (_, info), turn, ended = env.reset(seed=seed), 0, False
                continue
            action = "hello" if turn == 0 else first_valid(info.get("valid_actions"))
            _, _, terminated, truncated, info = env.step(action)
            turn, ended = turn + 1, terminated or truncated
        return steps / (time.perf_counter() - started)
    finally:
        env.close()


def grouped(puzzle: str, steps: int, slots: int = 8) -> float:
    """`GroupedEpisodes` stepped in lock-step; every active slot's step counts, autoresets too."""
    batch = GroupedEpisodes(puzzle, seeds=range(steps), batch_size=slots, **PARTNER)
    try:
        _, infos = batch.reset()
        done = 0
        started = time.perf_counter()
        while done < steps:
            actions = ["hello" if info["reset"] else first_valid(info.get("valid_actions")) for info in infos]
            _, _, _, _, infos = batch.step(actions)
            done += sum(bool(info["active"]) for info in infos)
        return done / (time.perf_counter() - started)
    finally:
        batch.close()


def vector(puzzle: str, steps: int, mode: str, num_envs: int) -> float:
    """`make_vec` in `mode`; the step after an episode's end starts the next one (next-step autoreset)."""
    envs = gymnasium.make_vec(gym_id(puzzle, "solver"), num_envs=num_envs, vectorization_mode=mode, **PARTNER)
    try:
        _, infos = envs.reset(seed=0)  # env i gets seed i
        turn = [0] * num_envs
        batches = max(1, steps // num_envs)
        started = time.perf_counter()
        for _ in range(batches):
            actions = ["hello" if turn[i] == 0 or "valid_actions" not in infos or not infos["_valid_actions"][i]
                       else first_valid(infos["valid_actions"][i]) for i in range(num_envs)]
            _, _, terminated, truncated, infos = envs.step(actions)
            turn = [0 if terminated[i] or truncated[i] else turn[i] + 1 for i in range(num_envs)]
        return batches * num_envs / (time.perf_counter() - started)
    finally:
        envs.close()


def async_start(puzzle: str, num_envs: int = 32) -> float:
    """Seconds from `make_vec` in "async" mode to the end of its first `reset`."""
    started = time.perf_counter()
    envs = gymnasium.make_vec(gym_id(puzzle, "solver"), num_envs=num_envs, vectorization_mode="async", **PARTNER)
    envs.reset(seed=0)
    elapsed = time.perf_counter() - started
    envs.close()
    return elapsed


PATHS: dict[str, Callable[[str, int], float]] = {
    "SingleRoleEnv, 1 env": single,
    "GroupedEpisodes, 8 slots": grouped,
    "make_vec sync, 8 envs": lambda puzzle, steps: vector(puzzle, steps, "sync", 8),
    "make_vec async, 1 env": lambda puzzle, steps: vector(puzzle, steps, "async", 1),
    "make_vec async, 2 envs": lambda puzzle, steps: vector(puzzle, steps, "async", 2),
    "make_vec async, 8 envs": lambda puzzle, steps: vector(puzzle, steps, "async", 8),
}
REFERENCE = "SingleRoleEnv, 1 env"


def table(rates: list[dict[str, float]], starts: list[float]) -> str:
    """Markdown: per path, the median env steps/s and the median of its per-round ratio to the
    plain environment; then the start-up line."""
    lines = ["| path | env steps/s (median) | × SingleRoleEnv (median of rounds) |", "|---|---:|---:|"]
    for name in PATHS:
        rate = statistics.median(r[name] for r in rates)
        ratio = statistics.median(r[name] / r[REFERENCE] for r in rates)
        lines.append(f"| {name} | {rate:,.0f} | {ratio:.2f}x |")
    lines += ["", f"Start-up of `make_vec` in \"async\" mode with 32 environments (`make_vec` and the first "
              f"`reset`): {statistics.median(starts):.2f} s (median of {len(starts)} rounds)."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1600, help="env steps per path and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--puzzle", default="wire")
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/vector_envs.md")
    args = parser.parse_args()
    rates: list[dict[str, float]] = []
    starts: list[float] = []
    for round_ in range(args.rounds):
        now = {name: path(args.puzzle, args.steps) for name, path in PATHS.items()}
        starts.append(async_start(args.puzzle))
        rates.append(now)
        print(f"round {round_}: " + " | ".join(f"{name} {rate:,.0f} ({rate / now[REFERENCE]:.2f}x)"
                                               for name, rate in now.items())
              + f" | async start, 32 envs {starts[-1]:.2f} s", flush=True)
    text = table(rates, starts)
    print(text)
    if args.markdown:
        note = (f"{args.puzzle.capitalize()}, the solver's image view, scripted partner, {args.steps} env steps "
                f"per path, {args.rounds} interleaved rounds.")
        print(write_table("vector_envs", text, note=note))


if __name__ == "__main__":
    main()
