"""The scripted partners on kinds of plain English they misread or asked back about (issue 56), each cause with
phrasings of other people than the one who showed it."""

from __future__ import annotations

import pytest

from comma_env.agents.natural.phrasebooks.base import phrasebook
from comma_env.agents.natural.phrasebooks.led import PALETTE
from tests.support.natural import state_of


@pytest.mark.parametrize("said", [
    "You're facing left already: go six squares left. Then turn left and go four down.",
    "move 6 spaces left, turn left, walk 4 steps down",
    "go 6 more squares left, then go 4 squares south",
])
def test_maze_a_count_of_squares_toward_a_direction_is_one_move(said):
    cls, state = state_of("maze", 23448)  # row 5 column 7, facing left
    assert phrasebook(cls).understand(said, state).actions == (
        ["move_forward"] * 6 + ["turn_left"] + ["move_forward"] * 4)


@pytest.mark.parametrize("said", [
    "Start bottom left (the hollow star). Then the umbrella. Then the one above the star, the club. Finally the plane.",
    "hollow star, umbrella, then the key above the star, then the one right of the hollow star",
    "the hollow star, then the key diagonally across from the star, then the one to the left of the umbrella.",
])
def test_keypad_a_key_named_by_the_key_next_to_it_is_that_key(said):
    cls, state = state_of("keypad", 23160)  # club, umbrella / hollow star, airplane
    actions = phrasebook(cls).understand(said, state).actions
    assert actions is not None and actions[:3] == ["press_bottom_left", "press_top_right", "press_top_left"]


@pytest.mark.parametrize(("said", "options"), [
    ("the led is a bluish violet - could be blue, could be purple", {"blue", "purple"}),
    ("the LED is reddish orange", {"red", "orange"}),
    ("it is green, might be yellow", {"green", "yellow"}),
])
def test_led_a_colour_between_two_is_either(said, options):
    assert set(PALETTE.mentions(said)[0].options) >= options and len(PALETTE.mentions(said)) == 1


@pytest.mark.parametrize(("puzzle", "seed", "key", "said"), [
    ("who", 23074, "button_labels", "Labels in the order you read a page: SURE, UH HUH, MIDDLE, YOU ARE, DONE, FIRST."),
    ("who", 23074, "button_labels", "buttons (reading them like a book) SURE, UH HUH, MIDDLE, YOU ARE, DONE, FIRST"),
    ("keypad", 23160, "button_symbols", "symbols, read like a book: club, umbrella, hollow star, airplane. none lit"),
    ("led", 23249, "button_letters", "stage 1, led blue. letters like a book: E M P Q"),
])
def test_a_grid_listed_like_a_book_is_in_reading_order(puzzle, seed, key, said):
    cls, state = state_of(puzzle, seed)
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)[key] == state.visible_state()[key]


@pytest.mark.parametrize(("said", "position"), [
    ("press the button right under BLANK", "bottom_left"), ("the one right above HOLD", "middle_left"),
    ("hit the button directly below YOUR", "middle_left"), ("press the one just beneath WHAT?", "middle_right"),
])
def test_who_right_under_a_label_is_its_neighbour_not_the_right_column(said, position):
    cls, state = state_of("who", 23102)  # YOUR WHAT? / BLANK READY / HOLD NEXT
    assert phrasebook(cls).understand(said, state).actions == [f"press_{position}"]


@pytest.mark.parametrize(("said", "action"), [
    ("hit the one furthest right", "press_position_4"),
    ("press the button all the way to the right", "press_position_4"),
    ("the one farthest left", "press_position_1"), ("press the one on the right end", "press_position_4"),
])
def test_memory_the_button_furthest_to_a_side(said, action):
    cls, state = state_of("memory", 23296)
    assert phrasebook(cls).understand(said, state).actions == [action]


@pytest.mark.parametrize(("said", "action"), [
    ("press the 4 (label not position!!)", "press_position_1"),
    ("push 4 - the label, not the position", "press_position_1"),
    ("hit the 4, position not label", "press_position_4"),
])
def test_memory_a_bare_number_said_to_be_a_label_or_a_position(said, action):
    cls, state = state_of("memory", 23297)
    state.apply("press_position_2")  # labels 4 3 2 1
    assert phrasebook(cls).understand(said, state).actions == [action]


@pytest.mark.parametrize("said", [
    "stage 1 showed 2 with buttons 1 2 3 4, I hit position 2 (the 2). Stage 2 showed 1 with buttons 2 4 1 3, "
    "I hit position 2 (the 4). Now stage 3 shows 1 and the buttons are 3 1 2 4.",
    "Stage 1: I pressed position 2 (the 2). Stage 2: I pressed pos 2 (4). Now stage 3 says 1, buttons 3 1 2 4.",
])
def test_memory_a_recap_with_the_label_in_brackets_and_a_stage_that_shows_a_number(said):
    cls, _ = state_of("memory", 23283)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.read(said, memory)
    assert memory["notes"]["pressed"] == [[2, 2], [2, 4]]
    assert memory["state"] == {"stage": 3, "display": (1,), "labels": [3, 1, 2, 4]}


