"""Forms of plain English the scripted partners misread (issue 56, fresh8): slips fixed after a dash, a start named
before its list, a key named twice, a log of stages before the current one, runs without a verb; each form with the
variants other writers use."""

from __future__ import annotations

import pytest

from comma_env.agents.natural.phrasebooks.base import phrasebook
from tests.support.natural import state_of

ORDER = ["press_bottom_left", "press_top_right", "press_bottom_right", "press_top_left"]


@pytest.mark.parametrize("said", [
    "Star outline first, that's bottom right - ugh, bottom LEFT. Then the club top right, then the pilcrow bottom "
    "right, then the euro top left.",
    "Hollow star first, which is bottom right -- argh, bottom left. Then top right, bottom right, top left.",
    "Bottom right \u2014 d'oh, bottom left. Then top right, then bottom right, then top left.",
    "Star first, that's bottom left. Next the club, then the pilcrow, then the euro.",
])
def test_keypad_a_slip_fixed_after_a_dash_and_a_name_with_its_place_after_first(said):
    cls, state = state_of("keypad", 25155)  # euro top left, club top right, hollow star bottom left, pilcrow
    assert phrasebook(cls).understand_dialogue([said], state).actions == ORDER


@pytest.mark.parametrize("said", [
    "Go backwards from the bottom right: bottom right, bottom left, top right, top left.",
    "Start at the bottom right: bottom right, then bottom left, then top right, then top left.",
    "Bottom right, bottom left, top right, top left. So: BR BL TR TL.",
])
def test_keypad_a_start_named_before_its_list_is_one_key_and_an_order_said_twice_is_one_order(said):
    cls, state = state_of("keypad", 25156)
    assert phrasebook(cls).understand(said, state).actions == [
        "press_bottom_right", "press_bottom_left", "press_top_right", "press_top_left"]


def test_keypad_a_key_named_twice_is_asked():
    cls, state = state_of("keypad", 25156)
    book = phrasebook(cls)
    assert book.understand("Bottom right, bottom left, bottom right, top left.", state).ask
    assert book.understand("Top left, then the smiley, then top left, then top right.", state).ask


@pytest.mark.parametrize("said", [
    "Log so far: S1 pos 2 (label 2), S2 pos 2 (label 2), S3 pos 3 (label 2). Now S4: display 4, labels L->R 4 1 3 2.",
    "Stage 1 pos 2 (label 2), stage 2 pos 2 (label 2), stage 3 pos 3 (label 2). Currently stage 4: display 4, "
    "labels 4 1 3 2.",
    "S1 pos 2 (label 2), S2 pos 2 (label 2), S3 pos 3 (label 2); now we're on stage 4, display 4, labels 4 1 3 2.",
])
def test_memory_a_log_of_stages_before_now_keeps_the_current_stage(said):
    cls, _ = state_of("memory", 1)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read(said, memory)
    belief = book.belief(memory)
    assert (belief["stage"], belief["display_number"], belief["button_labels_left_to_right"]) == (4, 4, [4, 1, 3, 2])
    assert memory["notes"]["pressed"] == [[2, 2], [2, 2], [3, 2]]


@pytest.mark.parametrize("run", ["along two", "across 2", "over two", "two", "two squares straight ahead",
                                 "2 dead ahead"])
def test_maze_a_run_after_a_turn_with_no_verb_or_with_straight_ahead(run):
    cls, state = state_of("maze", 25425)  # the route of fresh8's maze-advise-F8-003
    said = (f"Back up two squares first. Then turn left and go four. Turn left, up four. Turn left, {run}. Turn "
            "left once more, down two, and hit the button.")
    assert phrasebook(cls).understand(said, state).actions == (
        ["move_backward"] * 2 + ["turn_left"] + ["move_forward"] * 4 + ["turn_left"] + ["move_forward"] * 4
        + ["turn_left"] + ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2 + ["press_button"])


