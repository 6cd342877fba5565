"""The natural-language oracle (comma_env/agents/oracle.py, style "natural"): its wording varies with
the seed, and its solver resolves directions against what it sees rather than copying tokens
(tests/registry/test_natural_oracle.py plays every registered puzzle)."""

from __future__ import annotations

import asyncio
import copy
import re

import numpy as np
import pytest

import comma_env
from comma_env.agents.factory import make_policy
from comma_env.agents.natural.conditions import holds
from comma_env.agents.natural.phrasebooks.base import phrasebook
from comma_env.agents.oracle import NaturalExpert, OraclePolicy
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES
from comma_env.rl.partners import model_config
from tests.support.natural import play_natural, state_of

PUZZLES = COMMA_PUZZLES + V1_PUZZLES  # the ten COMMA puzzles and v1's Button, Dog, Sound


def test_wording_varies_with_the_seed_and_repeats_for_the_same_seed():
    first = [play_natural("wire", s)[0].transcript[0]["expert"] for s in range(40)]
    again = [play_natural("wire", s)[0].transcript[0]["expert"] for s in range(40)]
    other = [play_natural("wire", s, policy_seed=1)[0].transcript[0]["expert"] for s in range(40)]
    assert first == again
    assert first != other
    instructions = {re.sub(r"\d|first|second|third|fourth|fifth|sixth|\w+ wire", "#", line)
                    for message in first for line in message.splitlines()}
    assert len(instructions) >= 8  # several sentence shapes, not one template
    descriptions = {play_natural("who", s)[0].transcript[0]["solver"].splitlines()[0] for s in range(30)}
    assert len(descriptions) >= 3  # the solver's prose varies too


def test_solver_resolves_references_against_what_it_sees():
    cls, state = state_of("wire", 1)  # blue, yellow, black, red
    book = phrasebook(cls)
    assert book.understand("Cut the last wire.", state).actions == ["cut_wire_4"]
    assert book.understand("Cut the only yellow wire.", state).actions == ["cut_wire_2"]
    assert book.understand("The one you want is wire three.", state).actions == ["cut_wire_3"]
    assert book.understand("Thanks, that helps.", state).actions is None
    cls, state = state_of("who", 1)  # top_right says OKAY, middle_left says DONE
    book = phrasebook(cls)
    assert book.understand('Press the button that says "OKAY".', state).actions == ["press_top_right"]
    assert book.understand("Press the middle-left one.", state).actions == ["press_middle_left"]
    assert book.understand("Third row, right column. Tap it.", state).actions == ["press_bottom_right"]
    assert book.understand("The one in row three on the left.", state).actions == ["press_bottom_left"]
    assert book.understand("Row 4, the right one.", state).actions is None  # Who has three rows
    assert book.understand('The one you want is "DONE".', state).actions == ["press_middle_left"]
    cls, state = state_of("color", 1)
    book = phrasebook(cls)
    assert book.understand("Tap the fourth square of the first row.", state).actions == ["press_1_4"]
    assert book.understand("Press row two column three, the blue one.", state).actions == ["press_2_3"]
    cls, state = state_of("maze", 1)
    book = phrasebook(cls)
    assert book.understand("Go forward three squares.", state).actions == ["move_forward"] * 3
    assert book.understand("Turn to your left twice.", state).actions == ["turn_left"] * 2
    assert book.understand("Back up 2 squares.", state).actions == ["move_backward"] * 2
    assert book.understand("1. two forward\n2. right turn\n3. one forward", state).actions == (
        ["move_forward"] * 2 + ["turn_right", "move_forward"])  # a count before its move, a side before "turn"
    assert book.understand("Turn left, then back up two times.", state).actions == (
        ["turn_left"] + ["move_backward"] * 2)  # "back up" is a move, not the direction up
    cls, state = state_of("memory", 1)
    book = phrasebook(cls)
    assert book.understand("Press the second button.", state).actions == ["press_position_2"]
    assert book.understand("Press the second one.", state).actions is None  # a position or the label 2
    cls, state = state_of("password", 1)
    book = phrasebook(cls)
    assert book.understand("Roll window two back three times.", state).actions == ["cycle_down_2"] * 3
    assert book.understand("Lock in the word.", state).actions == ["submit"]
    point = ["cycle_down_1", "cycle_down_2", "cycle_up_3", "cycle_down_4", "cycle_down_5", "submit"]  # from Q P H O U
    assert book.understand("the word is point. set it and submit", state).actions == point  # any case
    assert book.understand("Set the windows to P, O, I, N, T and submit.", state).actions == point  # letter by letter
    assert book.understand_dialogue(["the word is house. set it and submit"], state).ask  # no window reaches H
    cls, state = state_of("telehealth", 1)
    book = phrasebook(cls)
    assert book.understand("From what you describe, it is a melanoma.", state).actions == ["diagnose_mel"]
    assert book.understand("Freeze it off.", state).ask  # a treatment before any diagnosis is asked about


def test_advice_is_read_without_what_its_writer_struck_out_or_did_not_mean_as_a_step():
    cls, state = state_of("wire", 1)  # blue, yellow, black, red
    book = phrasebook(cls)
    table = "| Step | Action |\n|---|---|\n| 1 | Cut the crimson wire |\n\nReport back after."
    assert book.understand_dialogue([table], state).actions == ["cut_wire_4"]  # a step number is no wire
    assert book.understand_dialogue(["~~Cut wire 1~~ Cut wire 2."], state).actions == ["cut_wire_2"]
    assert book.understand_dialogue(["Cut wire 1.\n\nEDIT: ignore the line above -- cut the thrid wire."],
                                    state).actions == ["cut_wire_3"]
    rule = "The manual's rule: if there is more than one red wire, cut the last red wire. So for you: cut wire 3."
    assert book.understand_dialogue([rule], state).actions == ["cut_wire_3"]
    assert book.understand_dialogue(["Cut the fourth wire, not the third."], state).actions == ["cut_wire_4"]
    cls, state = state_of("led", 1)  # D Y over U P
    book = phrasebook(cls)
    assert book.understand_dialogue(["Press the letter above U."], state).actions == ["press_top_left"]
    assert book.understand_dialogue(["Press the one diagonally across from P."], state).actions == ["press_top_left"]
    assert book.understand_dialogue(["Press the letter below U."], state).ask  # nothing there
    cls, state = state_of("keypad", 1)  # spade, club over command, dagger
    book = phrasebook(cls)
    assert book.understand_dialogue(["Press spade, then club, then the squiggly thing, then dagger."], state).ask
    assert book.understand_dialogue(["Press every key except the spade, then the spade last."], state).ask
    cls, state = state_of("button", 16763)
    told = "Okay! Don't just tap this one - press it and keep holding it down, then tell me the strip's colour."
    assert phrasebook(cls).understand_dialogue([told], state).actions == ["hold"]  # the "don't" ends at the dash
    cls, state = state_of("dog", 16841)  # the timer shows 8:17
    assert phrasebook(cls).understand_dialogue(["submit on a ...2 (last digit)"], state).actions == ["wait 5", "submit"]


def test_advice_that_points_back_to_an_earlier_sentence_is_read_against_it():
    cls, state = state_of("wire", 16010)  # red, white, black, blue, yellow, blue
    book = phrasebook(cls)
    said = "find the black wire. the one directly underneath it is the one to cut."
    assert book.understand_dialogue([said], state).actions == ["cut_wire_4"]  # not the black wire itself
    cls, state = state_of("wire", 16039)  # serial 299074
    said = "Look at the serial number. If its last digit is odd, cut wire three; if it's even, cut wire four."
    assert phrasebook(cls).understand_dialogue([said], state).actions == ["cut_wire_4"]  # "its": the serial's
    cls, state = state_of("memory", 16320)  # labels 1, 4, 2, 3
    said = "Would you kindly press the button that has a 4 on it?"
    assert phrasebook(cls).understand_dialogue([said], state).actions == ["press_position_2"]


def test_advice_naming_a_step_the_solver_cannot_read_gets_a_question_about_it():
    env = comma_env.make("memory")
    env.reset(seed=1)
    solver = OraclePolicy("natural").player("solver", env.unwrapped, 1)
    said = "Very good. Now press the correct button, you know the one. Take your time."
    reply = asyncio.run(solver.act({}, {"dialogue": [{"speaker": "expert", "text": said}]}))
    assert reply.understood["ask"] == ['What exactly should I do for "Now press the correct button, you know the one"?']
    assert reply.understood["actions"] is None


def test_a_solver_message_is_heard_in_its_order_words_before_its_action_lines_are_about_the_picture_before():
    cls, _ = state_of("password", 17402)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    cycle = "".join(f"\ncycle_up_{k}" for k in range(1, 6))
    for said in ("windows read: VIDHQ" + cycle, "now: T | G | E | I | R" + cycle, "windows: U H F J P"):
        book.hear(said, memory)
    assert memory["notes"]["letters_seen"] == [["V", "T", "U"], ["I", "G", "H"], ["D", "E", "F"], ["H", "I", "J"],
                                               ["Q", "R", "P"]]  # three looks, none overwritten by the next


