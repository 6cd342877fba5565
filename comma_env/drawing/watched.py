"""Memory handed out as read-only arrays, with a way to see whether anyone still holds one.

An environment that reuses its observation arrays (`comma_env.drawing.scene`'s frames, the
vector env's batch buffers) must never write into memory a caller can still see. Counting the
array's references answers that only on interpreters whose counts are exact (CPython up to
3.13 with the GIL: 3.14 leaves some references on the stack uncounted, a free-threaded
build lets another thread take one between the count and the write, PyPy has no counts).

A `WatchedMemory` answers it on any interpreter. Its array is never handed out; callers get
an array made from a ``memoryview`` of it (read-only unless asked otherwise), the handout.
numpy sets a view's ``base`` to the first array up the chain that owns its data or whose
own base is not an array, and a handout's base is a memoryview: so every array taken from
a handout (a slice, a transpose, a reshape, ``np.asarray``) references the handout itself,
and so does anything holding such an array (a memoryview of it, a PIL image, a torch
tensor, a container). The handout therefore lives exactly as long as something can reach
the memory through it, and a weak reference to it says when nothing can. Only a raw address
(``obs.ctypes.data``) or the handout's own ``base`` buffer kept without the array escape.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import numpy as np

__all__ = ["REGIONS", "WatchedMemory"]

REGIONS = 64
"""Box views a `WatchedMemory` keeps for its owner's writes (`WatchedMemory.region`)."""


class WatchedMemory:
    """Memory (`memory`, written by its owner and never handed out itself) and the array
    handed out over it (`view`): read-only, unless `writable_views`. The owner's writes may
    go through views of boxes of it that it keeps (`region`)."""

    __slots__ = ("_buffer", "_lock", "_view", "memory", "regions", "writable_views")

    def __init__(self, memory: np.ndarray, writable_views: bool = False) -> None:
        if not memory.flags.c_contiguous:
            raise ValueError("watched memory must be C-contiguous")
        self.memory = memory
        self.writable_views = writable_views
        buffer = memoryview(memory)  # type: ignore[arg-type]  # numpy's stubs: no Buffer
        self._buffer = buffer if writable_views else buffer.toreadonly()  # what handouts are made of
        self._view: weakref.ref[np.ndarray] | None = None
        self._lock = threading.Lock()  # two threads asking at once get one handout, not two (one unwatched)
        self.regions: dict[tuple[int, int, int, int], np.ndarray] | None = {}
        """Writable views of boxes (x0, y0, x1, y1) of `memory`, for its owner's writes (see
        `region`); None once it stops keeping them. Never handed out: not counted as held."""

    def region(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """A writable view of `memory` inside `box`, kept in `regions` for the next write
        there. Why: most scenes write the same few boxes on most steps (a wire's band, a
        timer's digits), and slicing the memory anew cost a third of writing a small box.
        A memory written in more than `REGIONS` boxes (a dog's sprite lands anywhere) stops
        keeping them, since looking up boxes that seldom recur would cost more than it saves."""
        x0, y0, x1, y1 = box
        view = self.memory[y0:y1, x0:x1]
        if self.regions is not None:
            if len(self.regions) < REGIONS:
                self.regions[box] = view
            else:
                self.regions = None
        return view

    def view(self) -> np.ndarray:
        """The array of the memory for a caller: the one handed out last while it (or
        anything taken from it) is alive, else a new one."""
        if self._view is not None:
            view = self._view()
            if view is not None:
                return view
        with self._lock:
            view = self._view() if self._view is not None else None
            if view is None:
                view = np.asarray(self._buffer)  # its base: a memoryview of numpy's own
                self._view = weakref.ref(view)
            return view

    def last_view(self) -> np.ndarray | None:
        """The array handed out last, if it is still alive (without making one)."""
        return self._view() if self._view is not None else None

    def held(self) -> bool:
        """Whether the handout, or anything taken from it, is still alive."""
        return self._view is not None and self._view() is not None

    def __getstate__(self) -> dict[str, Any]:
        # handouts are their holders' own: a copy has none, and memory of its own
        return {"memory": self.memory, "writable_views": self.writable_views}

    def __setstate__(self, state: dict[str, Any]) -> None:
        memory = np.array(state["memory"], order="C")  # writable, even from a pickle's read-only bytes
        self.__init__(memory, state["writable_views"])  # type: ignore[misc]