@pytest.mark.parametrize(("said", "colour"), [
    ("Current stage: 1 of 4. LED 1 is yellow (the rest: purple, yellow, orange). TL F, TR L, BL C, BR B", "yellow"),
    ("Stage 2. LED 2 is red, the others are blue, green, yellow. Top left A, top right B, bottom left C, "
     "bottom right D.", "red"),
    ("stage 1, led 1: green (remaining ones: red, red, blue). top row A B, bottom row C D", "green"),
])
def test_led_the_other_leds_listed_after_the_current_one_are_not_the_row(said, colour):
    cls, _ = state_of("led", 0)
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)["led_colors_left_to_right"] == [colour]


@pytest.mark.parametrize(("said", "actions"), [
    ("Turn right and go forward until you hit the wall (two squares). Turn right again and go all the way up, eight "
     "squares. One more right turn, two squares forward, and press.",
     ["turn_right", "move_forward", "move_forward", "turn_right"] + ["move_forward"] * 8
     + ["turn_right", "move_forward", "move_forward", "press_button"]),
    ("Turn right, two squares forward. Turn right, walk forward all the way.",
     ["turn_right", "move_forward", "move_forward", "turn_right"] + ["move_forward"] * 8),
    ("Your mouse faces down, so:\n1. Turn right - you now face left.\n2. Forward 2.\n3. Press.\n\nSummary: right, 2, "
     "press", ["turn_right", "move_forward", "move_forward", "press_button"]),
    ("Your mouse faces right, so:\n1. Turn right - you now face down.\n2. Forward 2.", None),  # it faces down: asked
    ("turn right (it faces down), go 2, press. In short: right, 2, press.",
     ["turn_right", "move_forward", "move_forward", "press_button"]),
])
def test_maze_all_the_way_a_remark_on_the_facing_and_a_summary_after_the_route(said, actions):
    cls, state = state_of("maze", 23424)  # row 9 column 3, facing down
    assert phrasebook(cls).understand(said, state).actions == actions


def _maze_read(said: str) -> dict:
    cls, _ = state_of("maze", 0)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.read(said, memory)
    return book.belief(memory)


@pytest.mark.parametrize("said", [
    "the mouse is top row, 3rd column, looking up. blue ball bottom right corner, red ball bottom row col 3, "
    "green top left corner, yellow top row col 7",
    "Mouse: first row, 3rd column, nose up. Spheres: blue in the bottom-right corner, red 9/3, green 1/1, yellow 1/7.",
    "mouse in the top row, 3rd col, facing up; blue bottom right corner; red last row column 3; green top left "
    "corner; yellow row 1 col 7",
])
def test_maze_rows_columns_and_corners_in_words_and_slashed_pairs(said):
    belief = _maze_read(said)
    assert (belief["mouse_row_column"], belief["mouse_facing"]) == ([1, 3], "up")
    assert belief["sphere_row_column_by_color"] == {"blue": [9, 9], "red": [9, 3], "green": [1, 1], "yellow": [1, 7]}


_WALLS = ["", "1, 2, 4, 5, 6, 7, 8", "4, 8", "2, 3, 4, 6, 8, 9", "6", "2, 3, 4, 5, 6, 7, 8", "2, 8", "2, 4, 5, 6, 8, 9",
          "4"]


@pytest.mark.parametrize("said", [
    "Walls (dark squares), listed by row:\n" + "\n".join(f"row {k}: {w or 'none'}" for k, w in enumerate(_WALLS, 1)),
    "Wall columns per row.\n" + "\n".join(f"row {k}: {w or '-'}" for k, w in enumerate(_WALLS, 1)),
    "Here are the dark squares\n" + "\n".join(f"Row {k} - {w or 'nothing'}" for k, w in enumerate(_WALLS, 1)),
])
def test_maze_rows_of_bare_wall_columns_under_a_heading(said):
    rows = [".........", "##.#####.", "...#...#.", ".###.#.##", ".....#...", ".#######.", ".#.....#.", ".#.###.##",
            "...#....."]
    assert _maze_read(said)["maze_rows_top_to_bottom"] == rows


ROWS_23441 = [".........", ".#.#####.", ".#...#...", ".###.####", ".#.#.#...", ".#.#.#.#.", ".#.#...#.", ".#.#####.",
              ".....#..."]


