"""Gymnasium spaces of the environments: free-form unicode text, and boxes of one bound.

`gymnasium.spaces.Text` only contains strings built from its charset (alphanumerics by
default, no space), so it cannot hold natural language or what an LLM writes. `UnicodeText`
contains any `str` up to `max_length` characters and samples messy unicode, which is what
`api_test` and `seed_test` then feed the environments as actions.

`UniformBox` is a `Box` whose bounds are one number each (a picture, a sound clip), so that
batching it for a vector env (`comma_env.rl.vector`) needs only those two numbers.
"""

from __future__ import annotations

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


class UniformBox(Box):
    """A `Box` with one lower and one upper bound for every element (a picture's 0 and 255,
    a clip's -1 and 1): equal to the `Box` of the same bounds, shape and dtype, and a `Box`
    to every check.

    Why a type of its own: Gymnasium works through a `Box`'s bound arrays element by element,
    and a picture's hold 786,432 elements each. Making a vector env of 32 pictures spent 0.5 s
    tiling and checking them in `batch_space` (`comma_env.rl.vector` batches this type from
    its two numbers instead), 0.1 s comparing every environment's space with the first
    (`__eq__` here compares the numbers), and Gymnasium's async mode 0.1 s more sending each
    worker process the space, 3 MB pickled (here: the numbers, shape, dtype and generator)."""

    def __init__(self, low: float, high: float, shape: Sequence[int] | None = None,
                 dtype: Any = np.float32, seed: int | np.random.Generator | None = None) -> None:
        if np.ndim(low) or np.ndim(high):
            raise ValueError("a UniformBox has one number for each bound; use Box for bound arrays")
        super().__init__(low, high, shape, dtype, seed)

    def bounds(self) -> tuple[Any, Any] | None:
        """The lower and the upper bound, as numbers of the dtype; None for a box of no elements."""
        if not self.low.size:
            return None
        return self.low.flat[0], self.high.flat[0]

    def __reduce__(self) -> str | tuple[Any, ...]:
        bounds = self.bounds()
        if bounds is None:
            return super().__reduce__()
        return _uniform_box, (*bounds, self.shape, self.dtype, self._np_random)

    def __copy__(self) -> UniformBox:
        """A shallow copy sharing the bound arrays, as `copy.copy` of a `Box` is (not rebuilt
        through `__reduce__`)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def __eq__(self, other: object, /) -> bool:
        """`Box.__eq__` (the same shape and dtype, bounds close), from the two numbers when
        `other` is a `UniformBox` too."""
        if isinstance(other, UniformBox):
            mine, theirs = self.bounds(), other.bounds()
            if mine is not None and theirs is not None:
                return (self.shape == other.shape and self.dtype == other.dtype
                        and bool(np.isclose(mine[0], theirs[0])) and bool(np.isclose(mine[1], theirs[1])))
        return super().__eq__(other)


def _uniform_box(low: Any, high: Any, shape: tuple[int, ...], dtype: Any,
                 np_random: np.random.Generator | None) -> UniformBox:
    """`UniformBox.__reduce__`'s inverse: the box, with the generator it had (or none yet)."""
    box = UniformBox(low, high, shape, dtype)
    vars(box)["_np_random"] = np_random  # None: made on first use, as for any new space
    return box
