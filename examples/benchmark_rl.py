"""Cost of the single-role wrapper: episodes/s of SingleRoleEnv and GroupedEpisodes against
the bare AEC environment playing the same messages, interleaved in one run.

    python examples/benchmark_rl.py [--episodes 2000] [--rounds 3]
    python examples/benchmark_rl.py --vector [--steps 3200] [--rounds 3] [--puzzle wire]

`--vector` measures vector envs instead: env steps/s of the image view with Gymnasium's
`AsyncVectorEnv` (one worker process per environment: 1 and 2), its `SyncVectorEnv`, and
`CommaVectorEnv` (the ids' vector entry point: 32 environments in 1 and in 2 worker
processes, and in-process; and two of 16, one worker each, stepped in turn with
`step_async`/`step_wait`, their workers on two CPUs and on one), interleaved round by
round, with the ratios 2 workers / 1 worker, and that ratio for CommaVectorEnv at other
numbers of environments (`SCALING_ENVS`); `--out` writes the tables
(docs/_generated/vector_envs.md).

Every loop plays Wire in the text view with the same three messages per episode
(solver "hello", expert reply, solver cuts wire 1); the wrappers call a scripted partner
(the silent expert of the random policy) through their async partner machinery.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

import gymnasium
from doc_tables import provenance

import comma_env
from comma_env.rl import GroupedEpisodes, SingleRoleEnv, gym_id
from comma_env.rl.vector_env import CommaVectorEnv


def bare_aec(episodes: int) -> float:
    env = comma_env.make("wire", solver_view="text")
    started = time.perf_counter()
    for seed in range(episodes):
        env.reset(seed=seed)
        env.last()
        env.step("hello")
        env.last()
        env.step("")
        env.last()
        env.step("cut_wire_1")
    return episodes / (time.perf_counter() - started)


def single_role(episodes: int) -> float:
    env = SingleRoleEnv("wire", partner="random", solver_view="text")
    started = time.perf_counter()
    for seed in range(episodes):
        env.reset(seed=seed)
        env.step("hello")
        env.step("cut_wire_1")
    return episodes / (time.perf_counter() - started)


def grouped(episodes: int, batch: int = 16) -> float:
    envs = GroupedEpisodes("wire", seeds=range(episodes // 8), group_size=8, batch_size=batch, partner="random",
                           solver_view="text")
    started = time.perf_counter()
    observations, infos = envs.reset()
    turn = {slot: 0 for slot in range(batch)}
    while not envs.finished:
        actions = []
        for info in infos:
            actions.append("hello" if info["reset"] or turn[info["slot"]] == 0 else "cut_wire_1")
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        for info in infos:
            turn[info["slot"]] = 0 if info["reset"] else turn[info["slot"]] + 1
    return len(envs.episodes) / (time.perf_counter() - started)


def _learner_actions(infos: dict[str, Any], turn: list[int]) -> list[str]:
    """The benchmark's learners: "hello" on an episode's first turn, then the first valid action."""
    actions = []
    for i in range(len(turn)):
        valid = infos["valid_actions"][i] if "valid_actions" in infos else None
        actions.append("hello" if turn[i] == 0 or not valid else str(valid[0]))
    return actions


def _advance_turns(turn: list[int], done: list[bool], terminated: Any, truncated: Any) -> None:
    """Each learner's turn after a step: next-step autoreset makes the step after an episode's
    end the first of the next one."""
    for i in range(len(turn)):
        turn[i] = 0 if done[i] else turn[i] + 1
        done[i] = bool(terminated[i] or truncated[i])


def vector_steps(puzzle: str, num_envs: int, mode: str, steps: int, view: str = "image", **kwargs: Any) -> float:
    """Env steps/s of a vector env of `num_envs` whose learners say "hello", then the first
    valid action (next-step autoreset starts the next episode); `kwargs` go to make_vec
    (``workers=`` for the vector entry point)."""
    envs = gymnasium.make_vec(gym_id(puzzle, "solver"), num_envs=num_envs, vectorization_mode=mode,
                              partner="random", solver_view=view, **kwargs)
    try:
        observations, infos = envs.reset(seed=0)  # env i gets seed i
        turn = [0] * num_envs
        done = [False] * num_envs
        batches = max(1, steps // num_envs)
        started = time.perf_counter()
        for _ in range(batches):
            observations, rewards, terminated, truncated, infos = envs.step(_learner_actions(infos, turn))
            _advance_turns(turn, done, terminated, truncated)
        return batches * num_envs / (time.perf_counter() - started)
    finally:
        envs.close()


def _one_worker(puzzle: str, num_envs: int, view: str, cpu: int | None) -> CommaVectorEnv:
    """A vector env of `num_envs` with one worker, pinned to `cpu` (None: the default CPU)."""
    envs = gymnasium.make_vec(gym_id(puzzle, "solver"), num_envs=num_envs, vectorization_mode="vector_entry_point",
                              workers=1, pin_workers=True if cpu is None else [cpu], partner="random",
                              solver_view=view)
    assert isinstance(envs, CommaVectorEnv)  # the ids' entry point, not wrapped
    return envs


def double_buffered_steps(puzzle: str, num_envs: int, steps: int, view: str = "image", one_cpu: bool = False) -> float:
    """Env steps/s of two CommaVectorEnvs of `num_envs` each, one worker each, pinned to
    different CPUs (`one_cpu`: both to the last one), stepped in turn: each one's step is sent
    (`step_async`) before the other's answers are read (`step_wait`), so this process reads
    one's answers and chooses its actions while the other's worker steps. The learners are
    `vector_steps`'s."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    cpus = cpus[-1:] if one_cpu else cpus
    pair = [_one_worker(puzzle, num_envs, view, cpus[index % len(cpus)] if cpus else None) for index in range(2)]
    try:
        state = []
        for seed, envs in zip((0, num_envs), pair, strict=True):
            _, infos = envs.reset(seed=seed)
            state.append(([0] * num_envs, [False] * num_envs))
            envs.step_async(_learner_actions(infos, state[-1][0]))
        batches = max(1, steps // (2 * num_envs))
        started = time.perf_counter()
        for batch in range(batches):
            for envs, (turn, done) in zip(pair, state, strict=True):
                _, _, terminated, truncated, infos = envs.step_wait()
                _advance_turns(turn, done, terminated, truncated)
                if batch < batches - 1:
                    envs.step_async(_learner_actions(infos, turn))
        return batches * 2 * num_envs / (time.perf_counter() - started)
    finally:
        for envs in pair:
            envs.close()


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_ceiling(n: int = 3_000_000) -> float:
    """What 2 processes get over 1 on pure Python arithmetic right now: the most 2 workers
    can give over 1 at this moment (other load shares the cores). The pool is started
    before the clock, and each side runs the same work twice."""
    import multiprocessing

    with multiprocessing.Pool(2) as pool:
        pool.map(_spin, [1000, 1000])
        started = time.perf_counter()
        _spin(n)
        _spin(n)
        one = time.perf_counter() - started
        started = time.perf_counter()
        pool.map(_spin, [n, n, n, n], chunksize=1)
        two = time.perf_counter() - started
    return (2 * one) / two


VECTOR_SETUPS: dict[str, tuple[int, str, dict[str, Any]]] = {
    "async, 1 env (1 worker)": (1, "async", {}),
    "async, 2 envs (2 workers)": (2, "async", {}),
    "sync, 2 envs": (2, "sync", {}),
    "CommaVectorEnv, 32 envs, 1 worker": (32, "vector_entry_point", {"workers": 1}),
    "CommaVectorEnv, 32 envs, 2 workers": (32, "vector_entry_point", {"workers": 2}),
    "CommaVectorEnv, 32 envs, in-process": (32, "vector_entry_point", {"workers": 0}),
}
DOUBLE_BUFFERED = "2 CommaVectorEnvs of 16 envs, 1 worker each, stepped in turn"
DOUBLE_BUFFERED_ONE_CPU = "the same, both workers on one CPU"
"""The setups of `double_buffered_steps` (measured after `VECTOR_SETUPS` in every round).
The second is the first's loop with one CPU for the workers: what the loop gains by the main
process working while the workers step, without a second CPU for them."""
RATIOS = (("async, 2 envs (2 workers)", "async, 1 env (1 worker)"),
          ("CommaVectorEnv, 32 envs, 2 workers", "CommaVectorEnv, 32 envs, 1 worker"),
          (DOUBLE_BUFFERED, "CommaVectorEnv, 32 envs, 1 worker"),
          (DOUBLE_BUFFERED, DOUBLE_BUFFERED_ONE_CPU))
RATIO_NAMES = ("async", "CommaVectorEnv", "2 CommaVectorEnvs stepped in turn, against CommaVectorEnv's 1 worker",
               "2 CommaVectorEnvs stepped in turn, workers on 2 CPUs against both on one")
SCALING_ENVS = (8, 16, 32, 64)
"""Environment counts at which CommaVectorEnv's 2 workers are set against 1 (32 is the
setups' own). Why: each batch costs a fixed amount besides its steps (a pipe round trip per
worker, loading and merging the answers), which more environments per batch share."""
MIN_BATCHES = 100
"""Batches in each measurement at least (more env steps than `--steps` for large counts)."""


def scaling_rates(puzzle: str, steps: int, now: dict[str, float]) -> dict[int, tuple[float, float]]:
    """(1 worker, 2 workers) env steps/s of CommaVectorEnv at each of `SCALING_ENVS`; the
    count of `VECTOR_SETUPS` is taken from this round's `now`."""
    two_workers, one_worker = RATIOS[1]
    measured = VECTOR_SETUPS[one_worker][0]
    rates = {}
    for count in SCALING_ENVS:
        if count == measured:
            rates[count] = (now[one_worker], now[two_workers])
            continue
        one, two = (vector_steps(puzzle, count, "vector_entry_point", max(steps, MIN_BATCHES * count), workers=workers)
                    for workers in (1, 2))
        rates[count] = (one, two)
    return rates


def vector_main(args: argparse.Namespace) -> None:
    """Every setup once per round, in turn (the machine's speed drifts); medians over rounds."""
    rates: dict[str, list[float]] = {name: [] for name in (*VECTOR_SETUPS, DOUBLE_BUFFERED, DOUBLE_BUFFERED_ONE_CPU)}
    ratios: dict[tuple[str, str], list[float]] = {pair: [] for pair in RATIOS}
    ceilings: list[float] = []
    scaling: dict[int, list[tuple[float, float]]] = {count: [] for count in SCALING_ENVS}
    for round_ in range(args.rounds):
        ceilings.append(parallel_ceiling())
        now = {name: vector_steps(args.puzzle, n, mode, args.steps, **kwargs)
               for name, (n, mode, kwargs) in VECTOR_SETUPS.items()}
        half = VECTOR_SETUPS[RATIOS[1][1]][0] // 2
        now[DOUBLE_BUFFERED] = double_buffered_steps(args.puzzle, half, args.steps)
        now[DOUBLE_BUFFERED_ONE_CPU] = double_buffered_steps(args.puzzle, half, args.steps, one_cpu=True)
        for name, rate in now.items():
            rates[name].append(rate)
        for pair in RATIOS:
            ratios[pair].append(now[pair[0]] / now[pair[1]])
        for count, pair_rates in scaling_rates(args.puzzle, args.steps, now).items():
            scaling[count].append(pair_rates)
        print(f"round {round_}: " + " | ".join(f"{name} {rate:,.0f}" for name, rate in now.items())
              + " | CommaVectorEnv 2 workers / 1 by envs "
              + ", ".join(f"{count}: {scaling[count][-1][1] / scaling[count][-1][0]:.2f}x" for count in SCALING_ENVS)
              + f" | 2 processes / 1 on pure Python {ceilings[-1]:.2f}x", flush=True)
    lines = [f"Written by `python examples/benchmark_rl.py --vector --rounds {args.rounds} --steps {args.steps} "
             f"--puzzle {args.puzzle}` on {provenance()}. The {args.puzzle} solver's image view, a scripted "
             "partner, learners that say hello and then take the first valid action; every setup once per "
             "round in turn, medians over the rounds.", "",
             "| vector env | env steps/s |", "|---|---|"]
    lines += [f"| {name} | {statistics.median(values):,.0f} |" for name, values in rates.items()]
    lines += ["", "| 2 workers over 1 worker | median | rounds |", "|---|---|---|"]
    for name, values in zip(RATIO_NAMES, ratios.values(), strict=True):
        lines.append(f"| {name} | {statistics.median(values):.2f}x | {', '.join(f'{v:.2f}' for v in values)} |")
    lines.append(f"| the machine's ceiling: 2 processes over 1 on pure Python, measured before each round "
                 f"| {statistics.median(ceilings):.2f}x | {', '.join(f'{v:.2f}' for v in ceilings)} |")
    lines += ["", f"CommaVectorEnv by number of environments (at least {MIN_BATCHES} batches each; "
              f"the {VECTOR_SETUPS[RATIOS[1][1]][0]} row is the setups' own):", "",
              "| environments | 1 worker: env steps/s | 2 workers: env steps/s | 2 workers over 1 worker | rounds |",
              "|---|---|---|---|---|"]
    for count, pairs in scaling.items():
        each = [two / one for one, two in pairs]
        lines.append(f"| {count} | {statistics.median(one for one, _ in pairs):,.0f} "
                     f"| {statistics.median(two for _, two in pairs):,.0f} | {statistics.median(each):.2f}x "
                     f"| {', '.join(f'{v:.2f}' for v in each)} |")
    print("\n".join(lines))
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--vector", action="store_true",
                        help="measure vector envs instead: Gymnasium's async and sync modes, CommaVectorEnv")
    parser.add_argument("--steps", type=int, default=3200, help="env steps per vector measurement")
    parser.add_argument("--puzzle", default="wire")
    parser.add_argument("--out", help="with --vector: also write the table here (docs/_generated/vector_envs.md)")
    args = parser.parse_args()
    if args.vector:
        vector_main(args)
        return
    for round_ in range(args.rounds):
        aec, one, many = bare_aec(args.episodes), single_role(args.episodes), grouped(args.episodes)
        print(f"round {round_}: bare AEC {aec:,.0f} episodes/s | SingleRoleEnv {one:,.0f} ({one / aec:.2f}x) | "
              f"GroupedEpisodes B=16 G=8 {many:,.0f} ({many / aec:.2f}x)")


if __name__ == "__main__":
    main()
