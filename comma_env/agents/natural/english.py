"""Common English words, from pyspellchecker's English word list and its counts (MIT; the list ships in its
wheel): typo repair (`reading.fix_typos`) rewrites only what is not one ("walk", "fifty", "don" are kept)."""

from __future__ import annotations

import gzip
import json
from importlib.resources import files

COMMON_COUNT = 5000
"""A word the list counts at least this often is common (about the 7,700 most frequent words); a rarer one
("whit", "stag", "sage", "tier") may be a typo of a word a reader knows, and is repaired like one."""
_INFLECTIONS = ("s", "es", "ed", "ing", "ies", "ied")


def _forms(word: str) -> list[str]:
    """`word` inflected ("cycle": "cycles", "cycled", "cycling", ...; "fifty": "fifties"), with forms no word has."""
    forms = []
    for suffix in _INFLECTIONS:
        if suffix[:2] != "ie":
            forms += [word + suffix, word[:-1] + suffix] if suffix[0] in "ei" and word[-1] == "e" else [word + suffix]
        elif word[-1] == "y":
            forms.append(word[:-1] + suffix)
    return forms


def _common() -> frozenset[str]:
    """The common words of the list, and the words of the list that inflect one ("walks", "cycled")."""
    counts = json.loads(gzip.decompress((files("spellchecker") / "resources" / "en.json.gz").read_bytes()))
    common = [word for word, count in counts.items() if count >= COMMON_COUNT]
    return frozenset([*common, *(form for word in common if len(word) >= 3 for form in _forms(word) if form in counts)])


COMMON = _common()
"""Loaded once, when the readers are imported."""


def _stems(word: str) -> set[str]:
    """`word` and the words it may inflect ("changed": "changed", "chang", "change")."""
    stems = {word}
    for suffix in _INFLECTIONS:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3:
            stems |= {stem + "y"} if suffix[:2] == "ie" else {stem, stem + "e"} if suffix[0] in "ei" else {stem}
    return stems


def same_word(a: str, b: str) -> bool:
    """Whether lower-case `a` and `b` are inflections of one word ("change", "changes", "changed"; not
    "times" and "timer")."""
    return bool(_stems(a) & _stems(b))
