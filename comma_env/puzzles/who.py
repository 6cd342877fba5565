"""Who: a display word points at a button whose label names a priority list; press the button whose
label comes first in it (paper, Appendix A). A wrong press is a strike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

POSITIONS = ("top_left", "top_right", "middle_left", "middle_right", "bottom_left", "bottom_right")
"""Button positions in reading order: 3 rows of 2."""

NO_TEXT = ""
"""The display value when the screen is empty (the manual's "(No Text)" entry)."""

STEP1: dict[str, str] = {
    "YES": "middle_left",
    "FIRST": "top_right",
    "DISPLAY": "bottom_right",
    "OKAY": "top_right",
    "SAYS": "bottom_right",
    "NOTHING": "middle_left",
    NO_TEXT: "bottom_left",
    "BLANK": "middle_right",
    "NO": "bottom_right",
    "LED": "middle_left",
    "LEAD": "bottom_right",
    "READ": "middle_right",
    "RED": "middle_right",
    "REED": "bottom_left",
    "LEED": "bottom_left",
    "HOLD ON": "bottom_right",
    "YOU": "middle_right",
    "YOU ARE": "bottom_right",
    "YOUR": "middle_right",
    "YOU'RE": "middle_right",
    "UR": "top_left",
    "THERE": "bottom_right",
    "THEY'RE": "bottom_left",
    "THEIR": "middle_right",
    "THEY ARE": "middle_left",
    "SEE": "bottom_right",
    "C": "top_right",
    "CEE": "bottom_right",
}
"""Step 1: display word -> position of the button whose label is read next."""


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in text.split(","))


STEP2: dict[str, tuple[str, ...]] = {
    "READY": _words("YES, OKAY, WHAT, MIDDLE, LEFT, PRESS, RIGHT, BLANK, READY, NO, FIRST, UHHH, NOTHING, WAIT"),
    "FIRST": _words("LEFT, OKAY, YES, MIDDLE, NO, RIGHT, NOTHING, UHHH, WAIT, READY, BLANK, WHAT, PRESS, FIRST"),
    "NO": _words("BLANK, UHHH, WAIT, FIRST, WHAT, READY, RIGHT, YES, NOTHING, LEFT, PRESS, OKAY, NO, MIDDLE"),
    "BLANK": _words("WAIT, RIGHT, OKAY, MIDDLE, BLANK, PRESS, READY, NOTHING, NO, WHAT, LEFT, UHHH, YES, FIRST"),
    "NOTHING": _words("UHHH, RIGHT, OKAY, MIDDLE, YES, BLANK, NO, PRESS, LEFT, WHAT, WAIT, FIRST, NOTHING, READY"),
    "YES": _words("OKAY, RIGHT, UHHH, MIDDLE, FIRST, WHAT, PRESS, READY, NOTHING, YES, LEFT, BLANK, NO, WAIT"),
    "WHAT": _words("UHHH, WHAT, LEFT, NOTHING, READY, BLANK, MIDDLE, NO, OKAY, FIRST, WAIT, YES, PRESS, RIGHT"),
    "UHHH": _words("READY, NOTHING, LEFT, WHAT, OKAY, YES, RIGHT, NO, PRESS, BLANK, UHHH, MIDDLE, WAIT, FIRST"),
    "LEFT": _words("RIGHT, LEFT, FIRST, NO, MIDDLE, YES, BLANK, WHAT, UHHH, WAIT, PRESS, READY, OKAY, NOTHING"),
    "RIGHT": _words("YES, NOTHING, READY, PRESS, NO, WAIT, WHAT, RIGHT, MIDDLE, LEFT, UHHH, BLANK, OKAY, FIRST"),
    "MIDDLE": _words("BLANK, READY, OKAY, WHAT, NOTHING, PRESS, NO, WAIT, LEFT, MIDDLE, RIGHT, FIRST, UHHH, YES"),
    "OKAY": _words("MIDDLE, NO, FIRST, YES, UHHH, NOTHING, WAIT, OKAY, LEFT, READY, BLANK, PRESS, WHAT, RIGHT"),
    "WAIT": _words("UHHH, NO, BLANK, OKAY, YES, LEFT, FIRST, PRESS, WHAT, WAIT, NOTHING, READY, RIGHT, MIDDLE"),
    "PRESS": _words("RIGHT, MIDDLE, YES, READY, PRESS, OKAY, NOTHING, UHHH, BLANK, LEFT, FIRST, WHAT, NO, WAIT"),
    "YOU": _words("SURE, YOU ARE, YOUR, YOU'RE, NEXT, UH HUH, UR, HOLD, WHAT?, YOU, UH UH, LIKE, DONE, U"),
    "YOU ARE": _words("YOUR, NEXT, LIKE, UH HUH, WHAT?, DONE, UH UH, HOLD, YOU, U, YOU'RE, SURE, UR, YOU ARE"),
    "YOUR": _words("UH UH, YOU ARE, UH HUH, YOUR, NEXT, UR, SURE, U, YOU'RE, YOU, WHAT?, HOLD, LIKE, DONE"),
    "YOU'RE": _words("YOU, YOU'RE, UR, NEXT, UH UH, YOU ARE, U, YOUR, WHAT?, UH HUH, SURE, DONE, LIKE, HOLD"),
    "UR": _words("DONE, U, UR, UH HUH, WHAT?, SURE, YOUR, HOLD, YOU'RE, LIKE, NEXT, UH UH, YOU ARE, YOU"),
    "U": _words("UH HUH, SURE, NEXT, WHAT?, YOU'RE, UR, UH UH, DONE, U, YOU, LIKE, HOLD, YOU ARE, YOUR"),
    "UH HUH": _words("UH HUH, YOUR, YOU ARE, YOU, DONE, HOLD, UH UH, NEXT, SURE, LIKE, YOU'RE, UR, U, WHAT?"),
    "UH UH": _words("UR, U, YOU ARE, YOU'RE, NEXT, UH UH, DONE, YOU, UH HUH, LIKE, YOUR, SURE, HOLD, WHAT?"),
    "WHAT?": _words("YOU, HOLD, YOU'RE, YOUR, U, DONE, UH UH, LIKE, YOU ARE, UH HUH, UR, NEXT, WHAT?, SURE"),
    "DONE": _words("SURE, UH HUH, NEXT, WHAT?, YOUR, UR, YOU'RE, HOLD, LIKE, YOU, U, YOU ARE, UH UH, DONE"),
    "NEXT": _words("WHAT?, UH HUH, UH UH, YOUR, HOLD, SURE, NEXT, LIKE, DONE, YOU ARE, UR, YOU'RE, U, YOU"),
    "HOLD": _words("YOU ARE, U, DONE, UH UH, YOU, UR, SURE, WHAT?, YOU'RE, NEXT, HOLD, UH HUH, YOUR, LIKE"),
    "SURE": _words("YOU ARE, DONE, LIKE, YOU'RE, YOU, HOLD, UH HUH, UR, SURE, U, WHAT?, NEXT, YOUR, UH UH"),
    "LIKE": _words("YOU'RE, NEXT, U, UR, HOLD, DONE, UH UH, WHAT?, UH HUH, YOU, LIKE, SURE, YOU ARE, YOUR"),
}
"""Step 2: label read in step 1 -> words in priority order. Every list contains its own
label, so any module whose labels all have a list has exactly one answer."""

