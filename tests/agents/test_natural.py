"""The natural-language oracle (comma_env/agents/oracle.py, style "natural"): it solves every instance,
its expert never writes an action name, its wording varies with the seed, and its solver
resolves directions against what it sees rather than copying tokens."""

from __future__ import annotations

import re

import numpy as np
import pytest

import comma_env
from comma_env.agents.factory import make_policy
from comma_env.agents.natural import prose
from comma_env.agents.natural.phrasebooks import phrasebook
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.runner import play
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES
from comma_env.rl.partners import model_config

PUZZLES = COMMA_PUZZLES + V1_PUZZLES  # the ten COMMA puzzles and v1's Button, Dog, Sound


def play_natural(puzzle: str, seed: int, policy_seed: int = 0):
    """One oracle_nl episode; also returns every action name valid at some point."""
    policy = OraclePolicy("natural", seed=policy_seed)
    env = comma_env.make(puzzle, solver_view="text")
    env.reset(seed=seed)
    vocabulary: set[str] = set(env.unwrapped.puzzle.valid_actions())

    class Recording:
        def __init__(self, player):
            self.player, self.needs_observation = player, player.needs_observation

        async def act(self, observation, info):
            vocabulary.update(env.unwrapped.puzzle.valid_actions())
            return await self.player.act(observation, info)

    result = play(env, Recording(policy.player("solver", env, seed)), policy.player("expert", env, seed))
    return result, vocabulary


def names_action(text: str, names: set[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", text, re.IGNORECASE)]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_natural_oracle_solves_every_paper_instance_without_naming_actions(puzzle):
    for seed in range(100):
        result, vocabulary = play_natural(puzzle, seed)
        summary = result.summary
        assert summary["success"] and summary["mistakes"] == 0, (puzzle, seed, summary)
        assert summary["turns"] <= 10
        for turn in result.transcript:
            expert = turn["expert"] or ""
            assert not names_action(expert, vocabulary), (puzzle, seed, expert)
            assert not any(line.strip() in vocabulary for line in expert.splitlines())


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_expert_never_names_an_action_on_more_seeds_and_policy_seeds(puzzle):
    for seed in range(100, 160):
        result, vocabulary = play_natural(puzzle, seed, policy_seed=seed % 7)
        for turn in result.transcript:
            assert not names_action(turn["expert"] or "", vocabulary), (puzzle, seed)


def test_wording_varies_with_the_seed_and_repeats_for_the_same_seed():
    first = [play_natural("wire", s)[0].transcript[0]["expert"] for s in range(40)]
    again = [play_natural("wire", s)[0].transcript[0]["expert"] for s in range(40)]
    other = [play_natural("wire", s, policy_seed=1)[0].transcript[0]["expert"] for s in range(40)]
    assert first == again
    assert first != other
    instructions = {re.sub(r"\d|first|second|third|fourth|fifth|sixth|\w+ wire", "#", line)
                    for message in first for line in message.splitlines()}
    assert len(instructions) >= 8  # several sentence shapes, not one template
    descriptions = {play_natural("who", s)[0].transcript[0]["solver"].splitlines()[0] for s in range(30)}
    assert len(descriptions) >= 3  # the solver's prose varies too


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_prose_descriptions_read_back_exactly(puzzle):
    for seed in range(100):
        env = comma_env.make(puzzle)
        env.reset(seed=seed)
        state = type(env.unwrapped.puzzle).redact(env.unwrapped.visible_state)
        text = prose.describe(state, np.random.default_rng(seed))
        assert prose.read(text) == state
        assert "{" not in text and "[" not in text  # prose, not JSON


def state_of(puzzle: str, seed: int):
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    return env.unwrapped.puzzle_cls, env.unwrapped.visible_state


def test_solver_resolves_references_against_what_it_sees():
    cls, state = state_of("wire", 1)  # blue, yellow, black, red
    book = phrasebook(cls)
    assert book.understand("Cut the last wire.", state) == ["cut_wire_4"]
    assert book.understand("Cut the only yellow wire.", state) == ["cut_wire_2"]
    assert book.understand("The one you want is wire three.", state) == ["cut_wire_3"]
    assert book.understand("Thanks, that helps.", state) == []
    cls, state = state_of("who", 1)  # top_right says OKAY, middle_left says DONE
    book = phrasebook(cls)
    assert book.understand('Press the button that says "OKAY".', state) == ["press_top_right"]
    assert book.understand("Press the middle-left one.", state) == ["press_middle_left"]
    assert book.understand('The one you want is "DONE".', state) == ["press_middle_left"]
    cls, state = state_of("color", 1)
    book = phrasebook(cls)
    assert book.understand("Tap the fourth square of the first row.", state) == ["press_1_4"]
    assert book.understand("Press row two column three, the blue one.", state) == ["press_2_3"]
    cls, state = state_of("maze", 1)
    book = phrasebook(cls)
    assert book.understand("Go forward three squares.", state) == ["move_forward"] * 3
    assert book.understand("Turn to your left twice.", state) == ["turn_left"] * 2
    assert book.understand("Back up 2 squares.", state) == ["move_backward"] * 2
    cls, state = state_of("password", 1)
    book = phrasebook(cls)
    assert book.understand("Roll window two back three times.", state) == ["cycle_down_2"] * 3
    assert book.understand("Lock in the word.", state) == ["submit"]
    cls, state = state_of("telehealth", 1)
    book = phrasebook(cls)
    assert book.understand("From what you describe, it is a melanoma.", state) == ["diagnose_mel"]
    assert book.understand("Freeze it off.", state) == ["treat_cryotherapy"]


def test_label_words_that_look_like_directions_are_read_as_labels():
    cls, state = state_of("who", 0)
    state = dict(state, button_labels={"top_left": "LEFT", "top_right": "RIGHT", "middle_left": "MIDDLE",
                                       "middle_right": "NO", "bottom_left": "YES", "bottom_right": "WAIT"})
    assert phrasebook(cls).understand('Press the button that says "LEFT", upper left.', state) == ["press_top_left"]


def test_model_config_oracle_nl_selects_the_natural_style_and_oracle_keeps_actions():
    natural = make_policy(model_config("oracle_nl"))
    plain = make_policy(model_config("oracle"))
    assert isinstance(natural, OraclePolicy) and natural.style == "natural" and natural.name == "oracle_nl"
    assert plain.style == "actions" and plain.name == "oracle"
    with pytest.raises(ValueError, match="style"):
        OraclePolicy("poetic")
