"""In-place repaint (comma_env/drawing/scene.py) is trusted only where its reference-count
rule is tested; anywhere else every frame is drawn on a copy, with the same pixels."""

from __future__ import annotations

import copy
import sys
import types

import numpy as np
import pytest

import comma_env
from comma_env.drawing import scene


def _frames(steps: int = 8) -> tuple[list[object], list[np.ndarray]]:
    """The environment's frame object after each step that changed the picture of a Memory
    episode whose observations the caller drops at once, and a copy of each picture. An
    in-place repaint returns the previous frame object itself; a copy makes a new one."""
    env = comma_env.make("memory")
    env.reset(seed=2)
    raw = env.unwrapped
    raw.image()
    frames: list[object] = []
    pixels: list[np.ndarray] = []
    for _ in range(steps):
        if raw.end_reason is not None:
            break
        version = raw.puzzle.version
        env.step(raw.infos["solver"]["valid_actions"][0] if env.agent_selection == "solver" else "")
        if raw.puzzle.version != version:
            pixels.append(raw.image().copy())  # the observation itself is dropped at once
            frames.append(raw._frame)
    return frames, pixels


def test_the_guard_matches_the_interpreter() -> None:
    assert scene.IN_PLACE_REPAINT == scene.refcount_rule_holds()
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    if sys.implementation.name == "cpython" and gil and sys.version_info[:2] in scene.IN_PLACE_VERSIONS:
        assert scene.IN_PLACE_REPAINT


@pytest.mark.parametrize("why", ["pypy", "free-threaded", "gil-off", "untested version"])
def test_a_failing_guard_takes_the_copy(monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    with monkeypatch.context() as patch:
        if why == "pypy":
            patch.setattr(sys, "implementation", types.SimpleNamespace(**{**vars(sys.implementation), "name": "pypy"}))
        elif why == "free-threaded":
            patch.setattr(scene.sysconfig, "get_config_var", lambda name: 1 if name == "Py_GIL_DISABLED" else None)
        elif why == "gil-off":
            patch.setattr(sys, "_is_gil_enabled", lambda: False, raising=False)
        else:
            patch.setattr(scene, "IN_PLACE_VERSIONS", ())
        holds = scene.refcount_rule_holds()
    assert not holds
    monkeypatch.setattr(scene, "IN_PLACE_REPAINT", holds)
    frames, pixels = _frames()
    assert len(frames) >= 2 and len({id(frame) for frame in frames}) == len(frames)  # a new frame each time
    monkeypatch.undo()
    if scene.IN_PLACE_REPAINT:  # and with the guard passing, the same steps repaint one frame
        reused, same_pixels = _frames()
        assert all(frame is reused[0] for frame in reused)
        assert all(np.array_equal(a, b) for a, b in zip(pixels, same_pixels, strict=True))


def test_copying_a_scene_returns_it() -> None:
    drawing = comma_env.wire_v0.raw_env.draw
    assert isinstance(drawing, scene.Scene)
    assert copy.copy(drawing) is drawing and copy.deepcopy(drawing) is drawing
    env = comma_env.make("wire")
    env.reset(seed=1)
    first = env.unwrapped.image()
    clone = copy.deepcopy(env.unwrapped)
    clone.step("cut_wire_1")
    assert np.array_equal(env.unwrapped.image(), first)  # the clone's frames are its own
