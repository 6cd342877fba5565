"""The environments' own Gymnasium spaces: `UniformBox` is a `Box` in every respect, batched
by Gymnasium as a `Box`."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from comma_env.protocol.spaces import VIEW_ELEMENTS, UniformBox

SHAPES = [((4, 3, 3), 0, 255, np.uint8), ((7,), -1.0, 1.0, np.float32), ((), 22050, 22050, np.int32)]


@pytest.mark.parametrize("shape, low, high, dtype", SHAPES)
def test_a_uniform_box_equals_the_box_of_its_bounds(shape, low, high, dtype):
    ours, box = UniformBox(low, high, shape, dtype), spaces.Box(low, high, shape, dtype)
    assert ours == box and box == ours
    assert isinstance(ours, spaces.Box) and repr(ours) == repr(box)
    assert ours.contains(np.asarray(box.sample())) and box.contains(np.asarray(ours.sample()))
    for again in (pickle.loads(pickle.dumps(ours)), copy.deepcopy(ours), copy.copy(ours)):
        assert type(again) is UniformBox and again == ours


@pytest.mark.parametrize("shape, low, high, dtype", SHAPES)
@pytest.mark.parametrize("n", [1, 3])
def test_its_batch_is_gymnasiums_batch_of_the_box(shape, low, high, dtype, n):
    ours, box = UniformBox(low, high, shape, dtype, seed=5), spaces.Box(low, high, shape, dtype, seed=5)
    batched, reference = batch_space(ours, n), batch_space(box, n)
    assert batched == reference and batched.shape == (n, *shape) and batched.dtype == reference.dtype
    assert np.array_equal(batched.low, reference.low) and np.array_equal(batched.high, reference.high)
    assert np.array_equal(batched.sample(), reference.sample())  # the generator copied alike
    assert batch_space(batched, 2) == batch_space(reference, 2)


@pytest.mark.parametrize("shape, low, high, dtype", [*SHAPES, ((5, 512, 512, 3), 0, 255, np.uint8)])
def test_its_bounds_equal_a_box_s_and_are_views_only_past_the_limit(shape, low, high, dtype):
    ours, box = UniformBox(low, high, shape, dtype), spaces.Box(low, high, shape, dtype)
    view = math.prod(shape) > VIEW_ELEMENTS
    for name in ("low", "high", "bounded_below", "bounded_above"):
        mine, theirs = getattr(ours, name), getattr(box, name)
        assert mine.shape == theirs.shape and mine.dtype == theirs.dtype and np.array_equal(mine, theirs), name
        assert mine.flags.writeable != view, name
        if shape:
            assert (mine.strides == (0,) * len(shape)) == view, name
    assert ours.is_bounded() == box.is_bounded() and repr(ours) == repr(box)
    assert UniformBox(0.0, 1.0).shape == spaces.Box(0.0, 1.0).shape == (1,)  # no shape, as a Box


def test_other_box_arguments_are_checked_as_a_box_checks_them():
    for low, high, shape, dtype in [(1, 0, (2,), np.uint8), (-1, 3, (2,), np.uint8), (0, 1, (2,), None),
                                    (np.nan, 1.0, (2,), np.float32), (0, 1, (2,), np.str_)]:
        with pytest.raises(ValueError):
            spaces.Box(low, high, shape, dtype)
        with pytest.raises(ValueError):
            UniformBox(low, high, shape, dtype)
    with pytest.raises(TypeError):
        UniformBox(0, 1, (2.5,), np.uint8)
    with pytest.raises(TypeError):
        UniformBox(0, 1, 3, np.uint8)
    assert UniformBox(0, 1, (dim for dim in (2, 3)), np.uint8).shape == (2, 3)  # any iterable, read once


def test_bound_arrays_are_refused():
    with pytest.raises(ValueError, match="one number"):
        UniformBox(np.zeros(3), 1.0, (3,))
    with pytest.raises(ValueError, match="one number"):
        UniformBox(0.0, np.ones(3), (3,))


def test_equality_from_the_numbers_agrees_with_the_arrays():
    base = UniformBox(0, 255, (4, 3), np.uint8)
    others = [UniformBox(0, 255, (4, 3), np.uint8), UniformBox(1, 255, (4, 3), np.uint8),
              UniformBox(0, 254, (4, 3), np.uint8), UniformBox(0, 255, (3, 4), np.uint8),
              UniformBox(0, 255, (4, 3), np.int16), UniformBox(0, 255, (4, 3), np.float32)]
    for other in others:
        plain = spaces.Box(other.low, other.high, other.shape, other.dtype)
        assert (base == other) == (spaces.Box(base.low, base.high, base.shape, base.dtype) == plain), other
        assert (base == other) == (base == plain), other
    assert base != "a box" and base != spaces.Discrete(3)


def test_a_box_of_no_elements_is_compared_batched_and_pickled_as_a_box():
    empty = UniformBox(0.0, 1.0, (0, 2))
    assert empty.bounds() == (0.0, 1.0) and empty.low.shape == (0, 2)
    assert empty == UniformBox(0.0, 1.0, (0, 2)) and empty == spaces.Box(0.0, 1.0, (0, 2))
    assert batch_space(empty, 3) == batch_space(spaces.Box(0.0, 1.0, (0, 2)), 3)
    assert pickle.loads(pickle.dumps(empty)) == empty


def test_pickled_as_its_numbers_with_its_generator():
    box = UniformBox(0, 255, (512, 512, 3), np.uint8, seed=7)
    data = pickle.dumps(box)
    assert len(data) < 2_000  # not its four arrays of 786,432 elements (3 MB)
    again = pickle.loads(data)
    assert type(again) is UniformBox and again == box
    assert np.array_equal(again.sample(), box.sample())  # the generator's state travelled
    unseeded = pickle.loads(pickle.dumps(UniformBox(0, 255, (2,), np.uint8)))
    assert unseeded._np_random is None and unseeded.shape == (2,)


def test_copies_share_the_bound_arrays_and_deep_copies_do_not():
    box = UniformBox(-1.0, 1.0, (6,), np.float32, seed=1)
    shallow, deep = copy.copy(box), copy.deepcopy(box)
    assert shallow.low is box.low and shallow.high is box.high and shallow.np_random is box.np_random
    assert deep == box and deep.np_random is not box.np_random
    assert np.array_equal(deep.sample(), box.sample())
