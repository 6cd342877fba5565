"""comma_env.vf through verifiers' own evaluation entry point (`vf-eval`, one run of a TOML
config holding every case), against the loopback OpenAI-compatible server playing the
learner's role over HTTP.

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

from comma_env.rl import SingleRoleEnv  # noqa: E402
from tests.support.loopback_server import Loopback  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


CASES: list[tuple[dict, bool]] = [  # (load_environment's arguments, whether the loopback solves)
    ({"puzzle": "wire", "role": "solver", "partner": "oracle", "solver_view": "text", "success_bonus": 1.0}, True),
    ({"puzzle": "who", "role": "expert", "partner": "oracle"}, True),
    ({"puzzle": "wire", "role": "solver", "partner": "oracle", "solver_view": "image", "mistake_penalty": 0.5}, False),
    ({"puzzle": "keypad", "role": "solver", "partner": "openai_compat", "solver_view": "text",
      "partner_overrides": {"api_base": "LOOPBACK", "name": "loopback-3-partner"}}, True),  # the partner is an LLM too
]

SERVED = 2
"""The one case played through verifiers' env server (the image view: its PNG parts cross
ZMQ); the others run in vf-eval's own process (``disable_env_server``). Each env server
takes a port that verifiers picks by binding port 0 and letting it go, so two started
together can get the same one: one server then fails to bind and its evaluation silently
plays the other's environment (seen once on CI: the keypad case saved Wire rollouts). The
same race as https://github.com/PrimeIntellect-ai/prime-rl/pull/2310."""


def toml_value(value: object) -> str:
    """TOML for the JSON-like values of an eval config (a JSON string is a TOML basic string)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def vf_eval(config: Path) -> subprocess.CompletedProcess:
    """Run the `vf-eval` console script on a TOML config."""
    script = shutil.which("vf-eval", path=str(Path(sys.executable).parent)) or shutil.which("vf-eval")
    assert script, "verifiers installs the vf-eval command"
    env = dict(os.environ, LOOPBACK_KEY="not-a-secret", PYTHONPATH=f"{ROOT}:{os.environ.get('PYTHONPATH', '')}")
    done = subprocess.run([script, str(config), "-d", "-s"], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def evaluated(server, tmp_path_factory) -> list[tuple[dict, list[dict], list[dict]]]:
    """One `vf-eval` run of every case (a TOML config with one ``[[eval]]`` each: the
    command starts once, as a user evaluating several settings would run it). Per case: its
    arguments, its saved rollouts, and the loopback requests made under its model name."""
    out = tmp_path_factory.mktemp("vf")
    blocks, cases = [], []
    for index, (env_args, _) in enumerate(CASES):
        if "partner_overrides" in env_args:
            env_args = dict(env_args, partner_overrides=dict(env_args["partner_overrides"], api_base=server.api_base))
        cases.append(env_args)
        blocks.append(f'[[eval]]\nid = "comma_env.vf"\nmodel = "loopback-{index}"\n'
                      f'output_dir = {toml_value(str(out / str(index)))}\nenv_args = {toml_value(env_args)}\n'
                      + ("" if index == SERVED else "disable_env_server = true\n"))
    config = out / "evals.toml"
    config.write_text(f'api_base_url = "{server.api_base}"\napi_key_var = "LOOPBACK_KEY"\n'
                      'num_examples = 2\nrollouts_per_example = 2\n\n' + "\n".join(blocks), encoding="utf-8")
    before = len(server.requests())
    vf_eval(config)
    requests = server.requests()[before:]
    found = []
    for index, env_args in enumerate(cases):
        results = list((out / str(index)).glob("evals/*/*/results.jsonl"))
        assert len(results) == 1, index
        server_log = results[0].parent / "env_server.log"
        if index == SERVED:  # its own server served it: started, with its arguments
            logged = server_log.read_text(encoding="utf-8")
            assert "started on tcp://" in logged and repr(env_args["puzzle"]) in logged
        else:
            assert not server_log.exists(), index
        rollouts = [json.loads(line) for line in results[0].read_text().splitlines() if line.strip()]
        mine = [r for r in requests if str(r["model"]).startswith(f"loopback-{index}")]
        found.append((env_args, rollouts, mine))
    return found


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


@pytest.mark.parametrize("case", range(len(CASES)))
def test_vf_eval_scores_the_episode_return(evaluated, case):
    env_args, rollouts, requests = evaluated[case]
    solved = CASES[case][1]
    assert len(rollouts) == 4 and sorted({r["example_id"] for r in rollouts}) == [0, 1]
    for rollout in rollouts:
        assert rollout["info"]["seed"] in (0, 1)  # the eval rows are the paper's instances 0..99
        assert rollout["reward"] == pytest.approx(replayed_return(rollout, env_args), abs=1e-9)
        assert rollout["success"] == float(solved)
        if solved:
            assert rollout["reward"] == pytest.approx(1.0 + env_args.get("success_bonus", 0.0))
        roles = [m["role"] for m in rollout["completion"]]
        assert roles[0] == "assistant" and "user" in roles  # partner and environment answer as the user
    partner_role = "expert" if env_args["role"] == "solver" else "solver"
    expected_roles = {env_args["role"], partner_role} if env_args["partner"] == "openai_compat" else {env_args["role"]}
    assert requests and {r["role"] for r in requests} == expected_roles
    images = [image for r in requests for image in r["images"]]
    if env_args.get("solver_view") == "image":
        assert images and all(image["png"] for image in images)
    else:
        assert not images


def test_the_shipped_config_evaluates_every_puzzle_in_both_roles():
    """examples/vf_eval_comma.toml, read by verifiers' own config loader, expands to the ten
    COMMA puzzles x two roles, and every expanded setting is an environment that loads."""
    from verifiers.legacy.utils.eval_utils import load_toml_config

    from comma_env.registry import COMMA_PUZZLES
    from comma_env.vf import load_environment

    configs = load_toml_config(ROOT / "examples" / "vf_eval_comma.toml")
    settings = {(c["env_args"]["puzzle"], c["env_args"]["role"]) for c in configs}
    assert len(configs) == len(settings) == 2 * len(COMMA_PUZZLES)
    assert settings == {(puzzle, role) for puzzle in COMMA_PUZZLES for role in ("solver", "expert")}
    for config in configs:
        assert config["env_id"] == "comma_env.vf" and config["env_args"]["partner"] == "oracle_nl"
        assert config["disable_env_server"] is True  # no env servers racing for ports (see SERVED)
        env = load_environment(**config["env_args"])
        assert len(env.eval_dataset) >= config["num_examples"]


def test_load_environment_refuses_unknown_puzzles_and_roles():
    from comma_env.vf import load_environment

    with pytest.raises(ValueError, match="not a solver/expert puzzle"):
        load_environment(puzzle="chess")
    with pytest.raises(ValueError, match="role"):
        load_environment(puzzle="wire", role="judge")
