"""The solver never carries out advice while ignoring a number in it (`natural/numbers_read.py`): a number its reader
did not read is asked about, and a number in a role the actions need not show is not."""

from __future__ import annotations

import time

import pytest

from comma_env.agents.natural.phrasebooks.base import phrasebook
from tests.support.natural import state_of


def _read(puzzle: str, seed: int, said: str) -> tuple[list[str] | None, list[str]]:
    cls, state = state_of(puzzle, seed)
    steps = phrasebook(cls).understand_dialogue([said], state)
    return steps.actions, steps.ask


@pytest.mark.parametrize(("puzzle", "seed", "said"), [
    ("wire", 3, "snip the wire at offset 2 from the top wire"),
    ("wire", 3, "cut the wire with index 4 (the top wire has index 0)"),
    ("wire", 3, "the wire at position 3, where the top wire is position 0, gets cut"),
    ("memory", 1, "press the button at offset 3 from the leftmost"),
])
def test_advice_with_a_number_the_reader_ignored_is_asked_about_quoting_it(puzzle, seed, said):
    assert _read(puzzle, seed, said) == (None, [f'What do you mean by "{said}"?'])


@pytest.mark.parametrize("said", [
    # step numbering
    "Step 2: cut the third wire.", "2) cut the third wire", "Step 5: cut the third wire", "4: cut the third wire",
    # a time
    "It is 2:45 now, cut the third wire", "by 9:15 cut the third wire", "cut the third wire before 12:30",
    # a range that says how things are counted
    "cut the third wire, counting 1-5 from the top", "cut the third wire, numbering them 2-7",
    "cut the third wire, wires 1 to 5 top down",
    # a condition or threshold the reader settled
    "there are over 4 wires, cut the third wire", "at least 5 wires here: cut the third wire",
    "you have under 7 wires: cut the third wire",
    # a worked calculation
    "cut the third wire: 2 plus 1 is 3", "7 mod 4 is 3, cut the third wire",
    "cut the third wire, that's 9 divided by 3",
    # a reason
    "cut the third wire because rule 4 says so", "rule 4 applies, so cut the third wire",
    "rule 4 -> cut the third wire",
    # an aside in brackets
    "cut the third wire (white one, 4 from the bottom)", "cut the third wire (the white, 2 reds above it)",
    "cut the third wire (the white one, 5 cm long)",
    # a count the actions agree with
    "cut the third wire, just 1 cut", "cut the third wire - 1 snip and done", "cut the third wire, only 1",
    # a number the solver sees (how many wires)
    "cut the third wire, there are 6 wires", "cut the third wire of your 6",
    "Six wires here: cut the third wire",
])
def test_numbers_in_roles_the_actions_need_not_show_are_not_asked_about(said):
    assert _read("wire", 3, said) == (["cut_wire_3"], [])


@pytest.mark.parametrize(("puzzle", "seed", "said", "actions"), [
    ("wire", 3, "cut the third wire, not wire 2", ["cut_wire_3"]),
    ("password", 1, "press up on window 1 once, leave window 3, then submit", ["cycle_up_1", "submit"]),
    ("memory", 1, "press the leftmost button, not position 3", ["press_position_1"]),
])
def test_a_place_the_advice_leaves_out_is_no_ignored_number(puzzle, seed, said, actions):
    assert _read(puzzle, seed, said) == (actions, [])


@pytest.mark.parametrize("said", ["submit when it ends in 2 - 12, 22, 32 all work",
                                  "submit when the last digit is 7 - 17, 27 or 37", "submit on a 4, like 14 or 24"])
def test_digits_of_timing_the_reader_read_are_no_ignored_numbers(said):
    actions, ask = _read("dog", 3, said)
    assert actions and actions[-1] == "submit" and not ask


@pytest.mark.parametrize("said", ["the word is NINE, spell it then submit", "It's SEVEN: spell it, then submit",
                                  "the answer is EIGHT, spell it then submit"])
def test_a_word_in_capitals_is_a_word_not_a_number(said):
    assert _read("password", 1, said) == (["submit"], [])


def test_ordinals_that_order_several_steps_are_step_numbering():
    said = "press top left first, 2nd top right, 3rd bottom left, and last bottom right"
    assert _read("keypad", 1, said)[0] == ["press_top_left", "press_top_right", "press_bottom_left",
                                           "press_bottom_right"]


def test_a_message_of_many_numbers_is_asked_about_without_re_reading_each():
    said = "cut the third wire " + "wire 5 " * 14_000
    start = time.process_time()
    actions, ask = _read("wire", 3, said)
    assert actions is None and ask and time.process_time() - start < 5
