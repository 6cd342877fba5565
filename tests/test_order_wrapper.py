"""`OrderEnforced` behaves as PettingZoo's `OrderEnforcingWrapper` and reads per turn without
its ``__getattr__`` (the cost it exists to remove)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import comma_env
from comma_env import asympuzl_v0, wire_v0
from comma_env.protocol.order import OrderEnforced

GUARDED = ("agent_selection", "agents", "num_agents", "rewards", "terminations", "truncations", "infos")


@pytest.mark.parametrize("make", [wire_v0.env, asympuzl_v0.env, lambda: comma_env.make("dog")])
def test_env_is_an_order_enforcing_wrapper_with_the_same_str(make: Any) -> None:
    env = make()
    assert isinstance(env, OrderEnforced) and isinstance(env, OrderEnforcingWrapper)
    assert str(env) == str(OrderEnforcingWrapper(env.unwrapped)) == str(env.unwrapped)


@pytest.mark.parametrize("name", GUARDED)
def test_reads_before_reset_fail_as_in_pettingzoo(name: str) -> None:
    ours, theirs = wire_v0.env(), OrderEnforcingWrapper(wire_v0.raw_env())
    with pytest.raises(AttributeError) as mine:
        getattr(ours, name)
    with pytest.raises(AttributeError) as reference:
        getattr(theirs, name)
    assert str(mine.value) == str(reference.value)
    assert not hasattr(ours, name)


def test_calls_before_reset_fail_as_in_pettingzoo() -> None:
    ours, theirs = wire_v0.env(), OrderEnforcingWrapper(wire_v0.raw_env())
    for call in (lambda env: env.step("hello"), lambda env: env.observe("solver"), lambda env: env.last()):
        with pytest.raises(Exception) as mine:
            call(ours)
        with pytest.raises(Exception) as reference:
            call(theirs)
        assert type(mine.value) is type(reference.value) and str(mine.value) == str(reference.value)


def _play(env: Any, seed: int, turns: int) -> list[tuple[Any, ...]]:
    """A random episode's every ``last()`` and the env's bookkeeping after each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    seen = []
    for count, agent in enumerate(env.agent_iter()):
        observation, reward, terminated, truncated, info = env.last()
        seen.append((agent, observation["text"], reward, terminated, truncated, info.get("valid_actions"),
                     dict(env.rewards), list(env.agents), env.num_agents, dict(env._cumulative_rewards)))
        if terminated or truncated:
            env.step(None)
            continue
        actions = info.get("valid_actions") or []
        env.step(str(actions[rng.integers(len(actions))]) if actions and agent == "solver" else "go on")
        if count > turns:
            break
    return seen


def test_an_episode_reads_the_same_as_through_pettingzoos_wrapper() -> None:
    for seed in range(3):
        assert _play(wire_v0.env(), seed, 40) == _play(OrderEnforcingWrapper(wire_v0.raw_env()), seed, 40)


def test_a_turn_reads_nothing_through_getattr(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read of an AEC loop is a property or a method: the slow fallback is never hit."""
    looked_up: list[str] = []
    fallback = OrderEnforcingWrapper.__getattr__

    def counting(self: OrderEnforcingWrapper, name: str) -> Any:
        looked_up.append(name)
        return fallback(self, name)

    env = wire_v0.env()
    env.reset(seed=0)
    monkeypatch.setattr(OrderEnforcingWrapper, "__getattr__", counting)
    _play(env, 0, 40)
    assert looked_up == []


def _step_after_the_end(env: Any) -> None:
    env.reset(seed=0)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else "hello")
    assert env.agents == []
    env.step("hello")


def test_stepping_after_the_end_warns_as_in_pettingzoo(caplog: pytest.LogCaptureFixture) -> None:
    _step_after_the_end(OrderEnforcingWrapper(wire_v0.raw_env(max_turns=1)))
    theirs = [record.getMessage() for record in caplog.records]
    caplog.clear()
    _step_after_the_end(wire_v0.env(max_turns=1))
    assert [record.getMessage() for record in caplog.records] == theirs
    assert any("called after all agents are terminated" in message for message in theirs)
