"""Small vocabulary shared by the natural-language oracle: ordinals, counts, button
positions, sentence connectors, and their readers."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen", "twenty")
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}

_ORDINAL_RE = re.compile(r"\b(?:(" + "|".join(ORDINALS) + r")|(\d+)(?:st|nd|rd|th))\b", re.IGNORECASE)
_NUMBER_RE = re.compile(r"\b(?:(\d+)|(" + "|".join(NUMBER_WORDS) + r"))\b", re.IGNORECASE)
_QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
_POSITION_RE = re.compile(r"\b(top|upper|middle|centre|center|bottom|lower)[\s-]+(left|right)\b", re.IGNORECASE)
_ROWS = {"top": "top", "upper": "top", "middle": "middle", "centre": "middle", "center": "middle",
         "bottom": "bottom", "lower": "bottom"}
_CONNECTOR_RE = re.compile(r"^\s*(?:first(?:\s+of\s+all)?|then|next|after\s+that|and\s+then|finally|now|last(?:ly)?"
                           r"|just\s+this|to\s+start|start\s+like\s+this)\s*[,:]?\s+", re.IGNORECASE)

CONNECTORS_FIRST = ("", "First, ", "To start, ", "Start like this: ")
CONNECTORS_NEXT = ("Then ", "Next, ", "After that, ", "And then ")
CONNECTORS_LAST = ("Finally, ", "Last, ", "Then ")


def choose(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def ordinal(n: int, rng: np.random.Generator | None = None) -> str:
    """"third" (or "3rd" now and then)."""
    if rng is not None and rng.random() < 0.3 or n > len(ORDINALS):
        return f"{n}{_SUFFIX.get(n % 10 if n % 100 not in (11, 12, 13) else 0, 'th')}"
    return ORDINALS[n - 1]


def number(n: int, rng: np.random.Generator | None = None) -> str:
    """"three" or "3"."""
    if rng is not None and rng.random() < 0.5 and 0 <= n < len(NUMBER_WORDS):
        return NUMBER_WORDS[n]
    return str(n)


def times(n: int, rng: np.random.Generator) -> str:
    """How often: "once", "twice", "three times"."""
    if n == 1:
        return choose(rng, ("once", "one time"))
    if n == 2:
        return choose(rng, ("twice", "two times"))
    return f"{number(n, rng)} times"


def position_words(position: str, rng: np.random.Generator) -> str:
    """"top_left" as "top left", "top-left" or "upper left"."""
    row, col = position.split("_")
    row = {"top": choose(rng, ("top", "upper")), "bottom": choose(rng, ("bottom", "lower"))}.get(row, row)
    return row + choose(rng, (" ", "-")) + col


def read_position(text: str) -> str | None:
    """The first button position named in `text` ("upper-left" -> "top_left")."""
    match = _POSITION_RE.search(unquoted(text))
    return f"{_ROWS[match.group(1).lower()]}_{match.group(2).lower()}" if match else None


def read_ordinal(text: str) -> int | None:
    match = _ORDINAL_RE.search(unquoted(text))
    if not match:
        return None
    return ORDINALS.index(match.group(1).lower()) + 1 if match.group(1) else int(match.group(2))


def read_number_after(text: str, words: str) -> int | None:
    """The number following one of `words` (a regex alternation), e.g. "row three" -> 3."""
    match = re.search(r"\b(?:" + words + r")\s+(?:number\s+)?(\d+|" + "|".join(NUMBER_WORDS) + r")\b",
                      unquoted(text), re.IGNORECASE)
    return None if not match else _as_int(match.group(1))


def read_count(text: str) -> int:
    """How many times a line asks for: "twice", "three times", "4 squares"; 1 if not said."""
    text = unquoted(text).lower()
    if re.search(r"\btwice\b", text):
        return 2
    if re.search(r"\bonce\b", text):
        return 1
    match = re.search(r"\b(\d+|" + "|".join(NUMBER_WORDS)
                      + r")\s+(?:times|squares|steps|cells|spaces|positions|clicks)\b", text)
    return _as_int(match.group(1)) if match else 1


def quoted(text: str) -> list[str]:
    """Strings written in double quotes, in order."""
    return [s.replace('\\"', '"') for s in _QUOTED_RE.findall(text)]


def unquoted(text: str) -> str:
    """`text` with its quoted strings blanked, so that a label such as "LEFT" is not read as
    a direction."""
    return _QUOTED_RE.sub('""', text)


def strip_connector(line: str) -> str:
    """"Then press ..." -> "press ..." (so that "First," is not read as an ordinal)."""
    return _CONNECTOR_RE.sub("", line, count=1)


def with_connector(sentence: str, index: int, total: int, rng: np.random.Generator) -> str:
    """Prefix the `index`-th of `total` instructions with a varied sequencing word."""
    if total == 1:
        prefix = choose(rng, ("", "", "Just this: "))
    elif index == 0:
        prefix = choose(rng, CONNECTORS_FIRST)
    elif index == total - 1 and total > 2:
        prefix = choose(rng, CONNECTORS_LAST)
    else:
        prefix = choose(rng, CONNECTORS_NEXT)
    if prefix and sentence[:1].isupper() and sentence[1:2].islower():
        sentence = sentence[0].lower() + sentence[1:]
    return prefix + sentence


def _as_int(token: str) -> int:
    return int(token) if token.isdigit() else NUMBER_WORDS.index(token.lower())
