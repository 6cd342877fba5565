"""Every parser on the message path is linear (issue 9.2): 100 KB adversarial lines, each
parsed under a time budget that a quadratic parser cannot meet (the old lenient matcher took
1.6 s on 8,000 asterisks, so about 250 s on 100,000; linear parsers take well under a second)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import comma_env
from comma_env.privacy import ConversationLeaks, find_leaks, normalize
from comma_env.protocol.prompts import as_text, expert_messages, solver_messages
from comma_env.protocol.text import candidate_lines, clean_message, clip, parse_description, strip_thinking
from tests.support.timing import cpu_seconds

SIZE = 100_000
BUDGET_SECONDS = 5.0  # generous for a slow shared CI core; quadratic parsers need minutes

FACTS = {
    "pin": "4716", "balance": "$1,234.56", "name": "Maria Lopez", "address": "742 Evergreen Terrace, Springfield",
    "ssn": "318-52-4907", "date_of_birth": "1961-04-23", "phone": "(415) 867-5309",
}


def _repeat(unit: str, tail: str = "") -> str:
    return unit * ((SIZE - len(tail)) // len(unit)) + tail


ADVERSARIAL = {
    "asterisks": _repeat("*"),
    "asterisks_then_text": _repeat("*", "x"),
    "backticks_then_text": _repeat("`", "a"),
    "dots_around_text": "." * (SIZE // 2) + "a" + "." * (SIZE // 2),
    "underscores_dot": _repeat("_", "."),
    "bullet_runs": _repeat("- ", "x"),
    "numbered_runs": _repeat("1. ", "x"),
    "digits": _repeat("7"),
    "digits_spaced": _repeat("1 "),
    "digits_dashed": _repeat("1-"),
    "digits_commas": _repeat("1,"),
    "digits_comma_space": _repeat("1, "),
    "arabic_digits": _repeat("\u0664"),
    "fullwidth_digits": _repeat("\uff14"),
    "number_words": _repeat("four "),
    "number_words_and": _repeat("four and "),
    "thousands": _repeat("thousand "),
    "think_opens": _repeat("<think>"),
    "think_closes": _repeat("</think>"),
    "think_pairs": _repeat("<think>a</think>"),
    "spaces": _repeat(" ", "x"),
    "first_names": _repeat("maria "),
    "titles": _repeat("ms. "),
    "house_numbers": _repeat("742 "),
    "months": _repeat("april "),
    "dates": _repeat("4/23 "),
    "dollars": _repeat("1 dollars and "),
    "money_k": _repeat("1.23k "),
    "colons": _repeat(": "),
    "json_brackets": "key: " + _repeat("["),
    "json_digits": "key: " + _repeat("9"),
    "combining": _repeat("a\u0301"),
    "homoglyphs": _repeat("\u0430"),
    "emoji": _repeat("\U0001f4a3"),
    "rtl": _repeat("\u202e\u05d0"),
    "reversed_hint": _repeat("backwards 4 "),
    "wait_spaces": "wait" + _repeat(" ", "x")[4:],
    "wait_lines": _repeat("wait 5\n"),
}

PARSERS: dict[str, Callable[[str], object]] = {
    "candidate_lines_exact": lambda s: list(candidate_lines(s)),
    "candidate_lines_lenient": lambda s: list(candidate_lines(s, lenient=True)),
    "strip_thinking": strip_thinking,
    "clip": lambda s: clip(s, SIZE // 2),
    "clean_message": lambda s: clean_message(s, 10 * SIZE),
    "normalize": normalize,
    "find_leaks": lambda s: find_leaks(s, FACTS, expert_said=s[: SIZE // 4]),
    "conversation_leaks": lambda s: ConversationLeaks(FACTS, window=SIZE).solver_said(s),
    "parse_description": lambda s: parse_description("I see:\n" + s),
    "as_text": lambda s: as_text(solver_messages({"dialogue": [{"speaker": "solver", "text": s}] * 2,
                                                 "valid_actions": ["a"]})),
    "chat_messages": lambda s: (solver_messages({"dialogue": [{"speaker": "expert", "text": s}],
                                                 "valid_actions": ["a"]}),
                                expert_messages({"dialogue": [{"speaker": "solver", "text": s}]})),
}


@pytest.mark.parametrize("parser", sorted(PARSERS))
def test_parser_is_linear_on_100kb_adversarial_lines(parser: str) -> None:
    parse = PARSERS[parser]
    slow = {}
    for name, line in ADVERSARIAL.items():
        seconds = cpu_seconds(parse, line)
        if seconds > BUDGET_SECONDS:
            slow[name] = round(seconds, 2)
    assert not slow, f"{parser} is too slow on: {slow}"


@pytest.mark.parametrize(("puzzle", "lenient"),
                         [("atm", True), ("telehealth", False), ("wire", True), ("button", True)])
def test_environment_step_is_linear_on_100kb_messages(puzzle: str, lenient: bool) -> None:
    """The whole solver step (action matching, the expert view, the leak detector over the
    conversation) with messages not clipped."""
    env = comma_env.make(puzzle, max_message_chars=10 * SIZE, action_matching="lenient" if lenient else "exact",
                         max_turns=100, max_mistakes=100)
    env.reset(seed=0)
    slow = {}
    for name, line in ADVERSARIAL.items():
        if not env.agents:
            env.reset(seed=0)
        seconds = cpu_seconds(env.step, line) + cpu_seconds(env.step, line)  # solver, then expert
        if seconds > 2 * BUDGET_SECONDS:
            slow[name] = round(seconds, 2)
    assert not slow, f"{puzzle} steps too slow on: {slow}"
