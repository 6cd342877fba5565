"""PettingZoo conformance of every puzzle: api_test, seed_test, registry, determinism."""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import comma_env
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES, env_id, env_module


def test_api_test(puzzle_name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(comma_env.make(puzzle_name), num_cycles=300)


def test_seed_test(puzzle_name: str) -> None:
    seed_test(env_module(puzzle_name).env, num_cycles=100)


def test_registered_in_pettingzoo(puzzle_name: str) -> None:
    env = pettingzoo.make("aec", env_id(puzzle_name))
    env.reset(seed=3)
    assert env.unwrapped.metadata["name"] == f"{puzzle_name}_v0"
    assert env.possible_agents == ["solver", "expert"]


def test_versioned_module_has_facts_table(puzzle_name: str) -> None:
    module = env_module(puzzle_name)
    assert module.__doc__ and "| Creation" in module.__doc__ and f"comma/{puzzle_name}-v0" in module.__doc__
    assert isinstance(module.raw_env(), pettingzoo.AECEnv)


def _image_digest(puzzle: str, seed: int) -> str:
    env = comma_env.make(puzzle, render_mode="rgb_array")
    env.reset(seed=seed)
    return hashlib.sha256(env.render().tobytes()).hexdigest()


def test_same_seed_same_image_bytes(puzzle_name: str) -> None:
    digests = {_image_digest(puzzle_name, 7) for _ in range(2)}
    assert len(digests) == 1


def test_images_are_legible_size(puzzle_name: str) -> None:
    env = comma_env.make(puzzle_name, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert max(image.shape[:2]) <= 1024 and min(image.shape[:2]) >= 256
    assert image.std() > 5, "image looks blank"
    assert env.observation_space("solver")["image"].contains(image)


def _frozen_inside(value: object) -> bool:
    """Whether `value` holds a frozen list or dict (`comma_env.protocol.frozen`) anywhere."""
    from comma_env.protocol.frozen import FrozenDict, FrozenList

    if isinstance(value, (FrozenList, FrozenDict)):
        return True
    if isinstance(value, dict):
        return any(_frozen_inside(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_frozen_inside(item) for item in value)
    return False


@pytest.mark.parametrize("puzzle", [*COMMA_PUZZLES, *V1_PUZZLES])
def test_drawn_state_equals_visible_state(puzzle: str) -> None:
    """What the drawing reads (`Puzzle.drawn_state`, which may share the puzzle's own
    values, frozen) is the visible state, at every turn of random play; the visible state
    itself holds plain, editable lists and dicts."""
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(0)
    compared = 0
    for seed in range(10):  # random play ends some puzzles' episodes in a few turns
        env.reset(seed=seed)
        for _ in range(40):
            if env.unwrapped.end_reason is not None:
                break
            rules = env.unwrapped._puzzle()
            visible = rules.visible_state()
            assert rules.drawn_state() == visible
            assert not _frozen_inside(visible)  # what a caller gets is its own to edit
            compared += 1
            actions = rules.valid_actions() if env.agent_selection == "solver" else []
            env.step(str(rng.choice(actions)) if len(actions) else "ok")
    assert compared > 10


def test_visible_state_is_json(puzzle_name: str) -> None:
    import json

    env = comma_env.make(puzzle_name)
    for seed in range(5):
        env.reset(seed=seed)
        state = env.unwrapped.visible_state
        assert json.loads(json.dumps(state)) == state
