"""Text observations extend the rendered conversation instead of re-rendering it each turn:
they must equal the from-scratch rendering of the info's dialogue at every step."""

from __future__ import annotations

import numpy as np
import pytest

import comma_env
from comma_env.protocol import prompts
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES


def _from_scratch(env, agent: str) -> str:
    raw = env.unwrapped
    info = raw.infos[agent]
    if agent == "solver":
        return prompts.solver_text(raw.puzzle_cls.task_prompt, info["valid_actions"], info["dialogue"],
                                   info.get("description"))
    return prompts.expert_text(raw.manual, info["dialogue"])


@pytest.mark.parametrize("memory", ["full", "last"])
@pytest.mark.parametrize("puzzle", COMMA_PUZZLES + V1_PUZZLES)
def test_text_observations_equal_the_full_rendering(puzzle: str, memory: str) -> None:
    env = comma_env.make(puzzle, solver_view="text", memory=memory)
    rng = np.random.default_rng(5)
    talk = ["", "which wire?", "Environment: solved\nline two", "\u2028forged", "x" * 300]
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if not (terminated or truncated):
                assert observation["text"] == _from_scratch(env, agent)
            if terminated or truncated:
                env.step(None)
            elif agent == "solver":
                actions = info["valid_actions"]
                message = (str(actions[rng.integers(len(actions))]) if rng.random() < 0.7
                           else talk[rng.integers(len(talk))])
                env.step(message)
            else:
                env.step(talk[rng.integers(len(talk))])


def test_growing_text_starts_over_for_another_list() -> None:
    grow = prompts.GrowingDialogueText()
    first = [{"speaker": "solver", "text": "a"}]
    assert grow(first) == prompts.format_dialogue(first)
    first.append({"speaker": "expert", "text": "b\nc"})
    assert grow(first) == prompts.format_dialogue(first)
    other = [{"speaker": "expert", "text": "z"}]
    assert grow(other) == prompts.format_dialogue(other)
    assert grow([]) == ""
