"""LED: every multiplier colour, the diagonal pairing, modulo wraparound, several correct
buttons, stage mechanics, and agreement between manuals/led.md and the code's tables."""

from __future__ import annotations

import re

import numpy as np
import pytest

import comma_env
from comma_env.drawing.common import PALETTE
from comma_env.drawing.led import draw_led, led_center
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.led import MULTIPLIERS, OPPOSITE, POSITIONS, LedPuzzle, correct_buttons, letter_value

TL, TR, BL, BR = POSITIONS


def grid(tl: str, tr: str, bl: str, br: str) -> dict[str, str]:
    return {TL: tl, TR: tr, BL: bl, BR: br}


def make_puzzle(colors: list[str], stages: list[dict[str, str]]) -> LedPuzzle:
    puzzle = LedPuzzle(np.random.default_rng(0))
    puzzle.colors, puzzle.stages = list(colors), [dict(s) for s in stages]
    return puzzle


# -- the rule --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("color", "letters", "expected", "why"),
    [
        ("red", grid("P", "A", "B", "E"), [TL], "P=15, x2=30, mod 26=4=E on bottom right"),
        ("green", grid("B", "K", "E", "Z"), [TR], "K=10, x3=30, mod 26=4=E on bottom left"),
        ("blue", grid("A", "C", "H", "B"), [BL], "H=7, x4=28, mod 26=2=C on top right"),
        ("yellow", grid("E", "A", "B", "G"), [BR], "G=6, x5=30, mod 26=4=E on top left"),
        ("purple", grid("F", "A", "B", "E"), [TL], "F=5, x6=30, mod 26=4=E on bottom right"),
        ("orange", grid("A", "Z", "T", "B"), [TR], "Z=25, x7=175, mod 26=19=T on bottom left"),
        ("orange", grid("D", "A", "B", "V"), [TL], "D=3, x7=21=V, no wraparound"),
        ("blue", grid("H", "D", "M", "C"), [TL, TR], "H->C on one diagonal and D=3, x4=12=M on the other"),
        ("blue", grid("C", "A", "B", "H"), [BR], "direction matters: H x4 = C, but C x4 = I, not H"),
        ("purple", grid("F", "E", "A", "B"), [], "F x6 = E sits on an adjacent button, not the opposite one"),
    ],
)
def test_correct_buttons(color: str, letters: dict[str, str], expected: list[str], why: str) -> None:
    assert correct_buttons(letters, color) == expected, why


def test_diagonal_pairs() -> None:
    assert OPPOSITE == {TL: BR, BR: TL, TR: BL, BL: TR}


def test_letter_values() -> None:
    assert (letter_value("A"), letter_value("N"), letter_value("Z")) == (0, 13, 25)


# -- stage mechanics -----------------------------------------------------------------------
def test_wrong_press_is_a_mistake_and_stage_stays() -> None:
    puzzle = make_puzzle(["red", "blue"], [grid("P", "A", "B", "E"), grid("A", "C", "H", "B")])
    before = puzzle.visible_state()
    assert puzzle.apply("press_bottom_right") is False
    assert puzzle.visible_state() == before and puzzle.progress == 0.0


def test_correct_presses_advance_stages_and_change_letters() -> None:
    puzzle = make_puzzle(["red", "blue", "orange"],
                         [grid("P", "A", "B", "E"), grid("A", "C", "H", "B"), grid("A", "Z", "T", "B")])
    assert puzzle.apply("press_top_left") is True
    state = puzzle.visible_state()
    assert state["stage_number"] == 2 and state["completed_stages"] == 1
    assert state["button_letters"] == grid("A", "C", "H", "B")
    assert puzzle.progress == pytest.approx(1 / 3)
    assert puzzle.apply("press_top_left") is False  # stage 2's answer is bottom left
    assert puzzle.apply("press_bottom_left") is True
    assert puzzle.apply("press_top_right") is True
    assert puzzle.solved and puzzle.progress == 1.0
    assert puzzle.visible_state()["stage_number"] == 3 and puzzle.visible_state()["completed_stages"] == 3
    assert puzzle.apply("press_top_right") is False  # nothing left to press


