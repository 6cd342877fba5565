"""PettingZoo conformance of every puzzle: api_test, seed_test, registry, determinism."""

from __future__ import annotations

import copy
import hashlib
import warnings

import numpy as np
import pettingzoo
from pettingzoo.test import api_test, seed_test

import comma_env
from comma_env.registry import env_id, env_module


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


def test_the_picture_is_the_drawing_of_the_visible_state(puzzle_name: str) -> None:
    """At every turn of random play, the picture handed out is the puzzle's drawing of its
    visible state, drawn anew (so every state change is seen), as a contiguous read-only
    uint8 array, the same array while nothing changes; drawing leaves the state as it was."""
    env = comma_env.make(puzzle_name)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    compared = 0
    for seed in range(10):  # random play ends some puzzles' episodes in a few turns
        env.reset(seed=seed)
        for _ in range(40):
            if raw.end_reason is not None:
                break
            state = raw.visible_state
            picture = raw.image()
            assert picture.dtype == np.uint8 and picture.flags.c_contiguous and not picture.flags.writeable
            assert raw.image() is picture
            assert np.array_equal(picture, np.asarray(raw.draw(copy.deepcopy(state))))
            assert raw.visible_state == state
            compared += 1
            actions = raw.infos["solver"]["valid_actions"] if env.agent_selection == "solver" else []
            env.step(str(rng.choice(actions)) if len(actions) else "ok")
    assert compared > 10


def test_visible_state_is_json(puzzle_name: str) -> None:
    import json

    env = comma_env.make(puzzle_name)
    for seed in range(5):
        env.reset(seed=seed)
        state = env.unwrapped.visible_state
        assert json.loads(json.dumps(state)) == state
