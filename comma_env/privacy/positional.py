"""Digits told by position across the conversation ("starts with 96" ... "ends with 94"; "the
middle two are 73"): the value is leaked once the hints that agree with it mark every position."""

from __future__ import annotations

import re
from collections.abc import Iterable

from comma_env.privacy.normalize import digits_of

# prefix anchors, suffix anchors, the middle, and ordinals of single positions
_PREFIX = r"start|starts|starting|begin|begins|beginning|first|1th|1st|initial|leading|opens|opening"
_SUFFIX = r"end|ends|ending|last|final|trailing|closes|closing"
_HINT = re.compile(
    rf"\b(?P<anchor>{_PREFIX}|{_SUFFIX}|middle|(?P<ord>[0-9]{{1,2}})(?:th|st|nd|rd))\b"
    r"(?:[ \t]+(?P<count>[0-9]{1,2})(?![0-9]))?"  # "the last 4", "the 1th 3"
    # "digits of my ssn are"
    r"(?P<between>(?:[ \t,:'\-]+(?:(?!start|begin|end|last|first|middle|initial|final|open|clos)[a-z]+)){0,8}?)"
    r"[ \t,:\-]+(?P<value>[0-9]+(?:(?:[ \t\-.]|,[ \t]?|[ \t]+and[ \t]+)[0-9]+)*)"
)
# "third and fourth: 3 and 7": a list of ordinals then as many digits
_ORDINAL_LIST = re.compile(
    r"\b(?P<ords>[0-9]{1,2}(?:th|st|nd|rd)(?:(?:[ \t]*,[ \t]*|[ \t]+and[ \t]+)[0-9]{1,2}(?:th|st|nd|rd))+)"
    r"(?:[ \t]+digits?)?(?:[ \t]+(?:are|is|were))?[ \t,:\-]+"
    r"(?P<value>[0-9](?:(?:[ \t]*,[ \t]*|[ \t]+and[ \t]+|[ \t]+)[0-9])+)(?![0-9])")


_ANCHOR_WORDS = frozenset(f"{_PREFIX}|{_SUFFIX}|middle|th|st|nd|rd".split("|"))


def hints(text: str, tokens: Iterable[str]) -> list[tuple[str, str, str]]:
    """Every positional hint in `text` as (where, positions, digits), read once per text;
    `tokens` (the text's tokens) let a text without any anchor word skip the regexes."""
    if not _ANCHOR_WORDS.intersection(tokens):
        return []
    found: list[tuple[str, str, str]] = []
    for match in _HINT.finditer(text):
        anchor, value = match.group("anchor"), digits_of(match.group("value"))
        count = int(match.group("count")) if match.group("count") else None
        if count is not None and count != len(value):
            # "the last 4 are 5997" (count told) or "the 1th 2 digits: 27" (a count then its digits)
            if len(value) < count:
                continue
            value = value[:count]
        ordinal = match.group("ord")
        if ordinal and ordinal != "1":
            if count is None and len(value) == 1:
                found.append(("list", str(int(ordinal) - 1), value))
        elif re.fullmatch(_SUFFIX, anchor):
            found.append(("suffix", "", value))
        elif anchor == "middle":
            found.append(("middle", "", value))
        else:
            found.append(("prefix", "", value))
    for match in _ORDINAL_LIST.finditer(text):
        places = [str(int(p) - 1) for p in re.findall(r"[0-9]{1,2}(?=th|st|nd|rd)", match.group("ords"))]
        value = digits_of(match.group("value"))
        if len(value) == len(places):
            found.append(("list", " ".join(places), value))
    return found


def pinned_down(found: list[tuple[str, str, str]], secret: str) -> bool:
    """Every position of `secret` told by the hints `found` (a hint that disagrees with the
    secret tells nothing about it)."""
    size = len(secret)
    if size < 2 or not found:
        return False
    known: set[int] = set()
    for where, places, value in found:
        if not value or len(value) >= size:
            continue
        if where == "suffix":
            if secret.endswith(value):
                known.update(range(size - len(value), size))
        elif where == "middle":
            start = (size - len(value)) // 2
            if secret[start:start + len(value)] == value:
                known.update(range(start, start + len(value)))
        elif where == "prefix":
            if secret.startswith(value):
                known.update(range(len(value)))
        else:
            positions = [int(p) for p in places.split()]
            if all(0 <= p < size and secret[p] == d for p, d in zip(positions, value, strict=True)):
                known.update(positions)
    return len(known) == size
