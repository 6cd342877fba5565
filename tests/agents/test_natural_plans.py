"""The scripted partners on kinds of plain English they misread (issue 56, fresh7 for Maze, LED, Memory and
Keypad): each cause with phrasings of other people than the one who showed it."""

from __future__ import annotations

import pytest

from comma_env.agents.natural.phrasebooks.base import phrasebook
from tests.support.natural import state_of


@pytest.mark.parametrize("said", [
    "1. Back up 2 squares (you're facing left, so backing up moves you right).\n2. Turn left, forward 2.",
    "Reverse two (that is, to the right), then turn left and go forward 2.",
    "Back up twice (since you face left this takes you right). Turn left, forward 2.",
    "Step back 2 squares (you will end up two to the right). Turn left, 2 forward.",
])
def test_maze_a_remark_in_brackets_on_a_step_is_no_step(said):
    cls, state = state_of("maze", 24367)  # row 5 column 3, facing left
    assert phrasebook(cls).understand_surely(said, state).actions == (
        ["move_backward"] * 2 + ["turn_left"] + ["move_forward"] * 2)


@pytest.mark.parametrize("said", [
    "chat, watch this: two squares up, turn right, four across, turn right, two down, turn left, two more, and SMASH "
    "that button",
    "Up two squares, turn right, forward four, turn right, two down, turn left, two more, then slam the button.",
    "two up. right turn. four across. right turn. two down. left turn. two more. whack the button!",
    "go up 2, turn right and go 4, turn right, 2 down, turn left, 2 more, and then mash the button",
])
def test_maze_map_directions_and_turns_in_one_route(said):
    cls, state = state_of("maze", 24368)  # facing up
    assert phrasebook(cls).understand_surely(said, state).actions == (
        ["move_forward"] * 2 + ["turn_right"] + ["move_forward"] * 4 + ["turn_right"] + ["move_forward"] * 2
        + ["turn_left"] + ["move_forward"] * 2 + ["press_button"])


@pytest.mark.parametrize("said", ["two up, then four across, then two down", "two squares up, four across"])
def test_maze_across_with_no_turn_before_it_is_asked(said):
    cls, state = state_of("maze", 24368)
    assert phrasebook(cls).understand_surely(said, state).actions is None


@pytest.mark.parametrize("said", [
    ["press bottom left", "then next stage: top left"], ["Bottom left now, and on the next stage the top left."],
    ["press bottom left. for the following stage: top left"],
    ["Press bottom left. After that stage two will come, there you press the H which is top left."],
])
def test_led_a_plan_over_stages_by_position_is_carried_out_stage_by_stage(said):
    cls, state = state_of("led", 24184)
    assert phrasebook(cls).understand_dialogue(said, state).actions == ["press_bottom_left", "press_top_left"]


def test_led_a_later_stage_named_by_its_letter_only_waits_for_that_stage():
    cls, state = state_of("led", 24185)  # E top right; stage 2 not shown yet
    assert phrasebook(cls).understand_dialogue(["Top right (the E). Next stage: the H."], state).actions == [
        "press_top_right"]


@pytest.mark.parametrize(("said", "count"), [
    ("Bottom right. Every stage on this one. Four times. Go.", 4), ("bottom right, all four stages", 4),
    ("press the bottom right button four times", 4), ("bottom right twice", 2),
    ("bottom right on every single stage", 4), ("bottom right 5 times", 0), ("bottom right, all three stages", 0),
])
def test_led_the_same_position_on_several_stages(said, count):
    cls, state = state_of("led", 24190)  # 4 stages
    actions = phrasebook(cls).understand_dialogue([said], state).actions
    assert actions == (["press_bottom_right"] * count if count else None)


@pytest.mark.parametrize("said", [
    'stage_report = {"stage": 2, "display": 4, "labels_left_to_right": [1, 2, 3, 4], "previous": {"stage_1": '
    '{"position": 2, "label": 3}}}',
    "{'stage': 2, 'display': 4, 'labels': [1, 2, 3, 4], 'stage 1 pressed': 'position 2'}",
    '{"current_stage": 2, "display_number": 4, "button_labels": "1 2 3 4"}',
])
def test_memory_a_stage_report_in_json_is_read_by_its_keys(said):
    cls, _ = state_of("memory", 24248)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("press_position_2", memory)
    book.hear(said, memory)
    assert book.decide(memory).advice == ["press_position_2"]


