"""Moments on a countdown as people say them (Button, Dog): "when the timer shows a 4", "when the last
digit is 1", "wait 9 seconds, then", "right now"; a choice between two digits stays open."""

from __future__ import annotations

import re
from dataclasses import dataclass

_DIGIT = r"(\d)(?!\d|:)"
_WAIT = re.compile(r"\bwait\s+(?:for\s+)?(\d{1,3})\s*(?:s|sec|secs|seconds?)\b", re.IGNORECASE)
_NOW = re.compile(r"\b(?:right now|immediately|at once|straight away|now)\b", re.IGNORECASE)
_LAST = re.compile(r"\b(?:ends?\s+(?:in|with|on)|ending in|last (?:digit|number)|ones digit|seconds\s+(?:end|show)|"
                   r"final digit|units digit)\b", re.IGNORECASE)
_SAID = re.compile(rf"\b(?:shows?|showing|see|is|'s|ends?\s+(?:in|with|on)|ending in|on|at|when|digit|number|appears?|"
                   rf"contains?|has|reads?|hits?|equals?|there'?s|there is|until|till)\s+(?:an?\s+|"
                   rf"the\s+)?(?:number\s+|digit\s+)?(?:\.{{2,}}|\u2026)?{_DIGIT}|\bx{_DIGIT}", re.IGNORECASE)
ALTERNATIVES = re.compile(r"\b(\d)\b(?:\.\.\.|,)?\s*(?:or|/)\s*(?:was it\s+|maybe\s+)?(?:an?\s+)?(\d)\b", re.IGNORECASE)
"""Two digits offered as a choice ("ends in 0... or was it 1?"): `moment` names none, the reader asks which."""


@dataclass(frozen=True)
class Moment:
    """When to act: after `wait` seconds, when the timer shows `digit` (last digit if `last`), or now."""

    digit: int | None = None
    last: bool = False
    wait: int | None = None


def moment(text: str) -> Moment | None:
    """The moment `text` names, or None (also for a choice such as "0 or 1": the caller asks)."""
    if ALTERNATIVES.search(text):
        return None
    waited = _WAIT.search(text)
    if waited:
        return Moment(wait=int(waited.group(1)))
    said = list(_SAID.finditer(re.sub(r"\b\d{1,2}:\d{2}\b", " ", text)))
    if said:
        digit = said[-1].group(1) or said[-1].group(2)
        return Moment(digit=int(digit), last=bool(_LAST.search(text)))
    if _NOW.search(text):
        return Moment()
    return None
