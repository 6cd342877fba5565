"""The drawing core on the interpreter that runs this script: ``python tests/support/handout_probe.py
REPO_ROOT`` (tests/project/test_handout_interpreters.py runs it under each CPython from 3.10 on that
the machine has, in a venv with only numpy and Pillow).

Every puzzle's rules and drawing need nothing else, so they are loaded alone and played at
random here; for each puzzle and each picture along its episodes:

- the picture is an RGB image of the puzzle's size (a PIL image or a uint8 array);
- drawing the same visible state again gives the same pixels (a pure function of it);
- drawing leaves the visible state as it was.

Prints one line per puzzle ("ok: ..."), then how many there are, and exits non-zero on the
first failure.
"""

from __future__ import annotations

import copy
import importlib
import pkgutil
import sys
import types
from pathlib import Path
from typing import Any

# comma_env's own __init__ imports the whole library (PettingZoo, LiteLLM, ...): load the
# rules and drawings alone, as a namespace under the package's name.
_package = types.ModuleType("comma_env")
_package.__path__ = [str(Path(sys.argv[1]) / "comma_env")]
sys.modules["comma_env"] = _package

import numpy as np  # noqa: E402

from comma_env.protocol.puzzle import Puzzle  # noqa: E402
from comma_env.protocol.spec import resolve  # noqa: E402

SEEDS, STEPS = 3, 8


def _check(condition: bool, message: str) -> None:
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def _pixels(picture: Any) -> np.ndarray:
    return np.asarray(picture.convert("RGB") if hasattr(picture, "convert") else picture)


def check_puzzle(rules: type[Puzzle], drawing: Any) -> int:
    """Play `rules` at random and check every picture; the number of pictures."""
    width, height = rules.image_size
    pictures = 0
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        puzzle = rules(np.random.default_rng(seed))
        for _ in range(STEPS):
            state = puzzle.visible_state()
            before = copy.deepcopy(state)
            first, second = _pixels(drawing(state)), _pixels(drawing(state))
            _check(first.shape == (height, width, 3) and first.dtype == np.uint8, f"{rules.name}: {first.shape}")
            _check(np.array_equal(first, second), f"{rules.name}: the same state drew two pictures")
            _check(state == before, f"{rules.name}: drawing changed the visible state")
            pictures += 1
            actions = puzzle.valid_actions()
            if puzzle.solved or puzzle.time_up or not actions:
                break
            puzzle.apply(actions[int(rng.integers(len(actions)))])
            if rules.uses_clock:
                puzzle.elapse(3)
    return pictures


def main() -> None:
    checked = 0
    puzzles = importlib.import_module("comma_env.puzzles")
    for found in pkgutil.iter_modules(puzzles.__path__):
        spec = getattr(importlib.import_module(f"comma_env.puzzles.{found.name}"), "SPEC", None)
        if spec is None or not (isinstance(spec.rules, type) and issubclass(spec.rules, Puzzle)):
            continue
        pictures = check_puzzle(spec.rules, resolve(spec.drawing))
        print(f"ok: {spec.name} draws {pictures} pictures, each a pure function of its visible state")
        checked += 1
    _check(checked >= 10, f"only {checked} puzzles found")
    print(f"the drawing core runs on cpython {sys.version_info[0]}.{sys.version_info[1]}: {checked} puzzles checked")


if __name__ == "__main__":
    main()
