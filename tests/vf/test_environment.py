"""comma_env.vf through verifiers' own CLI: `vf-eval comma-vf` (the plugin id of
envs/comma_vf) against the loopback OpenAI-compatible server playing the learner's role.

Checks: the trace's reward is the episode return (replayed independently in a
`SingleRoleEnv` from the trace's sampled messages) and its metrics are the episode's; the
model's requests are the rollout's prompt for its role and, after each reply, what the
rollout's next request adds (the one rendering), with the solver's picture as an
``image_url`` PNG part in the image view; the loopback (a competent scripted pair) solves as
solver and as expert, also with an LLM partner."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("verifiers.v1") is None:  # not imported: it takes seconds, and every worker collects
    pytest.skip("needs verifiers 0.4: see the verifiers extra in pyproject.toml", allow_module_level=True)

from comma_env.agents.chat import PngCache  # noqa: E402
from comma_env.protocol.prompts import after_own_message  # noqa: E402
from comma_env.rl import SingleRoleEnv  # noqa: E402
from tests.support.loopback_server import Loopback, _texts  # noqa: E402

CASES: list[tuple[dict, bool]] = [  # (the env's settings, whether the loopback solves)
    ({"puzzle": "who", "learner": "expert", "partner": "oracle", "options": {}}, True),
    ({"puzzle": "wire", "learner": "solver", "partner": "oracle",  # unsolved: it plays to its max_turns
      "options": {"solver_view": "image", "mistake_penalty": 0.5, "max_turns": 3}}, False),
    ({"puzzle": "keypad", "learner": "solver", "partner": "openai_compat",
      "options": {"solver_view": "text", "success_bonus": 1.0},
      "partner_overrides": {"api_base": "LOOPBACK", "name": "loopback-2-partner"}}, True),  # named after its index
]


def vf_eval(case: dict, model: str, out: Path, api_base: str) -> subprocess.Popen:
    """Start `vf-eval comma-vf` on two tasks (seeds 0 and 1) of `case`."""
    script = shutil.which("vf-eval", path=str(Path(sys.executable).parent)) or shutil.which("vf-eval")
    assert script, "verifiers installs the vf-eval command"
    command = [script, "comma-vf", "--env.taskset.puzzle", case["puzzle"], "--env.learner", case["learner"],
               "--env.partner", case["partner"], "--env.options", json.dumps(case["options"]),
               "-m", model, "--client.base-url", api_base, "--client.api-key-var", "LOOPBACK_KEY",
               "-n", "2", "-r", "1", "--no-push", "-o", str(out)]
    if "partner_overrides" in case:
        overrides = dict(case["partner_overrides"], api_base=api_base)
        command += ["--env.partner-overrides", json.dumps(overrides)]
    env = dict(os.environ, LOOPBACK_KEY="not-a-secret")
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def server():
    with Loopback() as running:
        yield running


@pytest.fixture(scope="module")
def evaluated(server, tmp_path_factory) -> list[tuple[dict, list[dict], list[dict]]]:
    """Every case's `vf-eval` run (started together); per case its settings (the LLM
    partner's address filled in), the learner's traces and the loopback requests made under
    its model name."""
    out = tmp_path_factory.mktemp("vf")
    runs = [vf_eval(case, f"loopback-{index}", out / str(index), server.api_base)
            for index, (case, _) in enumerate(CASES)]
    for run in runs:
        output = run.communicate(timeout=600)[0]
        assert run.returncode == 0, output[-3000:]
    requests = server.requests()
    found = []
    for index, (case, _) in enumerate(CASES):
        if "partner_overrides" in case:
            case = dict(case, partner_overrides=dict(case["partner_overrides"], api_base=server.api_base))
        (traces_file,) = (out / str(index)).glob("*/traces.jsonl")
        episodes = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
        traces = [trace for episode in episodes for trace in episode["traces"]]
        mine = [r for r in requests if str(r["model"]).startswith(f"loopback-{index}")]
        found.append((case, traces, mine))
    return found


def game(case: dict) -> SingleRoleEnv:
    overrides = case.get("partner_overrides")
    options = dict(case["options"], partner_overrides=overrides) if overrides else case["options"]
    return SingleRoleEnv(case["puzzle"], role=case["learner"], partner=case["partner"], **options)


def replayed_return(trace: dict, case: dict) -> float:
    """Step the trace's sampled (model) messages through a fresh SingleRoleEnv, same partner."""
    env = game(case)
    env.reset(seed=trace["task"]["data"]["seed"])
    total = 0.0
    for node in trace["nodes"]:
        if node["sampled"]:
            _, reward, terminated, truncated, _ = env.step(node["message"]["content"] or "")
            total += reward
            if terminated or truncated:
                break
    env.close()
    return total


