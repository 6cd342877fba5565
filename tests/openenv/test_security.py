"""The OpenEnv server against issue 22's findings: a real `python -m comma_env.openenv` process,
driven over raw WebSockets (the `websockets` library) and OpenEnv's own client.

Bad frames get an error and the episode lives on; a client dropped mid-step frees its slot at
once; an idle socket is closed after `session_timeout`; Host and Origin are checked; a
partner's error never carries the partner's input to the learner; the expert never learns
the instance's seed.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest

pytest.importorskip("openenv", reason='needs the openenv extra: pip install -e ".[openenv]"')

import websockets  # noqa: E402

from tests.support.loopback_server import Loopback  # noqa: E402
from tests.support.port_file_process import ServerProcess  # noqa: E402
from tests.support.quoting_llm import QuotingLLM, atm_secrets  # noqa: E402


def ws_url(server: ServerProcess) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


async def call(ws, message: dict | str | bytes) -> dict:
    await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
    return json.loads(await ws.recv())


@pytest.fixture(scope="module")
def server():
    """One server with the default settings, for the tests that need no other (each server
    process imports OpenEnv anew)."""
    with ServerProcess("puzzle=wire", "role=solver", "partner=oracle") as running:
        yield running


@pytest.fixture(scope="module")
def impatient():
    """One server whose sessions time out after a second, with one slot (a freed slot shows)."""
    with ServerProcess("puzzle=wire", "role=solver", "partner=oracle", "max_sessions=1",
                       "session_timeout=1") as running:
        yield running


def test_bad_frames_get_an_error_and_the_episode_lives_on(server):
    async def run() -> None:
        async with websockets.connect(ws_url(server)) as ws:
            first = await call(ws, {"type": "reset", "data": {"seed": 3}})
            assert first["type"] == "observation" and not first["data"]["done"]
            for frame in ("[1, 2]", "5", '"step"', "null", "{not json", b"\x00\x01"):
                answer = await call(ws, frame)
                assert answer["type"] == "error" and answer["data"]["code"] == "INVALID_JSON", frame
            after = await call(ws, {"type": "step", "data": {"message": "I see four wires."}})
            assert after["type"] == "observation" and after["data"]["observation"]["info"]["turn"] == 1
            state = await call(ws, {"type": "state"})
            assert state["data"]["seed"] == 3 and state["data"]["step_count"] == 1  # the same episode
        async with websockets.connect(ws_url(server)) as ws:  # a frame past max_body_bytes (1 MB)
            await ws.send(json.dumps({"type": "step", "data": {"message": "x" * 2**21}}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1009  # message too big: never read whole

    asyncio.run(run())


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
def test_a_client_dropped_mid_step_frees_its_slot_at_once():
    with Loopback("--latency", "4") as llm, ServerProcess(
            "puzzle=wire", "role=solver", "partner=openai_compat", f"partner_overrides.api_base={llm.api_base}",
            "partner_overrides.vision=false", "env.solver_view=text", "max_sessions=1") as server:
        async def run() -> float:
            ws = await websockets.connect(ws_url(server))
            await call(ws, {"type": "reset", "data": {"seed": 0}})
            await ws.send(json.dumps({"type": "step", "data": {"message": "I see wires."}}))  # the partner takes 4 s
            await asyncio.sleep(0.5)
            ws.transport.abort()  # the client vanishes mid-step (no close frame)
            dropped = time.monotonic()
            while True:
                async with websockets.connect(ws_url(server)) as fresh:
                    answer = await call(fresh, {"type": "state"})
                    if answer["type"] != "error":
                        return time.monotonic() - dropped
                    assert answer["data"]["code"] == "CAPACITY_REACHED"
                await asyncio.sleep(0.1)

        assert asyncio.run(run()) < 2.0  # before: held until the 4 s step ended


def test_idle_sockets_are_closed_after_the_session_timeout(impatient):
    async def run() -> None:
        idle = await websockets.connect(ws_url(impatient))
        await call(idle, {"type": "reset", "data": {"seed": 1}})
        await asyncio.sleep(2.5)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await idle.recv()
        assert closed.value.rcvd.code == 1001
        async with websockets.connect(ws_url(impatient)) as fresh:  # its slot is free again
            assert (await call(fresh, {"type": "reset", "data": {"seed": 2}}))["type"] == "observation"

    asyncio.run(run())
    from comma_env.openenv.server import ServerSettings
    from comma_env.openenv.wsguard import DEFAULT_IDLE_TIMEOUT

    assert ServerSettings().session_timeout == DEFAULT_IDLE_TIMEOUT == 300.0  # the documented default


def test_deeply_nested_frames_get_an_error_and_the_session_lives_on(server):
    """A 100 KB `[[[...]]]` (under the size cap) once raised RecursionError past the frame
    guard and hung the session until its timeout (issue 58)."""
    deep = "[" * 50_000 + "]" * 50_000

    async def run() -> None:
        async with websockets.connect(ws_url(server)) as ws:
            await call(ws, {"type": "reset", "data": {"seed": 3}})
            for frame in (deep, '{"type": "step", "data": {"message": ' + deep + "}}",
                          '{"type": "step", "data": {"message": "' + "x" * 10 + '", "extra": ' + "[" * 900
                          + "]" * 900 + "}}"):
                answer = await asyncio.wait_for(call(ws, frame), 10)
                assert answer["type"] == "error", answer
            after = await call(ws, {"type": "step", "data": {"message": "I see four wires."}})
            assert after["type"] == "observation" and after["data"]["observation"]["info"]["turn"] == 1

    asyncio.run(run())


def test_silent_connections_are_closed_after_the_session_timeout(impatient):
    """A TCP connection that never sends a request (no WebSocket handshake either) is closed."""
    import socket

    silent = [socket.create_connection(("127.0.0.1", impatient.port), timeout=10) for _ in range(5)]
    started = time.monotonic()
    try:
        for sock in silent:
            assert sock.recv(1) == b""  # the server closed it (a timeout here raises)
        assert time.monotonic() - started < 8
    finally:
        for sock in silent:
            sock.close()


def test_host_and_origin_are_checked(server):
    assert httpx.get(f"{server.url}/health").status_code == 200
    assert httpx.get(f"{server.url}/health", headers={"Host": "attacker.example"}).status_code == 421
    assert httpx.post(f"{server.url}/reset", json={},
                      headers={"Origin": "http://attacker.example"}).status_code == 403
    assert "frame-ancestors 'none'" in httpx.get(f"{server.url}/health").headers["content-security-policy"]

    async def run() -> None:
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(ws_url(server), origin="http://attacker.example")
        async with websockets.connect(ws_url(server), origin=f"http://localhost:{server.port}") as ws:
            assert (await call(ws, {"type": "reset", "data": {"seed": 0}}))["type"] == "observation"

    asyncio.run(run())


def test_a_partner_error_never_carries_its_input_to_the_learner():
    from comma_env.openenv import CommaEnvironment
    from comma_env.openenv.environment import PARTNER_FAILED

    with QuotingLLM() as api_base:
        env = CommaEnvironment("atm", role="expert", partner="openai_compat", env_options={"solver_view": "text"},
                               partner_overrides={"api_base": api_base, "max_retries": 0, "vision": False})
        try:
            observation = env.reset(seed=5)
        finally:
            env.close()
    text = observation.model_dump_json()
    assert observation.info["partner_error"] == PARTNER_FAILED and env.state.done is False or observation.done
    assert not any(secret in text for secret in atm_secrets(5))
    assert "seed" not in (observation.info.get("episode") or {})


def test_the_expert_never_learns_the_seed():
    from comma_env.openenv import CommaAction, CommaEnvironment

    env = CommaEnvironment("atm", role="expert", partner="oracle")
    try:
        observation = env.reset()  # the trainer let the server choose: nobody on the client knows it
        while not observation.done:
            observation = env.step(CommaAction(message="Tell me what you see."))
    finally:
        env.close()
    assert observation.info["episode"]["end_reason"] and "seed" not in observation.info["episode"]
    assert "seed" not in json.dumps(observation.info) and env.state.seed is None
