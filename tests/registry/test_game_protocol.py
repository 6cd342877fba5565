"""Every registered puzzle is a `Game` (`comma_env.protocol.game`), the one thing the rollout,
its results and the chat policies know of it: COMMA's solver/expert puzzles and AsymPuzl's
alice/bob game alike."""

from __future__ import annotations

import json

import pytest

import comma_env
from comma_env.protocol.game import Game, RunOptions
from comma_env.protocol.prompts import IMAGE_MARK, as_text
from comma_env.registry import game
from comma_env.run.settings import SETTING_KEYS
from tests.support.registered import games


@pytest.mark.parametrize("puzzle", games())
def test_every_puzzle_plays_through_the_game_protocol(puzzle):
    played = game(puzzle)
    options = RunOptions(max_turns=4, solver_view="image")
    env = comma_env.make(puzzle, **played.env_options(options))
    env.reset(seed=0)
    raw = env.unwrapped
    assert isinstance(raw, Game) and type(raw) is played
    assert set(played.slots) == {"solver", "expert"} and sorted(played.slots.values()) == sorted(raw.possible_agents)
    settings = played.record_settings(options)
    assert set(SETTING_KEYS) <= set(settings)
    json.dumps(raw.initial_state())
    for agent in env.agent_iter(max_iter=6):  # what each agent is shown, as messages and as obs["text"]
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        image = IMAGE_MARK if "image" in observation else None
        messages = raw.messages(agent, observation, info, image)
        assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
        assert observation["text"] == as_text(messages)
        env.step("hello")
    summary = dict(raw.episode_summary())
    assert summary["puzzle"] == puzzle and isinstance(raw.transcript, list) and raw.transcript
    metrics = played.results([summary])
    assert metrics is None or played.results_markdown(metrics)
