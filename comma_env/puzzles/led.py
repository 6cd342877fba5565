"""LED: 2-5 stages; press the button whose letter times the LED's multiplier, modulo 26, equals the
letter diagonally opposite (paper, Appendix A). A wrong press is a strike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

POSITIONS = ("top_left", "top_right", "bottom_left", "bottom_right")
"""Grid positions in reading order; actions are ``press_<position>``."""

OPPOSITE: dict[str, str] = {
    "top_left": "bottom_right",
    "bottom_right": "top_left",
    "top_right": "bottom_left",
    "bottom_left": "top_right",
}
"""The diagonally opposite button of each position."""

MULTIPLIERS: dict[str, int] = {"red": 2, "green": 3, "blue": 4, "yellow": 5, "purple": 6, "orange": 7}
"""LED colour -> multiplier (must match manuals/led.md)."""

MIN_STAGES, MAX_STAGES = 2, 5
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def action_name(position: str) -> str:
    return f"press_{position}"


def letter_value(letter: str) -> int:
    """A=0 ... Z=25."""
    return ALPHABET.index(letter)


def is_correct(letters: Mapping[str, str], position: str, color: str) -> bool:
    """The manual's rule for one button."""
    value = letter_value(letters[position]) * MULTIPLIERS[color] % 26
    return value == letter_value(letters[OPPOSITE[position]])


def correct_buttons(letters: Mapping[str, str], color: str) -> list[str]:
    """Every correct position of a stage, in reading order."""
    return [position for position in POSITIONS if is_correct(letters, position, color)]


def stage_letters(rng: np.random.Generator, color: str) -> dict[str, str]:
    """Four distinct letters with at least one correct button for `color`."""
    multiplier = MULTIPLIERS[color]
    position = POSITIONS[int(rng.integers(len(POSITIONS)))]
    while True:
        value = int(rng.integers(26))
        target = value * multiplier % 26
        if target != value:
            break
    rest = [v for v in range(26) if v not in (value, target)]
    extra = rng.choice(rest, size=2, replace=False)
    others = [p for p in POSITIONS if p not in (position, OPPOSITE[position])]
    values = {position: value, OPPOSITE[position]: target, others[0]: int(extra[0]), others[1]: int(extra[1])}
    return {p: ALPHABET[values[p]] for p in POSITIONS}


class LedPuzzle(Puzzle):
    single_step = False
    task_prompt = (
        "The module is solved in 2 to 5 stages, one coloured LED per stage along the top; the "
        "number of the current stage is shown in the top-left corner. At each stage press one "
        "correct button among the four lettered buttons (2x2 grid); a wrong press is a mistake "
        "and the stage stays. The letters change when a stage is cleared. Buttons are named by "
        "position: top left, top right, bottom left, bottom right."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        count = int(rng.integers(MIN_STAGES, MAX_STAGES + 1))
        names = list(MULTIPLIERS)
        self.colors = [names[int(i)] for i in rng.integers(len(names), size=count)]
        self.stages = [stage_letters(rng, color) for color in self.colors]
        self.done = 0

    @property
    def current(self) -> int:
        """0-based index of the stage on show (the last one once all are done)."""
        return min(self.done, len(self.stages) - 1)

    def valid_actions(self) -> list[str]:
        return [action_name(position) for position in POSITIONS]

    def apply(self, action: str) -> bool:
        if self.done >= len(self.stages):
            return False
        position = action.removeprefix("press_")
        if not is_correct(self.stages[self.done], position, self.colors[self.done]):
            return False
        self.done += 1
        self._changed()
        return True

    @property
    def progress(self) -> float:
        return self.done / len(self.stages)

    def visible_state(self) -> dict[str, Any]:
        return {
            "stage_number": self.current + 1,
            "led_colors_left_to_right": list(self.colors),
            "completed_stages": self.done,
            "button_letters": dict(self.stages[self.current]),
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        colors = seen["led_colors_left_to_right"]
        if seen.get("completed_stages", 0) >= len(colors):
            return []
        color = colors[seen["stage_number"] - 1]
        return [action_name(correct_buttons(seen["button_letters"], color)[0])]


SPEC = PuzzleSpec(
    name="led",
    title="LED",
    skills=("MR", "MSR"),
    rules=LedPuzzle,
    drawing="comma_env.drawing.led:draw_led",
    manual="led.md",
    suite="comma",
    order=3,
    paper_column=3,
    paper_random=PaperRandom(psr=32.0, sr=14.0, psr_se=3.6, sr_se=3.5),
    paper_human_gpt4o=30.0,
    paper_v1_random=PaperV1Random(psr=85.0, mistakes=9.92, turns=12.96),
    phrasebook="comma_env.agents.natural.phrasebooks.led:LedPhrases",
)
