"""Every rule of manuals/who.md: each step-1 entry, a set of step-2 cases worked by hand,
and the manual's tables parsed back and compared with the code's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from comma_env.protocol.resources import read_manual
from comma_env.puzzles.who import (
    NO_TEXT,
    POSITIONS,
    STEP1,
    STEP2,
    WhoPuzzle,
    action_name,
    button_to_press,
    label_position,
    normalize,
)

# Step 1, typed from the paper's Appendix A list.
STEP1_CASES = [
    ("YES", "middle_left"), ("FIRST", "top_right"), ("DISPLAY", "bottom_right"),
    ("OKAY", "top_right"), ("SAYS", "bottom_right"), ("NOTHING", "middle_left"),
    ("", "bottom_left"), ("BLANK", "middle_right"), ("NO", "bottom_right"),
    ("LED", "middle_left"), ("LEAD", "bottom_right"), ("READ", "middle_right"),
    ("RED", "middle_right"), ("REED", "bottom_left"), ("LEED", "bottom_left"),
    ("HOLD ON", "bottom_right"), ("YOU", "middle_right"), ("YOU ARE", "bottom_right"),
    ("YOUR", "middle_right"), ("YOU'RE", "middle_right"), ("UR", "top_left"),
    ("THERE", "bottom_right"), ("THEY'RE", "bottom_left"), ("THEIR", "middle_right"),
    ("THEY ARE", "middle_left"), ("SEE", "bottom_right"), ("C", "top_right"),
    ("CEE", "bottom_right"),
]


@pytest.mark.parametrize(("display", "position"), STEP1_CASES)
def test_step1_entry(display: str, position: str) -> None:
    assert label_position(display) == position
    # the entry drives the whole answer: put READY (whose list starts with YES) at that
    # position and YES somewhere else; YES must be the button to press
    others = [p for p in POSITIONS if p != position]
    labels = dict(zip(others, ["YES", "WAIT", "FIRST", "NOTHING", "NO"], strict=True))
    labels[position] = "READY"
    assert button_to_press(display, labels) == others[0]


def test_step1_covers_every_entry() -> None:
    assert {d for d, _ in STEP1_CASES} == set(STEP1) and len(STEP1) == 28


def _labels(*words: str) -> dict[str, str]:
    return dict(zip(POSITIONS, words, strict=True))


@pytest.mark.parametrize(
    ("display", "labels", "expected"),
    [
        # READY list: YES, OKAY, WHAT, MIDDLE, LEFT, PRESS, RIGHT, BLANK, READY, ...
        ("UR", _labels("READY", "OKAY", "WHAT", "MIDDLE", "LEFT", "YES"), "bottom_right"),
        ("UR", _labels("READY", "OKAY", "WHAT", "MIDDLE", "LEFT", "PRESS"), "top_right"),
        ("UR", _labels("READY", "NO", "FIRST", "UHHH", "NOTHING", "WAIT"), "top_left"),
        # FIRST (top right for C): LEFT, OKAY, YES, ... -> YES at bottom left
        ("C", _labels("NO", "FIRST", "NOTHING", "READY", "YES", "WAIT"), "bottom_left"),
        # FIRST list: LEFT, OKAY, YES, MIDDLE, NO ... -> NO at top left (5th)
        ("C", _labels("NO", "FIRST", "NOTHING", "READY", "BLANK", "WAIT"), "top_left"),
        # YES display -> middle left = BLANK: WAIT, RIGHT, OKAY -> WAIT at middle right
        ("YES", _labels("PRESS", "OKAY", "BLANK", "WAIT", "NO", "FIRST"), "middle_right"),
        # NOTHING display -> middle left = UHHH: READY, NOTHING, LEFT, WHAT, OKAY -> OKAY
        ("NOTHING", _labels("PRESS", "OKAY", "UHHH", "WAIT", "NO", "FIRST"), "top_right"),
        # BLANK display -> middle right = U: UH HUH, SURE -> SURE at top right
        ("BLANK", _labels("UH UH", "SURE", "DONE", "U", "LIKE", "NEXT"), "top_right"),
        # empty display -> bottom left = YOU'RE: YOU first -> top left
        ("", _labels("YOU", "YOUR", "YOU ARE", "UR", "YOU'RE", "HOLD"), "top_left"),
        # DISPLAY -> bottom right = SURE: YOU ARE, DONE -> DONE at top left
        ("DISPLAY", _labels("DONE", "LIKE", "WHAT?", "U", "HOLD", "SURE"), "top_left"),
        # THEY ARE -> middle left = LIKE: YOU'RE, NEXT -> NEXT at bottom right
        ("THEY ARE", _labels("WHAT", "WHAT?", "LIKE", "YES", "LEFT", "NEXT"), "bottom_right"),
        # REED -> bottom left = LEFT: RIGHT first -> bottom right
        ("REED", _labels("WHAT", "NO", "YES", "MIDDLE", "LEFT", "RIGHT"), "bottom_right"),
        # labels from both word families: WHAT? (middle right, read for READ) -> YOU, HOLD,
        # YOU'RE, YOUR -> YOUR at top right; WHAT (no question mark) is not WHAT?
        ("READ", _labels("WHAT", "YOUR", "WAIT", "WHAT?", "NO", "U"), "top_right"),
        # WHAT (middle right) -> UHHH, WHAT -> WHAT is the label read itself
        ("READ", _labels("WHAT?", "YOUR", "WAIT", "WHAT", "NO", "U"), "middle_right"),
        # UH HUH heads its own list
        ("HOLD ON", _labels("YOUR", "YOU", "DONE", "HOLD", "SURE", "UH HUH"), "bottom_right"),
        # WAIT (top right for OKAY): UHHH, NO, BLANK... -> NO at bottom right
        ("OKAY", _labels("YES", "WAIT", "LEFT", "FIRST", "READY", "NO"), "bottom_right"),
    ],
)
def test_step2_case(display: str, labels: dict[str, str], expected: str) -> None:
    assert button_to_press(display, labels) == expected


def test_every_list_contains_its_own_label_and_only_list_words() -> None:
    family_a = set(list(STEP2)[:14])
    family_b = set(list(STEP2)[14:])
    for label, words in STEP2.items():
        assert len(words) == 14 and len(set(words)) == 14 and label in words
        assert set(words) in (family_a, family_b)


def test_normalize_accepts_reported_spellings() -> None:
    assert normalize("(No Text)") == NO_TEXT
    assert normalize("  you\u2019re ") == "YOU'RE"
    assert normalize("hold   on") == "HOLD ON"
    assert label_position("(no text)") == "bottom_left"


# -- the manual file says the same thing as the code ------------------------------------
def _manual_tables() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    manual = read_manual("who.md")
    step1_text = manual.split("## Step 1")[1].split("## Step 2")[0]
    step2_text = manual.split("## Step 2")[1]
    row = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \|$", re.MULTILINE)
    step1 = {}
    for display, where in row.findall(step1_text):
        if display in ("Display", "---"):
            continue
        step1[normalize(display)] = where.lower().replace(" ", "_")
    step2 = {}
    for label, words in row.findall(step2_text):
        if label in ("Label read", "---"):
            continue
        step2[label] = tuple(w.strip() for w in words.split(","))
    return step1, step2


def test_manual_step1_table_matches_code() -> None:
    step1, _ = _manual_tables()
    assert step1 == STEP1


def test_manual_step2_table_matches_code() -> None:
    _, step2 = _manual_tables()
    assert step2 == STEP2


def test_manual_names_every_action() -> None:
    manual = read_manual("who.md")
    for position in POSITIONS:
        assert f"`{action_name(position)}`" in manual


# -- generation and actions ---------------------------------------------------------------
def test_generated_instances_are_well_defined() -> None:
    displays = set()
    for seed in range(300):
        puzzle = WhoPuzzle(np.random.default_rng(seed))
        state = puzzle.visible_state()
        labels = state["button_labels"]
        assert list(labels) == list(POSITIONS)
        assert len(set(labels.values())) == 6 and set(labels.values()) <= set(STEP2)
        assert state["display_text"] in STEP1
        assert puzzle.answer == button_to_press(state["display_text"], labels)
        assert WhoPuzzle.expert_advice(state, {}) == [action_name(puzzle.answer)]
        displays.add(state["display_text"])
    assert NO_TEXT in displays and len(displays) == 28


def test_wrong_press_is_a_mistake_and_buttons_stay_pressable() -> None:
    puzzle = WhoPuzzle(np.random.default_rng(5))
    right = action_name(puzzle.answer)
    wrong = next(a for a in puzzle.valid_actions() if a != right)
    assert puzzle.valid_actions() == [action_name(p) for p in POSITIONS]
    assert puzzle.apply(wrong) is False and puzzle.progress == 0.0
    assert puzzle.apply(wrong) is False and wrong in puzzle.valid_actions()
    assert puzzle.apply(right) is True and puzzle.progress == 1.0 and puzzle.solved