def test_the_expert_reads_labels_from_either_end_and_vessels_as_no_colour():
    cls, _ = state_of("memory", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("Now at stage 4: display 1; the labels from the right end are 4, 2, 1, 3.", memory)
    assert memory["state"]["labels"] == [3, 1, 2, 4]
    book.hear("We're on stage 1 and it says 1. Buttons read 1-4-3-2 (left to right).", memory)
    assert memory["state"]["labels"] == [1, 4, 3, 2]
    cls, _ = state_of("telehealth", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("colours: light brown, brown; shape: round; red vessels: no; diameter: 5.0 mm", memory)
    assert memory["state"]["colours"] == ["brown", "light brown"]  # "red vessels" names no colour of the lesion


def test_advice_that_holds_two_ways_is_asked_about():
    cls, state = state_of("dog", 17847)  # the timer shows 4:39
    assert phrasebook(cls).understand_dialogue(["submit when the timer shows a 4"], state).ask  # now, or on a 4?
    assert phrasebook(cls).understand_dialogue(["submit on a 4"], state).actions == ["wait 5", "submit"]
    cls, state = state_of("color", 17593)  # blue and green squares both
    assert phrasebook(cls).understand_dialogue(["press all the teal squares"], state).ask == [
        'By "teal" do you mean blue or green?']


def test_advice_wrapped_in_a_models_preamble_or_said_with_a_number_sign_is_carried_out():
    cls, state = state_of("button", 17779)
    said = "Great question! Let me walk through the manual step by step.\n\n**Summary:** Hold it down."
    assert phrasebook(cls).understand_dialogue([said], state).actions == ["hold"]  # "let me" names no step
    cls, state = state_of("memory", 1)
    said = "Push button #3 counting from the left."
    assert phrasebook(cls).understand_dialogue([said], state).actions == ["press_position_3"]
    cls, state = state_of("maze", 1)
    assert phrasebook(cls).understand_dialogue(["Turn around, then go forward 1"], state).actions == (
        ["turn_right", "turn_right", "move_forward"])  # either way round faces the same way


def test_label_words_that_look_like_directions_are_read_as_labels():
    cls, state = state_of("who", 0)
    state.labels = {"top_left": "LEFT", "top_right": "RIGHT", "middle_left": "MIDDLE",
                    "middle_right": "NO", "bottom_left": "YES", "bottom_right": "WAIT"}
    assert phrasebook(cls).understand('Press the button that says "LEFT", upper left.',
                                      state).actions == ["press_top_left"]


def test_model_config_oracle_nl_selects_the_natural_style_and_oracle_keeps_actions():
    natural = make_policy(model_config("oracle_nl"))
    plain = make_policy(model_config("oracle"))
    assert isinstance(natural, OraclePolicy) and natural.style == "natural" and natural.name == "oracle_nl"
    assert plain.style == "actions" and plain.name == "oracle"
    with pytest.raises(ValueError, match="style"):
        OraclePolicy("poetic")


def test_conditional_atm_advice_is_carried_out_in_the_branch_the_solver_sees_holds():
    cls, state = state_of("atm", 16613)  # logged in below: the balance is $218.17
    for action in ["select_withdraw", "press_9", "press_1", "press_3", "press_9", "press_enter"]:
        state.apply(action)
    book = phrasebook(cls)
    advice = ("Look at the balance. If it's $500 or more: continue, pick $300, confirm. If it's less than $500: go "
              "back to the menu, choose Deposit, continue, pick $100 and confirm.")
    deposit = ["go_back", "select_deposit", "continue", "amount_100", "confirm"]
    assert book.understand_dialogue([advice], state).actions == deposit  # not the first branch's steps
    said = "If it is at least 500 dollars, withdraw 300; otherwise please deposit 100 instead."
    assert book.understand_dialogue([said], state).actions == deposit  # "500 dollars" is an amount like "$500"


def test_atm_advice_under_a_condition_is_read_in_the_forms_people_write_it():
    cls, state = state_of("atm", 17661)  # the balance is $1,238.82
    for action in ["select_withdraw", "press_5", "press_2", "press_4", "press_1", "press_enter"]:
        state.apply(action)
    book = phrasebook(cls)
    withdraw = ["continue", "amount_300", "confirm"]
    for said in ["if its atleast $500 hit continue, pick 300, confrim. if its under 500 go back to the menu, pick "
                 "deposit, continue, 100, confrim",  # a bare amount, a condition without a comma
                 "- **Balance $500 or more:** `continue`, then `amount_300`, then `confirm`.\n"
                 "- **Balance under $500:** `go_back`, `select_deposit`, `continue`, `amount_100`, `confirm`.",
                 "Check it: if ur balance is 500+ just continue, tap 300 and confirm, otherwise go back and deposit."]:
        assert book.understand_dialogue([said], state).actions == withdraw, said
    said = "Continue, then tell me if the balance is at least 500 (don't tell me the number)."
    assert book.understand_dialogue([said], state).actions == ["continue"]  # "tell me if" is no condition


def test_routes_and_positions_said_the_short_way_are_carried_out():
    cls, state = state_of("maze", 1)
    book = phrasebook(cls)
    assert book.understand_dialogue(["Turn left and move two squares. Then press the button."], state).actions == (
        ["turn_left", "move_forward", "move_forward", "press_button"])  # "move two squares" is ahead
    assert book.understand_dialogue(["Turn right, two. Button."], state).actions == (
        ["turn_right", "move_forward", "move_forward", "press_button"])
    assert book.understand_dialogue(["Without turning, reverse 2 squares."], state).actions == ["move_backward"] * 2
    cls, state = state_of("who", 6)  # RIGHT is the top left label; "bottom right" is a place
    assert phrasebook(cls).understand_dialogue(["bottom right"], state).actions == ["press_bottom_right"]
    cls, _ = state_of("password", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("Now it show A F T C S. So first window have A B C, second D E F.", memory)
    assert memory["state"]["shown"] == [("A",), ("F",), ("T",), ("C",), ("S",)]  # not the ordinals' letters


def test_pidgin_don_is_no_typo_of_down_before_the_letters():
    cls, _ = state_of("password", 1)
    book = phrasebook(cls)
    for said in ["After I press all the up, e don change to R O C L L.",
                 "We don press up; now e don turn to R O C L L.", "Di windows don show R O C L L"]:
        memory: dict = {"state": {}, "notes": {}}
        book.hear(said, memory)
        assert memory["state"]["shown"] == [("R",), ("O",), ("C",), ("L",), ("L",)], said


def test_a_button_colour_naming_nothing_after_the_strip_corrects_the_strip():
    cls, _ = state_of("button", 1)
    book = phrasebook(cls)
    for said in [["strip lit up white, timer 7:21", "no sorry - it's yellow, pale yellow. yellow."],
                 ["holding it, the strip is white", "wait, I mean yellow"], ["light's on, white", "actually yellow"]]:
        memory: dict = {"state": {}, "notes": {}}
        for message in said:
            book.hear(message, memory)
        assert memory["state"]["strip"] == ("yellow",) and "colour" not in memory["state"], said
    memory = {"state": {}, "notes": {}}
    for message in ["holding, strip white", "the button is red by the way", "sorry, blue"]:
        book.hear(message, memory)
    assert memory["state"]["strip"] == ("white",) and memory["state"]["colour"] == ("blue",)


def test_a_dog_count_of_n_or_m_more_adds_the_dogs_seen_before_it():
    from comma_env.agents.natural.phrasebooks.dog import count_dogs
    for said in ["I see a black one for sure and maybe two or three more, they're all bunched up",
                 "a white dog, a brown one, and 1 or 2 others behind the bench",
                 "There's a spotted dog and a grey one and maybe one or two more in the shade"]:
        assert count_dogs(said) == (3, 4), said
    assert count_dogs("I count two or three dogs") == (2, 3)


def test_atm_a_condition_after_logging_in_is_settled_on_the_balance_the_solvers_own_steps_reach():
    login = {24481: ["select_withdraw", "press_8", "press_6", "press_9", "press_7", "press_enter"],  # $2,781.61
             24485: ["select_withdraw", "press_8", "press_4", "press_7", "press_5", "press_enter"]}  # $137.46
    rest = {24481: ["continue", "amount_300", "confirm"],
            24485: ["go_back", "select_deposit", "continue", "amount_100", "confirm"]}
    for seed in login:
        cls, state = state_of("atm", seed)
        book = phrasebook(cls)
        for said in ["1. Choose Withdraw.\n2. Key in your PIN from the card, then Enter.\n3. Balance is $500 or more? "
                     "Take out $300. Otherwise deposit $100.",
                     "Sign in with your PIN after choosing Withdraw, then withdraw $300 if you have $500 or more, else "
                     "deposit $100.",
                     "Choose withdraw, type your pin and hit enter; then apply the rule: 500 or more means withdraw "
                     "300, less means deposit 100."]:
            assert book.understand_dialogue([said], copy.deepcopy(state)).actions == login[seed] + rest[seed], said
        said = "Choose withdraw, type your pin and hit enter. If it's $500 or more, pick $300 and confirm."
        steps = book.understand_dialogue([said], copy.deepcopy(state))
        assert steps.actions == login[seed] + (rest[seed] if seed == 24481 else []), said  # the amounts: Continue
        said = "If it's $500 or more, pick $300 and confirm."  # at the menu: no balance to settle it on
        assert book.understand_dialogue([said], copy.deepcopy(state)).ask
        said = "Counterintuitively, you pick Withdraw even if you want to check the balance. Then type your PIN."
        assert book.understand_dialogue([said], copy.deepcopy(state)).actions == login[seed][:-1]  # no rule


def test_atm_a_secret_number_is_the_pin_enter_on_part_of_it_is_asked_and_wait_no_takes_back():
    cls, state = state_of("atm", 24486)  # PIN 1586
    book = phrasebook(cls)
    login = ["select_deposit", "press_1", "press_5", "press_8", "press_6", "press_enter"]
    for said in ["press deposit, then your secret number, then enter", "deposit, type the secret digits, then enter"]:
        assert book.understand(said, copy.deepcopy(state)).actions == login, said
    for action in login[:3]:
        state.apply(action)
    for said in ["press enter", "hit the green enter key"]:
        assert book.understand(said, copy.deepcopy(state)).actions is None, said  # 2 of 4 digits typed
    for said in ["wait no - clear what you typed and key in your PIN, then enter", "wait no, clear it, type the PIN "
                 "and press enter"]:
        assert book.understand_dialogue(["press enter", said], copy.deepcopy(state)).actions == [
            "press_clear", *login[1:]], said


def test_password_a_window_left_alone_is_skipped_and_every_one_of_the_windows_is_all():
    cls, state = state_of("password", 1)
    book = phrasebook(cls)
    for said in ["window 1 down, window 3 down, window 4 down, window 5 down, leave window 2, then submit",
                 "window 1 down, don't touch window 2, window 3 down, window 4 down, window 5 down, then submit",
                 "window 1 down; window 2 stays as it is; windows 3, 4 and 5 down; submit"]:
        assert book.understand(said, state).actions == ["cycle_down_1", "cycle_down_3", "cycle_down_4",
                                                        "cycle_down_5", "submit"], said
    for said in ["Click the up arrow once on every one of the five windows.",
                 "press up once on each one of the windows"]:
        assert book.understand(said, state).actions == [f"cycle_up_{k}" for k in range(1, 6)], said


def test_a_timer_digit_after_a_colon_or_equals_sign_is_read():
    from comma_env.agents.natural.timing import moment
    for said in ["dogs: 2\nsubmit when last digit: 2", "release when the last digit = 2", "submit when it ends in: 2"]:
        when = moment(said)
        assert when is not None and (when.digit, when.last) == (2, True), said
    for said in ["let go the moment a 1 shows anywhere on the timer", "release once a 1 shows",
                 "when a 1 shows, let go"]:
        when = moment(said)
        assert when is not None and (when.digit, when.last) == (1, False), said


def test_the_sound_solver_reads_a_bare_glyph_code_and_the_word_and_as_a_key_and_a_backwards_list():
    cls, state = state_of("sound", 1)
    book = phrasebook(cls)
    code = ["press_hash", "press_star", "press_ampersand", "press_dollar"]
    assert book.understand("# * & $", state).actions == code  # not a heading and a bullet
    assert book.understand("pound, star, and, dollar", state).actions == code
    assert book.understand("You push the and, after the hash, after the dollar, and the star in last.",
                           state).actions == ["press_ampersand", "press_hash", "press_dollar", "press_star"]
    assert book.understand("Last is $, before that &, before that *, and first is #.", state).actions == code
    assert book.understand("Press * and &, but before that # and $.", state).actions is None


def test_a_keypad_symbol_said_with_its_place_after_one_at_is_one_key():
    cls, state = state_of("keypad", 19109)  # Я top left, Ω top right, Ж bottom left, ¿ bottom right
    assert phrasebook(cls).understand("Start with the horseshoe. Next the bug-looking one at bottom left, then the "
                                      "mirrored R, and finish on the upside-down question mark.", state).actions == [
        "press_top_right", "press_bottom_left", "press_top_left", "press_bottom_right"]


def test_and_not_rules_a_target_out():
    from comma_env.agents.natural.reading import undone
    assert "Z" not in undone("It's one of the bottom two, and not the Z. Press it.")


def test_the_wire_expert_reads_a_group_at_the_top_and_a_second_as_another():
    cls, _ = state_of("wire", 1)
    book = phrasebook(cls)
    for text, colours in (
            ("Six wires. The top three are all red, then a white one, then blue, and the very bottom one is yellow.",
             ["red", "red", "red", "white", "blue", "yellow"]),
            ("Six wires. From the top: a white one, then a yellow, another white, then blue, a black one, and a "
             "second blue at the very bottom.", ["white", "yellow", "white", "blue", "black", "blue"])):
        memory: dict = {"state": {}}
        book.read(text, memory)
        assert book.belief(memory)["wire_colors_top_to_bottom"] == colours


def test_leave_it_alone_rules_a_target_out():
    from comma_env.agents.natural.reading import undone
    assert "white" not in undone("Don't touch the blues, and leave the white alone too. Cut the other one.")


def test_labels_said_again_from_the_right_are_reversed():
    from comma_env.agents.natural.phrasebooks.memory import _labels_in
    assert _labels_in("stage 2, disp 1. again from the right: 1, 4, 3, 2") == [2, 3, 4, 1]


def test_a_password_change_without_a_direction_is_asked():
    cls, state = state_of("password", 1)
    steps = phrasebook(cls).understand("Change the last letter and submit.", state)
    assert steps.actions is None and "up or down" in steps.ask[0]


def test_the_dog_count_reads_an_open_count_and_an_ordinal_as_at_least_that_many():
    from comma_env.agents.natural.phrasebooks.dog import count_dogs
    assert count_dogs("Lots of dogs, a golden one. 4 or 5, I keep losing count. Timer 9:34.") == (4, 5)
    assert count_dogs("A white dog is running. A black dog lying down. The 3rd one is spotted and standing.") == (3,)


def _atm_after(seed: int, actions: list[str]):
    cls, state = state_of("atm", seed)
    for action in actions:
        state.apply(action)
    return phrasebook(cls), state


def test_the_atm_solver_reads_plus_a_step_back_and_asks_for_an_amount_it_cannot_choose_yet():
    book, state = _atm_after(19405, [])
    assert book.understand("deposit, then ur pin + enter", state).actions[-1] == "press_enter"
    book, state = _atm_after(19408, ["select_deposit", "press_9", "press_2", "press_7", "press_3", "press_enter",
                                     "continue", "amount_50"])
    assert book.understand("It has to be $100. Back one screen, choose 100, then confirm.", state).actions == [
        "go_back", "amount_100", "confirm"]
    assert book.understand("Choose 100, then confirm.", state).actions is None  # not confirm with $50


def test_a_numbered_list_with_one_bare_action_name_is_read_whole():
    env = comma_env.make("atm", solver_view="text")
    env.reset(seed=19411)
    for action in ["select_withdraw", "press_4", "press_0", "press_7", "press_0", "press_enter"]:
        env.unwrapped.puzzle.apply(action)
    solver = OraclePolicy("natural", seed=0).player("solver", env, 19411)
    advice = {"speaker": "expert", "text": "1) continue\n2) $300\n3) confirm"}
    reply = asyncio.run(solver.act({}, {"dialogue": [advice]}))
    assert reply.understood["actions"] == ["continue", "amount_300", "confirm"]


def test_a_branch_said_as_anything_smaller_means_is_the_otherwise_branch():
    from comma_env.agents.natural.conditions import settle
    _, state = state_of("telehealth", 19468)  # diameter 7.6 mm
    text = "Then check the diameter on your card: 5 mm or more means surgery, anything smaller means cryotherapy."
    assert "cryotherapy" not in settle(text, state.visible_state())[0]


def test_a_u_among_single_letters_is_a_letter_not_you():
    from comma_env.agents.natural.reading import clean
    assert clean("u q t o e") == "u q t o e"
    assert clean("s o u p f") == "s o u p f"
    assert clean("can u see it") == "can you see it"


def test_markdown_tables_are_runs_of_pipe_lines_with_or_without_a_rule():
    from comma_env.agents.natural.tables import Table, tables
    ruled, bare = [*tables("Dogs:\n| # | coat |\n|:--|--:|\n| 1 | |\n| 2 | tan\n\n|a|b|\n|c|d|\nA | B is not one")]
    assert ruled == Table(["#", "coat"], [["1", ""], ["2", "tan"]], True, slice(1, 5))  # a blank cell, no end pipe
    assert bare == Table(["a", "b"], [["c", "d"]], False, slice(6, 8))  # a blank line ends a table
    assert [*tables("so | means or, and a || b\nno table")] == []  # pipes inside prose
    assert [len(t.header) for t in tables("| x " * 25_000 + "|\n" + "|-" * 50_000 + "x")] == [25_000]


def test_the_colour_expert_asks_for_the_group_pressed_while_it_could_not_read_the_grid():
    cls, _ = state_of("color", 19351)
    book = phrasebook(cls)
    memory = book.start()
    book.hear("Grid: something I can't describe", memory)
    book.typed(["press_2_2", "press_3_4", "press_4_2"], memory)
    book.hear("Row 1 red blue blue green, row 2 yellow white blue yellow, row 3 yellow green magenta white, "
              "row 4 red white yellow magenta.", memory)
    decision = book.decide(memory)
    assert not decision.advice and "pressed" in decision.ask[0]


def test_a_maze_route_said_again_in_full_after_a_remark_on_the_facing():
    from comma_env.agents.natural.reading import spelled_numbers
    assert spelled_numbers("reverse two, go two") == "reverse 2, go 2"
    cls, state = state_of("maze", 19317)  # facing down
    steps = phrasebook(cls).understand("wait, no - you're facing down, so to face left it's a RIGHT turn. Full route: "
                                       "reverse two, turn right, forward six, press the button.", state)
    assert steps.actions == ["move_backward", "move_backward", "turn_right", *["move_forward"] * 6, "press_button"]


def test_youve_got_it_already_and_roman_numerals_with_an_equals_sign():
    cls, state = state_of("sound", 1)
    assert phrasebook(cls).understand("you've got the dollar in already; now star, ampersand, hash.",
                                      state).actions == ["press_star", "press_ampersand", "press_hash"]
    cls, _ = state_of("wire", 16005)
    book = phrasebook(cls)
    memory = book.start()
    book.hear("Serial HEEJS0. Wires (numbered from top): V = red, I = yellow, VI = yellow, III = white, II = black, "
              "IV = red", memory)
    assert book.belief(memory)["wire_colors_top_to_bottom"] == ["yellow", "black", "white", "red", "red", "yellow"]


def test_colour_rows_split_by_slashes_and_rows_named_by_an_ordinal_and_a_colon():
    from comma_env.agents.natural.color_grid import read_grid
    slashes, _ = read_grid("Grid: yellow blue yellow magenta / blue red yellow blue / blue magenta magenta red / "
                           "blue red magenta yellow")
    assert slashes[15] == ("yellow",) and slashes[12] == ("blue",)
    named, _ = read_grid("Top row yellow, blue, green, red. Second: yellow, blue, magenta, yellow. 3rd: magenta, red, "
                         "green, blue. Bottom: magenta, red, blue, red.")
    assert [named[i][0] for i in (0, 4, 8, 12)] == ["yellow", "yellow", "magenta", "magenta"]
    corners, _ = read_grid("Corners first: top-left is green, top-right magenta. Between the top corners: magenta then "
                           "green.")
    assert corners.get(2) != ("blue",)  # "Corners first:" names no row


def test_password_windows_listed_by_number_a_word_that_is_a_number_and_a_dash_after_dont():
    cls, state = state_of("password", 1)  # Q P H O U
    book = phrasebook(cls)
    assert book.understand("windows 1, 3 and 5: up twice each, then submit", state).actions == [
        "cycle_up_1", "cycle_up_1", "cycle_up_3", "cycle_up_3", "cycle_up_5", "cycle_up_5", "submit"]
    assert book.understand_dialogue(["Don't touch window 2 \u2014 just submit."], state).actions == ["submit"]
    cls, state = state_of("password", 19252)
    for action in ["cycle_up_1", "cycle_up_2", "cycle_up_3", "cycle_up_4", "cycle_up_5"] * 2:
        state.apply(action)  # T H S F F
    assert book.understand("Make it read THREE, then submit.", state).actions == [
        "cycle_down_3", "cycle_down_4", "cycle_down_5", "submit"]  # not "3", as plain() writes the number


def test_steps_said_the_same_way_and_then_listed_after_a_colon_are_read():
    cls, state = state_of("sound", 1)
    steps = phrasebook(cls).understand_surely("Do the last two the same way: hash, then star.", state)
    assert steps.actions == ["press_hash", "press_star"]


def test_a_short_hedge_that_names_what_it_is_about_doubts_only_itself():
    def decision(message: str):
        expert = NaturalExpert(comma_env.make("wire").unwrapped.puzzle_cls, np.random.default_rng(0))
        before = copy.deepcopy(expert.memory)
        expert.book.hear(message, expert.memory)
        return expert.book.unsure(message, before, expert.book.decide(expert.memory))

    said = "3 wires - red top, blue in the middle, and red again at the bottom. can't read the serial, it's scratched"
    assert decision(said).advice == ["cut_wire_3"]  # three wires, no white: the serial is not needed
    assert decision("3 wires - red top, blue in the middle, can't see the last").ask


def test_led_letters_across_a_row_or_with_is_before_the_place_and_a_row_lit_first_then_the_rest():
    cls, _ = state_of("led", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("Stage 1: the green LED lit first (then red, green, blue), with K and P across the top and R and T "
              "across the bottom.", memory)
    assert memory["state"]["colours"][1] == ("green",)
    assert memory["state"]["letters"] == {"top_left": ("K",), "top_right": ("P",), "bottom_left": ("R",),
                                          "bottom_right": ("T",)}
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("T is bottom left. Q bottom right, K top left.", memory)
    assert memory["state"]["letters"]["bottom_left"] == ("T",)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("stage 2, the grn one. leters: E top lft, Y top rite, Q bottm left, I bottm rite", memory)
    assert memory["state"]["letters"]["top_right"] == ("Y",) and memory["state"]["letters"]["bottom_right"] == ("I",)


def test_color_rows_abbreviated_or_ending_at_their_line_and_squares_named_in_a_row_or_restated():
    cls, state = state_of("color", 1)  # red magenta magenta blue / green magenta blue magenta / red red red blue / ...
    book = phrasebook(cls)
    for said in ("row 1: red blue green green\nrow 2: magenta blue red blue\nrow 3: magenta magenta green yellow\n"
                 "row 4: red red magenta yellow\nno white squares so far",
                 "r1 red blu grn grn / r2 mag blu red blu / r3 mag mag grn yel / r4 red red mag yel"):
        memory = book.start()
        book.hear(said, memory)
        assert None not in memory["state"]["grid"] and memory["state"]["grid"][15] == ("yellow",)
    assert book.understand("Top row, second square. Then third row, first and fourth squares.", state).actions == [
        "press_1_2", "press_3_1", "press_3_4"]
    assert book.understand("Now press the whole third row, all four squares.", state).actions == [
        "press_3_1", "press_3_2", "press_3_3", "press_3_4"]
    assert book.understand("The previous group was red, and there are no white squares, so press every blue square.",
                           state).actions == ["press_1_4", "press_2_3", "press_3_4"]  # red and white are no target
    for action in ("press_1_4", "press_2_3", "press_3_4"):  # the blues, stage 1: white now, the rest shuffled
        state.apply(action)
    assert book.understand("Next the right column: every square in column 4 that isn't white yet (skip the white one "
                           "in row 1).", state).actions == ["press_2_4", "press_4_4"]
    assert book.understand("It's magenta after blue with 3 white. Press all the magenta squares.", state).actions == [
        "press_3_1", "press_4_2"]  # the grid is shuffled after a stage: two magenta squares, not three


def test_a_wire_between_two_others_and_a_condition_whose_step_says_it():
    cls, state = state_of("wire", 16010)  # red, white, black, blue, yellow, blue
    book = phrasebook(cls)
    assert book.understand_dialogue(["snip the one between the two blue wires"], state).actions == ["cut_wire_5"]
    assert book.understand_dialogue(["cut the one between the red and the black wire"], state).actions == [
        "cut_wire_2"]
    assert book.understand_dialogue(["cut the one between the two red wires"], state).ask  # one red wire only
    said = "If the top wire is red, cut it. If it isn't, tell me its colour first."
    assert book.understand_dialogue([said], state).actions == ["cut_wire_1"]


def test_atm_a_condition_then_who_does_the_step_and_the_amount_said_after_a_comma():
    cls, state = state_of("atm", 17661)  # the balance is $1,238.82
    for action in ["select_withdraw", "press_5", "press_2", "press_4", "press_1", "press_enter"]:
        state.apply(action)
    book = phrasebook(cls)
    said = "Continue. If the balance is at least $500 you'll withdraw $300; otherwise you'd deposit $100. Confirm."
    assert book.understand_dialogue([said], state).actions == ["continue", "amount_300", "confirm"]
    state.apply("continue")
    state.apply("amount_100")
    said = "Not 100 - go back one screen and choose the amount we agreed on, 300. Then confirm."
    assert book.understand_dialogue([said], state).actions == ["go_back", "amount_300", "confirm"]


def test_password_five_letters_split_by_slashes_and_a_window_showing_a_letter_now():
    cls, _ = state_of("password", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("T / I / F / P / C", memory)
    assert [memory["state"]["shown"][k] for k in range(5)] == [("T",), ("I",), ("F",), ("P",), ("C",)]
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("window 1: M/K/L (showing L now)\nwindow 2: B/C/A (showing A now)\nwindow 3: S/T/R (showing R now)\n"
              "window 4: H/F/G (showing G now)\nwindow 5: G/E/F (showing F now)", memory)
    assert [memory["state"]["shown"][k] for k in range(5)] == [("L",), ("A",), ("R",), ("G",), ("F",)]


def test_password_letters_seen_listed_with_spaces_are_no_letters_shown_now():
    expert = NaturalExpert(comma_env.make("password").unwrapped.puzzle_cls, np.random.default_rng(0))
    for message in ("B D U D Q", "C E S E R"):
        expert.book.hear(message, expert.memory)
        expert.book.typed([f"cycle_up_{k}" for k in range(1, 6)], expert.memory)
    expert.book.hear("Seen so far: window 1 A B C, window 2 D E F, window 3 S T U, window 4 C D E, window 5 Q R S. "
                     "The fifth is R or S now, hard to see.", expert.memory)
    assert expert.memory["notes"]["summary"][1] == ["D", "E", "F"]
    assert expert.book.decide(expert.memory).advice is None  # not "window 2 shows D": it asks what they show


def test_maze_descriptions_in_digits_emoji_key_values_and_bare_pairs_are_read():
    cls, _ = state_of("maze", 1)
    book = phrasebook(cls)
    rows = [".#.......", ".#.#.####", "...#.....", "########.", ".......#.", ".#####.#.", "...#.#...", "##.#.###.",
            "...#....."]
    forms = {"Walls (1 = wall):\n" + "\n".join(r.replace(".", "0").replace("#", "1") for r in rows): {},  # 0 is floor
             "top to bottom, # wall . floor:\n" + "\n".join(" ".join(r) for r in rows): {},  # "# # ." is no heading
             "\n".join(rows) + "\n🐭 row 3 col 5, facing ⬅️\n🔵 (5,7) 🔴 (7,1)": {
                 "mouse_row_column": [3, 5], "mouse_facing": "left"},
             "\n".join(rows) + "\nmouse 3,5 / facing=left / blue 5,7": {"mouse_row_column": [3, 5]},
             "\n".join(rows) + "\nmouse_row=3\nmouse_col=5\n3. Facing: left.": {"mouse_facing": "left"}}
    for text, facts in forms.items():
        memory = {"state": {}, "notes": {}}
        book.read(text, memory)
        belief = book.belief(memory)
        assert belief["maze_rows_top_to_bottom"] == rows, text
        assert {k: belief[k] for k in facts} == facts, text
        if "🔵" in text or "blue 5,7" in text:
            assert belief["sphere_row_column_by_color"]["blue"] == [5, 7], text
    memory = {"state": {}, "notes": {}}
    book.read("\n".join(rows) + "\nmouse_row=3\nmouse_col=5", memory)
    assert book.belief(memory)["mouse_row_column"] == [3, 5]


def test_keypad_keys_said_with_typos_hyphens_asides_and_symbol_first_are_placed():
    cls, _ = state_of("keypad", 1)
    book = phrasebook(cls)
    for text, symbols in (
            ("Top left has that Mac command-key thing, the square with loops on the corners. Top right is an "
             "upside-down question mark. Bottom left is a yen. Bottom right is a club.",  # one key named twice
             {"top_left": "⌘", "top_right": "¿", "bottom_left": "¥", "bottom_right": "♣"}),
            ("top lef: pilcorw, top rihgt: umbrela, botom left: airplane, botom right: hollw star",  # typos
             {"top_left": "¶", "top_right": "☂", "bottom_left": "✈", "bottom_right": "☆"}),
            ("triangle top left, spade top right, pitchfork bottom left, an empty five-point star bottom right",
             {"top_left": "Δ", "top_right": "♠", "bottom_left": "Ψ", "bottom_right": "☆"}),  # symbol, then its place
            ("on the top row there's a little music note on the left and a spade on the right and on the bottom row "
             "there's the command-key symbol on the left and a lambda on the right and nothing is lit yet",
             {"top_left": "♪", "top_right": "♠", "bottom_left": "⌘", "bottom_right": "λ"})):
        memory: dict = {"state": {}}
        book.read(text, memory)
        assert book.belief(memory)["button_symbols"] == symbols, text
    memory = {"state": {}}
    book.read("Symbols: triangle top left, normal R top right, pitchfork bottom left, outline star bottom right.",
              memory)
    book.read("Looking again, the R at top right is mirrored - a backwards R. Sorry.", memory)  # one key, one symbol
    assert book.belief(memory)["button_symbols"]["top_right"] == "Я"


def test_memory_recaps_in_one_sentence_a_list_or_a_table_keep_the_current_stage():
    cls, _ = state_of("memory", 1)
    book = phrasebook(cls)
    for text, pressed in (
            ("Recap so far: stage 1 I pressed position 4 (it was labelled 1), stage 2 position 4 again (label 1 "
             "again), stage 3 position 3 (label 4). Now stage 4: display 3, buttons 3 1 4 2.",
             [[4, 1], [4, 1], [3, 4]]),
            ("I am in stage 4 now. Before I pressed: position 4 with label 2, position 4 with label 3, position 2 "
             "with label 3. Display is showing 3 and the labels are 3, 1, 4, 2.", [[4, 2], [4, 3], [2, 3]]),
            ("| stage | position pressed | label |\n|---|---|---|\n| 1 | 4 | 3 |\n| 2 | 1 | 2 |\n| 3 | 3 | 4 |\n\n"
             "Now stage 4, display 3, labels 3 1 4 2.", [[4, 3], [1, 2], [3, 4]]),
            ("so I'm on stage 4 and the display is 3 and the labels going left to right are 3 1 4 2 and before this "
             "I pressed label 3 then label 1 then label 3 at positions 2 2 3", [[2, 3], [2, 1], [3, 3]])):
        memory: dict = {"state": {}, "notes": {}}
        book.read(text, memory)
        belief = book.belief(memory)
        assert (belief["stage"], belief["display_number"], belief["button_labels_left_to_right"]) == (
            4, 3, [3, 1, 4, 2]), text
        assert memory["notes"]["pressed"] == pressed, text
    memory = {"state": {}, "notes": {}}
    book.read("Stage 2, display 4. The 2 is leftmost, then the 1, then the 3, and the 4 is on the far right.", memory)
    assert book.belief(memory)["button_labels_left_to_right"] == [2, 1, 3, 4]


def test_who_advice_with_a_question_mark_label_an_exclusion_on_top_of_and_reasoning_is_carried_out():
    cls, state = state_of("who", 0)
    state.labels = {"top_left": "FIRST", "top_right": "WHAT?", "middle_left": "READY", "middle_right": "YOU",
                    "bottom_left": "BLANK", "bottom_right": "YOUR"}
    book = phrasebook(cls)
    for said, action in (("Push WHAT? - the one with the question mark, not any other.", "press_top_right"),
                         ("Go for whatever sits right on top of BLANK.", "press_middle_left"),
                         ("It's in the middle row, and it's not READY.", "press_middle_right"),
                         ("Right column, middle row.", "press_middle_right"),
                         ("Going down the YOU list, the first word that is also on your panel is YOUR - so press "
                          "YOUR, which is bottom right.", "press_bottom_right")):
        assert book.understand(said, state).actions == [action], said
    state.labels["middle_left"] = "LEFT"
    assert book.understand("PRESS LEFT!!", state).actions == ["press_middle_left"]  # the label, not the left column
    memory: dict = {"state": {}}
    book.read("Okay so the screen up top just says YOU, nothing else. Buttons: top left FIRST, top right WHAT?, "
              "middle left READY, middle right YOU, bottom left BLANK, bottom right YOUR.", memory)
    assert book.belief(memory)["display_text"] == "YOU"


def test_maze_routes_with_a_bare_side_repeated_arrows_and_as_far_as_are_carried_out():
    cls, state = state_of("maze", 19315)
    assert phrasebook(cls).understand("fwd 4, left, fwd 8, press", state).actions == (
        ["move_forward"] * 4 + ["turn_left"] + ["move_forward"] * 8 + ["press_button"])  # a side alone is a turn
    cls, state = state_of("maze", 19329)  # facing right
    said = "→→→→ ↓↓ →→ ↓↓ then press. (turn to face each arrow before you move; you're facing → at the start)"
    assert phrasebook(cls).understand(said, state).actions == (
        ["move_forward"] * 4 + ["turn_right"] + ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2
        + ["turn_right"] + ["move_forward"] * 2 + ["press_button"])
    cls, state = state_of("maze", 1)
    assert phrasebook(cls).understand("face left (turn), after that advance 2", state).actions == (
        ["turn_left", "move_forward", "move_forward"])  # "(turn)" says it is a turn
    cls, state = state_of("maze", 19314)
    said = ("Turn left and go as far up as the maze lets you. Turn right and go as far as you can. Turn right again, "
            "as far as you can. Turn left, same thing - as far as it goes. Then press the button.")
    assert phrasebook(cls).understand(said, state).actions == (
        ["turn_left"] + ["move_forward"] * 4 + ["turn_right"] + ["move_forward"] * 6 + ["turn_right"]
        + ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2 + ["press_button"])


def test_memory_and_keypad_advice_after_a_remark_or_a_correction_is_carried_out():
    cls, state = state_of("memory", 19201)
    book = phrasebook(cls)
    state.apply("press_position_2")
    assert book.understand("same position as the one you just pressed", state).actions == ["press_position_2"]
    cls, state = state_of("memory", 19208)
    for action in ("press_position_2", "press_position_3"):
        state.apply(action)
    said = "Sorry, I mixed them up: not position 1, the button LABELLED 1. Whatever position it's in."
    assert phrasebook(cls).understand(said, state).actions == ["press_position_3"]
    cls, state = state_of("keypad", 19100)
    state.apply("press_bottom_right")
    said = "the spade's lit, good. now the airplane, then the lambda, then the yin-yang"
    assert phrasebook(cls).understand(said, state).actions == ["press_top_right", "press_top_left", "press_bottom_left"]


def test_who_labels_listed_without_their_places_are_asked_and_a_row_in_brackets_places_them():
    cls, _ = state_of("who", 0)
    book = phrasebook(cls)
    memory: dict = {"state": {}}
    book.read("Display says LED. The six buttons have YES, WHAT, OKAY, READY, UR and U on them.", memory)
    assert book.belief(memory)["button_labels"].about == "which label is on which button"
    memory = {"state": {}}
    book.read("the display says LED. buttons: FIRST, NEXT (top), PRESS, HOLD (middle), YOU, RIGHT (bottom)", memory)
    assert book.belief(memory)["button_labels"] == {"top_left": "FIRST", "top_right": "NEXT", "middle_left": "PRESS",
                                                    "middle_right": "HOLD", "bottom_left": "YOU",
                                                    "bottom_right": "RIGHT"}


def test_maze_rows_numbered_from_the_bottom_open_squares_per_r_and_a_spaced_row_before_a_sentence():
    cls, _ = state_of("maze", 1)
    book = phrasebook(cls)
    rows = [".........", ".#######.", "...#...#.", ".###.#.#.", ".#...#.#.", ".#.###.#.", ".#...#...", ".###.###.",
            ".#...#..."]
    for text in ("Rows listed from the BOTTOM (# = wall, . = floor):\n" + "\n".join(
                     f"row {k}: {rows[k - 1]}" for k in range(9, 0, -1)),
                 "Floor squares per row:\n" + "\n".join(
                     f"r{k} open: " + " ".join(str(c + 1) for c, ch in enumerate(row) if ch == ".")
                     for k, row in enumerate(rows, 1)),
                 "the maze rows top to bottom are (1 = wall, 0 = open):\n" + "\n".join(
                     " ".join(row.replace(".", "0").replace("#", "1")) for row in rows) + "; mouse at row 9, column 7"):
        memory: dict = {"state": {}, "notes": {}}
        book.read(text, memory)
        assert book.belief(memory)["maze_rows_top_to_bottom"] == rows, text


def test_a_quoted_word_with_an_apostrophe_a_symbol_that_is_at_a_place_and_sphere_colour_shades():
    cls, _ = state_of("who", 0)
    memory: dict = {"state": {}}
    phrasebook(cls).read("The display reads 'YOU'RE'. Top left button says YES.", memory)
    assert phrasebook(cls).belief(memory)["display_text"] == "YOU'RE"
    cls, _ = state_of("keypad", 1)
    memory = {"state": {}}
    phrasebook(cls).read("bottom right = hollow star; top left = backwards R; the zhe is bottom left and psi sits top "
                         "right", memory)
    assert phrasebook(cls).belief(memory)["button_symbols"] == {"top_left": "Я", "top_right": "Ψ",
                                                                "bottom_left": "Ж", "bottom_right": "☆"}
    cls, _ = state_of("maze", 1)
    memory = {"state": {}, "notes": {}}
    phrasebook(cls).read("the balls: navy on row 7 column 9, scarlet on row 9 column 9, emerald on row 3 column 1, "
                         "golden on row 9 column 7. the ring is crimson.", memory)
    assert phrasebook(cls).belief(memory)["sphere_row_column_by_color"] == {
        "blue": [7, 9], "red": [9, 9], "green": [3, 1], "yellow": [9, 7]}


def test_who_the_words_saying_the_display_in_capitals_are_no_labels():
    cls, _ = state_of("who", 0)
    memory: dict = {"state": {}}
    phrasebook(cls).read("DISPLAY SAYS HOLD ON. TOP ROW NO AND U. MIDDLE ROW MIDDLE AND OKAY. BOTTOM ROW UH HUH AND "
                         "HOLD.", memory)
    belief = phrasebook(cls).belief(memory)
    assert belief["display_text"] == "HOLD ON"
    assert belief["button_labels"] == {"top_left": "NO", "top_right": "U", "middle_left": "MIDDLE",
                                       "middle_right": "OKAY", "bottom_left": "UH HUH", "bottom_right": "HOLD"}


def test_an_atm_transaction_with_its_amount_is_carried_out_whole_and_signing_in_ends_with_enter():
    book, state = _atm_after(23584, [])  # the menu; the card's PIN is 9460
    login = ["press_9", "press_4", "press_6", "press_0", "press_enter"]
    for said, kind, amount in [("Withdraw $300.", "withdraw", 300), ("Take out 300 dollars.", "withdraw", 300),
                               ("Put in $100, please.", "deposit", 100),
                               ("you need to deposit 100 dollars", "deposit", 100)]:
        assert book.understand(said, copy.deepcopy(state)).actions == [
            f"select_{kind}", *login, "continue", f"amount_{amount}", "confirm"], said
    for said in ["Choose withdraw and sign in with your PIN", "select withdraw and log on with your code",
                 "pick withdraw, then sign in using the PIN from your card"]:
        assert book.understand(said, copy.deepcopy(state)).actions == ["select_withdraw", *login], said
    said = "You'll withdraw $300 later; first log in."  # the amount is for later: only what is said for now
    assert book.understand(said, copy.deepcopy(state)).actions == ["select_withdraw", *login]


def test_a_telehealth_treatment_ruled_out_by_not_or_instead_of_is_not_the_one_chosen():
    cls, state = state_of("telehealth", 23648)
    book = phrasebook(cls)
    for said in ["basal cell carcinoma, 5 mm or more -> surgery, not freezing", "BCC; cut it out rather than cryo",
                 "BCC. Don't freeze it, remove it surgically.", "It's a BCC - go with surgery instead of cryotherapy.",
                 "It's a BCC - no cryotherapy, surgery."]:
        assert book.understand(said, copy.deepcopy(state)).actions == ["diagnose_bcc", "treat_surgery"], said
    assert book.understand("It's a BCC, no treatment needed.", state).actions == ["diagnose_bcc", "treat_none"]


def _heard(puzzle: str, fact: str, *messages: str) -> list:
    """The expert's belief about `fact` after hearing `messages` in turn."""
    book = phrasebook(state_of(puzzle, 1)[0])
    memory = book.start()
    for message in messages:
        book.hear(message, memory)
    return book.belief(memory)[fact]


def _wire_belief(*messages: str) -> list:
    return _heard("wire", "wire_colors_top_to_bottom", *messages)


def test_wire_colours_shared_by_two_places_and_a_list_said_again_after_a_correction():
    for said in ["The first wire is white, the second yellow, the third red, and the fourth and fifth are both black.",
                 "first white, second yellow, third red, fourth and fifth ones are black",
                 "wire 1 white, wire 2 yellow, wire 3 red, wires 4 and 5 are black"]:
        assert _wire_belief(said) == ["white", "yellow", "red", "black", "black"], said
    for again in ["wait no, sorry, the third one isn't blue, it's black - bad light. so red, white, black, yellow.",
                  "correction: wire 3 is black not blue, so it's red, white, black, yellow",
                  "my bad, the third is actually black. again: red, white, black and yellow"]:
        assert _wire_belief("four wires: red, white, blue, yellow", again) == ["red", "white", "black", "yellow"], again


def test_dogs_counted_by_coat_beside_single_dogs_add_up_and_an_unsure_extra_dog_is_open():
    from comma_env.agents.natural.phrasebooks.dog import VOCABULARY, count_dogs
    from comma_env.agents.natural.reading import plain
    for said, dogs in [("a brown dog lying down, a golden one sitting, and three white dogs all sitting", (5,)),
                       ("two black dogs and a spotted one. timer 5:01", (3,)),
                       ("a grey dog, then 2 golden dogs running. 4:00", (3,)),
                       ("5 dogs: two brown dogs, a white one, a black one and a grey one", (5,)),
                       ("two brown dogs and a white one for sure... and maybe another one behind the fountain", (3, 4)),
                       ("3 brown dogs, plus perhaps one more in the shade", (3, 4))]:
        assert count_dogs(plain(said, VOCABULARY)) == dogs, said


def test_a_color_square_named_from_the_one_just_named_is_read_and_one_off_the_grid_is_asked_about():
    cls, state = state_of("color", 23513)
    book = phrasebook(cls)
    for said in ["Top-right corner, the square right under it, and the third square of the bottom row.",
                 "press the top-right corner, then the one below it, then row 4 column 3",
                 "row 1 column 4, the one beneath that, and row 4 column 3"]:
        assert book.understand(said, state).actions == ["press_1_4", "press_2_4", "press_4_3"], said
    assert book.understand("row 1 column 3, and the square to its right", state).actions == ["press_1_3", "press_1_4"]
    assert book.understand("the top-left square and the one left of it", state).ask  # off the grid
    assert book.understand("the square under it", state).ask  # nothing named before


def test_the_working_before_an_answer_line_is_left_out():
    from comma_env.agents.natural.reading import instructions_only
    for said in ["Let me count.\n- Red: 3\n- Blue: 4\n\n**Answer:** press the three red squares",
                 "Reasoning: red has the fewest.\nFinal answer: press the three red squares",
                 "Red 3, blue 4, so red.\nAnswer - press the three red squares",
                 "Green covers the fewest (magenta does not appear).\n\n**In short:** press the three red squares",
                 "red is rarest\nTL;DR: press the three red squares", "Bottom line: press the three red squares"]:
        assert instructions_only(said).strip() == "press the three red squares", said


def test_color_columns_by_side_runs_in_a_row_what_is_not_white_and_a_tally_before_the_advice():
    cls, state = state_of("color", 23510)
    for step in ["press_2_2", "press_2_3", "press_3_3"]:
        state.apply(step)
    book = phrasebook(cls)
    left = ["press_1_1", "press_2_1", "press_3_1", "press_4_1"]
    for said in ["now the whole left-most column, all four squares top to bottom", "the whole left most column",
                 "all of the left-hand column"]:
        assert book.understand(said, copy.deepcopy(state)).actions == left, said
    cls, state = state_of("color", 23511)
    book = phrasebook(cls)
    for said, squares in [("the first two squares of the second row", ["press_2_1", "press_2_2"]),
                          ("the last two squares of row 2", ["press_2_3", "press_2_4"]),
                          ("the leftmost three squares in the top row", ["press_1_1", "press_1_2", "press_1_3"])]:
        assert book.understand(said, state).actions == squares, said
    cls, state = state_of("color", 23506)
    for step in ["press_1_1", "press_2_1", "press_2_2"]:
        state.apply(step)
    book = phrasebook(cls)
    for said in ["press what's not white in the top row", "the non-white squares of row 1",
                 "top row: press whatever isn't white"]:
        assert book.understand(said, state).actions == ["press_1_2", "press_1_3", "press_1_4"], said
    cls, state = state_of("color", 23498)
    book = phrasebook(cls)
    reds = ["press_1_3", "press_2_2", "press_4_3"]
    for said in ["Counting: red 3, blue 4, magenta 4, yellow 5, no green. Red has the fewest, so press the three reds.",
                 "Tally - red: 3, blue: 4, magenta: 4, yellow: 5. Press the three reds.",
                 "red=3 blue=4 magenta=4 yellow=5; press the three reds"]:
        assert book.understand(said, state).actions == reds, said


def test_a_condition_after_a_colon_is_a_condition_first_not_a_trailing_one():
    from comma_env.agents.natural.conditions import settle
    seen = {"wire_colors_top_to_bottom": ["red", "white", "red", "blue"], "serial_number": "L8BZE6", "cut_wires": []}
    for said in ["Check the serial: if it ends in an even digit, cut wire 1. If it's odd, tell me before you cut.",
                 "Look at the serial number: if its last digit is even, cut wire 1. If odd, ask me first.",
                 "Serial check: if it ends in an odd digit, cut wire 4; otherwise cut wire 1."]:
        text, question = settle(said, seen)
        assert question is None and "wire 1" in text and "wire 4" not in text and "ask me" not in text, said


def test_wire_advice_with_a_colour_said_absent_and_a_top_wire_restated_by_colour():
    cls, state = state_of("wire", 23015)  # six wires, the last one white, no red
    book = phrasebook(cls)
    for said in ["There is no red wire anywhere, which means you cut the last wire - the white one at the bottom.",
                 "There isn't any red wire, so cut the last wire.", "No red wires at all -> cut the last one."]:
        assert book.understand(said, state).actions == ["cut_wire_6"], said
    cls, state = state_of("wire", 23031)  # red, white, red, blue
    book = phrasebook(cls)
    for said in ["cut the top wire (the red one).", "cut the top wire, the red one", "snip the topmost one (it's red)"]:
        assert book.understand(said, state).actions == ["cut_wire_1"], said
    assert book.understand("cut the bottom wire (the red one)", state).ask  # the bottom one is blue


def test_wire_groups_said_together_in_a_description():
    for said, wires in [
            ("four wires. Top one is white, then a black one, and then the last two are both white again.",
             ["white", "black", "white", "white"]),
            ("4 wires: red, then 3 black ones.", ["red", "black", "black", "black"]),
            ("three wires - black, then two blue ones under it", ["black", "blue", "blue"]),
            ("I have four wire. First and last one is yellow, the two in middle are red.",
             ["yellow", "red", "red", "yellow"]),
            ("4 wires: top and bottom are both yellow, the middle two are red.", ["yellow", "red", "red", "yellow"]),
            ("6 wires. number one white, number two yellow, three and four both blue, five black, six yellow",
             ["white", "yellow", "blue", "blue", "black", "yellow"])]:
        assert _wire_belief(said) == wires, said


def test_sound_dollar_said_as_a_money_or_currency_sign():
    cls, state = state_of("sound", 23861)
    book = phrasebook(cls)
    code = ["press_hash", "press_dollar", "press_ampersand", "press_star"]
    for said in ["number sign, money sign, and-symbol, asterisk", "hash, cash symbol, ampersand, star",
                 "#, then the currency sign, then &, then *"]:
        assert book.understand(said, state).actions == code, said


def test_sound_a_key_name_with_its_glyph_in_brackets_a_quoted_and_and_an_open_order():
    cls, state = state_of("sound", 1)
    book = phrasebook(cls)
    for said in ["1) star\n2) and-sign (&)\n3) dollar\n4) number sign", "asterisk (*), and-symbol (&), dollar, pound"]:
        assert book.understand(said, state).actions == ["press_star", "press_ampersand", "press_dollar",
                                                         "press_hash"], said
    for said in ["Press the 'and' one first, then the star, then the hash, and finish with dollar.",
                 'Press the "and" key, then star, hash, dollar.',
                 "the and symbol first, then star, then hash, then dollar"]:
        assert book.understand(said, state).actions == ["press_ampersand", "press_star", "press_hash",
                                                         "press_dollar"], said
    for said in ["all four symbols - ampersand and hash come in there somewhere, then dollar and star",
                 "star and hash in some order, then dollar and ampersand",
                 "ampersand, hash, dollar, star in no particular order"]:
        assert book.understand(said, state).actions is None, said


def test_a_telehealth_rule_s_other_branch_in_brackets_is_an_aside():
    cls, state = state_of("telehealth", 23657)
    book = phrasebook(cls)
    for said in ["It's a seborrheic keratosis - record that. Then: since you said it itches, choose cryotherapy (if it "
                 "didn't itch or bleed we'd leave it).",
                 "Record seborrheic keratosis, then cryo (we'd only leave it alone if it neither itched nor bled).",
                 "SEK, and cryotherapy because it itches (you'd choose no treatment if it didn't)."]:
        assert book.understand_dialogue([said], state).actions == ["diagnose_sek", "treat_cryotherapy"], said


def _password_letters(*messages: str) -> list:
    return _heard("password", "letters_shown_left_to_right", *messages)


def test_password_letters_numbered_one_by_one_after_now_and_after_i_see():
    for said in ["1 T | 2 H | 3 J | 4 N | 5 L", "1 T, 2 H, 3 J, 4 N, 5 L", "1: T 2: H 3: J 4: N 5: L",
                 "After again pressing up, I see T H J N L.", "now T H J N L, i think that's every letter",
                 "window 1: T, S, U\nShowing right now: T H J N L", "leters r T H J N L"]:
        assert _password_letters(said) == ["T", "H", "J", "N", "L"], said
    assert _password_letters("Current reading: S M A L M. Window letters: 1 R/S/T, 2 K/L/M, 3 A/B/C, 4 K/L/M, "
                             "5 L/M/N.") == ["S", "M", "A", "L", "M"]  # seen letters, not the windows one by one


def test_atm_the_transaction_it_should_be_said_as_a_reason_is_no_step():
    book, state = _atm_after(23583, ["select_deposit", "press_6", "press_0", "press_2", "press_0", "press_enter"])
    route = ["go_back", "select_withdraw", "continue", "amount_300", "confirm"]
    for said in ["You've got well over the threshold, so this should be a withdrawal, not a deposit: go back to the "
                 "menu, pick Withdraw, continue, $300, confirm.",
                 "It's a withdrawal, not a deposit: go back to the menu, pick Withdraw, continue, $300, confirm.",
                 "This has to be a withdrawal. Back to the main menu, choose withdraw instead of deposit, then "
                 "continue, $300 and confirm."]:
        assert book.understand(said, copy.deepcopy(state)).actions == route, said


def test_color_grid_a_colour_glossed_in_brackets_and_a_mark_for_white_given_by_a_legend():
    from comma_env.agents.natural.color_grid import read_grid
    for said in ["Top row is blue, blue, pink-purple (magenta I guess), blue.",
                 "row 1: blue, blue, purple (so magenta), blue", "row 1: blue, blue, pink (magenta), blue"]:
        squares, _ = read_grid(said)
        assert [squares.get(i) for i in range(4)] == [("blue",), ("blue",), ("magenta",), ("blue",)], said
    rows = [("blue",), ("white",), ("magenta",), ("blue",), ("blue",), ("red",), ("blue",), ("white",)]
    for said in ["B . M B / B R B . / M . B G / B R Y Y (dots are the white ones)",
                 "B . M B / B R B . / M . B G / B R Y Y (. = white)",
                 "B x M B\nB R B x\nM x B G\nB R Y Y\n(x for white)"]:
        squares, _ = read_grid(said)
        assert [squares.get(i) for i in range(8)] == rows, said
    squares, _ = read_grid("🟪🟩🟥🟥\n🟪🟦🟦🟨\n🟩🟦🟥🟪\n🟨🟨🟥🟨\n(🟪 = magenta)")
    assert squares[7] == ("yellow",)  # an emoji legend on its own line glosses nothing


def test_button_labels_named_in_reasoning_are_no_hold_or_tap():
    cls, state = state_of("button", 23711)  # a black HOLD button
    book = phrasebook(cls)
    for said in ["Black with HOLD isn't yellow, isn't blue ABORT, isn't DETONATE, isn't red HOLD or white PRESS - so "
                 "it falls to 'anything else': hold it.", "It's not blue ABORT and not red HOLD, so hold it.",
                 "black button with HOLD: that's not the red HOLD or white PRESS case, so hold it down."]:
        assert book.understand(said, state).actions == ["hold"], said
    assert book.understand("hold or tap, not sure", state).ask


def test_wire_a_counted_colour_with_more_in_an_ordered_list():
    assert _wire_belief("on my module is six wire. First is yellow, after black, after three yellow more, and the last "
                        "one he is red.") == ["yellow", "black", "yellow", "yellow", "yellow", "red"]
    assert _wire_belief("5 wires: red, then 2 white more, then blue, blue") == ["red", "white", "white", "blue", "blue"]
    assert _wire_belief("5 wires: red, then 2 more white ones, blue, blue") == ["red", "white", "white", "blue", "blue"]


def test_wire_colours_skipped_or_ruled_out_are_not_the_wire_and_skip_is_no_typo_of_snip():
    cls, state = state_of("wire", 23019)  # black, white, red, blue, black
    book = phrasebook(cls)
    for said in ["Count up from the bottom: skip the black at the bottom, the next one up (the blue) is the one to cut",
                 "skip the black ones and the white, cut the blue",
                 "not the black ones or the white wire: cut the blue",
                 "cut the blue one, not the white or the black ones"]:
        assert book.understand(said, state).actions == ["cut_wire_4"], said
    assert not book.understand("skip the black one at the top", state).actions


def test_who_a_label_said_without_its_question_mark_is_asked_and_not_at_a_sentence_start_rules_out():
    cls, state = state_of("who", 24065)  # WHAT? top right, WHAT bottom left
    book = phrasebook(cls)
    for said in ["hit WHAT", "press WHAT", "go for WHAT please"]:
        assert book.understand(said, state).ask, said
    for said, action in [('press "WHAT"', "press_bottom_left"), ("WHAT, bottom left", "press_bottom_left"),
                         ("WHAT? - top right", "press_top_right")]:
        assert book.understand(said, state).actions == [action], said
    cls, state = state_of("who", 24069)  # READY top left, YOUR top right
    for said in ["Not READY. The one next to it on the same row - YOUR.", "Not READY - the one beside it, YOUR.",
                 "Not READY, press YOUR."]:
        assert book.understand(said, state).actions == ["press_top_right"], said


def test_wire_under_or_above_the_top_or_bottom_wire_of_a_colour():
    cls, state = state_of("wire", 24002)  # blue, red, blue, yellow
    book = phrasebook(cls)
    for said, wire in [("cut the wire right under the top blue one", 2),
                       ("snip the one just below the upper blue wire", 2),
                       ("cut the wire above the bottom blue one", 2), ("cut the one beneath the lower blue wire", 4)]:
        assert book.understand(said, state).actions == [f"cut_wire_{wire}"], said
    assert book.understand("cut the wire under the blue one", state).ask


def test_maze_a_walk_to_a_sphere_keeps_the_button_pressed_before_the_sphere_is_named():
    cls, state = state_of("maze", 24371)
    book = phrasebook(cls)
    route = " Turn left, 2 forward. Turn left, 2 forward. Turn left, 4 forward. Turn left, 2 forward."
    for said in ["It's like walking around a block: four left turns." + route + " Then press the button - you're at "
                 "the green sphere.", "Press the button once you're on the green sphere.",
                 "hit the button when you reach the green ball"]:
        assert book.understand(said, state).actions[-1] == "press_button", said


def test_who_labels_in_lower_case_rows_reading_order_in_words_and_bot_for_bottom():
    cls, _ = state_of("who", 1)
    book = phrasebook(cls)
    rows = {"top_left": "SURE", "top_right": "OKAY", "middle_left": "NEXT", "middle_right": "RIGHT",
            "bottom_left": "LIKE", "bottom_right": "UH UH"}
    for said in ["display: UR. buttons: sure okay / next right / like uh uh. thats rows top to bottom, left then right",
                 "display UR\nbuttons:\nsure okay\nnext right\nlike uh uh",
                 "the display says UR; the buttons are sure okay; next right; like uh uh",
                 "display: UR. buttons, going left right down the rows: SURE, OKAY, NEXT, RIGHT, LIKE, UH UH",
                 "display says UR. labels, left-right then top-down: SURE, OKAY, NEXT, RIGHT, LIKE, UH UH",
                 "display = UR\ntop_left = SURE\ntop_right = OKAY\nmid_left = NEXT\nmid_right = RIGHT\n"
                 "bot_left = LIKE\nbot_right = UH UH"]:
        memory = book.start()
        book.hear(said, memory)
        assert memory["state"]["labels"] == rows, said
    memory = book.start()
    book.hear("display UR. buttons from the bottom up: sure okay / next right / like uh uh", memory)
    assert not memory["state"]["labels"]  # rows not from the top: asked


def test_dogs_by_diminutive_and_a_table_a_dog_a_row():
    cls, _ = state_of("dog", 1)
    book = phrasebook(cls)
    for said, dogs in [("there is one doggy!! he is black and standing up", (1,)), ("two doggies by the bench", (2,)),
                       ("| # | coat | pose | facing |\n|---|---|---|---|\n| 1 | black | running | right |\n"
                        "| 2 | black | lying | left |\n| 3 | brown | lying | left |\n\nTimer: 8:44", (3,)),
                       ("| No. | Breed (guess) | Facing |\n|--|--|--|\n| 1 | lab | left |\n| 2 | poodle | right |",
                        (2,))]:
        memory = book.start()
        book.hear(said, memory)
        assert memory["state"]["dogs"] == dogs, said


def test_a_colour_glossed_with_a_hedge_is_either_and_a_bracket_legend_or_a_bare_ordinal_row_is_read():
    from comma_env.agents.natural.color_grid import read_grid
    from comma_env.agents.natural.phrasebooks.wire import PALETTE
    assert [m.options for m in PALETTE.mentions("blue, navy (maybe black), red")] == [("blue",), ("blue", "black"),
                                                                                     ("red",)]
    rows = "row 2: red red blue blue. row 3: green green yellow yellow. row 4: red blue green yellow"
    for said in ["row 1: red blue teal (probably green) yellow. ", "row 1: red blue blue (green?) yellow. ",
                 "row 1: red blue teal (I think green) yellow. "]:
        assert read_grid(said + rows)[0][2] == ("blue", "green"), said
    assert read_grid("row 1: red blue teal (green) yellow. " + rows)[0][2] == ("green",)  # no hedge: the gloss
    squares = read_grid("row 1: yellow green pink blue (pink means magenta i think). " + rows)[0]
    assert [squares[i] for i in range(4)] == [("yellow",), ("green",), ("magenta",), ("blue",)]
    for said in ["first line yellow pink blue green. second yellow blue red pink. 3rd blue white green red. 4th pink "
                 "white blue yellow", "top row: yellow pink blue green; second yellow blue red pink; third blue white "
                 "green red; bottom pink white blue yellow"]:
        squares = read_grid(said)[0]
        assert [squares[i][0] for i in range(4, 16, 4)] == ["yellow", "blue", "magenta"], said


def test_wire_a_wire_ruled_out_by_a_reference_leaves_the_other_and_the_count_question_says_the_list():
    cls, state = state_of("wire", 24011)  # blue, blue, yellow
    book = phrasebook(cls)
    for said in ["Not the yellow one. And not the top blue either. The other blue - that's your cut.",
                 "skip the first blue, cut the other blue", "Ignore the top blue; snip the other blue wire."]:
        assert book.understand_dialogue([said], state).actions == ["cut_wire_2"], said
    assert book.understand_dialogue(["Cut the other blue."], state).ask  # nothing ruled out: which blue?
    memory = book.start()
    book.hear("4 wires. red blue yellow. serial AB12C4", memory)
    assert book.decide(memory).ask == ["how many wires there are (you said 4, but listed 3 colours)"]


def test_password_the_letters_now_after_current_and_a_table_with_a_now_column():
    cls, _ = state_of("password", 1)
    book = phrasebook(cls)
    now = [("Q",), ("L",), ("B",), ("D",), ("E",)]
    for said in ["Across the observations window 1 showed R/P/Q, window 2 M/N/L. Summary: current Q L B D E.",
                 "at the moment: Q L B D E", "Letters currently Q, L, B, D, E.",
                 "| window | 1st | 2nd | now |\n|---|---|---|---|\n| 1 | R | P | Q |\n| 2 | M | N | L |\n"
                 "| 3 | C | A | B |\n| 4 | E | C | D |\n| 5 | F | D | E |",
                 "| # | before | current |\n|--|--|--|\n| 1 | R | Q |\n| 2 | M | L |\n| 3 | C | B |\n| 4 | E | D |\n"
                 "| 5 | F | E |"]:
        memory = book.start()
        book.hear(said, memory)
        assert memory["state"]["shown"] == now, said
    assert memory["notes"]["letters_seen"][0] == ["R", "Q"]


def test_conditional_branches_split_at_a_dash_before_if_or_otherwise_not_before_and_if():
    from comma_env.agents.natural.conditions import settle
    state = {"strip_color": "yellow", "timer": "5:44"}
    for said in ["if the strip is yellow, let go when you see a 5 on the timer - if it's blue, wait for a 4",
                 "if the strip is yellow, let go on a 5 — if it's blue, on a 4",
                 "if the strip is yellow, release on a 5 – otherwise release on a 1"]:
        kept, question = settle(said, state)
        assert question is None and "5" in kept and "4" not in kept and " 1" not in kept, said
    kept, question = settle("If the strip is yellow, release on 0 — and if it does right now, release.", state)
    assert question is None and "release on 0" in kept  # "and if" goes on inside the branch


def test_colours_spelled_as_words_that_sound_the_same_are_read_where_a_colour_stands():
    from comma_env.agents.natural.colours import sounds_like
    assert sounds_like("top one is blew second one is read third one blew") == (
        "top one is blue second one is red third one blue")
    assert sounds_like("bottom row yellow yellow blue read") == "bottom row yellow yellow blue red"
    assert sounds_like("red, read, blue") == "red, red, blue"
    for said in ["the serial reads AB12C4", "read them top to bottom: red, blue", "I read the wires: blue, red"]:
        assert sounds_like(said) == said  # the verb
    cls, _ = state_of("wire", 1)
    book = phrasebook(cls)
    memory = book.start()
    book.hear("four wires top one is blew second one is read third one blew again and the bottom one is yellow "
              "serial 7A0BG9", memory)
    assert memory["state"]["colours"] == {1: ("blue",), 2: ("red",), 3: ("blue",), 4: ("yellow",)}


def test_wire_the_one_under_it_after_a_wire_named_is_the_next_wire():
    cls, _ = state_of("wire", 1)
    book = phrasebook(cls)
    for said, colours in [
            ("There are three little wires. The top one and the one under it are both blue, and the bottom one is "
             "yellow. serial LISJ26", {1: ("blue",), 2: ("blue",), 3: ("yellow",)}),
            ("three wires. The top wire and the wire below it are blue, the bottom one is yellow. serial LISJ26",
             {1: ("blue",), 2: ("blue",), 3: ("yellow",)}),
            ("four wires: the second wire and the one right under it are both red, the top one is white, the bottom "
             "one is black. serial AB12C4", {1: ("white",), 2: ("red",), 3: ("red",), 4: ("black",)})]:
        memory = book.start()
        book.hear(said, memory)
        assert memory["state"]["colours"] == colours, said


def test_color_the_squares_still_coloured_in_a_row_are_its_squares_not_white():
    cls, state = state_of("color", 24420)
    for action in ["press_1_3", "press_2_2", "press_3_1"]:  # (1,3) is white now
        state.apply(action)
    book = phrasebook(cls)
    for said in ["Now clear whatever's still coloured in the top row.", "press the coloured squares in the top row",
                 "top row: whatever is left", "everything that's still colored in row 1"]:
        assert book.understand_dialogue([said], copy.deepcopy(state)).actions == [
            "press_1_1", "press_1_2", "press_1_4"], said


def test_sound_known_by_its_telling_features_without_its_name():
    from comma_env.agents.natural.phrasebooks.sound import identify
    for said in ["it's one long very high note, totally steady, no warble.", "a single long note, really high and "
                 "pure, doesn't change", "one long piercing tone, constant"]:
        assert identify(said) == ["Whistle"], said
    assert len(identify("a steady note")) > 1  # two features: still open


def test_who_a_condition_on_the_label_of_a_button_is_settled_on_the_panel():
    cls, state = state_of("who", 14034)  # middle right WHAT?, top left YOU, bottom left READY
    book = phrasebook(cls)
    for said, pressed in [("If WHAT? is in the middle right spot, press it; otherwise press YOU.", "middle_right"),
                          ("If the middle right button says WHAT?, press it; otherwise press YOU.", "middle_right"),
                          ("If the bottom left button says WHAT?, press it; otherwise press YOU.", "top_left"),
                          ("If the top left one is READY, press it, else press OKAY.", "top_right")]:
        assert book.understand_dialogue([said], state).actions == [f"press_{pressed}"], said


def test_color_rows_split_by_semicolons_unless_the_rows_are_marked():
    from comma_env.agents.natural.color_grid import read_grid
    for said in ["Blues gone. New grid: red green blue blue; red yellow WHITE yellow; blue red yellow blue; red red "
                 "WHITE green. Next.", "red green blue blue; red yellow white yellow; blue red yellow blue; red red "
                 "white green", "grid now: R G B B; R Y W Y; B R Y B; R R W G"]:
        squares = read_grid(said)[0]
        assert [squares[i][0] for i in (0, 6, 8, 15)] == ["red", "white", "blue", "green"], said
    squares = read_grid("row 4 (from the bottom): magenta blue blue yellow; row 3: yellow red blue red; row 2: "
                        "magenta red red yellow; row 1: blue magenta yellow magenta")[0]
    assert squares[0] == ("blue",) and squares[12] == ("magenta",)  # marked rows keep their marks


def test_button_an_action_negated_or_called_a_strike_is_not_advised():
    cls, state = state_of("button", 25005)
    book = phrasebook(cls)
    for said in ["you only tap it, one time. Not keep it pressed.",
                 "it isn't red-HOLD; it IS white with PRESS. **Tap.**",
                 "the rule requires a tap. Holding would, in my view, constitute a strike.",
                 "Never hold this one: tap it.", "tap it - holding is a mistake here"]:
        assert book.understand(said, state).actions == ["tap"], said
    for said in ["Tapping would be a strike. Hold it.", "hold on, don't - hold it"]:
        assert book.understand(said, state).actions == ["hold"], said


def test_wire_order_written_top_2_bottom_and_numbers_in_scots_or_german():
    for said in ["ok so 4 wires top 2 bottom its yellow black yellow white",
                 "4 wires top→bottom yellow black yellow white",
                 "4 wires from top: yellow black yellow white", "bottom thru top: white, yellow, black, yellow"]:
        assert _wire_belief(said) == ["yellow", "black", "yellow", "white"], said
    assert _wire_belief("4 wires bottom 2 top: yellow black yellow white") == ["white", "yellow", "black", "yellow"]
    assert _wire_belief("ah've got fower wires here. Tap yin's blue, then twa reds, an' a black wan at the "
                        "bottom.") == ["blue", "red", "red", "black"]
    assert _wire_belief("Vier wires von oben: blue, then zwei reds, then black") == ["blue", "red", "red", "black"]


def test_sound_and_as_the_fourth_key_and_a_glossed_name_once():
    cls, state = state_of("sound", 25001)
    book = phrasebook(cls)
    assert book.understand("hash dollar and star. in that order", state).actions == [
        "press_hash", "press_dollar", "press_ampersand", "press_star"]
    said = 'first the ampersand (the "and" sign), after the dollar, after the star, and at the end the hash.'
    assert book.understand(said, state).actions == ["press_ampersand", "press_dollar", "press_star", "press_hash"]
    assert book.understand("hash, dollar and star", state).ask


def test_color_a_stated_count_then_the_squares_upper_lower_and_second_from_left():
    cls, state = state_of("color", 25502)  # magenta at (1,4), (3,4) and (4,1)
    book = phrasebook(cls)
    said = "Please press pink ones. They are three: upper right corner, third row right end, and lower left corner."
    assert book.understand(said, state).actions == ["press_1_4", "press_3_4", "press_4_1"]
    assert book.understand("the magentas, two of them: upper right, row 3 right end, lower left corner", state).ask
    assert book.understand("row 2: the second from left", state).actions == ["press_2_2"]


def test_dog_counted_aloud_with_a_running_number_in_brackets():
    said = ("counting with my fingers: white one sitting (1), brown one standing (2), another white standing (3), "
            "spotty one lying down (4), white one running (5). whole hand! timer 7:04")
    assert len(_heard("dog", "dogs", said)) == 5


def test_atm_a_condition_written_with_a_comparison_sign():
    cls, state = state_of("atm", 24481)  # $2,781.61
    said = ("1. select_withdraw\n2. key PIN from card (4 digits)\n3. press_enter\n4. read balance (do not transmit)\n"
            "5. if balance >= 500: continue -> amount_300 -> confirm\n6. else: report back")
    login = ["select_withdraw", "press_8", "press_6", "press_9", "press_7", "press_enter"]
    steps = phrasebook(cls).understand_dialogue([said], copy.deepcopy(state))
    assert steps.actions == [*login, "continue", "amount_300", "confirm"]
    assert holds("the balance ≥ $500", {"balance": 2781.61}) and not holds("balance < 500", {"balance": 2781.61})


def test_color_rows_or_columns_named_once_then_by_their_ordinal_alone():
    from comma_env.agents.natural.color_grid import read_grid
    rows = ["red", "green", "blue", "yellow", "blue", "yellow", "blue", "yellow", "red", "yellow", "blue", "green",
            "green", "blue", "red", "yellow"]
    for said in ["top row goes red green blue yellow and the second row blue yellow blue yellow and the third red "
                 "yellow blue green and the bottom one green blue red yellow",
                 "the first row is red, green, blue and yellow; the second is blue, yellow, blue and yellow; the third "
                 "is red, yellow, blue and green; and the fourth and last is green, blue, red and yellow.",
                 "top row red green blue yellow, 2nd row blue yellow blue yellow, 3rd red yellow blue green, bottom "
                 "green blue red yellow. none white yet",
                 "Top row: red green blue yellow. Second: blue yellow blue yellow. Third: red yellow blue green. "
                 "Last: green blue red yellow.",
                 "The first column (left): red, blue, red, green. The second: green, yellow, yellow, blue. The third: "
                 "blue, blue, blue, red. The last column: yellow, yellow, green, yellow. Nothing is white."]:
        squares, _ = read_grid(said)
        assert [squares.get(i) and squares[i][0] for i in range(16)] == rows, said
    said = ("I tell you the columns, from up to down. The first column (left): red, blue, red, green. The second: "
            "green, yellow, yellow, blue. The third: blue, blue, blue, red. The last column: yellow, yellow, green, "
            "yellow.")
    assert _heard("color", "square_colors_by_row", said) == [rows[:4], rows[4:8], rows[8:12], rows[12:]]


def test_small_forms_other_writers_use_for_a_key_a_count_a_strip_a_release_and_a_place():
    cls, state = state_of("sound", 25848)
    assert phrasebook(cls).understand("push star, then sharp, then dollar, then and-mark.", state).actions == [
        "press_star", "press_hash", "press_dollar", "press_ampersand"]
    for said in ["one white dog, he lies, and one brown dog, he sits. More dogs are not there.",
                 "a white dog lying and a brown dog sitting, no more dogs"]:
        assert len(_heard("dog", "dogs", said)) == 2, said
    assert _heard("button", "strip_color", "Red button wi' PRESS on it. Strip's no' lit.") == "off"
    cls, state = state_of("button", 25723)
    state.apply("hold")
    assert phrasebook(cls).understand("drop it on the first 1 u see", state).actions[-1] == "release"
    cls, state = state_of("color", 25495)
    said = "press the two green squares: one in the second row, third place, and one in the third row, second place."
    assert phrasebook(cls).understand(said, state).actions == ["press_2_3", "press_3_2"]


def test_a_condition_with_numbers_in_words_and_filler_words():
    cls, state = state_of("atm", 25578)
    for action in ["select_withdraw", "press_1", "press_3", "press_5", "press_0", "press_enter"]:
        state.apply(action)  # the balance shows $158.85
    seen = state.visible_state()
    assert holds("it is five hundred dollars or more", seen) is False
    assert holds("the balance comes up under five hundred", seen) is True
    assert holds("there really are no dogs anywhere in the park", {"dogs": []}) is True


def test_a_fact_the_describer_cannot_judge_stays_open_and_is_asked_for():
    from tests.agents.test_corrections import expert_reads
    card = ("Spot on my arm. 27, skin type IV, 4.5 mm, it itches and bleeds a bit, hasn't grown or changed, flat. "
            "Photo: brown and a darker brown, surface smooth, no little vessels. ")
    for said in ["I honestly can't judge the shape or the edge from this photo, it's blurry.",
                 "I cannot make out its outline or whether the border is even, the picture is blurry.",
                 "The photo is too blurry, so I can't say if it's round or what the border looks like."]:
        decision = expert_reads("telehealth", [card + said])
        assert decision.advice is None and any("shape" in a for a in decision.ask), said


def test_could_be_a_dog_could_be_a_bag_leaves_the_count_open():
    from tests.agents.test_corrections import expert_reads
    seen = "I see a brown dog standing, a black one sitting, a grey one standing"
    for said in [", and then there's a golden lump lying in the grass by the bench, could be a dog, could be a bag.",
                 ". Something golden lies by the bench - might be a bag, might be a dog.",
                 "; by the bench a golden thing that may be a dog or may be a bag.",
                 ", and a golden lump by the bench, maybe a dog, maybe a bag."]:
        decision = expert_reads("dog", [seen + said + " Timer 4:46."])
        assert decision.advice is None and "3 or 4" in decision.ask[0], said


def test_could_be_one_sound_could_be_another_is_asked_about():
    from tests.agents.test_corrections import expert_reads
    for said in ["A soft hiss. Could be rain, could be a fan blowing air.",
                 "it hisses quietly - might be an extractor fan or might be rain on a roof",
                 "Some hissing, maybe rain, maybe an air conditioner.",
                 "a soft hiss, could be air or rain, hard to hear through my headphones"]:
        decision = expert_reads("sound", [said])
        assert decision.advice is None and "flutter" in decision.ask[0], said
    assert expert_reads("sound", ["through my headphones: a soft hiss with lots of tiny random taps, rain"]).advice


def test_a_serial_with_a_character_missing_or_extra_is_asked_for():
    from tests.agents.test_corrections import expert_reads
    wires = "Four wires, top to bottom: red, blue, red, white. "
    for said in ["Serial: ZHW18, the last character is scratched off.", "serial number QX7P2 and then a smudge",
                 "The sticker reads AB12CD34."]:
        decision = expert_reads("wire", [wires + said])
        assert decision.advice is None and "serial" in decision.ask[0], said
    assert expert_reads("wire", [wires + "Serial: ZHW183."]).advice


def test_a_window_said_to_be_unreadable_is_asked_for():
    from tests.agents.test_corrections import expert_reads
    cycled = "cycle_up_1\ncycle_up_2\ncycle_up_3\ncycle_up_4\ncycle_up_5"
    before = ["windows: R I G P F", cycled, "windows: S J E Q G", cycled]
    seen = "ok, every window has shown me three letters now: 1 R S T, 2 I J H, 3 G E F, 4 P Q R, 5 F G E. "
    for said in ["the first window has a crack across it right now and I can't read what it's on. the other four: "
                 "H F R E",
                 "I can't make out window 1 at the moment, there's glare on it. The remaining ones read H F R E",
                 "Slot 1 is unreadable (a smudge), the rest show H, F, R, E."]:
        decision = expert_reads("password", [*before, seen + said])
        assert decision.advice is None and decision.ask == ["the letter window 1 shows now"], said


@pytest.mark.parametrize(("puzzle", "said", "read"), [
    ("button", "Red button labelled HOLD, I'm holding it. I can't tell if the strip is blue, the glare is bad.",
     "strip color: blue"),
    ("button", "Red HOLD button, holding it now; couldn't quite make out whether the light strip is blue.",
     "strip color: blue"),
    ("button", "Red button, HOLD on it, held down. Not sure whether the strip is blue.", "strip color: blue"),
    ("wire", "Four wires: red, blue, yellow, and I can't make out the colour of the last wire, could be black.",
     "'black'"),
    ("led", "Stage 1. I can't tell if the LED is red. Buttons: A B C D.", "['red']"),
    ("who", "Display: FIRST. Not sure what the top left says, probably READY. Others: top right NO, middle left BLANK, "
     "middle right YES, bottom left WAIT, bottom right OKAY.", "'top_left': 'READY'"),
    ("password", "Windows: S G J M F. Can't read the second letter properly, not sure if it's G.", "'G'"),
])
def test_what_the_describer_cannot_judge_is_never_read_as_said(puzzle, said, read):
    from tests.agents.test_corrections import expert_reads
    book = phrasebook(comma_env.make(puzzle).unwrapped.puzzle_cls)
    memory = book.start()
    book.hear(said, memory)
    assert not any(read in fact for fact in book.facts(memory))
    if puzzle not in ("password", "who"):  # their advice here needs no such fact (every window cycles; another label)
        assert expert_reads(puzzle, [said]).advice is None