def test_maze_a_hyphenated_run_is_read():
    cls, state = state_of("maze", 25428)  # facing left
    book = phrasebook(cls)
    start = "Two squares straight ahead! Turn left, down two! Turn right, four along the bottom! Turn right, "
    assert book.understand(start + "a four-square sprint up the side!", state).actions == (
        ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2 + ["turn_right"] + ["move_forward"] * 4
        + ["turn_right"] + ["move_forward"] * 4)


@pytest.mark.parametrize(("said", "read"), [
    ("top left yankee, top right whiskey", "top left Y, top right W"),
    ("Sierra, Golf, Juliett, X-ray, Alfa", "S, G, J, X, A"),
    ("juliet kilo xray", "J K X"),
    ("I played golf at the hotel with Mike", "I played golf at the hotel with Mike"),  # no code word only a code
    ("the delta symbol, then the yankee one", "the D symbol, then the Y one"),
    ("papa echo lima lima", "P E L L"),  # four in a row spell without a word that is only a code
    ("golf, hotel, mike", "golf, hotel, mike"),
])
def test_letters_spelled_in_the_phonetic_alphabet(said, read):
    from comma_env.agents.natural.phonetic import spelled
    assert spelled(said) == read
    assert spelled("press yankee") == "press yankee"
    assert spelled("press yankee", least=1) == "press Y"


def test_led_letters_in_the_phonetic_alphabet():
    cls, state = state_of("led", 25211)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read("Stage one. LED one red. Buttons: top left yankee, top right whiskey, bottom left sierra, bottom right "
              "golf. Over.", memory)
    assert book.belief(memory)["button_letters"] == {"top_left": "Y", "top_right": "W", "bottom_left": "S",
                                                     "bottom_right": "G"}
    assert book.understand("Hit whiskey. Over.", state).actions == ["press_top_right"]


@pytest.mark.parametrize("said", [
    "From the left I've got whiskey, bravo, uniform, foxtrot, papa.",
    "Window 1 x-ray, window 2 bravo, window 3 uniform, window 4 foxtrot, window 5 papa",
    "The letters: Xray - Bravo - Uniform - Foxtrot - Papa",
])
def test_password_windows_spelled_in_the_phonetic_alphabet(said):
    cls, _ = state_of("password", 0)
    book = phrasebook(cls)
    memory = book.start()
    book.hear(said, memory)
    assert [o[0] for o in memory["state"]["shown"]][1:] == ["B", "U", "F", "P"]


@pytest.mark.parametrize("said", [
    "Make it whiskey alfa tango echo romeo and submit.",
    "Target word, phonetically: Whiskey. Alpha. Tango. Echo. Romeo. Then submit.",
    "Set the windows to whisky-alfa-tango-echo-romeo, then lock it in",
])
def test_password_word_spelled_in_the_phonetic_alphabet(said):
    cls, state = state_of("password", 0)  # X B U F P; the word is WATER
    assert phrasebook(cls).understand(said, state).actions == [f"cycle_down_{k}" for k in range(1, 6)] + ["submit"]


@pytest.mark.parametrize(("said", "display", "labels"), [
    ("Stage 3. Display 2 again. The buttons now: 3, 2, 1, 4. Which one?", 2, [3, 2, 1, 4]),  # "now:" after a noun
    ("Stage two now, display's a three again, buttons 4 2 1 3.", 3, [4, 2, 1, 3]),
    ("Stage 3 and the number is 1. The 2 is first, after 3, after 1, and 4 is last.", 1, [2, 3, 1, 4]),
    ("Stage 1, the number is 3. The 3 is at the left, then the 4, the 1, and the 2 at the right.", 3, [3, 4, 1, 2]),
    ("Stage 2, number 3 also. The 2 is at the left, then 1, 3, 4.", 3, [2, 1, 3, 4]),
])
def test_memory_the_number_alone_is_the_display_and_labels_from_the_first(said, display, labels):
    cls, _ = state_of("memory", 1)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read(said, memory)
    belief = book.belief(memory)
    assert (belief["display_number"], belief["button_labels_left_to_right"]) == (display, labels)