LABELS: tuple[str, ...] = tuple(STEP2)
DISPLAY_WORDS: tuple[str, ...] = tuple(STEP1)


def normalize(text: str) -> str:
    """Canonical spelling of a word as a solver might report it (case, curly quotes,
    spaces); "(No Text)" and an empty display are the same thing."""
    word = " ".join(str(text).replace("\u2019", "'").replace("\u2018", "'").upper().split())
    return NO_TEXT if word in ("(NO TEXT)", "NO TEXT") else word


def label_position(display: str) -> str:
    """Step 1: which button's label to read for this display word."""
    return STEP1[normalize(display)]


def button_to_press(display: str, labels: Mapping[str, str]) -> str:
    """Both steps of the manual: the position of the button to push."""
    read = normalize(labels[label_position(display)])
    by_label = {normalize(label): position for position, label in labels.items()}
    for word in STEP2[read]:
        if word in by_label:
            return by_label[word]
    raise ValueError(f"no label of {dict(labels)} is in the list for {read!r}")


def action_name(position: str) -> str:
    return f"press_{position}"


class WhoPuzzle(Puzzle):
    single_step = True
    task_prompt = (
        "Disarm the module by pressing the one correct button. It has a display at the top "
        "(it may be empty) and six labelled buttons in three rows of two: top, middle and "
        "bottom row, left and right column."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.display = DISPLAY_WORDS[int(rng.integers(len(DISPLAY_WORDS)))]
        picks = rng.choice(len(LABELS), size=len(POSITIONS), replace=False)
        self.labels = {position: LABELS[int(i)] for position, i in zip(POSITIONS, picks, strict=False)}
        self.answer = button_to_press(self.display, self.labels)
        self.pressed_correct = False
        self._actions = [action_name(position) for position in POSITIONS]

    def valid_actions(self) -> list[str]:
        return self._actions

    def apply(self, action: str) -> bool:
        ok = action == action_name(self.answer)
        if ok and not self.pressed_correct:
            self.pressed_correct = True
            self._changed()
        return ok

    @property
    def progress(self) -> float:
        return 1.0 if self.pressed_correct else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {
            "display_text": self.display,
            "button_labels": dict(self.labels),
            "module_disarmed": self.pressed_correct,
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        return [action_name(button_to_press(seen["display_text"], seen["button_labels"]))]


SPEC = PuzzleSpec(
    name="who",
    title="Who",
    skills=("MG",),
    rules=WhoPuzzle,
    drawing="comma_env.drawing.who:draw_who",
    manual="who.md",
    suite="comma",
    order=1,
    paper_column=2,
    paper_random=PaperRandom(psr=44.0, sr=44.0, psr_se=5.0, sr_se=5.0),
    paper_human_gpt4o=90.0,
    paper_v1_random=PaperV1Random(psr=100.0, mistakes=3.48, turns=4.48),
    phrasebook="comma_env.agents.natural.phrasebooks.who:WhoPhrases",
)
