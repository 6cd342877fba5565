"""Bad input is normal input for every registered puzzle: thousands of random steps of garbage,
random unicode and real actions raise nothing; the scripted players read garbage from their
partner (long runs of every character class: tests/registry/test_long_messages.py)."""

from __future__ import annotations

import numpy as np
import pytest

import comma_env
from tests.support.long_runs import LONG_RUNS
from tests.support.registered import puzzles

GARBAGE = [
    "",
    "   \n\t  ",
    "x" * 100_000,
    "<think>cut everything\n</think>",
    "<think>never closed",
    "**press**\n`submit`\n- cut_wire_1",
    "```\ncode block\n```",
    "中文 ж 🙂💣 \u200b\u00a0",
    "\ud800\udfff broken surrogates",
    "\x00\x01\x02 control chars",
    "\n" * 5000,
]


@pytest.mark.parametrize("puzzle", puzzles())
def test_ten_thousand_garbage_steps(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    env.action_space("solver").seed(0)
    episodes = 0
    for step in range(10_000):
        if not env.agents:
            episodes += 1
            env.reset(seed=step)
            continue
        agent = env.agent_selection
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        kind = rng.integers(4)
        valid = info.get("valid_actions") or [""]
        if kind == 0:
            action = GARBAGE[rng.integers(len(GARBAGE))]
        elif kind == 1:
            action = env.action_space(agent).sample()
        elif kind == 2:  # real actions mixed with noise, in random order
            picks = rng.choice(len(valid), size=min(3, len(valid)), replace=False)
            action = "\n".join([valid[i] for i in picks] + [GARBAGE[rng.integers(len(GARBAGE))][:50]])
        else:
            action = valid[rng.integers(len(valid))]
        env.step(action)
        assert 0.0 <= env.unwrapped.best_progress <= 1.0
    assert episodes > 10


@pytest.mark.parametrize("puzzle", puzzles())
@pytest.mark.parametrize("policy_name", ["oracle", "realistic"])
def test_scripted_players_survive_garbage(puzzle: str, policy_name: str) -> None:
    """The scripted players parse the other agent's message too (descriptions, advice)."""
    import asyncio

    from comma_env.agents.factory import make_policy

    env = comma_env.make(puzzle)
    env.reset(seed=0)
    policy = make_policy({"kind": policy_name, "name": policy_name})
    solver, expert = policy.player("solver", env, 0), policy.player("expert", env, 0)
    bad_description = ("bad_description",
                       "I see:\nstage: \"x\"\nbutton labels left to right: [[[]]]\ndisplay number: null")
    for name, run in LONG_RUNS[::3] + [bad_description]:
        for player, speaker in ((expert, "solver"), (solver, "expert")):
            for text in (run, "I see:\n" + run, "Type these actions:\n" + run, "withdraw $" + "9" * 5000,
                         "cut_wire_1\nI see:\n" + run):
                reply = asyncio.run(player.act({}, {"dialogue": [{"speaker": speaker, "text": text}]}))
                assert isinstance(reply.text, str), name
