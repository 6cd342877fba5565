"""comma_env.vf through verifiers' own evaluation entry point (`vf-eval`), against the
loopback OpenAI-compatible server playing the learner's role over HTTP.

Checks: the reward is the episode return (replayed independently in a `SingleRoleEnv`
from the saved completion), the model's requests carry the role's prompts (images as
``image_url`` PNG parts in the image view, no image for the expert), and the loopback
(a competent scripted pair) solves as solver and as expert."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("verifiers.legacy.envs.multiturn_env")

from loopback_server import Loopback  # noqa: E402

from comma_env.rl import SingleRoleEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def vf_eval(server: Loopback, out: Path, env_args: dict, n: int = 2, r: int = 2) -> list[dict]:
    """Run the `vf-eval` console script; the saved rollouts."""
    script = shutil.which("vf-eval", path=str(Path(sys.executable).parent)) or shutil.which("vf-eval")
    assert script, "verifiers installs the vf-eval command"
    env = dict(os.environ, LOOPBACK_KEY="not-a-secret", PYTHONPATH=f"{ROOT}:{os.environ.get('PYTHONPATH', '')}")
    command = [script, "comma_env.vf", "-a", json.dumps(env_args), "-m", "loopback", "-b", server.api_base,
               "-k", "LOOPBACK_KEY", "-n", str(n), "-r", str(r), "-d", "-s", "-o", str(out)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = list(out.glob("evals/*/*/results.jsonl"))
    assert len(results) == 1
    return [json.loads(line) for line in results[0].read_text().splitlines() if line.strip()]


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text") or "" for p in content or [] if isinstance(p, dict))


def replayed_return(rollout: dict, env_args: dict) -> float:
    """Step the rollout's assistant messages through a fresh SingleRoleEnv (same partner)."""
    options = {k: v for k, v in env_args.items() if k not in ("puzzle", "role", "partner")}  # partner_overrides too
    env = SingleRoleEnv(env_args["puzzle"], role=env_args["role"], partner=env_args["partner"], **options)
    env.reset(seed=int(rollout["info"]["seed"]))
    total = 0.0
    for message in rollout["completion"]:
        if message["role"] == "assistant":
            _, reward, terminated, truncated, _ = env.step(text_of(message))
            total += reward
            if terminated or truncated:
                break
    env.close()
    return total


@pytest.fixture(scope="module")
def server():
    with Loopback() as running:
        yield running


@pytest.mark.parametrize("env_args,solved", [
    ({"puzzle": "wire", "role": "solver", "partner": "oracle", "solver_view": "text", "success_bonus": 1.0}, True),
    ({"puzzle": "who", "role": "expert", "partner": "oracle"}, True),
    ({"puzzle": "wire", "role": "solver", "partner": "oracle", "solver_view": "image", "mistake_penalty": 0.5}, False),
    ({"puzzle": "keypad", "role": "solver", "partner": "openai_compat", "solver_view": "text",
      "partner_overrides": {"api_base": "LOOPBACK", "name": "loopback"}}, True),  # the partner is an LLM too
])
def test_vf_eval_scores_the_episode_return(server, tmp_path, env_args, solved):
    if "partner_overrides" in env_args:
        env_args = dict(env_args, partner_overrides=dict(env_args["partner_overrides"], api_base=server.api_base))
    before = len(server.requests())
    rollouts = vf_eval(server, tmp_path, env_args)
    assert len(rollouts) == 4 and sorted({r["example_id"] for r in rollouts}) == [0, 1]
    for rollout in rollouts:
        assert rollout["info"]["seed"] in (0, 1)  # the eval rows are the paper's instances 0..99
        assert rollout["reward"] == pytest.approx(replayed_return(rollout, env_args), abs=1e-9)
        assert rollout["success"] == float(solved)
        if solved:
            assert rollout["reward"] == pytest.approx(1.0 + env_args.get("success_bonus", 0.0))
        roles = [m["role"] for m in rollout["completion"]]
        assert roles[0] == "assistant" and "user" in roles  # partner and environment answer as the user
    requests = server.requests()[before:]
    partner_role = "expert" if env_args["role"] == "solver" else "solver"
    expected_roles = {env_args["role"], partner_role} if env_args["partner"] == "openai_compat" else {env_args["role"]}
    assert requests and {r["role"] for r in requests} == expected_roles
    images = [image for r in requests for image in r["images"]]
    if env_args.get("solver_view") == "image":
        assert images and all(image["png"] for image in images)
    else:
        assert not images


def test_load_environment_refuses_unknown_puzzles_and_roles():
    from comma_env.vf import load_environment

    with pytest.raises(ValueError, match="not a solver/expert puzzle"):
        load_environment(puzzle="chess")
    with pytest.raises(ValueError, match="role"):
        load_environment(puzzle="wire", role="judge")
