"""`UnicodeText`: any `str` up to `max_length` characters, which `gymnasium.spaces.Text` (a fixed
charset) cannot hold; it samples messy unicode for `api_test` and `seed_test`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Space

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
