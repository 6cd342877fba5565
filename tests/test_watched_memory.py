"""`comma_env.drawing.watched.WatchedMemory`: handouts of memory whose holders can be seen
without reference counts (the rule behind in-place repaint and the vector env's buffer sets)."""

from __future__ import annotations

import copy
import gc
import pickle
import threading
import time
import types

import numpy as np
import pytest
from PIL import Image

from comma_env.drawing import watched as watched_module
from comma_env.drawing.watched import WatchedMemory


def _memory() -> np.ndarray:
    return np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)


def test_a_handout_and_everything_taken_from_it_keep_the_memory_held() -> None:
    watched = WatchedMemory(_memory())
    assert not watched.held()
    kept = [watched.view()[1:, ::2].T, np.asarray(watched.view()), memoryview(watched.view()),
            Image.fromarray(watched.view()), watched.view().reshape(-1)]
    for index in range(len(kept)):
        assert watched.held(), index
        kept[index] = None
        gc.collect()
    assert not watched.held()  # nothing left that reaches the memory


def test_the_same_view_comes_back_while_anything_taken_from_it_lives() -> None:
    watched = WatchedMemory(_memory())
    first = watched.view()
    assert watched.view() is first and watched.last_view() is first
    row = first[2]
    del first
    assert watched.held() and row.base is watched.view()  # a view taken from it keeps the handout itself
    del row
    assert watched.last_view() is None and not watched.held()


def test_read_only_views_cannot_be_made_writable_and_writable_ones_write_the_memory() -> None:
    watched = WatchedMemory(_memory())
    view = watched.view()
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view.flags.writeable = True
    memory = _memory()
    writable = WatchedMemory(memory, writable_views=True).view()
    writable[0, 0] = 200
    assert memory[0, 0, 0] == 200


def test_box_views_write_the_memory_are_kept_and_stop_being_kept_when_too_many(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watched_module, "REGIONS", 2)
    watched = WatchedMemory(_memory())
    region = watched.region((1, 2, 3, 4))
    region[...] = 255
    assert (watched.memory[2:4, 1:3] == 255).all() and (watched.memory[:2] != 255).all()
    assert watched.regions == {(1, 2, 3, 4): region} and not watched.held()  # the owner's, never handed out
    watched.region((0, 0, 1, 1))
    assert watched.regions is not None and len(watched.regions) == 2
    third = watched.region((4, 3, 5, 4))
    assert watched.regions is None and third.shape == (1, 1, 3)  # a third box: it stops keeping any
    assert np.shares_memory(watched.region((1, 2, 3, 4)), watched.memory) and watched.regions is None
    assert pickle.loads(pickle.dumps(watched)).regions == {}  # a copy's memory is other memory


def test_memory_must_be_contiguous() -> None:
    with pytest.raises(ValueError):
        WatchedMemory(_memory()[:, ::2])


def test_pickles_and_copies_have_memory_of_their_own_and_no_handouts() -> None:
    watched = WatchedMemory(_memory())
    held = watched.view()
    for clone in (pickle.loads(pickle.dumps(watched)), copy.deepcopy(watched)):
        assert not clone.held() and not np.shares_memory(clone.memory, watched.memory)
        assert np.array_equal(clone.memory, held) and clone.memory.flags.writeable
        assert not clone.view().flags.writeable


def _take(watched: WatchedMemory, start: threading.Barrier, views: list[np.ndarray]) -> None:
    start.wait()
    views.append(watched.view())


def test_threads_asking_at_once_get_one_handout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several threads asking for a view at once all get the same one (a second, unwatched,
    would let the memory be written while it is held). Making a view is slowed down here, so
    that the threads do ask at once."""

    def slow_asarray(buffer: memoryview) -> np.ndarray:
        time.sleep(0.002)
        return np.asarray(buffer)

    monkeypatch.setattr(watched_module, "np", types.SimpleNamespace(asarray=slow_asarray))
    for _ in range(20):
        watched = WatchedMemory(_memory())
        views: list[np.ndarray] = []
        start = threading.Barrier(4)
        threads = [threading.Thread(target=_take, args=(watched, start, views)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(views) == 4 and all(view is views[0] for view in views)
        del views[:]
        assert not watched.held()
