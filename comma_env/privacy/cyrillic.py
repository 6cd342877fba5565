"""Numbers written in Russian or Ukrainian words, read from their transliteration (``одна тысяча
двести сорок восемь`` -> ``odna tysyacha dvesti sorok vosem'`` -> ``1248``): the words come from
num2words, transliterated the way the text is (`lexicon.ascii_fold`). Ordinals are read by their
stem, whatever their case ending ("четырнадцатого" -> 14)."""

from __future__ import annotations

import re
from functools import lru_cache

from comma_env.privacy.lexicon import ascii_fold

LANGUAGES = ("ru", "uk")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_WORD = re.compile(r"[a-z']+")
_GAP = re.compile(r"[ \t,\-]*")
SCALE = 1000
_ENDING = 3  # letters a case ending may add to an ordinal's stem


@lru_cache(maxsize=1)
def number_words() -> tuple[dict[str, int], dict[str, int]]:
    """Folded number words of `LANGUAGES` -> value (0 to 19, the tens, the hundreds, the forms of
    one and two before a thousand, and ``SCALE`` for the thousand's forms), and ordinal stems ->
    value (1 to 31)."""
    from num2words import num2words

    words: dict[str, int] = {}
    stems: dict[str, int] = {}
    for lang in LANGUAGES:
        for number in [*range(20), *range(20, 100, 10), *range(100, 1000, 100)]:
            folded = ascii_fold(str(num2words(number, lang=lang))).replace("'", "")
            if " " not in folded:
                words.setdefault(folded, number)
        for number in (1, 2, 5):
            one, scale = ascii_fold(str(num2words(number * 1000, lang=lang))).replace("'", "").split()
            words.setdefault(one, number)
            words[scale] = SCALE
        for number in range(1, 32):
            last = ascii_fold(str(num2words(number, lang=lang, to="ordinal"))).replace("'", "").split()[-1]
            if len(last) >= 6:
                stems.setdefault(last[:-2], number % 10 if number > 20 and number % 10 else number)
    return words, stems


def _value(word: str) -> int | None:
    words, stems = number_words()
    word = word.replace("'", "")
    if word in words:
        return words[word]
    for k in range(len(word) - 1, max(3, len(word) - _ENDING - 1), -1):  # a case ending starts with a vowel
        if word[:k] in stems and word[k] in "aeiouy":
            return stems[word[:k]]
    return None


def _numbers(values: list[int]) -> list[int]:
    """A run of number words' values split into the numbers it says ("4 2 1 7" is four numbers,
    "1 1000 200 40 8" one): a word no smaller than the one before it starts a new number."""
    out: list[int] = []
    total = current = 0
    last = 4  # the order of the last word: 0 units (and teens: nothing follows them), 1 tens, 2 hundreds, 3 a thousand
    for value in values:
        order = 3 if value == SCALE else 2 if value >= 100 else 1 if value >= 20 else 0
        if value == SCALE:
            total, current = total + (current or 1) * SCALE, 0
        elif order >= last or value == 0 and last < 4:
            out.append(total + current)
            total, current = 0, value
        else:
            current += value
        last = 0 if 10 <= value < 20 else order
    return [*out, total + current]


def cyrillic_numbers_to_digits(text: str) -> str:
    """Folded `text` (transliterated from Cyrillic) with runs of Russian and Ukrainian number words as digits."""
    out, at = [], 0
    matches = list(_WORD.finditer(text))
    index = 0
    while index < len(matches):
        end = index
        while end < len(matches) and _value(matches[end].group(0)) is not None and (
                end == index or _GAP.fullmatch(text, matches[end - 1].end(), matches[end].start())):
            end += 1
        if end == index:
            index += 1
            continue
        values = [v for v in (_value(m.group(0)) for m in matches[index:end]) if v is not None]
        out += [text[at:matches[index].start()], " ".join(map(str, _numbers(values)))]
        at, index = matches[end - 1].end(), end
    return "".join(out) + text[at:]
