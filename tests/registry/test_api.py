"""PettingZoo conformance of every registered puzzle in both views: api_test, seed_test, its id
in PettingZoo's registry, the facts table of its module, what every agent is handed (the
contracts of comma_env.protocol.contracts), the text view, and `visible_state`, the complete,
JSON-serialisable truth of the picture whose every key the module's docstring documents, so an
independent describer or checker can be written from the docs alone."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import comma_env
from comma_env.protocol import contracts
from comma_env.protocol.text import parse_description
from comma_env.registry import env_id, env_module, puzzle_spec
from tests.support.contracts import conforms
from tests.support.registered import puzzles

pytestmark = pytest.mark.parametrize("puzzle", puzzles())


@pytest.mark.parametrize("solver_view", ["image", "text"])
def test_api_test(puzzle: str, solver_view: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(comma_env.make(puzzle, solver_view=solver_view), num_cycles=300 if solver_view == "image" else 100)


def test_seed_test(puzzle: str) -> None:
    seed_test(env_module(puzzle).env, num_cycles=100)


def test_registered_in_pettingzoo(puzzle: str) -> None:
    env = pettingzoo.make("aec", env_id(puzzle))
    env.reset(seed=3)
    assert env.unwrapped.metadata["name"] == f"{puzzle}_v{puzzle_spec(puzzle).version}"
    assert env.possible_agents == ["solver", "expert"]


def test_versioned_module_has_facts_table(puzzle: str) -> None:
    module = env_module(puzzle)
    assert module.__doc__ and "| Creation" in module.__doc__ and puzzle_spec(puzzle).env_id in module.__doc__
    assert isinstance(module.raw_env(), pettingzoo.AECEnv)


def test_what_each_agent_is_handed_follows_the_contracts(puzzle: str) -> None:
    """A random episode: every observation, info, the summary and the transcript have the
    contracts' keys and types, and infos are plain JSON."""
    env = comma_env.make(puzzle, max_turns=3)
    env.reset(seed=4)
    kinds = {"solver": (contracts.SolverObservation, contracts.SolverInfo),
             "expert": (contracts.ExpertObservation, contracts.ExpertInfo)}
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        observation_type, info_type = kinds[agent]
        conforms(observation, observation_type, f"{agent} observation")
        conforms(info, info_type, f"{agent} info")
        json.dumps(info)
        env.step(None if terminated or truncated else env.action_space(agent).sample())
    summary, transcript = env.unwrapped.episode_summary(), env.unwrapped.transcript
    conforms(summary, contracts.EpisodeSummary, "summary")
    conforms(transcript, list[contracts.TurnRecordDict], "transcript")
    json.dumps([summary, transcript])


def test_the_text_view_writes_the_picture_out(puzzle: str) -> None:
    """With ``solver_view="text"`` the solver is handed no picture: its info's description is
    the visible state (less the keys only the drawing needs), written out and inside its text,
    after every step of random play (the description is written again when the state changes)."""
    env = comma_env.make(puzzle, solver_view="text")
    raw = env.unwrapped
    hidden = raw.puzzle_cls.drawing_only_keys
    rng = np.random.default_rng(0)
    for seed in range(5):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if agent == "solver":
                assert "image" not in observation and "image" not in env.observation_space("solver").spaces
                assert info["description"] == raw.describe() and info["description"] in observation["text"]
                visible = {k: v for k, v in raw.visible_state.items() if k not in hidden}
                assert parse_description(info["description"]) == visible
            actions = info.get("valid_actions") or [""]
            typed = "\n".join(str(actions[rng.integers(len(actions))]) for _ in range(3)) if agent == "solver" else ""
            env.step(None if terminated or truncated else typed)


def _documented_keys(puzzle: str) -> set[str]:
    doc = env_module(puzzle).__doc__ or ""
    assert "## Visible state" in doc, f"{puzzle}: no 'Visible state' section in the module docstring"
    section = doc.split("## Visible state", 1)[1]
    return set(re.findall(r"^- `([a-z_]+)`:", section, flags=re.MULTILINE))


def test_visible_state_keys_are_documented_and_json(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    seen: set[str] = set()
    for seed in range(20):
        env.reset(seed=seed)
        state = env.unwrapped.visible_state
        assert json.loads(json.dumps(state)) == state
        seen |= set(state)
    assert seen == _documented_keys(puzzle)
