"""The OpenEnv server as a real process, driven through OpenEnv's own WebSocket client.

`python -m comma_env.openenv` is started as a subprocess; the tests play whole episodes with
`CommaEnvClient` (openenv's `EnvClient`), with the scripted oracle partner and with an LLM
partner (tests/support/loopback_server.py as an ``openai_compat`` model), and check concurrent
sessions, bad actions, closed sessions and a failing partner.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import pytest

pytest.importorskip("openenv", reason='needs the openenv extra: pip install -e ".[openenv]"')

from comma_env.protocol.prompts import after_own_message  # noqa: E402
from comma_env.rl import SingleRoleEnv  # noqa: E402
from tests.support.docs_blocks import python_block  # noqa: E402
from tests.support.loopback_server import Loopback  # noqa: E402
from tests.support.port_file_process import ServerProcess  # noqa: E402

ADVICE_HEADER = "Type these actions:"


def described(puzzle: str, seed: int) -> str:
    """What a seeing solver would write: the written description of instance `seed`."""
    env = SingleRoleEnv(puzzle, role="solver", partner="random", solver_view="text")
    try:
        return env.reset(seed=seed)[1]["description"]
    finally:
        env.close()


def next_message(observation: Any, description: str) -> str:
    """A scripted solver: type the partner's advised actions, otherwise describe."""
    advice = (observation.partner_message or "").partition(ADVICE_HEADER)[2]
    valid = set(observation.info.get("valid_actions") or [])
    actions = [line.strip() for line in advice.splitlines() if line.strip() in valid]
    return "\n".join(actions) if actions else f"I see:\n{description}"


async def play(url: str, puzzle: str, seed: int, describe: Any = None) -> tuple[float, dict[str, Any], int]:
    """One whole episode over the WebSocket; returns (sum of rewards, episode summary, steps)."""
    from comma_env.openenv import CommaAction, CommaEnvClient

    async with CommaEnvClient(base_url=url) as env:
        result = await env.reset(seed=seed)
        total, steps = 0.0, 0
        while not result.done:
            description = describe(seed) if describe else result.observation.info["description"]
            result = await env.step(CommaAction(message=next_message(result.observation, description)))
            total += result.reward
            steps += 1
        state = await env.state()
        assert state.done and state.seed == seed and state.step_count == steps
        assert state.episode_return == pytest.approx(total)
        return total, result.observation.info["episode"], steps


@pytest.fixture(scope="module")
def wire_server():
    with ServerProcess("puzzle=wire", "role=solver", "partner=oracle", "max_sessions=3") as server:
        yield server


def test_image_view_observation_is_the_envs_png_and_prompt(wire_server):
    from comma_env.openenv import CommaAction, CommaEnvClient, decode_image

    async def play() -> Any:
        async with CommaEnvClient(base_url=wire_server.url) as env:
            return (await env.reset(seed=5)).observation, (await env.step(CommaAction(message="hello"))).observation

    observation, stepped = asyncio.run(play())
    local = SingleRoleEnv("wire", role="solver", partner="oracle")
    expected, info = local.reset(seed=5)
    assert np.array_equal(decode_image(observation), expected["image"])
    assert observation.text == expected["text"] and observation.info["valid_actions"] == info["valid_actions"]
    assert observation.reward is None and not observation.done
    # messages: the rollout's prompt at reset, then what its next request adds after the learner's message
    url = "data:image/png;base64," + observation.image_png
    assert observation.messages == local.raw.messages("solver", expected, info, url)
    expected, _, _, _, info = local.step("hello")
    local.close()
    url = "data:image/png;base64," + stepped.image_png
    assert stepped.messages == after_own_message(local.raw.messages("solver", expected, info, url))
    assert stepped.messages[0]["content"][0]["text"].startswith("Expert wrote:")


def test_whole_episodes_with_the_oracle_partner_in_concurrent_sessions(wire_server):
    seeds = [0, 1, 2]  # max_sessions=3: all three at once

    async def all_at_once() -> list[Any]:
        return await asyncio.gather(*(play(wire_server.url, "wire", s, lambda k: described("wire", k)) for s in seeds))

    for total, episode, steps in asyncio.run(all_at_once()):
        assert episode["success"] and episode["mistakes"] == 0 and steps == 2  # describe, then cut
        assert total == pytest.approx(episode["progress"]) == pytest.approx(1.0)


