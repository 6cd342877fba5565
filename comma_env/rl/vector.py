"""Let Gymnasium's vector environments carry `UnicodeText` observations.

``gymnasium.make_vec("comma/Wire-solver-v0", num_envs=N, vectorization_mode="async")`` runs
one `SingleRoleEnv` per worker process and, by default, passes observations back through
shared memory, which Gymnasium only knows how to lay out for its own spaces. The text part
of a COMMA observation is a `UnicodeText` (any string), so this module registers the three
shared-memory functions for it:

- each environment gets a slot of ``8 + 4 * max_length`` bytes (the same 4 bytes per
  character Gymnasium's own `Text` reserves): a little-endian length, then the UTF-8 bytes;
- the slots are not zero-filled, only their lengths are (`shared_bytes`), so a slot takes
  memory for the pages its texts reach, not its 4 MB;
- writing encodes the string and copies only its bytes; reading decodes them again.

Batching text (`batch_space`, `concatenate`, `iterate`) needs nothing: Gymnasium's fallback
for a custom space batches it as a `Tuple` of copies, so a batch of texts is a tuple of
strings and a batch of actions any sequence of strings. Importing `comma_env` imports this module.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from ctypes import c_uint8
from multiprocessing import heap, sharedctypes
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium.vector.utils.shared_memory import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from comma_env.protocol.spaces import UnicodeText

_HEADER = 8  # bytes of the length prefix of each slot


def slot_size(space: UnicodeText) -> int:
    """Bytes reserved per environment: any string of the space fits (UTF-8 uses at most 4
    bytes per character)."""
    return _HEADER + 4 * space.max_length


def shared_bytes(size: int) -> Any:
    """`size` bytes of shared memory that a worker started by any method (fork, spawn,
    forkserver) maps, as a ctypes array: what ``multiprocessing.RawArray`` returns, without
    the zero-filling.

    Why: ``RawArray`` writes zeros over all of it, so every page takes memory at once. A
    text slot is 4 MB (a million characters), of which a COMMA text uses a few KB: 32
    environments in Gymnasium's "async" mode held 128 MB of ``/dev/shm`` (or of a file on
    disk where ``/dev/shm`` is small, as in a default Docker container) before any text was
    written. Memory fresh from the system is zeros already; memory that ``multiprocessing``
    hands out again may hold old bytes, which is why the caller sets what it reads first."""
    # how RawArray builds its array before it fills it (not in typeshed: undocumented)
    return sharedctypes.rebuild_ctype(c_uint8 * size, heap.BufferWrapper(size), None)  # type: ignore[attr-defined]


@create_shared_memory.register(UnicodeText)
def _create_unicode_shared_memory(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> Any:
    memory = shared_bytes(n * slot_size(space))
    slots = np.frombuffer(memory, dtype=np.uint8).reshape(n, slot_size(space))
    slots[:, :_HEADER] = 0  # every text empty until written: a page per slot, not the slot
    return memory


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_to_shared_memory(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    data = str(value).encode("utf-8", errors="surrogatepass")
    size = slot_size(space)
    if len(data) > size - _HEADER:
        raise ValueError(f"a text of {len(data)} UTF-8 bytes does not fit its {size - _HEADER}-byte slot "
                         f"(UnicodeText(max_length={space.max_length}))")
    buffer = np.frombuffer(shared_memory, dtype=np.uint8)
    start = index * size
    buffer[start:start + _HEADER] = np.frombuffer(len(data).to_bytes(_HEADER, "little"), dtype=np.uint8)
    buffer[start + _HEADER:start + _HEADER + len(data)] = np.frombuffer(data, dtype=np.uint8)


class SharedTexts(Sequence[str]):
    """The texts of all environments, read from shared memory when accessed.

    `AsyncVectorEnv` reads its shared memory once, when it starts, and afterwards hands out
    ``deepcopy`` of what it read (arrays are views, so they follow the workers' writes). A
    tuple of strings would be frozen at start, so this is a live view instead; its deepcopy
    (what ``step`` and ``reset`` return by default) is a plain tuple of strings.
    """

    def __init__(self, space: UnicodeText, shared_memory: Any, n: int) -> None:
        self._buffer = memoryview(shared_memory).cast("B")
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
        length = int.from_bytes(self._buffer[start:start + _HEADER], "little")
        return bytes(self._buffer[start + _HEADER:start + _HEADER + length]).decode("utf-8", errors="surrogatepass")

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, (tuple, list, SharedTexts)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_from_shared_memory(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)
