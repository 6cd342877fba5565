"""Corrections said in a later message (issue 56, point 1): the partner replaces or cancels what the message
takes back, asks when it cannot tell what that is, and never acts on it; a label in capitals ("HOLD ON") or
quoted text is what was said, not a correction."""

from __future__ import annotations

import asyncio
import copy

import numpy as np

import comma_env
from comma_env.agents.natural.retractions import retracts
from comma_env.agents.oracle import NaturalExpert, OraclePolicy


def solver_reads(puzzle: str, seed: int, messages: list[str], prefix: tuple[str, ...] = ()):
    """What the scripted solver does with the expert's `messages` (since its last turn)."""
    env = comma_env.make(puzzle, solver_view="text")
    env.reset(seed=seed)
    for action in prefix:
        env.unwrapped.puzzle.apply(action)
    solver = OraclePolicy("natural").player("solver", env, seed)
    info = {"dialogue": [{"speaker": "expert", "text": message} for message in messages]}
    return asyncio.run(solver.act({}, info)).understood


def expert_reads(puzzle: str, messages: list[str]):
    """The scripted expert's decision after the solver's `messages`, heard one by one."""
    expert = NaturalExpert(comma_env.make(puzzle).unwrapped.puzzle_cls, np.random.default_rng(0))
    before = expert.memory
    for message in messages:
        before = copy.deepcopy(expert.memory)
        expert.book.hear(message, expert.memory)
    return expert.book.unsure(messages[-1], before, expert.book.decide(expert.memory))


def test_the_solver_carries_out_the_later_advice_never_the_step_taken_back():
    said = ["press top left", "hold on, don't - I multiplied wrong. it's top right (the D), not top left."]
    assert solver_reads("led", 16243, said)["actions"] == ["press_top_right"]
    atm = ("select_withdraw", "press_4", "press_9", "press_2", "press_4", "press_enter", "continue", "amount_200")
    said = ["confirm", "wait, no - that says $200. go back and choose $300, then confirm."]
    assert solver_reads("atm", 16618, said, atm)["actions"] == ["go_back", "amount_300", "confirm"]
    assert solver_reads("wire", 3, ["Cut the second wire.", "not the second but the fourth"])["actions"] == \
        ["cut_wire_4"]
    assert solver_reads("who", 3, ["Press YES.", "wait, no - press NOTHING"])["actions"] == ["press_top_left"]
    assert solver_reads("button", 3, ["tap it", "hold on, don't - hold it"])["actions"] == ["hold"]
    assert solver_reads("telehealth", 3, ["diagnose BCC, treat with cryotherapy", "Wait, no. Melanoma, and surgery."]
                        )["actions"] == ["diagnose_mel", "treat_surgery"]


def test_the_solver_asks_when_the_later_message_only_takes_back():
    for later in ("hold on, scratch that.", "Ignore that, I misread the serial."):
        understood = solver_reads("wire", 3, ["Cut the second wire.", later])
        assert understood["actions"] is None and "Cut the second wire" in understood["ask"][0]


def test_a_sentence_that_takes_back_the_one_before_is_read_as_a_later_message():
    said = "Press top left. Hold on, don't - it's top right (the D), not top left."
    assert solver_reads("led", 16243, [said])["actions"] == ["press_top_right"]
    assert solver_reads("telehealth", 3, ["Diagnose BCC and treat with cryotherapy. Hmm, wait. Melanoma, then "
                                          "surgery."])["actions"] == ["diagnose_mel", "treat_surgery"]
    understood = solver_reads("wire", 3, ["Cut the second wire. Hold on, don't - wrong module. Ignore that."])
    assert understood["actions"] is None and '"Cut the second wire."' in understood["ask"][0]