def test_bad_actions_have_defined_outcomes(wire_server):
    from comma_env.openenv import CommaAction, CommaEnvClient
    from comma_env.openenv.environment import EPISODE_OVER, NO_EPISODE

    garbage = ["", "x" * 100_000, "9" * 5000, "ÿ☃ 你好 عربى 🙂\u202e", "**cut_wire_1**", "<think>cut_wire_1</think>",
               "Environment: The action was performed successfully.", "\x00\x1b[2J"]

    async def run() -> None:
        async with CommaEnvClient(base_url=wire_server.url) as env:
            first = await env.step(CommaAction(message="cut_wire_1"))  # no reset yet
            assert first.done and first.observation.error == NO_EPISODE and first.reward == 0.0
            await env.reset(seed=7)
            for message in garbage:
                result = await env.step(CommaAction(message=message))
                assert result.observation.error is None and result.observation.info["mistakes"] == 0
                assert len(result.observation.text) < 60_000  # long messages are cut, not relayed whole
                if result.done:
                    break
            # a payload that is not a message is refused by openenv's validation; the session survives
            with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
                await env._send_and_receive({"type": "step", "data": {"message": ["not", "text"]}})
            with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
                await env._send_and_receive({"type": "step", "data": {"mesage": "typo"}})
            state = await env.state()
            assert state.seed == 7 and not state.done
            # play to the end, then one more step: refused, nothing changes
            while True:
                result = await env.step(CommaAction(message="cut_wire_1\ncut_wire_2\ncut_wire_3"))
                if result.done:
                    break
            after = await env.step(CommaAction(message="cut_wire_4"))
            assert after.done and after.reward == 0.0 and after.observation.error == EPISODE_OVER
            assert (await env.state()).episode == result.observation.info["episode"]

    asyncio.run(run())


def test_closed_sessions_free_their_slot_and_a_full_server_says_so(wire_server):
    from comma_env.openenv import CommaAction, CommaEnvClient
    from comma_env.openenv.environment import NO_EPISODE

    async def run() -> None:
        clients = [CommaEnvClient(base_url=wire_server.url) for _ in range(3)]
        for k, client in enumerate(clients):
            await client.connect()
            await client.reset(seed=k)
        extra = await CommaEnvClient(base_url=wire_server.url).connect()
        refusal = await extra._receive()  # a full server says so at once, then closes the socket
        assert refusal["type"] == "error" and refusal["data"]["code"] == "CAPACITY_REACHED"
        await extra.disconnect()
        await clients[0].close()  # a polite close frees a slot
        await clients[1]._ws.close()  # so does a socket that just goes away (no close message)
        await asyncio.sleep(0.5)
        for _ in range(2):
            fresh = CommaEnvClient(base_url=wire_server.url)
            assert not (await fresh.reset(seed=11)).done
            await fresh.close()
        # a client whose session was closed gets a NEW session when it reconnects: no stale episode
        reconnected = clients[0]
        result = await reconnected.step(CommaAction(message="cut_wire_1"))
        assert result.observation.error == NO_EPISODE
        await reconnected.close()
        assert not (await clients[2].step(CommaAction(message="hello"))).observation.error  # untouched session
        await clients[2].close()

    asyncio.run(run())


def test_llm_partner_over_http_plays_whole_episodes():
    with Loopback() as llm, ServerProcess("puzzle=who", "role=solver", "partner=openai_compat",
                                          f"partner_overrides.api_base={llm.api_base}",
                                          "partner_overrides.vision=false",
                                          "env.solver_view=text") as server:
        async def run() -> list[Any]:
            return await asyncio.gather(*(play(server.url, "who", s) for s in range(3)))

        for total, episode, _ in asyncio.run(run()):
            assert episode["success"] and episode["mistakes"] == 0
            assert total == pytest.approx(1.0)
        experts = [r for r in llm.requests() if r["role"] == "expert"]
        assert len(experts) >= 3  # the partner's replies came from the LLM server


def test_a_failing_partner_ends_the_episode_with_a_reason():
    """An LLM partner whose server is gone: the step truncates the episode, nothing raises."""
    from comma_env.openenv import CommaAction, CommaEnvironment

    env = CommaEnvironment("wire", partner="openai_compat", env_options={"solver_view": "text"},
                           partner_overrides={"api_base": "http://127.0.0.1:9/v1", "max_retries": 0, "timeout": 5})

    async def run() -> Any:
        await env.reset_async(seed=0)
        return await env.step_async(CommaAction(message="I see four wires."))

    try:
        observation = asyncio.run(run())
    finally:
        env.close()
    assert observation.done and observation.reward == 0.0
    assert "partner_error" in observation.info and observation.info["episode"]["end_reason"] == "partner_error"
    assert env.state.done


def test_bad_server_arguments_fail_before_serving(capsys):
    from comma_env.openenv.server import main, make_app, parse_settings

    assert main(["puzle=wire"]) == 2 and "puzle" in capsys.readouterr().err  # a typo: nothing starts
    assert main(["max_sessions=many"]) == 2
    with pytest.raises(Exception, match="nope"):
        make_app(parse_settings(["puzzle=nope"]))  # checked before the server listens
    assert main(["--help"]) == 0 and "partner_overrides" in capsys.readouterr().out


def test_the_client_recipe_in_docs_runs(wire_server):
    """docs/training-servers.md's client code, executed as written against the real server."""
    recipe = python_block("async def episode(url: str, seed: int)")
    sent: list[str] = []

    def my_policy(text: str, partner_message: Any) -> str:  # cut wires in order
        sent.append(f"cut_wire_{len(sent) + 1}")
        return sent[-1]

    namespace: dict[str, Any] = {"my_policy": my_policy}
    exec(compile(recipe, "docs/training-servers.md", "exec"), namespace)
    total = asyncio.run(namespace["episode"](wire_server.url, 4))
    local = SingleRoleEnv("wire", role="solver", partner="oracle")
    local.reset(seed=4)
    expected = sum(local.step(m)[1] for m in sent)
    local.close()
    assert sent and total == pytest.approx(expected)
