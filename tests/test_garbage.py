"""Bad input is normal input: 10,000 garbage steps per puzzle raise nothing."""

from __future__ import annotations

import numpy as np

import comma_env

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


def test_ten_thousand_garbage_steps(puzzle_name: str) -> None:
    env = comma_env.make(puzzle_name)
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
