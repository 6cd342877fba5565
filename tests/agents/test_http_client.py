"""The aiohttp fast path and the deadline per call, over real HTTP against the loopback server
(tests/support/loopback_server.py).

Behaviour both clients share (retries, usage, secrets, seeds, replicas, images) is tested on
both in tests/agents/test_llm.py; this file adds what is new: the deadline against a trickling
server, content parts passed through unchanged, the choice of client, connection pooling,
least-outstanding-requests balancing, and odd input that must not crash a call.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import subprocess
import sys
import time

import pytest

from comma_env.agents.http_client import OpenAICompatTransport, served_model, speaks_openai_http
from comma_env.agents.llm import ChatClient, Completion, LLMCallError
from comma_env.agents.llm_settings import LLMSettings
from tests.support.loopback_server import Loopback

FAST_RETRY = {"retry_base_delay": 0.02, "retry_max_delay": 0.1}


def cfg(api_base, client="aiohttp", **over):
    base = dict(kind="litellm", name="loop", model="openai/loopback", api_base=api_base, vision=False,
                max_retries=2, timeout=20.0, client=client, extra=dict(FAST_RETRY))
    base.update(over)
    return base


def client_for(api_base, client="aiohttp", **over) -> ChatClient:
    return ChatClient(LLMSettings.from_config(cfg(api_base, client, **over)))


async def complete_and_close(client: ChatClient, messages, n: int = 1):
    try:
        return await asyncio.gather(*(client.complete(messages) for _ in range(n)))
    finally:
        await client.aclose()


HELLO = [{"role": "user", "content": "hello"}]


def warm_up(client_kind: str) -> None:
    """One good call first: LiteLLM's first call in a process imports the openai SDK (seconds
    of blocked loop), which is not what the deadline tests time."""
    with Loopback() as srv:
        asyncio.run(complete_and_close(client_for(srv.api_base, client_kind), HELLO))


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
@pytest.mark.parametrize("client_kind", ["aiohttp", "litellm"])
def test_a_trickling_server_is_cut_at_the_deadline_on_every_attempt(client_kind):
    # the server sends a blank byte every 0.2 s for 20 s: no read ever times out
    with Loopback("--fault-rate", "1", "--faults", "trickle", "--timeout-seconds", "20") as srv:
        client = client_for(srv.api_base, client_kind, timeout=1.5, max_retries=1)
        warm_up(client_kind)
        started = time.monotonic()
        with pytest.raises(LLMCallError, match=r"gave up after 2 attempts.*within 1.5 s"):
            asyncio.run(complete_and_close(client, HELLO))
        elapsed = time.monotonic() - started
        assert len(srv.requests()) == 2  # both attempts reached the server
    assert 3.0 <= elapsed < 6.0, elapsed  # two deadlines of 1.5 s and a short backoff, not 20 s


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
@pytest.mark.parametrize("client_kind", ["aiohttp", "litellm"])
def test_a_trickled_attempt_is_retried_and_the_call_succeeds(client_kind):
    with Loopback("--fault-rate", "0.5", "--faults", "trickle", "--timeout-seconds", "20", "--seed", "1") as srv:
        client = client_for(srv.api_base, client_kind, timeout=1.0, max_retries=6)
        prompts = [[{"role": "user", "content": f"call {i}"}] for i in range(6)]

        async def run():
            try:
                return await asyncio.gather(*(client.complete(p) for p in prompts))
            finally:
                await client.aclose()

        started = time.monotonic()
        done = asyncio.run(run())
        faults = [r["fault"] for r in srv.requests()]
    assert all(isinstance(c, Completion) and c.text == "Hello." for c in done)
    assert "trickle" in faults and sum(c.calls for c in done) == len(faults)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("client_kind", ["aiohttp", "litellm"])
def test_other_content_parts_reach_the_server_unchanged(client_kind):
    audio = base64.b64encode(bytes(range(256)) * 40).decode()
    part = {"type": "input_audio", "input_audio": {"data": audio, "format": "wav"}}
    messages = [{"role": "user", "content": [{"type": "text", "text": "what is this sound?"}, part]}]
    with Loopback() as srv:
        (done,) = asyncio.run(complete_and_close(client_for(srv.api_base, client_kind), messages))
        (request,) = srv.requests()
    assert done.text == "Hello."
    expected = {"type": "input_audio",
                "input_audio": {"data": hashlib.sha256(audio.encode()).hexdigest()[:16], "format": "wav"}}
    assert request["other_parts"] == [expected]


def test_the_fast_path_sends_the_openai_fields_and_no_litellm_options():
    with Loopback() as srv:
        client = client_for(srv.api_base, model="hosted_vllm/Org/Model-7B", stop=["\nExpert:"],
                            extra=dict(FAST_RETRY, drop_params=True, extra_body={"top_k": 5}))
        asyncio.run(complete_and_close(client, HELLO))
        (request,) = srv.requests()
    assert request["model"] == "Org/Model-7B"  # LiteLLM's provider prefix removed, as LiteLLM does
    assert request["stop"] == ["\nExpert:"] and request["max_tokens"] == 512 and request["temperature"] == 0.0
    assert request["extra_fields"] == ["top_k"]  # extra_body merged; drop_params is LiteLLM's own


def test_one_pooled_connection_serves_sequential_calls_and_few_serve_concurrent_ones():
    with Loopback() as srv:
        client = client_for(srv.api_base)

        async def run():
            try:
                for i in range(20):
                    await client.complete([{"role": "user", "content": f"sequential {i}"}])
                await asyncio.gather(*(client.complete([{"role": "user", "content": f"wave {i}"}]) for i in range(8)))
                await asyncio.gather(*(client.complete([{"role": "user", "content": f"again {i}"}]) for i in range(8)))
            finally:
                await client.aclose()

        asyncio.run(run())
        peers = [r["peer"] for r in srv.requests()]
    assert len(set(peers[:20])) == 1  # keep-alive: one connection for every sequential call
    assert len(set(peers)) <= 8  # the second wave reused the first wave's connections


def test_replicas_share_calls_by_least_outstanding_requests():
    with Loopback("--latency", "0.4") as slow, Loopback() as fast:
        client = client_for(None, extra=dict(FAST_RETRY, replicas=[slow.api_base, fast.api_base]))

        async def worker(w):
            for i in range(6):
                await client.complete([{"role": "user", "content": f"{w}:{i}"}])

        async def run():
            try:
                await asyncio.gather(*(worker(w) for w in range(4)))
            finally:
                await client.aclose()

        asyncio.run(run())
        n_slow, n_fast = len(slow.requests()), len(fast.requests())
    assert n_slow + n_fast == 24
    assert n_fast >= 3 * n_slow and n_slow >= 1, (n_slow, n_fast)  # the busy replica is passed over


def test_pick_prefers_the_idle_replica_and_rotates_ties():
    transport = OpenAICompatTransport(["http://a/v1", "http://b/v1", "http://c/v1"])
    assert [transport.pick().url for _ in range(3)] == [f"http://{h}/v1/chat/completions" for h in "abc"]
    transport.endpoints[0].outstanding = 2
    transport.endpoints[1].outstanding = 1
    assert transport.pick().url == "http://c/v1/chat/completions"


def test_a_client_survives_consecutive_event_loops():
    with Loopback() as srv:
        client = client_for(srv.api_base)
        first = asyncio.run(client.complete(HELLO))  # the session of this loop is left behind
        second = asyncio.run(complete_and_close(client, HELLO))
    assert first.text == second[0].text == "Hello."


@pytest.mark.parametrize("client_kind", ["aiohttp", "litellm"])
def test_odd_messages_get_an_answer_or_a_recorded_error_never_a_crash(client_kind):
    odd = ["", "\ud800 lone surrogate", "9" * 100_000, "مرحبا 你好 🙂 " * 2000, "`cut_wire_2`\n<think>x</think>"]
    with Loopback() as srv:
        client = client_for(srv.api_base, client_kind, max_retries=0)

        async def run():
            out = []
            try:
                for text in odd:
                    try:
                        out.append(await client.complete([{"role": "user", "content": text}]))
                    except LLMCallError as exc:
                        out.append(exc)
            finally:
                await client.aclose()
            return out

        results = asyncio.run(run())
    assert len(results) == len(odd)
    if client_kind == "aiohttp":  # JSON escapes everything, so every one of them gets through
        assert all(isinstance(r, Completion) and r.text == "Hello." and r.prompt_tokens > 0 for r in results)


def test_which_client_each_shipped_model_config_uses():
    from pathlib import Path

    import yaml

    conf = Path(__file__).resolve().parents[2] / "conf" / "model"
    uses = {p.stem: LLMSettings.from_config(yaml.safe_load(p.read_text())).uses_aiohttp
            for p in sorted(conf.glob("*.yaml")) if yaml.safe_load(p.read_text()).get("kind") == "litellm"}
    assert uses["openai_compat"] and uses["qwen2vl"] and uses["smollm2_cpu"]
    assert not uses["gpt4o"] and not uses["gemini"] and not uses["o4mini"]
    assert not LLMSettings.from_config(cfg("http://h/v1", client="litellm")).uses_aiohttp
    assert LLMSettings.from_config(cfg(None, client="aiohttp", serve={"launch": True})).uses_aiohttp
    with pytest.raises(ValueError, match="client=aiohttp needs an api_base"):
        LLMSettings.from_config(cfg(None, client="aiohttp"))
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="timeout must be a positive number"):
            LLMSettings.from_config(cfg("http://h/v1", timeout=bad))
    with pytest.raises(ValueError, match="client must be one of"):
        LLMSettings.from_config(cfg("http://h/v1", client="requests"))
    assert served_model("openai/x") == "x" and served_model("gemini/g") == "gemini/g"
    assert speaks_openai_http("hosted_vllm/a/b") and not speaks_openai_http("anthropic/claude")


def test_the_fast_path_never_imports_litellm():
    script = (
        "import asyncio, sys\n"
        "from tests.support.loopback_server import Loopback\n"
        "import comma_env\n"
        "from comma_env.agents.llm import LiteLLMPolicy\n"
        "from comma_env.agents.runner import run_episode\n"
        "with Loopback() as srv:\n"
        "    policy = LiteLLMPolicy(dict(kind='litellm', name='l', model='openai/l', api_base=srv.api_base,\n"
        "                                vision=False))\n"
        "    env = comma_env.make('wire', solver_view='text'); env.reset(seed=1)\n"
        "    async def main():\n"
        "        try:\n"
        "            return await run_episode(env, policy.player('solver', env, 1), policy.player('expert', env, 1))\n"
        "        finally:\n"
        "            await policy.aclose()\n"
        "    result = asyncio.run(main())\n"
        "assert result.error is None and result.summary['success'], result.error\n"
        "print('litellm' in sys.modules, 'openai' in sys.modules)\n"
    )
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False"]
