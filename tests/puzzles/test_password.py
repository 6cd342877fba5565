"""Every rule of manuals/password.md, with hand-written cases."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import comma_env
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.password import (
    ACTIONS,
    WORDS,
    PasswordPuzzle,
    cycle_from,
    formable_words,
    moves_between,
    step_letter,
    unique_cycle_sets,
)


def _puzzle(cycles: list[str], shown: str, answer: str) -> PasswordPuzzle:
    """A hand-built instance: cycles given by their first letters."""
    puzzle = PasswordPuzzle(np.random.default_rng(0))
    puzzle.cycles = [cycle_from(s) for s in cycles]
    puzzle.shown = list(shown)
    puzzle.answer = answer
    puzzle.submitted = []
    return puzzle


# cycles for "water": W from UVW, A from ABC, T from STU, E from CDE, R from RST
WATER = ["U", "A", "S", "C", "R"]


def test_manual_word_list_matches_code() -> None:
    manual = read_manual("password.md")
    section = manual.split("## Possible words", 1)[1].split("##", 1)[0]
    listed = [w.strip() for w in section.replace("\n", " ").split(",")]
    assert tuple(listed) == WORDS
    assert len(WORDS) == 35 and len(set(WORDS)) == 35


def test_manual_names_every_action_and_the_cycle_rule() -> None:
    manual = read_manual("password.md")
    for text in ("cycle_up_k", "cycle_down_k", "`submit`", "K -> L -> M -> K", "M -> L -> K -> M"):
        assert text in manual
    assert len(ACTIONS) == 11 and "cycle_up_5" in ACTIONS and "cycle_down_1" in ACTIONS


def test_manual_cycle_examples_follow_step_letter() -> None:
    manual = read_manual("password.md")
    up = re.search(r"\(([A-Z]) -> ([A-Z]) -> ([A-Z]) -> ([A-Z])\)", manual)
    assert up
    cycle = cycle_from(up.group(1))
    letters = [up.group(i) for i in range(1, 5)]
    for a, b in itertools.pairwise(letters):
        assert step_letter(cycle, a, +1) == b


def test_cycles_are_consecutive_and_never_wrap_past_z() -> None:
    assert cycle_from("K") == ("K", "L", "M")
    assert cycle_from("X") == ("X", "Y", "Z")
    with pytest.raises(ValueError):
        cycle_from("Y")


def test_cycle_up_with_wraparound() -> None:
    puzzle = _puzzle(WATER, "VBTDS", "water")
    assert puzzle.apply("cycle_up_1") and puzzle.shown[0] == "W"
    assert puzzle.apply("cycle_up_1") and puzzle.shown[0] == "U"  # wraps to the first letter
    assert puzzle.apply("cycle_up_1") and puzzle.shown[0] == "V"
    assert puzzle.shown[1:] == list("BTDS")  # other windows untouched


def test_cycle_down_with_wraparound() -> None:
    puzzle = _puzzle(WATER, "VBTDS", "water")
    assert puzzle.apply("cycle_down_5") and puzzle.shown[4] == "R"
    assert puzzle.apply("cycle_down_5") and puzzle.shown[4] == "T"  # wraps to the last letter
    assert puzzle.apply("cycle_down_5") and puzzle.shown[4] == "S"
    assert puzzle.progress == 0.0


def test_wrong_submit_is_a_mistake_and_right_submit_solves() -> None:
    puzzle = _puzzle(WATER, "VBTDS", "water")
    assert puzzle.apply("submit") is False
    assert puzzle.progress == 0.0 and not puzzle.solved
    for action in ("cycle_up_1", "cycle_down_2", "cycle_up_4", "cycle_down_5"):
        assert puzzle.apply(action)
    assert puzzle.shown == list("WATER")
    assert puzzle.progress == 0.0  # set but not submitted
    assert puzzle.apply("submit") is True
    assert puzzle.progress == 1.0 and puzzle.solved


def test_moves_between_letters_of_a_cycle() -> None:
    assert moves_between("K", "K") == []
    assert moves_between("K", "L") == [1]
    assert moves_between("L", "K") == [-1]
    assert moves_between("K", "M") == [-1]  # down from the first wraps to the last
    assert moves_between("M", "K") == [1]   # up from the last wraps to the first
    for start in "KLM":
        for target in "KLM":
            letter = start
            for move in moves_between(start, target):
                letter = step_letter(cycle_from("K"), letter, move)
            assert letter == target


def test_formable_words() -> None:
    assert formable_words([cycle_from(s) for s in WATER]) == ["water"]
    # windows offering T, H, E, R/S, E spell both "there" and "these"
    assert formable_words([["T"], ["H"], ["E"], ["R", "S"], ["E"]]) == ["there", "these"]


def test_every_word_has_a_unique_layout() -> None:
    for word in WORDS:
        layouts = unique_cycle_sets(word)
        assert layouts, word
        for layout in layouts[:5]:
            assert formable_words(layout) == [word]


def test_generation_exactly_one_word_over_many_seeds() -> None:
    answers = set()
    for seed in range(500):
        puzzle = PasswordPuzzle(np.random.default_rng(seed))
        assert formable_words(puzzle.cycles) == [puzzle.answer]
        for cycle, shown, letter in zip(puzzle.cycles, puzzle.shown, puzzle.answer.upper(), strict=True):
            assert list(cycle) == [chr(ord(cycle[0]) + i) for i in range(3)]
            assert shown in cycle and shown != letter
        answers.add(puzzle.answer)
    assert len(answers) == len(WORDS)


def test_image_shows_only_the_current_letters() -> None:
    env = comma_env.make("password")
    env.reset(seed=11)
    state = env.unwrapped.visible_state
    assert list(state) == ["letters_shown_left_to_right"]
    assert state["letters_shown_left_to_right"] == env.unwrapped.puzzle.shown


def test_expert_advice_waits_until_one_word_is_certain() -> None:
    notes: dict = {}
    first = PasswordPuzzle.expert_advice({"letters_shown_left_to_right": list("VBTDS")}, notes)
    assert first == [f"cycle_up_{k}" for k in range(1, 6)]
    second = PasswordPuzzle.expert_advice({"letters_shown_left_to_right": list("WCUET")}, notes)
    # seen V/W, B/C, T/U, D/E, S/T: no R yet in window 5, so "water" is not certain
    assert second == [f"cycle_up_{k}" for k in range(1, 6)]
    third = PasswordPuzzle.expert_advice({"letters_shown_left_to_right": list("UASCR")}, notes)
    # U->W is two up, so one down; A stays; S->T one up; C->E one down; R stays
    assert third == ["cycle_down_1", "cycle_up_3", "cycle_down_4", "submit"]
    puzzle = _puzzle(WATER, "UASCR", "water")
    assert all(puzzle.apply(action) for action in third)
    assert puzzle.solved
