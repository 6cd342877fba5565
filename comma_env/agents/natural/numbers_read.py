"""Whether the solver's reader read every number of a step: one it ignored ("cut wire index 2 (zero-based, top wire =
0)" read as "top wire") means it would carry out something other than what was asked, so the solver asks instead."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from comma_env.agents.natural.reading import CONDITIONS, spelled_numbers

MAX_NUMBERS = 16
"""More numbers than this to re-read in one piece of advice, and the solver asks about the sentence it stopped at."""

_SENTENCE = re.compile(r"(?:[^.;!?\n]|\.(?=\d))+")
_NUMBER = re.compile(r"(?<![\d.,])\d{1,6}(?!\d|[.,]\d)")
_CAPS = re.compile(r"\b[A-Z]{2,}\b")
_STEP_NUMBER = re.compile(r"^\W*(?:step|#|no\.?)?\s*\d{1,2}\s*(?:[.):]|$)", re.IGNORECASE)
_ORDINAL = re.compile(r"st|nd|rd|th", re.IGNORECASE)
_RANGE = re.compile(r"\d\s*(?:-|–|\.\.|to)\s*\d")
_CLOCK = re.compile(r"\d:\d\d|\d\s*o'?\s*clock", re.IGNORECASE)
_CONDITION = re.compile(rf"{CONDITIONS}|(?:at least|at most|more than|less than|fewer than|greater than|smaller than|"
                        r"bigger than|larger than|over|under|above|below|up to|[<>≤≥]=?)\W{0,3}\d|"
                        r"\d\W{0,3}(?:or (?:more|less|above|below|over|under|higher|lower)|\+)", re.IGNORECASE)
_CALCULATION = re.compile(r"[×*]|\bmod\b|\bmultipl|\btimes \d|\bdivide|\bplus\b|\bminus\b", re.IGNORECASE)
_EXCLUDED = re.compile(r"\b(?:leave|skip|except|not|don'?t|never|ignore|other than|besides)\b\W+(?:\w+\W+){0,4}$",
                       re.IGNORECASE)
_PREMISE = re.compile(r"^.*(?:\bso\b|\btherefore\b|\bhence\b|->|→|⇒)|\b(?:because|since)\b.*$", re.IGNORECASE)

Reader = Callable[[str, Any], Any]


def _acts(understand: Reader, text: str, puzzle: Any) -> list[str] | None:
    return understand(text, copy.deepcopy(puzzle)).actions


def _seen(puzzle: Any) -> set[str]:
    """What the solver sees, as tokens: the words and numbers written as text (a serial, a timer, a balance), a
    single number (the stage, the display) and how many of each thing there are (wires, dogs, digits of the PIN)."""
    values = puzzle.visible_state().values()
    strings = [v for v in values if isinstance(v, str)]
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    counts = [len(v) for v in values if isinstance(v, (list, tuple, str))]
    return {t.lower() for s in strings for t in re.findall(r"\w+", s)} | {str(n) for n in numbers + counts} | \
        {d for s in strings if re.fullmatch(r"[\d:. ]+", s) for d in s if d.isdigit()}


def _digits(sentence: str) -> str:
    """`sentence` with its numbers as digits; a word in capitals stays a word ("Spell THREE")."""
    words = _CAPS.findall(sentence)
    masked = spelled_numbers(_CAPS.sub("Qcapsq", sentence))
    return re.sub("Qcapsq", lambda _: words.pop(0) if words else "", masked)


def _harmless(sentence: str, match: re.Match[str], actions: list[str], seen: set[str]) -> bool:
    """A number in a role the actions need not show: step numbering ("Step 1:", "2nd ..., 3rd ..."), a count or an
    index the actions agree with ("the 2 crimson ones", "window 3"), a digit of timing the reader read (its actions
    wait), a range that says how things are counted ("1-16"), a time ("4:51", "4 o'clock"), an aside in brackets, a
    place the advice leaves out ("leave window 2"), or a word or number the solver sees (the serial, the stage)."""
    n, (start, end) = int(match.group(0)), match.span()
    before, after = sentence[max(0, start - 80):start], sentence[end:end + 80]
    token = re.split(r"\W", before)[-1] + match.group(0) + re.split(r"\W", after)[0]
    step = _STEP_NUMBER.match(sentence[:end + 2]) or (_ORDINAL.match(sentence, end) and 1 < len(actions) >= n)
    agrees = n in {len(actions), *map(actions.count, actions)} or any(a.startswith("wait") for a in actions) or \
        match.group(0) in {part for action in actions for part in re.split(r"[_ ]", action)}
    aside = before.rfind("(") > before.rfind(")") and ")" in after
    return bool(step or agrees or aside or _EXCLUDED.search(before[-60:]) or
                _RANGE.search(sentence, max(0, start - 6), end + 6) or token.lower() in seen or
                _CLOCK.search(sentence, max(0, start - 3), end + 10))


def ignored_number(understand: Reader, text: str, puzzle: Any, actions: list[str]) -> str | None:
    """The first sentence of `text` (read as `actions`) that is a step the actions need and has a number whose change
    or removal leaves that step's actions as they are (in no harmless role, not in a condition, a calculation or a
    reason), or None. Past `MAX_NUMBERS` numbers to check, the sentence it stopped at."""
    if _CALCULATION.search(_digits(text)):
        return None  # a worked calculation ("F is 5; 5 x 2 = 10"): its numbers are reasons, not steps
    seen, checked = _seen(puzzle), 0
    for part in _SENTENCE.finditer(text):
        sentence = _digits(part.group(0))
        numbers = [m for m in _NUMBER.finditer(_PREMISE.sub(lambda m: " " * len(m.group(0)), sentence))
                   if not _harmless(sentence, m, actions, seen)]
        if not numbers or _CONDITION.search(sentence):
            continue
        checked += len(numbers)
        if checked > MAX_NUMBERS:
            return " ".join(part.group(0).split())[:200]
        alone = _acts(understand, sentence, puzzle) or []
        numbers = [m for m in numbers if not _harmless(sentence, m, alone, seen)]
        if not numbers or not alone or not _within(alone, actions) or \
                _acts(understand, text[:part.start()] + text[part.end():], puzzle) == actions:
            continue  # read otherwise in context, or a remark the actions do not need
        for match in numbers:
            n = int(match.group(0))
            changed = sentence[:match.start()] + str(n - 1 if n >= 2 else n + 1) + sentence[match.end():]
            dropped = sentence[:match.start()] + sentence[match.end():]
            if _acts(understand, changed, puzzle) == alone and _acts(understand, dropped, puzzle) == alone:
                return " ".join(part.group(0).split())
    return None


def _within(part: list[str], whole: list[str]) -> bool:
    """Whether `part` is a run of `whole`."""
    return any(whole[k:k + len(part)] == part for k in range(len(whole) - len(part) + 1))