@pytest.mark.parametrize("said", [
    "column by column, top to bottom (1 = wall, 0 = floor):\n" + "\n".join(
        f"col {c + 1}: " + "".join("1" if r[c] == "#" else "0" for r in ROWS_23441) for c in range(9)),
    "Columns (# wall):\n" + "\n".join(f"Column {c + 1}: " + "".join(r[c] for r in ROWS_23441) for c in range(9)),
])
def test_maze_a_grid_written_column_by_column(said):
    assert _maze_read(said)["maze_rows_top_to_bottom"] == ROWS_23441



@pytest.mark.parametrize(("said", "actions"), [
    ("Column 3 has spade, club, yen and command key. Reading down it: spade (your bottom left), club (top right), "
     "yen (bottom right), command key (top left).", ["bottom_left", "top_right", "bottom_right", "top_left"]),
    ("Do the left column top to bottom first, then bottom right, then top right.",
     ["top_left", "bottom_left", "bottom_right", "top_right"]),
    ("the right column going up, then the left column from top to bottom",
     ["bottom_right", "top_right", "top_left", "bottom_left"]),
    ("bottom row right to left, then the top row left to right",
     ["bottom_right", "bottom_left", "top_left", "top_right"]),
])
def test_keypad_your_place_after_a_symbol_and_a_column_or_row_walked_in_a_direction(said, actions):
    cls, state = state_of("keypad", 23157)  # command key, club / spade, yen
    assert phrasebook(cls).understand(said, state).actions == [f"press_{a}" for a in actions]


@pytest.mark.parametrize("said", [
    "either L or G works here - just press the L", "either one works, L or G -- press L",
    "I'm not sure it matters \u2014 press L",
])
def test_a_hedge_before_a_dash_and_a_decision_is_not_asked(said):
    cls, state = state_of("led", 23215)  # L S / G H
    assert phrasebook(cls).understand_surely(said, state).actions == ["press_top_left"]


@pytest.mark.parametrize("said", [
    "screen SAYS. btns: top MIDDLE/OKAY, mid YOUR/NEXT, bottom UH HUH (w a space) / UHHH",
    "display SAYS\ntop MIDDLE, OKAY\nmiddle YOUR, NEXT\nbottom UH HUH, UHHH",
    "display: SAYS - top MIDDLE / OKAY, mid YOUR (the possessive) / NEXT, bottom UH HUH / UHHH",
])
def test_who_a_row_word_before_its_labels_and_an_aside_naming_nothing(said):
    cls, state = state_of("who", 23073)
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)["button_labels"] == state.visible_state()["button_labels"]


@pytest.mark.parametrize("said", [
    "sorry, the display is UR not U, I missed the R", "correction: the screen says UR, not U",
    "oops - display is UR (not U)",
])
def test_who_a_display_corrected_from_one_letter_is_no_row_of_labels(said):
    cls, state = state_of("who", 23078)
    book, memory = phrasebook(cls), {"state": {}}
    book.read("display says U. top: PRESS, YOU. middle: UR, YOUR. bottom: WAIT, YES", memory)
    book.read(said, memory)
    assert book.belief(memory) == state.visible_state()


@pytest.mark.parametrize("said", [
    "stage 1. buttons: TL K, TR R, BL T, BR Z. which one?", "letters: top left K, top right R, bottom left T, "
    "bottom right Z. which one?", "K R on top, T Z below - what do I press?",
])
def test_led_a_colour_never_said_is_asked_not_found_from_the_only_colour_with_an_answer(said):
    cls, _ = state_of("led", 0)  # K R / T Z: only yellow has a right button
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.read(said, memory)
    decision = book.decide(memory)
    assert decision.advice is None and "colour" in " ".join(decision.ask)


@pytest.mark.parametrize("said", ["LEDs: [blue] [red]   stage: 1\nQ P / H M",
                                  "leds [blue][red], stage 1. top Q P, bottom H M"])
def test_led_a_row_of_leds_in_brackets(said):
    cls, _ = state_of("led", 0)
    book, memory = phrasebook(cls), {"state": {}, "notes": {}}
    book.read(said, memory)
    assert book.belief(memory)["led_colors_left_to_right"] == ["blue"]


@pytest.mark.parametrize("said", [
    "You should be facing down now. If so: turn left, go two.", "you're facing up, so go 2 forward",
    "Your mouse is pointing left. Turn right and go two.",
])
def test_maze_a_pose_the_advice_takes_for_granted_and_the_solver_does_not_see_is_asked(said):
    cls, state = state_of("maze", 19320)  # facing right
    steps = phrasebook(cls).understand(said, state)
    assert steps.actions is None and "I'm facing right" in steps.ask[0]


