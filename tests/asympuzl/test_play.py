"""AsymPuzl played: the scripted pairs (share-all solves 100%, one-piece shows the size
effect), the rollout (``puzzles=[asympuzl]``) and a chat-model run over the loopback server."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from comma_env.agents.asympuzl import AsymPuzlPairPolicy
from comma_env.agents.llm import LiteLLMPolicy
from comma_env.agents.runner import play, run_episode
from comma_env.asympuzl_v0 import env as make_env
from comma_env.protocol.prompts import IMAGE_MARK, as_text
from comma_env.run import rollout
from tests.support.loopback_server import Loopback


def completion(strategy: str, seeds: range, **options) -> tuple[float, list[int]]:
    policy = AsymPuzlPairPolicy(strategy)
    turns = []
    for seed in seeds:
        env = make_env(**options)
        env.reset(seed=seed)
        result = play(env, {agent: policy.player(agent, env, seed) for agent in ("alice", "bob")})
        assert result.error is None
        if result.summary["success"]:
            turns.append(result.summary["solved_at_turn"])
    return len(turns) / len(seeds), turns


@pytest.mark.parametrize("options", [{"n": 3}, {"n": 5}, {"n": 20}, {"n": 5, "distractors": 10},
                                     {"n": 10, "distractors": 5, "distractor_side": "bob"},
                                     {"n": 5, "feedback": "none", "view": "image"}])
def test_share_all_pair_solves_every_seed_in_two_turns(options) -> None:
    rate, turns = completion("share_all", range(100), **options)
    assert rate == 1.0 and set(turns) == {2}


def test_one_piece_pair_shows_the_size_effect() -> None:
    rates = {n: completion("one_piece", range(100), n=n)[0] for n in (3, 10, 20)}
    assert rates[3] > rates[10] > rates[20]
    assert rates[3] >= 0.6 and rates[20] <= 0.3


def test_one_piece_pair_suffers_more_from_distractors_in_alices_view() -> None:
    plain = completion("one_piece", range(100), n=5)[0]
    bob = completion("one_piece", range(100), n=5, distractors=3, distractor_side="bob")[0]
    alice = completion("one_piece", range(100), n=5, distractors=3, distractor_side="alice")[0]
    assert plain > bob > alice


def test_scripted_pair_refuses_comma_roles() -> None:
    env = make_env()
    env.reset(seed=0)
    with pytest.raises(ValueError):
        AsymPuzlPairPolicy().player("solver", env, 0)
    with pytest.raises(ValueError):
        AsymPuzlPairPolicy("shout")


# -- rollout ------------------------------------------------------------------------------------
def _cfg(tmp_path, model: str, **options) -> dict:
    return {"puzzles": ["asympuzl"], "episodes": 12, "progress_bar": False, "out_dir": str(tmp_path),
            "model": {"kind": "asympuzl", "name": model, "extra": {"strategy": model}},
            "puzzle_options": {"asympuzl": options}}


def test_rollout_writes_completion_rate_and_turns(tmp_path) -> None:
    results = rollout.run(_cfg(tmp_path, "share_all", n=10, distractors=3, feedback="both"), quiet=True)
    metrics = results["asympuzl"]
    assert metrics["completion_rate"] == 100.0 and metrics["turns_to_completion"] == 2.0
    assert metrics["settings"] == [{"n": 10, "distractors": 3, "distractor_side": "alice", "feedback": "both",
                                    "view": "text", "max_turns": 30, "memory": "last",
                                    "success_check": "end_of_turn", "partner_feedback": "previous"}]
    records = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert len(records) == 12 and all(r["success"] and r["max_turns"] == 30 and r["n"] == 10 for r in records)
    assert records[0]["initial_state"]["solution"] and records[0]["transcript"][0]["alice"]
    assert "## AsymPuzl" in (tmp_path / "results.md").read_text()
    again = rollout.run(_cfg(tmp_path, "share_all", n=10, distractors=3, feedback="both"), quiet=True)  # resumes
    assert again["asympuzl"]["episodes"] == 12
    with pytest.raises(ValueError, match="another setting"):
        rollout.run(_cfg(tmp_path, "share_all", n=5), quiet=True)


def test_rollout_one_piece_and_bad_options(tmp_path) -> None:
    results = rollout.run(_cfg(tmp_path / "a", "one_piece", n=20), quiet=True)
    assert results["asympuzl"]["completion_rate"] < 50.0
    with pytest.raises(ValueError, match="puzzle_options.asympuzl: .*size"):
        rollout.run(_cfg(tmp_path / "b", "one_piece", size=5), quiet=True)
    with pytest.raises(ValueError, match="puzzle_options.asympuzl: feedback"):
        rollout.run(_cfg(tmp_path / "c", "one_piece", feedback="lots"), quiet=True)


def test_rollout_with_the_silent_random_baseline(tmp_path) -> None:
    cfg = _cfg(tmp_path, "x")
    cfg["model"] = {"kind": "random", "name": "random"}  # no valid actions: both agents stay silent
    results = rollout.run(cfg, quiet=True)
    assert results["puzzles"]["asympuzl"]["errors"] == 0 and results["asympuzl"]["completion_rate"] == 0.0


# -- a chat model over HTTP ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    with Loopback() as srv:
        yield srv


def _llm(api_base: str, vision: bool = False) -> LiteLLMPolicy:
    return LiteLLMPolicy(dict(kind="litellm", name="loop", model="openai/loopback", api_base=api_base,
                              vision=vision, max_retries=3, timeout=20.0))


def test_llm_pair_solves_over_http(server) -> None:
    policy = _llm(server.api_base)

    async def one(seed: int, **options):
        env = make_env(**options)
        env.reset(seed=seed)
        return await run_episode(env, {a: policy.player(a, env, seed) for a in ("alice", "bob")})

    async def many():
        return await asyncio.gather(*(one(s, n=5) for s in range(4)),
                                    *(one(s, n=4, distractors=3, distractor_side=side)
                                      for s, side in ((0, "alice"), (1, "bob"))))

    for result in asyncio.run(many()):
        assert result.error is None and result.summary["success"] and result.summary["solved_at_turn"] == 2
        # success is checked when the turn ends (success_check="end_of_turn"), so Bob acts in turn 2 too
        assert result.tokens["alice"]["calls"] == 2 and result.tokens["bob"]["calls"] == 2
    alice = [r for r in server.requests() if r["role"] == "alice"]
    assert alice and "Your working hypothesis" in alice[0]["messages"][1]["text"]


def test_llm_image_view_sends_alices_picture(server) -> None:
    policy = _llm(server.api_base, vision=True)
    env = make_env(n=3, view="image", max_turns=2)
    env.reset(seed=0)
    result = asyncio.run(run_episode(env, {a: policy.player(a, env, 0) for a in ("alice", "bob")}))
    assert result.error is None and not result.summary["success"]  # the server cannot see the clues
    assert any(r["role"] == "alice" and r["images"] and r["images"][0]["png"] for r in server.requests())


def test_chat_messages_split_task_and_observation() -> None:
    env = make_env(n=3)
    env.reset(seed=0)
    observation, _, _, _, info = env.last()
    messages = env.unwrapped.messages("alice", observation, info)
    assert messages[0] == {"role": "system", "content": info["task"]}
    assert messages[1]["content"].startswith("Turn 1 of 9.")
    assert observation["text"] == as_text(messages)  # obs["text"]: the same messages as plain text
    pictured = make_env(n=3, view="image")
    pictured.reset(seed=0)
    observation, _, _, _, info = pictured.last()
    assert observation["text"].endswith("\n\n" + IMAGE_MARK) and "(colour unknown)" not in observation["text"]


def test_rollout_with_a_chat_model(server, tmp_path) -> None:
    cfg = _cfg(tmp_path, "loop", n=3)
    cfg["model"] = dict(kind="litellm", name="loop", model="openai/loopback", api_base=server.api_base, vision=False)
    results = rollout.run(cfg, quiet=True)
    assert results["asympuzl"]["completion_rate"] == 100.0 and results["overall"]["tokens"] > 0


def test_the_rollout_command_with_the_scripted_pair(tmp_path) -> None:
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", "puzzles=[asympuzl]", "episodes=10",
                           "solver=asympuzl_one_piece", "expert=asympuzl_one_piece", "progress_bar=false",
                           "out_dir=run",
                           "+puzzle_options.asympuzl.n=3", "+puzzle_options.asympuzl.distractors=2",
                           "+puzzle_options.asympuzl.distractor_side=bob", "+puzzle_options.asympuzl.feedback=joint"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["asympuzl"]["episodes"] == 10 and results["asympuzl"]["settings"][0]["max_turns"] == 9
    assert results["asympuzl"]["settings"][0]["feedback"] == "joint"
    bad = subprocess.run([sys.executable, "-m", "comma_env.rollout", "puzzles=[asympuzl]", "model=asympuzl_share_all",
                          "out_dir=bad", "+puzzle_options.asympuzl.n=40"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "puzzle_options.asympuzl: " in bad.stderr
