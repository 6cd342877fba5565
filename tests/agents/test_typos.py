"""Typo repair (comma_env/agents/natural/reading.py `fix_typos`): words that are not English are repaired,
common English words (comma_env/agents/natural/english.py) never become another word."""

from __future__ import annotations

import pytest

import comma_env
from comma_env.agents.natural.phrasebooks.base import phrasebook
from comma_env.agents.natural.reading import fix_typos


@pytest.mark.parametrize(("word", "near"), [
    ("walk", "wall"), ("fifty", "fifth"), ("don", "down"), ("start", "star"), ("seen", "seven"), ("grey", "grew"),
    ("pick", "pink"), ("bank", "back"), ("state", "stage"), ("times", "timer"), ("does", "dogs"), ("way", "waxy"),
    ("looked", "looped"), ("file", "five"), ("walks", "wall"), ("fifties", "fifth")])
def test_a_common_english_word_is_no_typo_of_a_word_one_edit_away(word: str, near: str) -> None:
    assert fix_typos(f"so {word} now", [near]) == f"so {word} now"


@pytest.mark.parametrize(("typo", "word"), [
    ("yellw", "yellow"), ("wries", "wires"), ("thre", "three"), ("rihgt", "right"), ("botom", "bottom"),
    ("magneta", "magenta"), ("whit", "white"), ("redd", "red"), ("stag", "stage"), ("sage", "stage"),
    ("tier", "timer")])
def test_a_word_that_is_not_english_or_rare_is_repaired(typo: str, word: str) -> None:
    assert fix_typos(f"the {typo} one", [word]) == f"the {word} one"  # "whit", "stag": rare words, likely typos


def test_a_common_word_is_read_as_the_form_of_itself_the_vocabulary_has() -> None:
    assert fix_typos("no change, changes daily", ["changed"]) == "no changed, changed daily"
    assert fix_typos("times", ["timer", "time"]) == "times"  # another word, not another form


def test_blue_grey_is_a_colour_and_says_nothing_about_growth() -> None:
    env = comma_env.make("telehealth")
    env.reset(seed=1)
    book, memory = phrasebook(env.unwrapped.puzzle_cls), {"state": {}, "notes": {}}
    book.hear("Colours: brown, black, blue-grey. Shape: oval. Itches: no.", memory)
    assert memory["state"] == {"colours": ["black", "blue grey", "brown"], "shape": "oval", "itch": "no"}
