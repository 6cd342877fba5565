"""Moments on a countdown as people say them (Button, Dog): "when the timer shows a 4", "when the last
digit is 1", "wait for a 3 at the end of the timer", "end in two", "once a 1 appears", "at 4:13", "wait 9
seconds, then", "right now"; a choice between two digits stays open."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_DIGIT = r"(\d)(?!\d|:)"
_WAIT = re.compile(r"\bwait\s+(?:for\s+)?(\d{1,3})\s*(?:s|sec|secs|seconds?)\b", re.IGNORECASE)
_NOW = re.compile(r"\b(?:right now|immediately|at once|straight away|now)\b", re.IGNORECASE)
_END = r"(?:ends?|ending|finish(?:es|ing)?)\s+(?:in|with|on)"
_MASK = r"(?<![\w:])[x_?*]{1,2}:[x_?*]{0,2}"
"""A time with only its last digit given ("x:x1", "_:_3", "?:?5")."""
_LAST = re.compile(rf"\b(?:{_END}|last (?:digit|number)|ones digit|seconds\s+(?:end|show)|"
                   rf"final digit|units digit|at the end of the (?:timer|clock))\b|{_MASK}\d", re.IGNORECASE)
_WORDS = "zero one two three four five six seven eight nine".split()
_SAID = re.compile(rf"\b(?:shows?|showing|see|is|be|'s|on|at|when|digit|number|appears?|"
                   rf"contains?|has|reads?|hits?|equals?|there'?s|there is|until|till|{_END})(?: *[:=])?\s+(?:an?\s+|"
                   rf"the\s+)?(?:first\s+|next\s+)?(?:number\s+|digit\s+)?(?:\.{{2,}}|\u2026)?{_DIGIT}|\bx{_DIGIT}|"
                   rf"\b(?:{_END}|(?:last|final) digit is)\s+(?:an?\s+)?({'|'.join(_WORDS)})\b(?!\s+of\b)|"
                   rf"\ban?\s+{_DIGIT}\s+(?:appears|shows(?: up)?|comes up|turns up)\b|{_MASK}{_DIGIT}|"
                   rf"\bwait\s+for\s+an?\s+{_DIGIT}", re.IGNORECASE)  # "wait for a 4 at the end of the timer"
_CLOCK = re.compile(r"\b(?:at|until|till|til|to|when (?:the (?:timer|clock) )?(?:shows|reads|hits|is at))\s+"
                    r"(\d{1,2}):(\d{2})\b", re.IGNORECASE)
ALTERNATIVES = re.compile(r"\b(\d)\b(?:\.\.\.|,)?\s*(?:or|/)\s*(?:was it\s+|maybe\s+)?(?:an?\s+)?(\d)\b", re.IGNORECASE)
"""Two digits offered as a choice ("ends in 0... or was it 1?"): `moment` names none, the reader asks which."""


@dataclass(frozen=True)
class Moment:
    """When to act: after `wait` seconds, when the timer shows `digit` (last digit if `last`) or the time `at`
    (in seconds), or now."""

    digit: int | None = None
    last: bool = False
    wait: int | None = None
    at: int | None = None

    def seconds(self, timer: int, until: Callable[[int, int], int]) -> int | None:
        """The seconds to wait from `timer` (`until(timer, digit)` finds a digit), or None for a time passed."""
        if self.at is not None:
            return timer - self.at if timer >= self.at else None
        return self.wait if self.wait is not None else 0 if self.digit is None else until(timer, self.digit)


def moment(text: str) -> Moment | None:
    """The moment `text` names, or None (also for a choice such as "0 or 1": the caller asks)."""
    text = re.sub(r"\b(\d{1,2})[\s-]([0-5]\d)\b(?!\s*(?:s|secs?|seconds?)\b)", r"\1:\2", text)  # "eight fifty-one"
    if ALTERNATIVES.search(text):
        return None
    waited = _WAIT.search(text)
    if waited:
        return Moment(wait=int(waited.group(1)))
    said = list(_SAID.finditer(re.sub(r"\b\d{1,2}:\d{2}\b", " ", text)))
    if said:
        digit = next(g for g in said[-1].groups() if g)
        return Moment(digit=int(digit) if digit.isdigit() else _WORDS.index(digit.lower()),
                      last=bool(_LAST.search(text)))
    clock = _CLOCK.search(text)  # "submit at 4:13"
    if clock:
        return Moment(at=int(clock.group(1)) * 60 + int(clock.group(2)))
    if _NOW.search(text):
        return Moment()
    return None
