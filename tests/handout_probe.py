"""In-place repaint's rule, checked on the interpreter that runs this script: ``python
tests/handout_probe.py REPO_ROOT`` (tests/test_handout_interpreters.py runs it under each
CPython from 3.10 on that the machine has, in a venv with only numpy and Pillow).

`comma_env.drawing.scene` repaints a frame's memory in place when no array handed out over
it is alive (`comma_env.drawing.watched`: every array taken from an observation keeps the
observation alive, watched by a weak reference). That rests on numpy's rule for a view's
``base`` and on the interpreter freeing an array nobody references, which are properties of
the versions, not of a puzzle, so a small scene of its own stands in for the puzzles here:

- a frame kept in any of the ways a caller keeps an observation (a variable, a container, a
  view, a buffer export, a PIL image, a weak reference, a closure, a suspended generator, a
  temporary on the stack of an expression being evaluated) keeps its pixels while the scene
  draws on;
- once dropped, its memory is repainted in place (so the checks above are not vacuous);
- a loop that holds the previous observation gets two arrays in turn, never a copy;
- every picture equals the full redraw.

Prints one line per check ("ok: ..."), then how many there are, and exits non-zero on the
first failure.
"""

from __future__ import annotations

import gc
import sys
import types
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# comma_env's own __init__ imports the whole library (PettingZoo, LiteLLM, ...): load the
# drawing core alone, as a namespace under the package's name.
_package = types.ModuleType("comma_env")
_package.__path__ = [str(Path(sys.argv[1]) / "comma_env")]
sys.modules["comma_env"] = _package

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from comma_env.drawing import scene  # noqa: E402
from comma_env.drawing.layout import Layer  # noqa: E402

SIZE = (96, 64)
COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40)]


def _background() -> Image.Image:
    return Image.new("RGB", SIZE, (20, 30, 40))


Key = tuple[tuple[int, int, int, int], tuple[int, int, int]]
"""A square's layer key: its box and its colour."""


def _paint(image: Image.Image, draw: ImageDraw.ImageDraw, key: Key) -> None:
    box, colour = key
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colour)


BOXES = [(0, 0, 30, 30), (40, 10, 80, 50), (10, 40, 36, 64)]


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    return {f"square_{i}": Layer(box, (box, COLOURS[colour]), _paint)
            for i, (box, colour) in enumerate(zip(BOXES, state["colours"], strict=True))}


TOY = scene.Scene(SIZE, _background, _layers)
COLOUR_INDICES = [(i % 4, (i // 2) % 4, (i // 3) % 4) for i in range(1, 40)]


def _states() -> Iterator[dict[str, Any]]:
    """States (the colour of each square) that each differ from the one before, so that
    every frame repaints something."""
    previous = None
    for colours in COLOUR_INDICES:
        if colours != previous:
            yield {"colours": colours}
        previous = colours


def _suspended(array: np.ndarray) -> Iterator[np.ndarray]:
    """Called, a generator not started yet: the array is held in its frame's arguments."""
    yield array


HOLDERS: dict[str, Callable[[np.ndarray], Any]] = {
    "variable": lambda array: array,
    "list": lambda array: [array],
    "dict": lambda array: {"image": array},
    "view": lambda array: array[8:40],
    "transpose": lambda array: array.T,
    "asarray": np.asarray,
    "frombuffer": lambda array: np.frombuffer(array, dtype=np.uint8),
    "memoryview": lambda array: memoryview(array),  # type: ignore[arg-type]  # numpy's stubs: no Buffer
    "pil_fromarray": Image.fromarray,
    "weakref": weakref.ref,
    "closure": lambda array: (lambda: array),
    "generator": _suspended,
}


def _read(held: Any) -> np.ndarray | None:
    """A copy of the pixels `held` gives access to (None: a weak reference to a freed array)."""
    if isinstance(held, weakref.ref):
        held = held()
        if held is None:
            return None
    if isinstance(held, list):
        held = held[0]
    if isinstance(held, dict):
        held = held["image"]
    if isinstance(held, types.FunctionType):
        held = held()
    if isinstance(held, types.GeneratorType):
        assert held.gi_frame is not None  # not started, so not finished
        held = held.gi_frame.f_locals["array"]
    if isinstance(held, Image.Image):
        return np.asarray(held).copy()
    return np.array(held, copy=True)


def _check(condition: bool, message: str) -> None:
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def _true_picture(frame: scene.Frame, state: dict[str, Any]) -> None:
    _check(np.array_equal(frame.array, TOY.full_array(state)), f"the frame of {state} differs from its full redraw")


def check_holders() -> None:
    """Each holder keeps its pixels through more frames (a weak reference alone keeps none: it
    reads None, never other pixels); dropped, the frame's memory is repainted in place."""
    for name, hold in HOLDERS.items():
        states = _states()
        frame = TOY.frame(next(states))
        held = hold(frame.array)
        snapshot = _read(held)  # None only for a weak reference: it keeps no observation alive
        _check(snapshot is not None or name == "weakref", f"{name}: the observation is gone while held")
        for state in states:
            frame = TOY.frame(state, frame)
            _true_picture(frame, state)
            now = _read(held)
            _check(now is None or (snapshot is not None and np.array_equal(now, snapshot)),
                   f"{name}: a held frame changed")
        del held, now
        gc.collect()
        before = frame.array.__array_interface__["data"][0]
        for state in list(_states())[:3]:
            frame = TOY.frame(state, frame)
            _true_picture(frame, state)
        _check(frame.array.__array_interface__["data"][0] == before,
               f"{name}: a dropped frame was not repainted in place")
        print(f"ok: {name} keeps its pixels, then the frame is repainted in place")


def _popped(box: dict[str, np.ndarray]) -> np.ndarray:
    return box.pop("image")


def check_temporary() -> None:
    """An array whose only other reference is a temporary of the expression that is being
    evaluated (a call's result on the stack) is not drawn into."""
    states = list(_states())
    frame = TOY.frame(states[0])
    snapshot = frame.array.copy()
    box = {"image": frame.array}

    def redraw() -> scene.Frame:
        return TOY.frame(states[1], frame)

    popped, drawn = _popped(box), redraw()  # the popped array is held by the stack alone while redraw() runs
    _check(np.array_equal(popped, snapshot), "a temporary on the stack was drawn into")
    _check(not np.shares_memory(drawn.array, popped), "the new frame shares the temporary's memory")
    print("ok: a temporary on the stack keeps its pixels")


def check_ping_pong() -> None:
    """A loop that keeps the previous observation: two arrays in turn, no copy."""
    frame: scene.Frame | None = None
    spare: scene.Frame | None = None
    addresses: set[int] = set()
    for count, state in enumerate(_states()):
        drawn = TOY.frame(state, frame, spare)
        if frame is not None and drawn.array is not frame.array:
            spare = frame
        frame = drawn
        observation = frame.array  # noqa: F841  (held during the next draw, as a loop holds its last observation)
        _true_picture(frame, state)
        if count >= 2:
            addresses.add(frame.array.__array_interface__["data"][0])
    _check(len(addresses) == 2, f"a loop keeping its last observation used {len(addresses)} arrays, not 2")
    print("ok: a loop that keeps its last observation alternates between two arrays")


def main() -> None:
    version = ".".join(map(str, sys.version_info[:3]))
    _check(scene.IN_PLACE_REPAINT, f"in-place repaint is off on {sys.implementation.name} {version}")
    check_holders()
    check_temporary()
    check_ping_pong()
    print(f"in-place repaint keeps held frames on {sys.implementation.name} {version}: {len(HOLDERS) + 2} checks")


if __name__ == "__main__":
    main()
