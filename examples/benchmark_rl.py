"""Cost of the single-role wrapper: episodes/s of SingleRoleEnv and GroupedEpisodes against
the bare AEC environment playing the same messages, interleaved in one run.

    python examples/benchmark_rl.py [--episodes 2000] [--rounds 3]

Every loop plays Wire in the text view with the same three messages per episode
(solver "hello", expert reply, solver cuts wire 1); the wrappers call a scripted partner
(the silent expert of the random policy) through their async partner machinery.
"""

from __future__ import annotations

import argparse
import time

import comma_env
from comma_env.rl import GroupedEpisodes, SingleRoleEnv


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for round_ in range(args.rounds):
        aec, one, many = bare_aec(args.episodes), single_role(args.episodes), grouped(args.episodes)
        print(f"round {round_}: bare AEC {aec:,.0f} episodes/s | SingleRoleEnv {one:,.0f} ({one / aec:.2f}x) | "
              f"GroupedEpisodes B=16 G=8 {many:,.0f} ({many / aec:.2f}x)")


if __name__ == "__main__":
    main()
