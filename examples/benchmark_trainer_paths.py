"""What each trainer path costs per episode, without any model: Wire, text view, the
scripted partner ``oracle``, a scripted learner (describe, then type the expert's advice).
Rounds interleave the paths; each figure is microseconds per episode.

    python examples/benchmark_trainer_paths.py [--rounds 2] [--episodes 400] [--markdown]
    python examples/benchmark_trainer_paths.py --profile "make_vec sync (2)"   # cProfile of one path

Paths: `SingleRoleEnv`; `GroupedEpisodes` lock-step `step` and per-slot `run`; Gymnasium's
`make_vec` sync and async (2 worker processes); TRL's `CommaToolEnv` (reset, send_message,
scoring). verifiers 0.4 plays each rollout through an agent harness in a subprocess, so its
environment has no in-process step to time here. Model calls are not included: with a real
model they dominate.
``--markdown`` writes ``docs/_generated/trainer_paths.md``. With an LLM partner, the partner
calls dominate instead; how TRL's tool phase waits for them is measured by
``examples/benchmark_trl_tools.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

import gymnasium

import comma_env  # noqa: F401  (registers the ids)
from comma_env.rl import GroupedEpisodes, SingleRoleEnv

ADVICE = "Type these actions:"
N = 400


def learner(observation: object, info: dict) -> str:
    """Describe first; once the expert has given its advice, type it."""
    partner = info.get("partner_message") or ""
    if ADVICE in partner:
        lines = (line.strip("> ").strip() for line in partner.split(ADVICE, 1)[1].splitlines())
        return "\n".join(line for line in lines if line)
    return "I see:\n" + (info.get("description") or "")


def single() -> float:
    env = SingleRoleEnv("wire", partner="oracle", solver_view="text")
    started = time.perf_counter()
    for seed in range(N):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(learner(observation, info))
            done = terminated or truncated
    return (time.perf_counter() - started) / N


def _groups() -> GroupedEpisodes:
    return GroupedEpisodes("wire", seeds=range(N // 8), group_size=8, batch_size=16, partner="oracle",
                           solver_view="text")


def grouped_lock() -> float:
    batch = _groups()
    started = time.perf_counter()
    observations, infos = batch.reset()
    while not batch.finished:
        actions = [learner(o, i) if i["active"] else "" for o, i in zip(observations, infos, strict=True)]
        observations, _, _, _, infos = batch.step(actions)
    return (time.perf_counter() - started) / len(batch.episodes)


def grouped_run() -> float:
    batch = _groups()
    started = time.perf_counter()
    batch.run(learner)
    return (time.perf_counter() - started) / len(batch.episodes)


def vector(mode: str, n: int = 2) -> float:
    envs = gymnasium.make_vec("comma/Wire-solver-v0", num_envs=n, vectorization_mode=mode, partner="oracle",
                              solver_view="text")
    _, infos = envs.reset(seed=0)  # env i gets seed i
    episodes = 0
    started = time.perf_counter()
    keys = ("partner_message", "description")
    while episodes < N:
        actions = [learner(None, {k: infos[k][j] for k in keys if k in infos and infos["_" + k][j]}) for j in range(n)]
        _, _, terminated, truncated, infos = envs.step(actions)
        episodes += int((terminated | truncated).sum())
    elapsed = time.perf_counter() - started
    envs.close()
    return elapsed / episodes


def trl_env() -> float:
    from comma_env.rl.trl_env import CommaToolEnv

    env = CommaToolEnv("wire", partner="oracle", solver_view="text")
    started = time.perf_counter()
    for seed in range(N):
        env.reset(seed=seed)
        message = learner(None, env.info)
        while not env.done:
            env.send_message(message)
            message = learner(None, env.info)
        env.get_reward()
    return (time.perf_counter() - started) / N


PATHS = {
    "SingleRoleEnv": single,
    "GroupedEpisodes.step (B=16)": grouped_lock,
    "GroupedEpisodes.run (B=16)": grouped_run,
    "make_vec sync (2)": lambda: vector("sync"),
    "make_vec async (2 workers)": lambda: vector("async"),
    "TRL CommaToolEnv": trl_env,
}


def main() -> None:
    global N
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--profile", choices=sorted(PATHS), help="profile one path (after one warm-up run)")
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/trainer_paths.md")
    args = parser.parse_args()
    N = args.episodes
    if args.profile:
        PATHS[args.profile]()
        profile = cProfile.Profile()
        profile.enable()
        PATHS[args.profile]()
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())
        return
    rounds: list[dict[str, float]] = []
    for round_ in range(args.rounds):
        costs = {name: 1e6 * path() for name, path in PATHS.items()}
        base = costs["SingleRoleEnv"]
        print(f"round {round_}: " + " | ".join(f"{name} {us:,.0f} us ({us / base:.2f}x)" for name, us in costs.items()),
              flush=True)
        rounds.append(costs)
    if args.markdown:
        write_markdown(rounds, args.episodes)


def write_markdown(rounds: list[dict[str, float]], episodes: int) -> None:
    """``docs/_generated/trainer_paths.md``: per path, the median cost per episode and its
    median ratio to `SingleRoleEnv` (ratios are taken within a round: the machine drifts)."""
    import statistics
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from doc_tables import write_table

    lines = ["| path | µs per episode (median) | × SingleRoleEnv (median of rounds) |", "|---|---:|---:|"]
    for name in PATHS:
        cost = statistics.median(r[name] for r in rounds)
        ratio = statistics.median(r[name] / r["SingleRoleEnv"] for r in rounds)
        lines.append(f"| {name} | {cost:,.0f} | {ratio:.2f}x |")
    note = (f"Wire, text view, scripted partner `oracle`, scripted learner, no model; {episodes} episodes per path, "
            f"{len(rounds)} interleaved rounds.")
    print(write_table("trainer_paths", "\n".join(lines), note=note))


if __name__ == "__main__":
    main()
