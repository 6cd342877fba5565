"""Every rule of manuals/button.md: one hand-written case per branch of both tables, the
tables parsed out of the manual and compared with the code, and the module's behaviour
(springing back, latching, the clock)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import comma_env
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.button import (
    BUTTON_COLORS,
    LABELS,
    STRIP_COLORS,
    ButtonPuzzle,
    button_action,
    release_digit,
    seconds_until_digit,
    shows_digit,
)


@pytest.mark.parametrize(
    ("color", "label", "expected", "rule"),
    [
        ("yellow", "DETONATE", "hold", "1 before 3: yellow beats DETONATE (v1: a yellow button is held)"),
        ("yellow", "PRESS", "hold", "1: yellow -> hold"),
        ("yellow", "HOLD", "hold", "1: yellow HOLD -> hold"),
        ("blue", "ABORT", "hold", "2: blue ABORT -> hold"),
        ("blue", "DETONATE", "tap", "3: DETONATE -> tap (blue but not ABORT)"),
        ("red", "HOLD", "tap", "4: red HOLD -> tap"),
        ("white", "PRESS", "tap", "5: white PRESS -> tap"),
        ("red", "ABORT", "hold", "6: otherwise hold"),
        ("white", "HOLD", "hold", "6: white not PRESS -> hold"),
        ("black", "PRESS", "hold", "6: black PRESS -> hold"),
    ],
)
def test_tap_or_hold_rule(color: str, label: str, expected: str, rule: str) -> None:
    assert button_action(color, label) == expected, rule


@pytest.mark.parametrize(("strip", "digit"), [("blue", 4), ("white", 1), ("yellow", 5), ("red", 1), ("green", 1)])
def test_release_rule(strip: str, digit: int) -> None:
    assert release_digit(strip) == digit


def _manual_table(title: str) -> list[list[str]]:
    manual = read_manual("button.md")
    section = manual[manual.index(title):]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        if line.startswith("|") and not set(line) <= set("|-"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows[1:]  # without the header


def _applies(cell: str, color: str, label: str) -> bool:
    """Read one "button" cell: "anything else", or "<colour | any colour>, <saying WORD | any word>"."""
    if cell == "anything else":
        return True
    color_part, _, label_part = (part.strip() for part in cell.partition(","))
    color_ok = color_part == "any colour" or color_part == color
    label_ok = label_part == "any word" or label_part == f"saying {label}"
    return color_ok and label_ok


def test_manual_step1_table_matches_code() -> None:
    rows = _manual_table("## Step 1")
    assert len(rows) == 6
    for color in BUTTON_COLORS:
        for label in LABELS:
            first = next(r for r in rows if _applies(r[1], color, label))
            assert first[2] == button_action(color, label), (color, label, first)


def test_manual_step2_table_matches_code() -> None:
    table = {r[0]: int(r[1]) for r in _manual_table("## Step 2")}
    for strip in STRIP_COLORS:
        assert release_digit(strip) == table.get(strip, table["any other colour"])


def test_manual_names_colours_labels_and_clock() -> None:
    manual = read_manual("button.md")
    for word in (*BUTTON_COLORS, *LABELS, "wait N", "tap", "hold", "release", "0:00", "ten"):
        assert word in manual
    assert re.search(r"one second plus one second per\s+started\s+ten\s+characters", manual)


@pytest.mark.parametrize(("seconds", "digit", "expected"),
                         [(252, 4, True), (161, 4, True), (4, 4, True), (333, 4, False), (300, 5, True), (300, 0, True),
                          (300, 1, False)])
def test_timer_digit_in_any_position(seconds: int, digit: int, expected: bool) -> None:
    assert shows_digit(seconds, digit) is expected


def test_seconds_until_digit_lands_on_the_digit() -> None:
    for seconds in range(20, 600):
        for digit in (1, 4, 5):
            wait = seconds_until_digit(seconds, digit)
            assert 0 <= wait < 10 and shows_digit(seconds - wait, digit)
            assert not any(shows_digit(seconds - w, digit) for w in range(wait))


def _puzzle(color: str, label: str, strip: str, seconds: int) -> ButtonPuzzle:
    puzzle = ButtonPuzzle(np.random.default_rng(0))
    puzzle.color, puzzle.label, puzzle.strip, puzzle.time_left = color, label, strip, seconds
    puzzle.answer = button_action(color, label)
    return puzzle


def test_tap_disarms_and_wrong_choice_springs_back() -> None:
    puzzle = _puzzle("red", "HOLD", "blue", 300)
    assert not puzzle.apply("hold") and not puzzle.held and puzzle.valid_actions() == ["tap", "hold"]
    assert puzzle.apply("tap") and puzzle.solved


def test_hold_lights_strip_and_wrong_release_stays_latched() -> None:
    puzzle = _puzzle("yellow", "PRESS", "blue", 333)
    assert puzzle.visible_state()["strip_color"] == "off"
    assert not puzzle.apply("tap")
    assert puzzle.apply("hold") and puzzle.progress == 0.5
    assert puzzle.visible_state()["strip_color"] == "blue" and puzzle.valid_actions() == ["release"]
    assert not puzzle.apply("release")  # 5:33 shows no 4
    assert puzzle.held and puzzle.visible_state()["strip_color"] == "blue"
    puzzle.elapse(9)  # 5:24
    assert puzzle.apply("release") and puzzle.solved and puzzle.progress == 1.0


def test_episode_with_wait_before_release() -> None:
    env = comma_env.make("button")
    for seed in range(50):
        env.reset(seed=seed)
        if env.unwrapped.puzzle.answer == "hold":
            break
    puzzle = env.unwrapped.puzzle
    env.step("hold")
    env.step("ok")
    wait = seconds_until_digit(puzzle.time_left, release_digit(puzzle.strip))
    env.step(f"wait {wait}\nrelease")
    _, _, terminated, _, info = env.last()
    assert terminated and info["episode"]["success"] and info["episode"]["mistakes"] == 0


def test_manual_message_costs_are_the_clocks() -> None:
    """The manual's worked costs (per *started* ten characters) are what the clock charges."""
    from comma_env.protocol.clock import message_seconds

    text = " ".join(read_manual("button.md").split())
    assert "a message of 1 to 10 characters costs 2 seconds, one of 11 to 20 characters 3 seconds, " \
           "an empty one 1 second" in text
    assert [message_seconds("x" * k) for k in (0, 1, 10, 11, 20)] == [1, 2, 2, 3, 3]


def test_every_yellow_button_is_held() -> None:
    """v1 (seed 003, appendix): a yellow button is held, whatever its word."""
    assert {button_action("yellow", label) for label in LABELS} == {"hold"}