@pytest.mark.parametrize("said", [
    "Turn right and go six, all the way down. Turn left, two. Turn left once more, go up two onto the red sphere, "
    "and press.", "turn right, go down 6. turn left, go 2. turn left, go up two, then press",
    "Turn right, move down six. Turn left, two. Turn left, head north 2, press.",
])
def test_maze_go_up_two(said):
    cls, state = state_of("maze", 19320)
    for action in ("turn_right", "move_forward", "move_forward", "turn_left", "move_forward", "move_forward"):
        state.apply(action)  # facing right
    assert phrasebook(cls).understand(said, state).actions == (
        ["turn_right"] + ["move_forward"] * 6 + ["turn_left", "move_forward", "move_forward", "turn_left",
                                                  "move_forward", "move_forward", "press_button"])


@pytest.mark.parametrize("said", [
    "This is stage 1. The LED glows purple. The letters are E and M up top, P and Q below.",
    "I describe the module: stage 1, LED blue, E and M on top, P and Q underneath.",
    "I see stage 1 and a blue LED. Letters: E, M up top; P, Q beneath.",
])
def test_led_rows_said_up_top_and_below_and_a_sentence_s_i(said):
    cls, state = state_of("led", 23249)  # E M / P Q
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)["button_letters"] == state.visible_state()["button_letters"]


@pytest.mark.parametrize("said", ["hit the left letter of the bottom row", "the right letter in the top row",
                                  "press the left letter on the bottom"])
def test_led_the_left_letter_of_a_row(said):
    cls, state = state_of("led", 23249)
    position = "top_right" if "right" in said else "bottom_left"
    assert phrasebook(cls).understand(said, state).actions == [f"press_{position}"]


@pytest.mark.parametrize("said", [
    "Green means times three. Find the letter that, tripled and wrapped around 26, gives the letter diagonally across "
    "from it - press that one. (Hint: it's on the top row.)",
    "Apply the rule (x3, mod 26, equals the diagonal letter); the answer is in the top row.",
    "Press the top row button whose letter times 3 mod 26 is the letter diagonally across.",
])
def test_led_the_rule_within_the_buttons_a_hint_names(said):
    cls, state = state_of("led", 23243)  # green; K O / Q L
    assert phrasebook(cls).understand_surely(said, state).actions == ["press_top_right"]


@pytest.mark.parametrize(("said", "actions"), [
    ("Make a right, walk two steps, make a right, then eight more.",
     ["turn_right", "move_forward", "move_forward", "turn_right"] + ["move_forward"] * 8),
    ("Head down 2 squares, then west 8, press.", ["move_forward", "move_forward", "turn_right"] + ["move_forward"] * 8
     + ["press_button"]),
    ("Let me walk you through it. Go south 2, then west 8.", ["move_forward", "move_forward", "turn_right"]
     + ["move_forward"] * 8),
])
def test_maze_walk_a_compass_point_then_its_count_and_more_after_a_turn(said, actions):
    cls, state = state_of("maze", 23424)  # facing down
    assert phrasebook(cls).understand_surely(said, state).actions == actions


@pytest.mark.parametrize("said", ["press the button showing 3", "hit the key with the 3",
                                  "the button that shows number 3"])
def test_memory_the_button_showing_a_number(said):
    cls, state = state_of("memory", 23296)  # labels 2 4 3 1
    assert phrasebook(cls).understand_surely(said, state).actions == ["press_position_3"]


@pytest.mark.parametrize(("said", "actions"), [
    ("walk 2, then 3 more", ["move_forward"] * 5), ("forward 2 and another 3", ["move_forward"] * 5),
    ("back up 2, then 1 more", ["move_backward"] * 3),
])
def test_maze_a_further_run_after_a_move(said, actions):
    cls, state = state_of("maze", 23424)
    assert phrasebook(cls).understand_surely(said, state).actions == actions


@pytest.mark.parametrize(("said", "action"), [
    ("push the button in the second position", "press_position_2"), ("the 3rd spot", "press_position_3"),
    ("press the first slot", "press_position_1"),
])
def test_memory_an_ordinal_position(said, action):
    cls, state = state_of("memory", 23296)
    assert phrasebook(cls).understand_surely(said, state).actions == [action]


@pytest.mark.parametrize("said", ["stage one, purple light, E M on the top row, P Q on the bottom row",
                                  "Stage 1 with a purple lamp. Top row E and M, bottom row P and Q."])
def test_led_a_colour_before_light_or_lamp(said):
    cls, _ = state_of("led", 23249)
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)["led_colors_left_to_right"] == ["purple"]


@pytest.mark.parametrize("said", ["display: FIRST. buttons: top YOUR and WHAT?, middle BLANK and READY, bottom HOLD "
                                  "and NEXT", "FIRST on the display; top YOUR & WHAT?; middle BLANK & READY; bottom "
                                  "HOLD & NEXT"])
def test_who_a_row_word_before_two_labels_joined_by_and(said):
    cls, state = state_of("who", 23102)
    book, memory = phrasebook(cls), {"state": {}}
    book.read(said, memory)
    assert book.belief(memory)["button_labels"] == state.visible_state()["button_labels"]