@pytest.mark.parametrize(("said", "read"), [
    ("Oben links is the paragraph sign, oben rechts an airplane. Unten links an umbrella, unten rechts a star.",
     "Top left is the paragraph sign, top right an airplane. Bottom left an umbrella, bottom right a star."),
    ("the nose shows nach oben", "the nose shows up"),
    ("Tap left's a Y. Tap row: NOTHING. Up tae the brolly at tap right, then doon, on the solid star, tap left.",
     "Top left's a Y. Top row: NOTHING. Up tae the brolly at top right, then down, on the solid star, top left."),
    ("en haut à gauche P, twa squares", "top left P, two squares"),
    ("Tap row 2 column 1. Tap left twice. tap the button. links", "Tap row 2 column 1. Tap left twice. tap the "
                                                                  "button. links"),  # a press, an English word
])
def test_places_in_german_french_and_scots_words(said, read):
    from comma_env.agents.natural.dialect import standard
    assert standard(said) == read


@pytest.mark.parametrize("said", ["nose pointing down", "nose pointed to the DOWN", "nose to down", "facing D",
                                  "the nose shows nach unten (down)", "still lookin' down"])
def test_maze_the_facing_said_by_the_nose_a_letter_or_looking(said):
    cls, _ = state_of("maze", 1)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read(f"The mouse is at row 3, column 3, {said}.", memory)
    assert book.belief(memory)["mouse_facing"] == "down"


def test_keypad_a_star_said_then_its_look_and_letters_followed_by_their_order_in_words():
    from comma_env.agents.natural.symbols import looks
    assert looks("Unten rechts a star, only the outline, not filled.") == "Unten rechts a hollow star."
    cls, _ = state_of("led", 1)
    book = phrasebook(cls)
    for said in ("Letters C J W M going top-left, top-right, bottom-left, bottom-right.",
                 "Letters: C J W M, in order top left, top right, bottom left, bottom right.",
                 "C J W M (TL TR BL BR)"):
        memory: dict = {"state": {}, "notes": {}}
        book.read(f"Stage 1, the LED is purple. {said}", memory)
        assert book.belief(memory)["button_letters"] == {"top_left": "C", "top_right": "J", "bottom_left": "W",
                                                         "bottom_right": "M"}, said


@pytest.mark.parametrize("said", [
    "The screen says YOUR. In the top, DONE on the left and YOUR on the right; in the middle, UH HUH left and READY "
    "right; in the bottom, HOLD left and LEFT right.",
    "The screen says YOUR. High left DONE, high right YOUR, middle left UH HUH, middle right READY, low left HOLD, "
    "low right LEFT.",
])
def test_who_rows_as_places_in_the_top_and_high_and_low(said):
    cls, _ = state_of("who", 1)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read(said, memory)
    assert book.belief(memory)["button_labels"] == {"top_left": "DONE", "top_right": "YOUR", "middle_left": "UH HUH",
                                                    "middle_right": "READY", "bottom_left": "HOLD",
                                                    "bottom_right": "LEFT"}


@pytest.mark.parametrize(("bend", "press"), [
    ("After that: left again and", "press it"), ("then right, and", "hit it."), ("Then, to the left,", "press it!"),
])
def test_maze_a_bare_side_after_a_colon_or_then_and_press_it(bend, press):
    cls, state = state_of("maze", 25425)
    said = (f"Back up two squares first. Then turn left and go four. Turn left, up four. {bend} forward two. Turn "
            f"left once more, forward two. {press}")
    side = "turn_right" if "right" in bend else "turn_left"
    assert phrasebook(cls).understand(said, state).actions == (
        ["move_backward"] * 2 + ["turn_left"] + ["move_forward"] * 4 + ["turn_left"] + ["move_forward"] * 4
        + [side] + ["move_forward"] * 2 + ["turn_left"] + ["move_forward"] * 2 + ["press_button"])


def test_disp_is_the_display():
    cls, _ = state_of("who", 1)
    book = phrasebook(cls)
    memory: dict = {"state": {}, "notes": {}}
    book.read("disp LEAD. grid TL UH UH / TR DONE / ML UHHH / MR LIKE / BL BLANK / BR YOU'RE. gogo", memory)
    assert book.belief(memory)["display_text"] == "LEAD"
