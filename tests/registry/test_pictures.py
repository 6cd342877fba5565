"""The pictures every registered puzzle hands out: at every turn its drawing of the visible
state, a read-only uint8 array of a legible size, the same for the same seed; a picture once
handed out never changes, through later steps, resets and clones."""

from __future__ import annotations

import copy
import hashlib
import pickle

import numpy as np
import pytest

import comma_env
from tests.support.registered import puzzles

pytestmark = pytest.mark.parametrize("puzzle", puzzles())


def test_the_picture_is_the_drawing_of_the_visible_state(puzzle: str) -> None:
    """Random play over several seeds: each picture handed out (by `image()` and in the solver's
    observation) equals the drawing of the visible state at that turn, and drawing leaves the
    state as it was; every picture kept from earlier turns and episodes is still what it was."""
    env = comma_env.make(puzzle)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for seed in range(10):  # random play ends some puzzles' episodes in a few turns
        env.reset(seed=seed)
        for _ in range(40):
            if raw.end_reason is not None:
                break
            state = copy.deepcopy(raw.visible_state)
            picture = raw.image()
            assert picture.dtype == np.uint8 and picture.flags.c_contiguous and not picture.flags.writeable
            assert np.array_equal(picture, np.asarray(raw.draw(copy.deepcopy(state))))
            assert raw.visible_state == state
            if env.agent_selection == "solver":
                observed = env.observe("solver")["image"]
                assert np.array_equal(observed, picture) and not observed.flags.writeable
                with pytest.raises(ValueError):
                    observed[0, 0] = 0
                kept.append((observed, observed.copy()))
            actions = raw.infos["solver"]["valid_actions"] if env.agent_selection == "solver" else []
            env.step(str(rng.choice(actions)) if len(actions) else "ok")
    assert len(kept) > 10
    assert all(np.array_equal(picture, copied) for picture, copied in kept)


def _image_digest(puzzle: str, seed: int) -> str:
    env = comma_env.make(puzzle, render_mode="rgb_array")
    env.reset(seed=seed)
    return hashlib.sha256(env.render().tobytes()).hexdigest()


def test_same_seed_same_picture(puzzle: str) -> None:
    assert _image_digest(puzzle, 7) == _image_digest(puzzle, 7)


def test_pictures_are_legible(puzzle: str) -> None:
    env = comma_env.make(puzzle, render_mode="rgb_array")
    for seed in range(3):
        env.reset(seed=seed)
        image = env.render()
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        assert max(image.shape[:2]) <= 1024 and min(image.shape[:2]) >= 256
        assert image.std() > 5, "image looks blank"
        assert env.observation_space("solver")["image"].contains(image)


def test_clones_hand_out_the_same_picture_and_go_their_own_way(puzzle: str) -> None:
    """Search methods clone environments (deepcopy, pickle): a clone hands out the same picture,
    and stepping it changes neither the original's state nor its picture."""
    env = comma_env.make(puzzle)
    env.reset(seed=8)
    before, state = env.unwrapped.image().copy(), copy.deepcopy(env.unwrapped.visible_state)
    action = (env.unwrapped.infos["solver"]["valid_actions"] or ["ok"])[0]
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert np.array_equal(clone.unwrapped.image(), before)
        clone.step(action)
        clone.step("ok")
        assert np.array_equal(clone.unwrapped.image(), np.asarray(clone.unwrapped.draw(clone.unwrapped.visible_state)))
    assert env.unwrapped.visible_state == state and np.array_equal(env.unwrapped.image(), before)