@pytest.mark.parametrize("said", [
    "two lights up top - first one's red, second one blue, display says 1. P top-left, N top-right, X bottom-left, "
    "E bottom-right",
    "The first lamp is red colour (crimson), the second is blue. Display show 1. up-left P, up-right N, down-left X, "
    "down-right E.",
    "there are two lights! the first is red and the second is blue. the screen says 1. the letters are P and N on "
    "top and X and E on the bottom",
    "Stage 1. LEDs: the 1st one glows red, the 2nd blue. Top row P N, bottom row X E.",
])
def test_led_the_leds_by_ordinal_and_the_stage_give_the_current_colour(said):
    cls, _ = state_of("led", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear(said, memory)
    assert book.belief(memory)["led_colors_left_to_right"] == ["red"]


@pytest.mark.parametrize("said", [
    "down 2, right 2, down 4, then the button. (turn to face each way before you move)",
    "south 2, east 2, south 4, then button. turn before each direction change",
    "2 down, 2 right, 4 down and press the button",
])
def test_maze_a_route_of_map_directions_left_and_right_included(said):
    cls, state = state_of("maze", 24364)  # facing right
    assert phrasebook(cls).understand_surely(said, state).actions == (
        ["turn_right"] + ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2 + ["turn_right"]
        + ["move_forward"] * 4 + ["press_button"])


@pytest.mark.parametrize(("said", "actions"), [
    ("Turn left again (now facing down), 2 squares.", ["turn_left", "move_forward", "move_forward"]),
    ("Turn left so you face down, 2 squares.", ["turn_left", "move_forward", "move_forward"]),
    ("turn left to face down and run 2 squares", ["turn_left", "move_forward", "move_forward"]),
    ("Turn left (now facing up), 2 squares.", None),
    ("Back up 1, then 2 squares.", None),
])
def test_maze_a_remark_on_the_facing_after_a_turn_is_checked(said, actions):
    cls, state = state_of("maze", 24367)  # facing left
    assert phrasebook(cls).understand_surely(said, state).actions == actions


@pytest.mark.parametrize(("said", "symbol"), [
    ("R facing backward", "Я"), ("an R turned the wrong way", "Я"), ("a P facing backwards", "¶"),
    ("the upside question mark", "¿"), ("two S's stacked", "§"), ("2 s stacked", "§"),
    ("the loopy square", "⌘"), ("square, looped corners", "⌘"), ("a square with curly loops", "⌘"),
    ("a star, filled in solid", "★"), ("star, solid black", "★"),
])
def test_keypad_a_symbol_by_its_look_in_other_words(said, symbol):
    from comma_env.agents.natural.symbols import looks, mentions
    assert [set(m.options) for m in mentions(looks(said))] == [{symbol}]


def test_keypad_a_star_filled_or_outlined_stays_open():
    from comma_env.agents.natural.symbols import looks, mentions
    assert [set(m.options) for m in mentions(looks("a star, filled or outlined idk"))] == [{"★", "☆"}]


@pytest.mark.parametrize("said", [
    "a smiley face in the top left corner and a horse shoe thing in the top right. bottom left is a loopy square "
    "and bottom right is an umbrella",
    "smiley top left, a horseshoe shape in the top right, an umbrella icon at the bottom right, a command key "
    "thing at the bottom left",
])
def test_keypad_a_symbol_thing_in_a_corner_is_placed(said):
    cls, _ = state_of("keypad", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear(said, memory)
    assert memory["state"]["symbols"] == {"top_left": frozenset("☺"), "top_right": frozenset("Ω"),
                                          "bottom_left": frozenset("⌘"), "bottom_right": frozenset("☂")}


@pytest.mark.parametrize("said", [
    "easy one - it's just reading order. left to right, top row then bottom row.",
    "Press them like a book: left to right, top row first.", "Just go row by row.",
    "all four in the order you read them",
])
def test_keypad_all_keys_in_reading_order_said_as_the_order(said):
    cls, state = state_of("keypad", 24130)
    assert phrasebook(cls).understand_surely(said, state).actions == [
        "press_top_left", "press_top_right", "press_bottom_left", "press_bottom_right"]


@pytest.mark.parametrize(("said", "actions"), [
    ("now the upside-down question mark and after it the section sign.", ["press_bottom_left", "press_top_right"]),
    ("the upside-down question mark, after it the section sign", ["press_bottom_left", "press_top_right"]),
    ("the section sign right after it", None),
])
def test_keypad_after_it_the_next_key_is_an_order(said, actions):
    cls, state = state_of("keypad", 24125)
    state.apply("press_bottom_right")
    state.apply("press_top_left")
    assert phrasebook(cls).understand_surely(said, state).actions == actions


@pytest.mark.parametrize("fix", [
    "wait, top right isn't a club, it's a spade - pointy top, no three bumps.",
    "oops, the top right one is not a club, it is a spade", "correction: top right is a spade, not a club",
])
def test_keypad_a_key_corrected_as_not_one_symbol_but_another(fix):
    cls, _ = state_of("keypad", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("top left: airplane. top right: club. bottom left: ©. bottom right: triangle", memory)
    book.hear(fix, memory)
    assert memory["state"]["symbols"]["top_right"] == frozenset("♠")


@pytest.mark.parametrize(("said", "action"), [
    ("not the leftmost and not the rightmost - of the two middle ones, the left.", "press_position_2"),
    ("the left one of the middle two", "press_position_2"), ("middle pair, the right one", "press_position_3"),
    ("of the two in the middle, the left one", "press_position_2"),
])
def test_memory_the_left_or_right_one_of_several_named(said, action):
    cls, state = state_of("memory", 24248)
    assert phrasebook(cls).understand_dialogue([said], state).actions == [action]


@pytest.mark.parametrize(("said", "letters"), [
    ("stage one lights are blue blue green blue letters top left ef top right why bottom left gee bottom right jay",
     "FYGJ"),
    ("top left is em, top right is double you, bottom left: ex, bottom right aitch", "MWXH"),
    ("Diagonal one (top-left to bottom-right): M and I. Diagonal two (top-right to bottom-left): E and C.", "MECI"),
    ("top left to bottom right: M, I; top right to bottom left: E, C", "MECI"),
])
def test_led_letters_dictated_by_name_or_given_by_diagonal(said, letters):
    cls, _ = state_of("led", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear(said, memory)
    assert [memory["state"]["letters"][p][0] for p in ("top_left", "top_right", "bottom_left", "bottom_right")] == list(
        letters)


def test_led_a_letter_name_that_is_a_word_in_a_sentence_is_no_letter():
    cls, _ = state_of("led", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("the top left you see is blue", memory)
    assert not memory["state"].get("letters")


@pytest.mark.parametrize("said", [
    '{"top_left": "command-key symbol (square, looped corners)", "top_right": "section sign §", "bottom_left": '
    '"smiley face", "bottom_right": "omega Ω"}',
    "{'top left': 'command key', 'top right': 'section sign', 'bottom left': 'smiley', 'bottom right': 'omega'}",
])
def test_keypad_a_description_in_json_is_read_by_its_keys_and_values(said):
    cls, _ = state_of("keypad", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear(said, memory)
    assert memory["state"]["symbols"] == {"top_left": frozenset("⌘"), "top_right": frozenset("§"),
                                          "bottom_left": frozenset("☺"), "bottom_right": frozenset("Ω")}


@pytest.mark.parametrize("said", [
    "The blue sphere is above you, but there's a wall in the way, so you have to go around through column 1.\n"
    "Route: turn left and go forward 2. Turn right so you face up, forward 4. Turn right, forward 2.\n"
    "Summary: left, 2 forward, right, 4 forward, right, 2 forward, press the button.",
    "Going around through the left column.\nDirections: turn left, forward 2, turn right, forward 4, turn right, "
    "forward 2\nIn short: L F2 R F4 R F2, then press the button",
])
def test_maze_a_route_after_its_reasons_and_the_press_of_its_summary(said):
    cls, state = state_of("maze", 24370)  # facing up
    assert phrasebook(cls).understand_surely(said, state).actions == (
        ["turn_left"] + ["move_forward"] * 2 + ["turn_right"] + ["move_forward"] * 4 + ["turn_right"]
        + ["move_forward"] * 2 + ["press_button"])


@pytest.mark.parametrize(("first", "again"), [
    ("stage 1: S W A G (TL TR BL BR).", "stage 2 now. letters A X R J, same order as before."),
    ("stage 1, red. letters: G, A, S, W (BR, BL, TL, TR)", "stage 2: J R A X in the same order"),
])
def test_led_letters_with_a_legend_of_positions_and_the_same_order_later(first, again):
    cls, _ = state_of("led", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear(first, memory)
    assert {p: v[0] for p, v in memory["state"]["letters"].items()} == {
        "top_left": "S", "top_right": "W", "bottom_left": "A", "bottom_right": "G"}
    book.hear("press_bottom_right", memory)
    book.hear(again, memory)
    order = [memory["state"]["letters"][p][0] for p in ("top_left", "top_right", "bottom_left", "bottom_right")]
    assert order == ["A", "X", "R", "J"]


@pytest.mark.parametrize("later", [
    "those two lit up fine - omega and the mirror R are glowing. what's left?",
    "ok the omega and the backwards R both light up now, what next",
])
def test_keypad_two_symbols_named_in_a_sentence_are_no_row_drawn(later):
    cls, _ = state_of("keypad", 1)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.hear("keypad: TL mirrored R, TR section sign (§), BL upside-down ?, BR omega", memory)
    before = dict(memory["state"]["symbols"])
    book.hear(later, memory)
    assert memory["state"]["symbols"] == before
    book.hear("Ω Я\n¿ §", memory)  # a grid drawn row by row still is one
    assert memory["state"]["symbols"]["top_right"] == frozenset("Я")