def conversations(trace: dict, case: dict) -> list[tuple[tuple[str, str], ...]]:
    """Every request the learner's model should get in `trace`'s episode, as the loopback logs
    it ((role, text) per message): the rollout's first prompt for its role, then after each
    reply the reply and what the rollout's next request adds after it."""
    env = game(case)
    pngs = PngCache()

    def shown(observation: dict, info: dict) -> list[dict]:
        image = observation.get("image")
        url = asyncio.run(pngs.data_url(image)) if image is not None else None
        return env.raw.messages(case["learner"], observation, info, url)

    chat = shown(*env.reset(seed=trace["task"]["data"]["seed"]))
    requests = [chat]
    for node in trace["nodes"]:
        if node["sampled"]:
            reply = node["message"]["content"] or ""
            observation, _, terminated, truncated, info = env.step(reply)
            if terminated or truncated:
                break
            chat = [*chat, {"role": "assistant", "content": reply}, *after_own_message(shown(observation, info))]
            requests.append(chat)
    env.close()
    return [tuple((m["role"], _texts(m)) for m in messages) for messages in requests]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_vf_eval_scores_the_episode_on_the_learners_trace(evaluated, index):
    case, traces, requests = evaluated[index]
    solved = CASES[index][1]
    assert sorted(t["task"]["data"]["seed"] for t in traces) == [0, 1]
    for trace in traces:
        assert trace["agent"]["name"] == case["learner"] and trace["ok"], trace["errors"]
        reward = trace["rewards"]["episode_return"]["score"]
        assert reward == pytest.approx(replayed_return(trace, case), abs=1e-9)
        assert trace["metrics"]["success"] == float(solved)
        assert set(trace["metrics"]) == {"success", "progress", "mistakes", "leaks", "leaks_unsure"}
        if solved:
            assert reward == pytest.approx(1.0 + case["options"].get("success_bonus", 0.0))
            assert trace["metrics"]["progress"] == 1.0
        else:  # the episode ran to its turn limit, passed through vf-eval's options
            assert sum(node["sampled"] for node in trace["nodes"]) == case["options"]["max_turns"]
    partner_role = "expert" if case["learner"] == "solver" else "solver"
    expected_roles = {case["learner"], partner_role} if case["partner"] == "openai_compat" else {case["learner"]}
    assert {r["role"] for r in requests} == expected_roles
    own = [r for r in requests if r["role"] == case["learner"]]
    sent = sorted(tuple((m["role"], m["text"]) for m in r["messages"]) for r in own)
    assert sent == sorted(c for trace in traces for c in conversations(trace, case))  # the rollout's one rendering
    images = [image for r in own for image in r["images"]]
    if case["options"].get("solver_view") == "image":
        assert images and all(image["png"] for image in images)
    else:
        assert not images


def test_the_plugin_is_found_by_its_id():
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    from comma_env.vf import CommaEnv, CommaTaskset

    assert taskset_class("comma-vf") is CommaTaskset and environment_class("comma-vf") is CommaEnv


def test_unknown_puzzles_are_refused():
    from comma_env.vf import CommaTaskset, CommaTasksetConfig

    with pytest.raises(ValueError, match="not a solver/expert puzzle"):
        CommaTaskset(CommaTasksetConfig(puzzle="chess")).load()
