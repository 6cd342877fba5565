"""Cost of the single-role wrapper: episodes/s of SingleRoleEnv and GroupedEpisodes against
the bare AEC environment playing the same messages, interleaved in one run.

    python examples/benchmark_rl.py [--episodes 2000] [--rounds 3]
    python examples/benchmark_rl.py --vector [--steps 600] [--rounds 3] [--puzzle wire]

`--vector` measures `gymnasium.make_vec(..., vectorization_mode="async")` instead: env
steps/s of the image view with 1 and with 2 worker processes (and of the sync vector env
with 2 environments), interleaved round by round, and the ratio 2 workers / 1 worker.

Every loop plays Wire in the text view with the same three messages per episode
(solver "hello", expert reply, solver cuts wire 1); the wrappers call a scripted partner
(the silent expert of the random policy) through their async partner machinery.
"""

from __future__ import annotations

import argparse
import time

import gymnasium

import comma_env
from comma_env.rl import GroupedEpisodes, SingleRoleEnv, gym_id


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


def vector_steps(puzzle: str, num_envs: int, mode: str, steps: int, view: str = "image") -> float:
    """Env steps/s of a vector env of `num_envs` whose learners say "hello", then the first
    valid action (Gymnasium's next-step autoreset starts the next episode)."""
    envs = gymnasium.make_vec(gym_id(puzzle, "solver"), num_envs=num_envs, vectorization_mode=mode,
                              partner="random", solver_view=view)
    try:
        observations, infos = envs.reset(seed=list(range(num_envs)))
        turn = [0] * num_envs
        done = [False] * num_envs
        started = time.perf_counter()
        for _ in range(steps // num_envs):
            actions = []
            for i in range(num_envs):
                valid = infos["valid_actions"][i] if "valid_actions" in infos else None
                actions.append("hello" if turn[i] == 0 or not valid else str(valid[0]))
            observations, rewards, terminated, truncated, infos = envs.step(actions)
            for i in range(num_envs):
                turn[i] = 0 if done[i] else turn[i] + 1
                done[i] = bool(terminated[i] or truncated[i])
        return (steps // num_envs) * num_envs / (time.perf_counter() - started)
    finally:
        envs.close()


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_ceiling(n: int = 2_000_000) -> float:
    """What 2 processes get over 1 on pure Python arithmetic right now: the most 2 workers
    can give over 1 on this machine at this moment (other load shares the cores)."""
    import multiprocessing

    started = time.perf_counter()
    _spin(n)
    one = n / (time.perf_counter() - started)
    with multiprocessing.Pool(2) as pool:
        started = time.perf_counter()
        pool.map(_spin, [n, n])
        two = 2 * n / (time.perf_counter() - started)
    return two / one


def vector_main(args: argparse.Namespace) -> None:
    for round_ in range(args.rounds):
        ceiling = parallel_ceiling()
        one = vector_steps(args.puzzle, 1, "async", args.steps)
        two = vector_steps(args.puzzle, 2, "async", args.steps)
        sync = vector_steps(args.puzzle, 2, "sync", args.steps)
        print(f"round {round_}: {args.puzzle} image view, async 1 worker {one:,.1f} steps/s | "
              f"async 2 workers {two:,.1f} ({two / one:.2f}x) | sync 2 envs {sync:,.1f} ({sync / one:.2f}x) | "
              f"machine ceiling, 2 processes / 1 on pure Python: {ceiling:.2f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--vector", action="store_true", help="measure make_vec's async workers instead")
    parser.add_argument("--steps", type=int, default=600, help="env steps per vector measurement")
    parser.add_argument("--puzzle", default="wire")
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
