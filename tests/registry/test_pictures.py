"""The pictures an environment hands out: one read-only array per state, drawn by the puzzle's
drawing function from its visible state; an array once handed out never changes."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import comma_env


def test_unchanged_state_returns_the_same_array_and_a_change_a_new_one() -> None:
    env = comma_env.make("wire")
    env.reset(seed=4)
    first = env.unwrapped.image()
    assert env.unwrapped.image() is first
    env.step("no action here")
    env.step("ok")
    assert env.unwrapped.image() is first  # a message without actions changes nothing
    env.step("cut_wire_1")
    assert env.unwrapped.image() is not first


def test_observations_stay_valid_after_the_state_changes() -> None:
    env = comma_env.make("wire")
    env.reset(seed=2)
    first = env.observe("solver")["image"]
    snapshot = first.copy()
    env.step("cut_wire_1\ncut_wire_2")
    env.step("ok")
    second = env.observe("solver")["image"]
    assert not np.array_equal(first, second)
    assert np.array_equal(first, snapshot)
    assert not first.flags.writeable and not second.flags.writeable
    with pytest.raises(ValueError):
        second[0, 0] = 0
    kept = second.copy()
    env.reset(seed=3)  # a new episode: the last picture of the old one stays as it was
    assert not np.array_equal(env.observe("solver")["image"], kept)
    assert np.array_equal(second, kept) and np.array_equal(first, snapshot)


def test_a_drawing_may_return_an_array() -> None:
    """A puzzle's drawing returns a PIL image or an RGB array; the environment hands out a
    read-only array either way."""
    from comma_env.drawing.wire import draw_wire

    class ArrayDrawing(comma_env.wire_v0.raw_env):
        draw = staticmethod(lambda state: np.array(draw_wire(state)))

    env = ArrayDrawing()
    env.reset(seed=5)
    image = env.image()
    assert image.flags.c_contiguous and not image.flags.writeable and image.dtype == np.uint8
    assert np.array_equal(image, np.asarray(draw_wire(env.visible_state)))


def test_environments_deepcopy_and_pickle_with_their_pictures() -> None:
    """Search methods clone environments: the clone hands out the same picture, and both
    continue independently."""
    env = comma_env.make("wire")
    env.reset(seed=8)
    before = env.unwrapped.image()
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert np.array_equal(clone.unwrapped.image(), before)
        clone.step("cut_wire_1")
        assert np.array_equal(clone.unwrapped.image(), np.asarray(clone.unwrapped.draw(clone.unwrapped.visible_state)))
    assert env.unwrapped.image() is before