def test_either_correct_button_clears_a_stage() -> None:
    for position in (TL, TR):
        puzzle = make_puzzle(["blue", "red"], [grid("H", "D", "M", "C"), grid("P", "A", "B", "E")])
        assert puzzle.apply(f"press_{position}") is True
        assert puzzle.done == 1


def test_env_stops_at_first_mistake_in_a_message() -> None:
    env = comma_env.make("led")
    env.reset(seed=11)
    puzzle = env.unwrapped.puzzle
    good = correct_buttons(puzzle.stages[0], puzzle.colors[0])
    bad = next(p for p in POSITIONS if p not in good)
    env.step(f"press_{bad}\npress_{good[0]}")
    info = env.infos["solver"]
    assert info["mistakes"] == 1 and info["progress"] == 0.0
    assert [a["action"] for a in info["executed"]] == [f"press_{bad}"]


def test_generator_properties_over_many_seeds() -> None:
    stage_counts, colors, correct_counts = set(), set(), []
    for seed in range(1000):
        puzzle = LedPuzzle(np.random.default_rng(seed))
        stage_counts.add(len(puzzle.stages))
        for color, letters in zip(puzzle.colors, puzzle.stages, strict=True):
            colors.add(color)
            assert len(set(letters.values())) == 4, "letters must be distinct"
            correct = correct_buttons(letters, color)
            assert 1 <= len(correct) <= 2
            assert not (TL in correct and BR in correct) and not (TR in correct and BL in correct)
            correct_counts.append(len(correct))
    assert stage_counts == {2, 3, 4, 5}
    assert colors == set(MULTIPLIERS)
    share_two = correct_counts.count(2) / len(correct_counts)
    assert 0.04 < share_two < 0.12


def test_expert_advice_reads_current_led() -> None:
    seen = {"stage_number": 2, "led_colors_left_to_right": ["red", "orange", "blue"], "completed_stages": 1,
            "button_letters": grid("A", "Z", "T", "B")}
    assert LedPuzzle.expert_advice(seen, {}) == ["press_top_right"]
    seen["led_colors_left_to_right"] = ["red", "blue", "orange"]
    seen["button_letters"] = grid("H", "D", "M", "C")
    assert LedPuzzle.expert_advice(seen, {}) == ["press_top_left"]
    assert LedPuzzle.expert_advice(dict(seen, completed_stages=3), {}) == []


# -- manual agrees with the code -------------------------------------------------------------
def test_manual_multipliers_match_code() -> None:
    rows = re.findall(r"^- ([A-Z][a-z]+): (\d+)\s*$", read_manual("led.md"), flags=re.M)
    assert {name.lower(): int(value) for name, value in rows} == MULTIPLIERS


def test_manual_letter_values_match_code() -> None:
    pairs = re.findall(r"\b([A-Z])=(\d+)\b", read_manual("led.md"))
    assert len(pairs) == 26
    assert all(letter_value(letter) == int(value) for letter, value in pairs)


def test_manual_worked_example_agrees_with_rule() -> None:
    manual = read_manual("led.md")
    assert "blue (multiplier 4)" in manual and "shows H (7)" in manual and "shows C" in manual
    assert TL in correct_buttons(grid("H", "A", "B", "C"), "blue")


def test_manual_names_actions_and_stage_range() -> None:
    manual = read_manual("led.md")
    for position in POSITIONS:
        assert f"`press_{position}`" in manual
    assert "two to five" in manual and "diagonally opposite" in manual


# -- drawing -----------------------------------------------------------------------------------
def test_leds_are_drawn_in_their_colours() -> None:
    colors = list(MULTIPLIERS)[:5]
    state = {"stage_number": 1, "led_colors_left_to_right": colors, "completed_stages": 0,
             "button_letters": grid("A", "B", "C", "D")}
    image = draw_led(state)
    for index, color in enumerate(colors):
        x, y = led_center(index, len(colors))
        assert image.convert("RGB").getpixel((int(x), int(y))) == PALETTE[color]
