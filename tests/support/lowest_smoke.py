"""Smoke checks run inside a venv holding the lowest versions pyproject.toml allows
(tests/project/test_lowest_versions.py makes it): import, PettingZoo's api_test for every puzzle,
one episode per puzzle of the random baseline through the Hydra rollout, and Wire
episodes played by model policies over HTTP (tests/support/loopback_server.py), through aiohttp
and through LiteLLM, so that the floors of the LLM layer are exercised too.

Usage: python lowest_smoke.py OUT_DIR
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path


def main(out_dir: Path) -> None:
    from pettingzoo.test import api_test

    import comma_env
    from comma_env.registry import SPECS

    for name in SPECS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(comma_env.make(name), num_cycles=20)
        print("api_test ok", name, flush=True)
    puzzles = ",".join(SPECS)
    subprocess.run([sys.executable, "-m", "comma_env.rollout", f"puzzles=[{puzzles}]", "episodes=1",
                    "concurrency=4", f"out_dir={out_dir}"], check=True)
    records = [json.loads(line) for line in (out_dir / "episodes.jsonl").read_text().splitlines() if line]
    played = sorted(record["puzzle"] for record in records if not record.get("error"))
    if played != sorted(SPECS):
        raise SystemExit(f"rollout played {played}, expected {sorted(SPECS)}: {records}")
    _llm_episodes()
    print("versions", json.dumps(_core_versions()), flush=True)


def _core_versions() -> dict[str, str]:
    """Installed version of every core dependency of comma-env."""
    import re
    from importlib.metadata import requires, version

    names = [re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0] for requirement in requires("comma-env") or []
             if "extra ==" not in requirement]
    return {name.lower(): version(name) for name in names}


def _llm_episodes() -> None:
    import asyncio

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import comma_env
    from comma_env.agents.llm import LiteLLMPolicy
    from comma_env.agents.runner import run_episode
    from tests.support.loopback_server import Loopback

    async def episode(policy: LiteLLMPolicy, seed: int) -> dict:
        env = comma_env.make("wire", solver_view="text")
        env.reset(seed=seed)
        result = await run_episode(env, policy.player("solver", env, seed), policy.player("expert", env, seed))
        if result.error:
            raise SystemExit(f"LLM episode failed: {result.error}")
        return result.summary

    with Loopback() as server:
        for client in ("aiohttp", "litellm"):
            policy = LiteLLMPolicy({"kind": "litellm", "name": "loop", "model": "openai/loopback",
                                    "api_base": server.api_base, "vision": False, "client": client, "timeout": 20.0})
            summaries = [asyncio.run(episode(policy, seed)) for seed in range(2)]
            if not all(summary["success"] for summary in summaries):
                raise SystemExit(f"LLM episodes over {client} did not solve Wire: {summaries}")
            print("llm ok", client, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
