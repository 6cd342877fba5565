"""The natural-language oracle (``oracle_nl``) on every registered puzzle with a phrasebook: it
solves each of the paper's instances without its expert naming an action, on more seeds and
policy seeds too; the solver's prose reads back to exactly what it saw; and the phrasebook
reads 100 KB adversarial lines in linear time (a trained or LLM partner may send anything)."""

from __future__ import annotations

import pytest

import comma_env
from comma_env.agents.natural.phrasebooks.base import phrasebook
from tests.protocol.test_linear_parsing import ADVERSARIAL, BUDGET_SECONDS
from tests.support.natural import names_action, play_natural
from tests.support.registered import puzzles
from tests.support.timing import cpu_seconds

pytestmark = pytest.mark.parametrize("puzzle", puzzles(lambda spec: spec.phrasebook))

SIZE = 100_000
EXTRA = {
    "lone_digits_then_let_go": "1 " * (SIZE // 2 - 4) + "let go",
    "lone_digits": "1 " * (SIZE // 2),
    "timer_phrases": "shows a " * (SIZE // 8),
    "square_of_the_row": "x square of the " * (SIZE // 16),
    "steps": "2 step " * (SIZE // 7),
}


def test_natural_oracle_solves_every_paper_instance_without_naming_actions(puzzle):
    for seed in range(100):
        result, vocabulary = play_natural(puzzle, seed)
        summary = result.summary
        assert summary["success"] and summary["mistakes"] == 0, (puzzle, seed, summary)
        assert summary["turns"] <= 10
        for turn in result.transcript:
            expert = turn["expert"] or ""
            assert not names_action(expert, vocabulary), (puzzle, seed, expert)
            assert not any(line.strip() in vocabulary for line in expert.splitlines())


def test_expert_never_names_an_action_on_more_seeds_and_policy_seeds(puzzle):
    for seed in range(100, 160):
        result, vocabulary = play_natural(puzzle, seed, policy_seed=seed % 7)
        for turn in result.transcript:
            assert not names_action(turn["expert"] or "", vocabulary), (puzzle, seed)


def test_phrasebook_is_linear_on_100kb_lines(puzzle: str) -> None:
    """Both readers (the solver's of advice, the expert's of descriptions) on 100 KB lines."""
    env = comma_env.make(puzzle)
    env.reset(seed=0)
    book = phrasebook(env.unwrapped.puzzle_cls)
    slow = {}
    for name, line in {**ADVERSARIAL, **EXTRA}.items():
        text = line.strip()
        seconds = max(cpu_seconds(book.understand, text, env.unwrapped.puzzle),
                      cpu_seconds(book.hear, text, book.start()))
        if seconds > BUDGET_SECONDS:
            slow[name] = round(seconds, 2)
    assert not slow, f"{puzzle}'s phrasebook is too slow on: {slow}"
