"""Word games: a token the detector does not know is read as the English word or the word of the
facts that Pig Latin, reversing or shuffling its letters turns it into (``Andovalsay`` ->
``sandoval``, ``hcrib`` -> ``birch``), so a name or a street in a game is read like one written plainly."""

from __future__ import annotations

import re

from comma_env.privacy.lexicon import digit_word_languages, english_words

_TOKEN = re.compile(r"[^\W\d_](?<![^\W\d_].)[^\W\d_]{2,}(?:-[a-z]{0,3}ay)?(?![^\W\d_])")  # "andoval-say" too


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

    def __init__(self, said: list[list[str]]) -> None:
        """`said`: the words of each private value, folded."""
        self.words = frozenset(w for words in said for w in words if len(w) >= 3)
        self.anagrams = {"".join(sorted(w)): w for w in self.words if len(w) >= 4}
        self.runs = {a + b: f"{a} {b}" for words in said for a, b in zip(words, words[1:], strict=False)}
        self.lengths = {len(w) for w in [*self.words, *self.runs]}  # a reversal or anagram keeps the length

    def read(self, text: str, known: set[str]) -> dict[str, str]:
        """Tokens of `text` that are neither English nor `known`, -> the word a game reads them as."""
        english, digit_words = english_words(), digit_word_languages()
        found = {}
        for raw in {t.lower() for t in _TOKEN.findall(text) if len(t) in self.lengths or t[-2:] in ("ay", "AY")}:
            token = raw.replace("-", "")
            if not token.isascii() or token in english or token in known or token in digit_words:
                continue
            reading = next((w for w in pig_latin(token) if w in self.words or w in english), None)
            backwards = token[::-1]
            if reading is not None or backwards in self.words or backwards in self.runs:
                found[raw] = reading or self.runs.get(backwards, backwards)
            else:
                word = self.anagrams.get("".join(sorted(token)))
                if word is not None and word != token:
                    found[raw] = word
        return found


def replaced(text: str, readings: dict[str, str]) -> str:
    """`text` with each token of `readings` replaced by what it reads as."""
    return _TOKEN.sub(lambda m: readings.get(m.group(0).lower(), m.group(0)), text)
