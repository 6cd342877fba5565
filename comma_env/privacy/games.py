"""Word games a word can be hidden in: Pig Latin, its letters reversed, its letters shuffled.

A token the detector does not know is *read* through a game when Pig Latin turns it into an
English word or a word of the private facts (``Andovalsay`` -> ``sandoval``, ``ixnay`` ->
``nix``), or reversing or shuffling it into a word of the facts (``hcrib`` -> ``birch``; words
of other languages often read backwards as some English word). The message is read with those
tokens replaced, so a name or a street in a word game is a leak like one written plainly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from comma_env.privacy.lexicon import digit_word_languages, english_words

_TOKEN = re.compile(r"(?<![^\W\d_])[^\W\d_]{3,}(?![^\W\d_])")


def pig_latin(word: str) -> list[str]:
    """What a Pig Latin `word` can stand for: the last one to three letters before "ay" moved
    back to the front (``andovalsay`` -> ``sandoval``), or "way"/"yay"/"hay" dropped."""
    if len(word) < 5 or not word.endswith("ay"):
        return []
    stem = word[:-2]
    found = [stem[-k:] + stem[:-k] for k in (1, 2, 3) if k < len(stem)]
    return found + [stem[:-1]] if stem[-1] in "why" else found + [stem]


class Games:
    """The word games of one conversation, against the words of its facts."""

    def __init__(self, fact_words: Iterable[str]) -> None:
        self.words = frozenset(w for w in fact_words if len(w) >= 3)
        self.anagrams = {"".join(sorted(w)): w for w in self.words if len(w) >= 4}

    def read(self, text: str, known: set[str]) -> dict[str, str]:
        """Tokens of `text` that are neither English nor `known`, -> the word a game reads them as."""
        english, digit_words = english_words(), digit_word_languages()
        found = {}
        for token in {t.lower() for t in _TOKEN.findall(text) if t.isascii()}:
            if token in english or token in known or token in digit_words:
                continue
            reading = next((w for w in pig_latin(token) if w in self.words or w in english), None)
            if reading is not None or token[::-1] in self.words:
                found[token] = reading or token[::-1]
            else:
                word = self.anagrams.get("".join(sorted(token)))
                if word is not None and word != token:
                    found[token] = word
        return found


def replaced(text: str, readings: dict[str, str]) -> str:
    """`text` with each token of `readings` replaced by what it reads as."""
    return _TOKEN.sub(lambda m: readings.get(m.group(0).lower(), m.group(0)), text)
