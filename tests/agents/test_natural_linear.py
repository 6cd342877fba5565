"""The natural-language oracle reads its partner's text in linear time: a trained or LLM
expert talking to `oracle_nl` may send anything (issue 9's rule holds for scripted players
too). Every puzzle's phrasebook gets the adversarial lines of test_linear_parsing."""

from __future__ import annotations

import re

import numpy as np
import pytest

import comma_env
from comma_env.agents.natural.phrasebooks import _release_digit, phrasebook
from comma_env.agents.natural.words import strip_connector
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES
from tests.protocol.test_linear_parsing import ADVERSARIAL, BUDGET_SECONDS
from tests.support.timing import cpu_seconds

SIZE = 100_000
EXTRA = {
    "lone_digits_then_let_go": "1 " * (SIZE // 2 - 4) + "let go",
    "lone_digits": "1 " * (SIZE // 2),
    "timer_phrases": "shows a " * (SIZE // 8),
    "square_of_the_row": "x square of the " * (SIZE // 16),
    "steps": "2 step " * (SIZE // 7),
}


@pytest.mark.parametrize("puzzle", COMMA_PUZZLES + V1_PUZZLES)
def test_phrasebook_is_linear_on_100kb_lines(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    env.reset(seed=0)
    book = phrasebook(env.unwrapped.puzzle_cls)
    state = env.unwrapped.puzzle.visible_state()
    slow = {}
    for name, line in {**ADVERSARIAL, **EXTRA}.items():
        seconds = cpu_seconds(book.understand, strip_connector(line.strip()), state)
        if seconds > BUDGET_SECONDS:
            slow[name] = round(seconds, 2)
    assert not slow, f"{puzzle}'s phrasebook is too slow on: {slow}"


def test_release_digit_reads_as_the_old_regex_did() -> None:
    """Same answers as the backtracking regex it replaced, on short random sentences."""
    old = re.compile(r"\b(?:shows a|appears|countdown shows a)\b.*?(\d)|\b(\d)\b.*\blet go\b")
    words = ["let go", "shows a", "appears", "countdown shows a", "3", "7x", "x9", "when", "the", "timer",
             "\n", ",", "٤"]
    rng = np.random.default_rng(0)
    for _ in range(20_000):
        text = " ".join(words[i] for i in rng.integers(len(words), size=int(rng.integers(1, 9))))
        match = old.search(text)
        expected = next(g for g in match.groups() if g) if match else None
        assert _release_digit(text) == expected, text
