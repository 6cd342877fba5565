"""What each trainer path costs per episode, without any model: Wire, text view, the
scripted partner ``oracle``, a scripted learner (describe, then type the expert's advice).
Rounds interleave the paths; each figure is microseconds per episode.

    python examples/benchmark_trainer_paths.py [--rounds 2] [--episodes 400]
    python examples/benchmark_trainer_paths.py --profile "make_vec sync (2)"   # cProfile of one path

Paths: `SingleRoleEnv`; `GroupedEpisodes` lock-step `step` and per-slot `run`; Gymnasium's
`make_vec` sync and async (2 worker processes); TRL's `CommaToolEnv` (reset, send_message,
scoring); the verifiers environment's own work per rollout (`setup_state`, `env_response`,
cleanup; needs verifiers). Model calls are not included: with a real model they dominate.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import time

import gymnasium

import comma_env  # noqa: F401  (registers the ids)
from comma_env.rl import GroupedEpisodes, SingleRoleEnv

ADVICE = "Type these actions:"
def learner(observation, info):
    partner = info.get("partner_message") or ""
    if ADVICE in partner:
        return "\n".join(l.strip("> ").strip() for l in partner.split(ADVICE, 1)[1].splitlines() if l.strip("> ").strip())
    return "I see:\n" + (info.get("description") or "")

N = 400
def single():
    env = SingleRoleEnv("wire", partner="oracle", solver_view="text")
    t = time.perf_counter()
    for s in range(N):
        o, i = env.reset(seed=s); done = False
        while not done:
            o, r, te, tr, i = env.step(learner(o, i)); done = te or tr
    return (time.perf_counter() - t) / N

def grouped_lock():
    b = GroupedEpisodes("wire", seeds=range(N // 8), group_size=8, batch_size=16, partner="oracle", solver_view="text")
    t = time.perf_counter(); o, i = b.reset()
    while not b.finished:
        o, r, te, tr, i = b.step([learner(x, y) if y["active"] else "" for x, y in zip(o, i)])
    return (time.perf_counter() - t) / len(b.episodes)

def grouped_run():
    b = GroupedEpisodes("wire", seeds=range(N // 8), group_size=8, batch_size=16, partner="oracle", solver_view="text")
    t = time.perf_counter(); b.run(learner)
    return (time.perf_counter() - t) / len(b.episodes)

def vector(mode, n=2):
    envs = gymnasium.make_vec("comma/Wire-solver-v0", num_envs=n, vectorization_mode=mode, partner="oracle", solver_view="text")
    o, infos = envs.reset(seed=list(range(n))); episodes = 0
    t = time.perf_counter()
    while episodes < N:
        acts = [learner(None, {k[0:]: infos[k][j] for k in ("partner_message", "description") if k in infos and infos["_" + k][j]}) for j in range(n)]
        o, r, te, tr, infos = envs.step(acts); episodes += int((te | tr).sum())
    el = time.perf_counter() - t; envs.close(); return el / episodes

def trl_env():
    from comma_env.rl.trl_env import CommaToolEnv
    env = CommaToolEnv("wire", partner="oracle", solver_view="text")
    t = time.perf_counter()
    for s in range(N):
        env.reset(seed=s)
        info = env.info; msg = learner(None, info)
        while not env.done:
            env.send_message(msg); msg = learner(None, env.info)
        env._finish()
    return (time.perf_counter() - t) / N

def verifiers_env(n=None):
    n = n or N // 4
    from comma_env.vf import load_environment
    env = load_environment("wire", "solver", "oracle", solver_view="text")
    from comma_env.vf.environment import message_text
    async def one(seed):
        state = {"info": {"seed": seed}}
        state = await env.setup_state(state)
        msgs = list(state["prompt"]); info = state["comma_env"].raw.infos["solver"]
        reply = learner(None, {"description": info.get("description")})
        while True:
            msgs.append({"role": "assistant", "content": reply})
            resp = await env.env_response(msgs, state)
            if state["comma"]["done"]: break
            reply = learner(None, {"partner_message": message_text(resp[-1])})
        await env.close_episode(state)
        return await env.episode_return(state)
    async def main():
        t = time.perf_counter()
        for s in range(n): await one(s)
        return (time.perf_counter() - t) / n
    return asyncio.run(main())

PATHS = {"SingleRoleEnv": single, "GroupedEpisodes.step (B=16)": grouped_lock, "GroupedEpisodes.run (B=16)": grouped_run,
         "make_vec sync (2)": lambda: vector("sync"), "make_vec async (2 workers)": lambda: vector("async"),
         "TRL CommaToolEnv": trl_env, "verifiers env (setup+env_response)": verifiers_env}
def main() -> None:
    global N
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--profile", choices=sorted(PATHS), help="profile one path (after one warm-up run)")
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
    for round_ in range(args.rounds):
        costs = {name: 1e6 * path() for name, path in PATHS.items()}
        base = costs["SingleRoleEnv"]
        print(f"round {round_}: " + " | ".join(f"{name} {us:,.0f} us ({us / base:.2f}x)" for name, us in costs.items()),
              flush=True)


if __name__ == "__main__":
    main()
