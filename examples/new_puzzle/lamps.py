"""Rules and spec of Lamps, the worked example of docs/adding-a-puzzle.md: four lamps, some
lit; the manual says which one to press. One correct press solves it; a wrong one is a
mistake."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PuzzleSpec

LAMPS = 4
ACTIONS = tuple(f"press_lamp_{k}" for k in range(1, LAMPS + 1))


def lamp_to_press(lit: list[bool]) -> int:
    """The manual's rule: an even number of lit lamps -> the first dark lamp (the last lamp
    if none is dark); an odd number -> the last lit lamp. Lamps are numbered from 1."""
    if sum(lit) % 2 == 0:
        return next((k for k, on in enumerate(lit, start=1) if not on), LAMPS)
    return max(k for k, on in enumerate(lit, start=1) if on)


class LampsPuzzle(Puzzle):
    single_step = True
    task_prompt = "Four lamps are numbered 1 to 4 from the left. Press the one lamp the manual calls for."

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.lit = [bool(on) for on in rng.integers(0, 2, size=LAMPS)]
        self.pressed: int | None = None

    def valid_actions(self) -> list[str]:
        return [] if self.solved else list(ACTIONS)

    def apply(self, action: str) -> bool:
        lamp = ACTIONS.index(action) + 1
        if lamp != lamp_to_press(self.lit):
            return False  # a strike; the lamps stay as they are
        self.pressed = lamp
        self._changed()
        return True

    @property
    def progress(self) -> float:
        return 1.0 if self.pressed is not None else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {"lamps_lit": list(self.lit), "pressed_lamp": self.pressed}

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        return [f"press_lamp_{lamp_to_press(list(seen['lamps_lit']))}"]


SPEC = PuzzleSpec(
    name="lamps",
    title="Lamps",
    skills=("MG",),
    rules=LampsPuzzle,
    drawing="lamps_drawing:draw_lamps",
    manual=str(Path(__file__).with_name("lamps.md")),  # inside comma_env: "lamps.md" in manuals/
    module="lamps_v0",  # inside comma_env: left out (comma_env.lamps_v0)
)
