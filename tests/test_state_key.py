"""`Puzzle.state_key` is kept per state version (the repetition-loop detector asks before
every action): the cached key must always equal the state's fresh JSON, which also checks
that every state change bumps the version."""

from __future__ import annotations

import json

import numpy as np
import pytest

import comma_env
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES


@pytest.mark.parametrize("puzzle", COMMA_PUZZLES + V1_PUZZLES)
def test_cached_state_key_is_the_current_state(puzzle: str) -> None:
    env = comma_env.make(puzzle, solver_view="text")
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(20):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            state = env.unwrapped.puzzle
            assert state.state_key() == json.dumps(state.visible_state(), sort_keys=True)
            checked += 1
            if terminated or truncated:
                env.step(None)
            elif agent == "solver":
                actions = info["valid_actions"]
                env.step("\n".join(actions[i] for i in rng.integers(len(actions), size=int(rng.integers(1, 3)))))
            else:
                env.step("")
    assert checked > 40
