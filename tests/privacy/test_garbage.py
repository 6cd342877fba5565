"""The detector's readings of issue 59 (other scripts, codes, digit words of other languages,
computations, unknown words) stay linear: 100 KB of garbage aimed at each, read as the turn of
a conversation under the time budget of tests/protocol/test_linear_parsing.py (a quadratic
reading of 100 KB takes minutes)."""

from __future__ import annotations

import pytest

from comma_env.privacy import ConversationLeaks
from tests.support.timing import cpu_seconds

SIZE = 100_000
BUDGET_SECONDS = 5.0
FACTS = {"pin": "4716", "balance": "$1,234.56", "name": "Maria Lopez", "address": "742 Evergreen Terrace, Springfield",
         "date_of_birth": "1961-04-23"}
_PRINTABLE = [chr(c) for c in range(0x21, 0x30000) if chr(c).isprintable()]
EVERY_SCRIPT = "".join(_PRINTABLE[::29])  # a character of every block of Unicode, Latin to CJK extensions


def _repeat(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


GARBAGE = {
    "every_script": _repeat(EVERY_SCRIPT),
    "every_script_spaced": _repeat(" ".join(EVERY_SCRIPT)),
    "nested_brackets": "(" * (SIZE // 2) + "4716" + ")" * (SIZE // 2),
    "nested_quotes": "\"'" * (SIZE // 4) + "pin" + "'\"" * (SIZE // 4),
    "nested_markup": "<b>" * (SIZE // 8) + "4716" + "</b>" * (SIZE // 8),
    "nested_sums": "(1+" * (SIZE // 8) + "1" + ")" * (SIZE // 8),
    "endless_digits": _repeat("7"),
    "endless_decimals": _repeat("7.7"),
    "digit_words_of_a_language": _repeat("yedi bes "),
    "digit_words_of_many": _repeat("yedi cinq sieben "),
    "cjk_digits": _repeat("一二三四"),
    "cjk_dates": _repeat("4月23日"),
    "hangul_digits": _repeat("일이삼사"),
    "braille": _repeat("⠼⠁⠃"),
    "morse": _repeat(".-.- "),
    "dots_around_text": "." * (SIZE // 2) + "a" + "." * (SIZE // 2),
    "binary": _repeat("01010101 "),
    "hex": _repeat("0x1F "),
    "roman": _repeat("X V "),
    "tally": _repeat("|||| "),
    "spelling": _repeat("M as in "),
    "capitals": _repeat("AB "),
    "operations": _repeat("1 plus 2 times "),
    "halves": _repeat("half of $10 "),
    "weekdays_of_months": _repeat("first monday of april 1961 "),
    "unknown_words": _repeat("blorf 4 "),
    "names": _repeat("Zorbu Kwanda "),
    "rot13": _repeat("svir "),
    "arithmetic_signs": _repeat("1*2+3-4/"),
    "exponents": _repeat("1e9 "),
}


def _conversation(garbage: str) -> None:
    leaks = ConversationLeaks(FACTS, window=SIZE)
    leaks.solver_said("I see the main menu. What next?")
    leaks.expert_said("Enter your PIN, without telling me.")
    leaks.solver_said(garbage)


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_detector_reads_100kb_of_garbage_in_linear_time(name: str) -> None:
    _conversation("warm up: the language data and tables load on first use")
    seconds = cpu_seconds(_conversation, GARBAGE[name])
    assert seconds <= BUDGET_SECONDS, f"{name}: {seconds:.2f} s"