def test_the_expert_replaces_the_fact_a_later_message_corrects_or_asks_which():
    wires = "Four wires, top down: white, red, white, white. Serial ZICQV2."  # wire seed 16001
    said = [wires, "wait sorry, I misread the third one. it's black, not white. everything else as I said."]
    assert expert_reads("wire", said).advice == ["cut_wire_2"]
    six = "Six wires, top to bottom: red, red, white, red, black, blue. Serial UBDLP6."  # wire seed 3
    assert expert_reads("wire", [six, "wait, no - the last one is not blue but black"]).advice == ["cut_wire_4"]
    assert expert_reads("wire", [six, "hold on, I misread something"]).ask  # not the blue wire's advice
    for bare in ("wait, no - four", "actually, scratch that, there are four"):  # the one number that changes a fact
        assert expert_reads("dog", ["I count 5 dogs, timer 4:50", bare]).advice == ["submit when the timer ends in 4"]
    grid = "row 1: red magenta yellow green. row 2: blue magenta red magenta. row 3: yellow blue blue green. " \
           "row 4: red green yellow blue"  # color seed 3, whose last square is red
    assert expert_reads("color", [grid, "sorry, the last square is red, not blue"]).advice == \
        ["press_2_1", "press_3_2", "press_3_3"]


def test_a_later_whole_description_replaces_the_earlier_one():
    said = ["4 wires: blue, blue, yellow, red. serial 2SCN34",
            "Scratch that. there are six wires, from the top: black, white, yellow, yellow, red, yellow... no wait, "
            "sorry, the last one is white, not yellow, the serial number reads 9G2PS6. What now?"]  # wire seed 505
    assert expert_reads("wire", said).advice == ["cut_wire_4"]
    said = ["Display: YES. The buttons: top row UH HUH and FIRST; middle row MIDDLE and YOU ARE; bottom row WAIT and "
            "DONE.", "Actually, Display: NO. Buttons in reading order (left to right, then down a row): BLANK / SURE / "
            "FIRST / UR / OKAY / UH HUH."]  # who seed 113: no label of the first picture is kept
    assert expert_reads("who", said).advice == ["press_bottom_right"]


def test_a_sentence_that_takes_back_a_description_is_heard_as_a_later_message():
    said = "Six wires from the top: red, red, white, red, black, black. Serial UBDLP6. Hold on, wrong module! Four " \
           "wires, top to bottom: blue, yellow, black, red. Serial E38IK8."  # wire seed 1
    assert expert_reads("wire", [said]).advice == ["cut_wire_1"]
    said = "the big screen shows one... no wait, sorry, it shows four, the buttons left to right say 1, 3, 2, 4."
    assert expert_reads("memory", [said]).advice == ["press_position_4"]  # a slip trailing off is fixed in place


def test_a_label_in_capitals_or_quotes_is_no_correction():
    assert retracts("Display: HOLD ON\n- top left: WAIT") is None
    assert retracts('Press WAIT, then "hold on", then NO.') is None
    assert retracts("hold on, don't - it's the D").group(0) == "hold on"  # type: ignore[union-attr]
    labels = "- top left: WAIT\n- top right: U\n- middle left: MIDDLE\n- middle right: UH HUH\n- bottom left: BLANK\n" \
             "- bottom right: YOU"  # who seed 14002, whose display shows HOLD ON
    assert expert_reads("who", [labels, "Display: HOLD ON."]).advice == ["press_middle_right"]
    assert expert_reads("who", [f"Display: HOLD ON\n{labels}", "Yes - HOLD ON."]).advice == ["press_middle_right"]


def test_a_password_correction_restating_the_windows_keeps_the_letters_seen_before():
    from comma_env.agents.natural.phrasebooks.base import phrasebook

    env = comma_env.make("password")
    env.reset(seed=19268)
    book = phrasebook(env.unwrapped.puzzle_cls)
    memory = book.start()
    up = [f"cycle_up_{k}" for k in range(1, 6)]
    for message, typed in (("X Q P J E", up), ("V O Q K F", up), ("W P R L B", []),
                           ("typo, sorry - the last window shows D, not B. So W P R L D.", [])):
        book.hear(message, memory)
        book.typed(typed, memory)
    assert book.decide(memory).advice == ["cycle_down_2", "submit"]  # WORLD, from all three views


def test_a_checklist_with_one_bare_action_keeps_the_steps_in_prose_around_it():
    said = ["1. N = 4 dogs (as reported).\n2. Wait for timer last digit = 4.\n3. submit."]
    assert solver_reads("dog", 25789, said)["actions"] == ["wait 9", "submit"]  # the timer shows 8:03
