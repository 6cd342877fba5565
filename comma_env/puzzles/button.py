"""Button (COMMA v1): tap or hold as colour and label say; a held button's strip colour names the
countdown digit to release at (the v1 paper gives part of the table, manuals/button.md the rest)."""

from __future__ import annotations

from typing import Any

import numpy as np

from comma_env.protocol.clock import Countdown, format_timer, parse_timer, wait_line
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperV1Random, PuzzleSpec

BUTTON_COLORS = ("red", "blue", "yellow", "white", "black")
LABELS = ("ABORT", "DETONATE", "HOLD", "PRESS")
STRIP_COLORS = ("blue", "white", "yellow", "red", "green")
RELEASE_DIGIT = {"blue": 4, "white": 1, "yellow": 5}
OTHER_STRIP_DIGIT = 1
START_SECONDS = (240, 600)  # 4:00 .. 9:59
TAP, HOLD, RELEASE = "tap", "hold", "release"
ADVICE = "release when the timer shows a "


def button_action(color: str, label: str) -> str:
    """The manual's first table: `tap` or `hold` (the first rule that applies). v1 states
    one rule, "a yellow button is held", without exceptions, so it comes first."""
    if color == "yellow":
        return HOLD
    if color == "blue" and label == "ABORT":
        return HOLD
    if label == "DETONATE":
        return TAP
    if color == "red" and label == "HOLD":
        return TAP
    if color == "white" and label == "PRESS":
        return TAP
    return HOLD


def release_digit(strip: str) -> int:
    """The manual's second table: the digit the timer must show on release."""
    return RELEASE_DIGIT.get(strip, OTHER_STRIP_DIGIT)


def shows_digit(time_left: int, digit: int) -> bool:
    """Whether the timer's M:SS reading has `digit` in any position."""
    return str(digit) in format_timer(time_left).replace(":", "")


def seconds_until_digit(time_left: int, digit: int) -> int:
    """Seconds to wait until the reading contains `digit` (the ones digit cycles every 10 s)."""
    for wait in range(min(time_left, 10)):
        if shows_digit(time_left - wait, digit):
            return wait
    return 0


class ButtonPuzzle(Countdown, Puzzle):
    single_step = False
    uses_clock = True
    task_prompt = (
        "A large coloured button with a label, a light strip beside it and a countdown timer "
        "are shown. The button must be tapped, or held and released at the right moment. Time "
        "is simulated: every message costs one second plus one second per started ten characters, and "
        "a line `wait N` lets N seconds pass before the next line. At 0:00 the puzzle is lost."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.color = BUTTON_COLORS[int(rng.integers(len(BUTTON_COLORS)))]
        self.label = LABELS[int(rng.integers(len(LABELS)))]
        self.strip = STRIP_COLORS[int(rng.integers(len(STRIP_COLORS)))]  # lights only while held
        self.time_left = int(rng.integers(*START_SECONDS))
        self.answer = button_action(self.color, self.label)
        self.held = False
        self.done = False

    def valid_actions(self) -> list[str]:
        return [RELEASE] if self.held else [TAP, HOLD]

    def apply(self, action: str) -> bool:
        self._changed()
        if action == RELEASE:
            # the button is latched: a release at the wrong moment is a strike and it stays held
            self.done = shows_digit(self.time_left, release_digit(self.strip))
            self.held = not self.done
            return self.done
        if action != self.answer:
            return False  # the module refuses: the button springs back up
        if action == TAP:
            self.done = True
        else:
            self.held = True
        return True

    @property
    def progress(self) -> float:
        return 1.0 if self.done else (0.5 if self.held else 0.0)

    def visible_state(self) -> dict[str, Any]:
        return {
            "button_color": self.color,
            "button_label": self.label,
            "button_held": self.held,
            "strip_color": self.strip if self.held else "off",
            "timer": format_timer(self.time_left),
            "module_disarmed": self.done,
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        if seen.get("button_held"):
            return [f"{ADVICE}{release_digit(seen['strip_color'])}"]
        return [button_action(seen["button_color"], seen["button_label"])]

    @classmethod
    def expand_advice(cls, line: str, state: dict[str, Any]) -> list[str]:
        """"release when the timer shows a 4" becomes a wait until it does, then `release`."""
        if not line.startswith(ADVICE):
            return [line]
        wait = seconds_until_digit(parse_timer(state["timer"]), int(line[len(ADVICE):]))
        return ([wait_line(wait)] if wait else []) + [RELEASE]


SPEC = PuzzleSpec(
    name="button",
    title="Button",
    skills=("RT",),
    rules=ButtonPuzzle,
    drawing="comma_env.drawing.button:draw_button",
    manual="button.md",
    suite="v1",
    order=0,
    paper_v1_random=PaperV1Random(psr=100.0, mistakes=4.17, turns=5.17),
    phrasebook="comma_env.agents.natural.phrasebooks.button:ButtonPhrases",
)
