"""Moments on the countdown as the Dog and Button solvers read them (comma_env/agents/natural/timing.py)."""

from __future__ import annotations

from comma_env.agents.natural.phrasebooks.base import phrasebook
from comma_env.protocol.clock import parse_timer, wait_line
from tests.support.natural import state_of


def test_a_digit_said_as_a_word_a_clock_time_and_finishing_with_are_moments():
    cls, state = state_of("dog", 3)
    book = phrasebook(cls)
    by_digit = book.understand("Submit when the seconds end in 2.", state).actions
    assert book.understand("Wait until the seconds end in two and then submit.", state).actions == by_digit
    assert book.understand("When the clock is finishing with 2, you press the submit.", state).actions == by_digit
    timer = parse_timer(state.visible_state()["timer"])
    at = f"{(timer - 4) // 60}:{(timer - 4) % 60:02d}"
    assert book.understand(f"Press submit at {at}.", state).actions == [wait_line(4), "submit"]
    assert book.understand(f"Press submit at {timer // 60 + 1}:00.", state).ask  # a time already passed


def test_the_dog_count_said_as_the_same_number_and_every_one_of_them_is_no_open_target():
    cls, state = state_of("dog", 3)
    book = phrasebook(cls)
    dogs = len(state.visible_state()["dogs"])
    expected = book.understand(f"Submit when the timer ends in {dogs}.", state).actions
    assert book.understand_dialogue(["Same number as the dogs you listed: when the timer's last digit is that, "
                                     "submit."], state).actions == expected
    assert book.understand_dialogue(["Count the dogs yourself, every one of them, and press submit when the last "
                                     "digit of the timer equals that number."], state).actions == expected


def test_a_digit_that_appears_is_when_the_button_is_let_go():
    cls, state = state_of("button", 16763)
    book = phrasebook(cls)
    state.apply("hold")
    assert book.understand("Let go when the timer has a 1 in any position.", state).actions == (
        book.understand("Let go as soon as a 1 appears anywhere on the clock.", state).actions)
    assert book.understand("Let go as soon as a 1 appears anywhere on the clock.", state).actions[-1] == "release"


def test_a_release_on_the_strip_not_lit_yet_is_a_hold_and_the_release_digit_is_no_release():
    cls, state = state_of("button", 16763)
    book = phrasebook(cls)
    for said in ("Hold it, and once the strip lights up, let go on that colour's digit.",
                 "Hold the button down, then tell me the strip's colour; we'll work out the release digit from it."):
        assert book.understand(said, state).actions == ["hold"], said


def test_a_clock_time_said_in_words_is_that_time_not_its_first_digit():
    cls, state = state_of("dog", 23782)  # the timer shows 8:55
    book = phrasebook(cls)
    for said in ["one dog, so submit at eight fifty-one", "hit submit at eight fifty one",
                 "submit when the timer reads eight fifty-one"]:
        assert book.understand(said, state).actions == [wait_line(4), "submit"], said


def test_a_time_after_until_or_to_a_mask_with_its_last_digit_and_counting_every_dog_are_moments():
    cls, state = state_of("dog", 23771)  # the timer shows 4:25
    book = phrasebook(cls)
    for said in ["wait until 4:21 and hit submit", "hold off till 4:21, then submit",
                 "Wait till it rolls over to 4:21, then submit."]:
        assert book.understand(said, state).actions == [wait_line(4), "submit"], said
    for said in ["1 dog -> submit on x:x1", "submit on ?:?1", "press submit at X:X1"]:
        assert book.understand(said, state).actions == [wait_line(4), "submit"], said
    dogs = len(state.visible_state()["dogs"])
    by_count = book.understand(f"Submit when the timer ends in {dogs}.", state).actions
    for said in ["Count every dog in the picture and submit when the last digit of the timer equals that number.",
                 "count each dog you see and submit when the seconds end in that number"]:
        assert book.understand(said, state).actions == by_count, said


def test_the_digit_the_timer_has_to_end_in_is_when_to_submit_even_without_the_verb():
    cls, state = state_of("dog", 23781)  # three dogs, the timer shows 6:12
    book = phrasebook(cls)
    for said in ["You described three dogs, so the last digit has to be 3. From 6:12 the next one is 6:03.",
                 "Three dogs, so the timer has to end in 3.", "the last digit should be a 3"]:
        assert book.understand(said, state).actions == [wait_line(9), "submit"], said
    assert not book.understand("Does the timer end in 3?", state).actions  # a question is no advice
