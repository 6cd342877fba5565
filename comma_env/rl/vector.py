"""Gymnasium's async vector envs carry `UnicodeText` observations in shared memory: each env
gets ``8 + 4 * max_length`` bytes (a length, then UTF-8). Importing `comma_env` registers it."""

from __future__ import annotations

import multiprocessing as mp
import os
import weakref
from collections.abc import Sequence
from multiprocessing.shared_memory import SharedMemory
from types import ModuleType
from typing import Any

from gymnasium.vector.utils.shared_memory import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from comma_env.protocol.spaces import UnicodeText

_HEADER = 8  # bytes of the length prefix of each slot


class TextSlots:
    """The text slots of all environments in one `multiprocessing.shared_memory` block, which (unlike
    a zero-filled ``RawArray``) takes only the pages its texts reach; unlinked by its maker."""

    def __init__(self, size: int, name: str | None = None) -> None:
        self.memory = SharedMemory(name=name, create=name is None, size=size)
        if name is None:
            weakref.finalize(self, _unlink, self.memory, os.getpid())

    @property
    def buf(self) -> memoryview:
        assert self.memory.buf is not None
        return self.memory.buf

    def __reduce__(self) -> tuple[Any, ...]:
        return TextSlots, (self.memory.size, self.memory.name)  # a spawned worker attaches to the block


def _unlink(memory: SharedMemory, owner: int) -> None:
    if os.getpid() == owner:  # a forked worker inherits this finalizer: only the maker unlinks
        memory.unlink()


def slot_size(space: UnicodeText) -> int:
    """Bytes reserved per environment: room for any string of `space`."""
    return _HEADER + 4 * space.max_length


@create_shared_memory.register(UnicodeText)
def _create_unicode_shared_memory(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> TextSlots:
    return TextSlots(n * slot_size(space))  # every length reads 0: every text starts empty


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_to_shared_memory(space: UnicodeText, index: int, value: str, shared_memory: TextSlots) -> None:
    data = str(value).encode("utf-8", errors="surrogatepass")
    size = slot_size(space)
    if len(data) > size - _HEADER:
        raise ValueError(f"a text of {len(data)} UTF-8 bytes does not fit its {size - _HEADER}-byte slot "
                         f"(UnicodeText(max_length={space.max_length}))")
    start = index * size
    shared_memory.buf[start:start + _HEADER] = len(data).to_bytes(_HEADER, "little")
    shared_memory.buf[start + _HEADER:start + _HEADER + len(data)] = data


class SharedTexts(Sequence[str]):
    """The texts of all environments, read from shared memory when accessed: `AsyncVectorEnv` reads
    its shared memory once and then deep-copies it, so a live view follows the workers' writes."""

    def __init__(self, space: UnicodeText, slots: TextSlots, n: int) -> None:
        self._slots = slots
        self._size = slot_size(space)
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if not -self._n <= index < self._n:
            raise IndexError(index)
        start = (index % self._n) * self._size
        buffer = self._slots.buf
        length = int.from_bytes(buffer[start:start + _HEADER], "little")
        return bytes(buffer[start + _HEADER:start + _HEADER + length]).decode("utf-8", errors="surrogatepass")

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, (tuple, list, SharedTexts)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_from_shared_memory(space: UnicodeText, shared_memory: TextSlots, n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)
