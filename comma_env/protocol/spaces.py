"""Gymnasium spaces of the environments: free-form unicode text, and boxes of one bound.

`gymnasium.spaces.Text` only contains strings built from its charset (alphanumerics by
default, no space), so it cannot hold natural language or what an LLM writes. `UnicodeText`
contains any `str` up to `max_length` characters and samples messy unicode, which is what
`api_test` and `seed_test` then feed the environments as actions.

`UniformBox` is a `Box` whose bounds are one number each (a picture, a sound clip), so that
batching it for a vector env (`comma_env.rl.vector`) needs only those two numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Box, Space

# Characters sampled by `UnicodeText.sample`: ASCII, accents, CJK, emoji, markup, newlines.
_SAMPLE_ALPHABET: tuple[str, ...] = tuple(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-*`#<>/\n\t.,;:!?'\""
) + ("é", "ß", "中", "文", "ж", "🙂", "💣", "\u200b", "\u00a0", "ø")


class UnicodeText(Space[str]):
    """Any unicode string of at most `max_length` characters."""

    def __init__(self, max_length: int = 1_000_000, seed: int | np.random.Generator | None = None):
        self.max_length = int(max_length)
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random string of 0..64 characters drawn from a mixed-script alphabet."""
        length = int(self.np_random.integers(0, 65))
        picks = self.np_random.integers(0, len(_SAMPLE_ALPHABET), size=length)
        return "".join(_SAMPLE_ALPHABET[i] for i in picks)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def to_jsonable(self, sample_n: Iterable[str]) -> list[str]:
        return list(sample_n)

    def from_jsonable(self, sample_n: Sequence[str]) -> list[str]:
        return list(sample_n)

    def __repr__(self) -> str:
        return f"UnicodeText(max_length={self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length


VIEW_ELEMENTS = 1 << 20
"""Above this many elements a `UniformBox`'s bounds are views of one number, not arrays: a
batch of pictures, not one. Why not always: numpy's loops over such a view run about 3x
slower than over an array, and Gymnasium's environment checker runs several over one
environment's observation space at every ``gymnasium.make`` (176 against 646 µs per make of
a Wire solver with pictures)."""


def _spread(value: np.ndarray, shape: tuple[int, ...], view: bool) -> np.ndarray:
    """The one-element array `value` over `shape`: a read-only view or a new array."""
    return np.broadcast_to(value, shape) if view else np.full(shape, value)


class UniformBox(Box):
    """A `Box` with one lower and one upper bound for every element (a picture's 0 and 255,
    a clip's -1 and 1): equal to the `Box` of the same bounds, shape and dtype, and a `Box`
    to every check. Past `VIEW_ELEMENTS` elements (a batch of pictures), its `low`, `high`,
    `bounded_below` and `bounded_above` are read-only views of one number each, broadcast to
    the shape; a smaller box holds arrays, as a `Box` does.

    Why a type of its own: Gymnasium works through a `Box`'s bound arrays element by element,
    and a picture's hold 786,432 elements each. Making a vector env of 32 pictures spent 0.5 s
    tiling and checking them in `batch_space` (`comma_env.rl.vector` batches this type from
    its two numbers instead), 0.1 s comparing every environment's space with the first
    (`__eq__` here compares the numbers), and Gymnasium's async mode 0.1 s more sending each
    worker process the space, 3 MB pickled (here: the numbers, shape, dtype and generator).
    And the batch's four bound arrays took 100 MB of memory and 0.2 s to fill."""

    def __init__(self, low: float, high: float, shape: Iterable[int] | None = None,
                 dtype: Any = np.float32, seed: int | np.random.Generator | None = None) -> None:
        if np.ndim(low) or np.ndim(high):
            raise ValueError("a UniformBox has one number for each bound; use Box for bound arrays")
        if shape is not None and not isinstance(shape, Iterable):
            raise TypeError(f"a Box shape is an iterable of integers, got {shape!r}")
        dims = (1,) if shape is None else tuple(shape)  # no shape: one element, as in a Box
        if not all(isinstance(dim, (int, np.integer)) for dim in dims):
            raise TypeError(f"a Box shape is an iterable of integers, got {shape!r}")
        super().__init__(low, high, (), dtype, seed)  # Gymnasium's checks and casts, on one element
        self._bounds = (self.low[()], self.high[()])
        self._shape = tuple(int(dim) for dim in dims)
        view = math.prod(self._shape) > VIEW_ELEMENTS
        self.low, self.high = _spread(self.low, self._shape, view), _spread(self.high, self._shape, view)
        self.bounded_below = _spread(self.bounded_below, self._shape, view)
        self.bounded_above = _spread(self.bounded_above, self._shape, view)

    def bounds(self) -> tuple[Any, Any]:
        """The lower and the upper bound, as numbers of the dtype."""
        return self._bounds

    def __reduce__(self) -> tuple[Any, ...]:
        return _uniform_box, (*self._bounds, self.shape, self.dtype, self._np_random)

    def __copy__(self) -> UniformBox:
        """A shallow copy (its generator shared, as `copy.copy` of a `Box` shares it), not
        rebuilt through `__reduce__`."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def __eq__(self, other: object, /) -> bool:
        """`Box.__eq__` (the same shape and dtype, bounds close), from the two numbers when
        `other` is a `UniformBox` too."""
        if isinstance(other, UniformBox):
            return (self.shape == other.shape and self.dtype == other.dtype
                    and bool(np.isclose(self._bounds, other._bounds).all()))
        return super().__eq__(other)


def _uniform_box(low: Any, high: Any, shape: tuple[int, ...], dtype: Any,
                 np_random: np.random.Generator | None) -> UniformBox:
    """`UniformBox.__reduce__`'s inverse: the box, with the generator it had (or none yet)."""
    box = UniformBox(low, high, shape, dtype)
    vars(box)["_np_random"] = np_random  # None: made on first use, as for any new space
    return box
