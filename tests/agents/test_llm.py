"""LiteLLMPolicy end to end over real HTTP against tests/support/loopback_server.py (no mocks in the client),
once over aiohttp and once through LiteLLM (`client_kind`)."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

import comma_env
from comma_env.agents.llm import LiteLLMPolicy, LLMCallError
from comma_env.agents.runner import run_episode
from comma_env.protocol.prompts import ENVIRONMENT_HEADER
from tests.support.loopback_server import Loopback

FAST_RETRY = {"retry_base_delay": 0.02, "retry_max_delay": 0.2}


def cfg(api_base: str, **over):
    base = dict(kind="litellm", name="loop", model="openai/loopback", api_base=api_base, vision=False,
                max_retries=6, timeout=20.0, client="aiohttp", extra=dict(FAST_RETRY))
    base.update(over)
    return base


async def play_many(solver_policy, expert_policy, puzzle="wire", seeds=range(8), **env_kwargs):
    env_kwargs.setdefault("solver_view", "text")

    async def one(seed):
        env = comma_env.make(puzzle, **env_kwargs)
        env.reset(seed=seed)
        return env, await run_episode(env, solver_policy.player("solver", env, seed),
                                      expert_policy.player("expert", env, seed))

    return await asyncio.gather(*(one(s) for s in seeds))


@pytest.fixture(params=["aiohttp", "litellm"])
def client_kind(request):
    """Both ways to an OpenAI-compatible server must behave the same (comma_env/agents/llm.py)."""
    return request.param


@pytest.fixture(scope="module")
def server():
    with Loopback() as srv:
        yield srv


def test_episodes_solve_end_to_end_over_http(server, client_kind):
    policy = LiteLLMPolicy(cfg(server.api_base, client=client_kind))
    results = asyncio.run(play_many(policy, policy, seeds=range(10)))
    for _, result in results:
        assert result.error is None
        assert result.summary["success"] and result.summary["mistakes"] == 0
        assert result.summary["turns"] == 2  # describe, then cut
        for role in ("solver", "expert"):
            assert result.tokens[role]["completion_tokens"] > 0 and result.tokens[role]["prompt_tokens"] > 0
        assert result.tokens["solver"]["calls"] == 2 and result.tokens["expert"]["calls"] == 1
    # token counts are the server's `usage`, not estimates: check one request's arithmetic
    reqs = [r for r in server.requests() if r["role"] == "expert"]
    assert reqs and all(r["temperature"] == 0.0 and r["max_tokens"] == 512 for r in reqs)


def test_other_puzzles_and_last_memory_solve_over_http(server, client_kind):
    policy = LiteLLMPolicy(cfg(server.api_base, client=client_kind))
    # the scripted solver spends two turns per stage (act, then describe the new state)
    for puzzle in ("memory", "keypad", "atm"):
        results = asyncio.run(play_many(policy, policy, puzzle=puzzle, seeds=range(3), max_turns=25))
        assert all(r.error is None for _, r in results)
        assert sum(r.summary["success"] for _, r in results) == 3, puzzle
    results = asyncio.run(play_many(policy, policy, seeds=range(3), memory="last"))
    assert all(r.summary["success"] for _, r in results)


def test_image_view_sends_one_png_encoded_once_per_state(server, client_kind):
    policy = LiteLLMPolicy(cfg(server.api_base, client=client_kind, vision=True, name="vis"))
    before = len(server.requests())
    results = asyncio.run(play_many(policy, policy, seeds=[7], solver_view="image", max_turns=3))
    (_, result), = results
    assert result.error is None and not result.summary["success"]  # the server cannot see
    solver_reqs = [r for r in server.requests()[before:] if r["role"] == "solver"]
    assert len(solver_reqs) == 3
    for r in solver_reqs:
        assert len(r["images"]) == 1 and r["images"][0]["png"] and r["images"][0]["bytes"] > 1000
    assert len({r["images"][0]["sha"] for r in solver_reqs}) == 1  # no action: same picture


def test_expert_requests_carry_no_image_and_no_unspoken_private_fact(server, client_kind):
    policy = LiteLLMPolicy(cfg(server.api_base, client=client_kind, vision=True))
    for puzzle in ("atm", "telehealth", "wire"):
        before = len(server.requests())
        for view in ("image", "text"):
            results = asyncio.run(play_many(policy, policy, puzzle=puzzle, seeds=range(3), solver_view=view,
                                            max_turns=4))
            for env, result in results:
                assert result.error is None
                facts = env.unwrapped.private_facts
                spoken = "\n".join(t["solver"] for t in result.transcript)
                expert_reqs = [r for r in server.requests()[before:] if r["role"] == "expert"]
                assert expert_reqs
                for r in expert_reqs:
                    assert r["images"] == []
                    text = "\n".join(m["text"] for m in r["messages"])
                    assert ENVIRONMENT_HEADER not in text and "performed successfully" not in text
                    for name, value in facts.items():
                        if value and value not in spoken:
                            assert value not in text, (puzzle, name)


def test_twenty_percent_faults_every_episode_recorded(client_kind):
    kinds = "429,500,reset,empty_choices,null_content,bad_json"
    with Loopback("--fault-rate", "0.2", "--faults", kinds, "--seed", "3") as srv:
        policy = LiteLLMPolicy(cfg(srv.api_base, client=client_kind, max_retries=8))
        results = asyncio.run(play_many(policy, policy, seeds=range(16)))
        faults = [r["fault"] for r in srv.requests() if r["fault"]]
    assert len(results) == 16
    assert all(r.summary is not None for _, r in results)
    assert all(r.error is None and r.summary["success"] for _, r in results)
    assert len(faults) >= 4 and len(set(faults)) >= 3  # the faults really happened
    assert sum(r.tokens["solver"]["calls"] + r.tokens["expert"]["calls"] for _, r in results) > 16 * 3


def test_persistent_faults_raise_and_the_episode_records_the_error(client_kind):
    with Loopback("--fault-rate", "1.0", "--faults", "500,empty_choices") as srv:
        policy = LiteLLMPolicy(cfg(srv.api_base, client=client_kind, max_retries=2))
        (env, result), = asyncio.run(play_many(policy, policy, seeds=[0]))
        assert len(srv.requests()) == 3  # one try + two retries
    assert result.error and result.error.startswith("solver: LLMCallError") and "3 attempts" in result.error
    assert result.summary["seed"] == 0 and not result.summary["success"]


def test_timeout_fault_is_retried(client_kind):
    with Loopback("--fault-rate", "0.5", "--faults", "timeout", "--timeout-seconds", "5") as srv:
        # faults are a deterministic function of the request body: with 6 retries one body in
        # 128 fails for good whatever the client does, so allow enough retries that none does
        policy = LiteLLMPolicy(cfg(srv.api_base, client=client_kind, timeout=0.5, max_retries=14))
        results = asyncio.run(play_many(policy, policy, seeds=range(3)))
        assert any(r["fault"] == "timeout" for r in srv.requests())
    assert all(r.error is None and r.summary["success"] for _, r in results)


def test_client_errors_are_not_retried(server, client_kind):
    policy = LiteLLMPolicy(cfg(server.api_base.replace("/v1", "/nowhere/v1"), client=client_kind, max_retries=5))
    with pytest.raises(LLMCallError, match="non-retryable"):
        asyncio.run(policy.client.complete([{"role": "user", "content": "hi"}]))


def test_mixed_pair_hits_the_right_endpoints(client_kind):
    with Loopback() as a, Loopback() as b:
        solver = LiteLLMPolicy(cfg(a.api_base, client=client_kind, name="solver-model", model="openai/model-a"))
        expert = LiteLLMPolicy(cfg(b.api_base, client=client_kind, name="expert-model", model="openai/model-b",
                                   temperature=0.6, max_tokens=99))
        results = asyncio.run(play_many(solver, expert, seeds=range(4)))
        ra, rb = a.requests(), b.requests()
    assert all(r.summary["success"] for _, r in results)
    assert ra and {r["role"] for r in ra} == {"solver"} and {r["model"] for r in ra} == {"model-a"}
    assert rb and {r["role"] for r in rb} == {"expert"} and {r["model"] for r in rb} == {"model-b"}
    assert {(r["temperature"], r["max_tokens"]) for r in rb} == {(0.6, 99)}


def test_replicas_are_load_balanced_by_the_router(client_kind):
    with Loopback() as a, Loopback() as b:
        policy = LiteLLMPolicy(cfg(None, client=client_kind, name="replicated", model="hosted_vllm/loopback",
                                   extra=dict(FAST_RETRY, replicas=[a.api_base, b.api_base],
                                              routing_strategy="simple-shuffle")))
        results = asyncio.run(play_many(policy, policy, seeds=range(12)))
        na, nb = len(a.requests()), len(b.requests())
    assert all(r.summary["success"] for _, r in results)
    assert na + nb == 36 and na > 3 and nb > 3


def test_api_key_is_sent_but_never_written(server, caplog, capsys, client_kind):
    secret = "sk-test-SECRETKEY-8c1f0e9a7d"
    os.environ["COMMA_FAKE_KEY_VAR"] = secret
    try:
        caplog.set_level(logging.DEBUG)
        policy = LiteLLMPolicy(cfg(server.api_base, client=client_kind, api_key_env="COMMA_FAKE_KEY_VAR",
                                   max_retries=1))
        results = asyncio.run(play_many(policy, policy, seeds=range(2)))
        assert all(r.summary["success"] for _, r in results)
        # an error path: the message must not carry the key either
        bad = LiteLLMPolicy(cfg(server.api_base.replace("/v1", "/x/v1"), client=client_kind,
                                api_key_env="COMMA_FAKE_KEY_VAR"))
        with pytest.raises(LLMCallError) as info:
            asyncio.run(bad.client.complete([{"role": "user", "content": "hello"}]))
        assert secret not in str(info.value)
        assert secret not in repr(vars(policy)) and secret not in repr(vars(policy.client))
        for _, r in results:
            assert secret not in repr(r)
        out, err = capsys.readouterr()
        assert secret not in out + err + caplog.text
    finally:
        del os.environ["COMMA_FAKE_KEY_VAR"]
    # a missing variable gives a clear error naming the variable
    with pytest.raises(LLMCallError, match="COMMA_FAKE_KEY_VAR"):
        asyncio.run(LiteLLMPolicy(cfg(server.api_base, client=client_kind,
                                      api_key_env="COMMA_FAKE_KEY_VAR")).client.complete([]))


def _seeds_of_one_run(policy_seed: int, temperature: float, client: str) -> list[tuple[str, object]]:
    with Loopback() as srv:
        policy = LiteLLMPolicy(cfg(srv.api_base, temperature=temperature, client=client), seed=policy_seed)
        asyncio.run(play_many(policy, policy, seeds=[3]))
        return [(r["role"], r["seed"]) for r in srv.requests()]


def test_sampling_seed_reaches_the_server_per_call_and_repeats_on_rerun(client_kind):
    sent = _seeds_of_one_run(7, temperature=0.7, client=client_kind)
    assert len(sent) == 3 and {role for role, _ in sent} == {"solver", "expert"}
    seeds = [s for _, s in sent]
    assert all(isinstance(s, int) for s in seeds) and len(set(seeds)) == len(seeds)  # differs per call
    assert _seeds_of_one_run(7, temperature=0.7, client=client_kind) == sent  # deterministic
    later = _seeds_of_one_run(8, temperature=0.7, client=client_kind)
    assert set(s for _, s in later).isdisjoint(seeds)  # follows policy_seed
    assert {s for _, s in _seeds_of_one_run(7, temperature=0.0, client=client_kind)} == {None}  # greedy: no seed sent


@pytest.mark.parametrize("key", ["api_key", "api_base", "model", "max_retries", "messages", "temperature"])
def test_extra_keys_the_policy_sets_itself_are_rejected_at_build_time(key):
    with pytest.raises(ValueError, match=f"must not set keys.*{key}"):
        LiteLLMPolicy(cfg("http://127.0.0.1:1/v1", extra={key: "x", **FAST_RETRY}))
    LiteLLMPolicy(cfg("http://127.0.0.1:1/v1", extra={"drop_params": True, "seed": 5}))  # pass-through keys still fine
