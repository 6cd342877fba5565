"""In-place repaint (comma_env/drawing/scene.py) is on wherever the package runs: whether a
frame is still held is read from its handouts (comma_env/drawing/watched.py), not from
reference counts, which some interpreters do not keep exactly. Turned off (as the benchmark
does, to measure what it saves), every frame is drawn on a copy, with the same pixels."""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import comma_env
from comma_env.drawing import scene


def _memory_episode(seed: int, steps: int) -> Iterator[Any]:
    """The raw environment of a Memory episode after its reset and after each of up to `steps`
    steps (the solver presses the first valid key, the expert says nothing)."""
    env = comma_env.make("memory")
    env.reset(seed=seed)
    raw = env.unwrapped
    yield raw
    for _ in range(steps):
        if raw.end_reason is not None:
            return
        env.step(raw.infos["solver"]["valid_actions"][0] if env.agent_selection == "solver" else "")
        yield raw


def _frames(steps: int = 8) -> tuple[list[object], list[np.ndarray]]:
    """The environment's frame object after each step that changed the picture of a Memory
    episode whose observations the caller drops at once, and a copy of each picture. An
    in-place repaint returns the previous frame object itself; a copy makes a new one."""
    frames: list[object] = []
    pixels: list[np.ndarray] = []
    version = None
    for raw in _memory_episode(2, steps):
        if version is None:
            raw.image()
        elif raw.puzzle.version != version:
            pixels.append(raw.image().copy())  # the observation itself is dropped at once
            frames.append(raw._frame)
        version = raw.puzzle.version
    return frames, pixels


def test_in_place_repaint_does_not_read_reference_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reference counts that say nothing (as 3.14's uncounted stack references could make
    them) change nothing: frames dropped at once are repainted in place, and observations a
    caller keeps never change."""
    monkeypatch.setattr(sys, "getrefcount", lambda obj: 2)
    assert scene.IN_PLACE_REPAINT
    reused, _ = _frames()
    assert len(reused) >= 2 and all(frame is reused[0] for frame in reused)
    kept = [(raw.image(), raw.image().copy()) for raw in _memory_episode(4, 12)]
    assert len({id(image) for image, _ in kept}) > 2
    assert all(np.array_equal(image, snapshot) for image, snapshot in kept)


def test_turned_off_every_frame_is_a_copy_with_the_same_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    reused, pixels = _frames()
    assert len(reused) >= 2 and all(frame is reused[0] for frame in reused)  # dropped at once: one frame repainted
    monkeypatch.setattr(scene, "IN_PLACE_REPAINT", False)
    frames, same_pixels = _frames()
    assert len({id(frame) for frame in frames}) == len(frames)  # a new frame each time
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
