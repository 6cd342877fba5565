"""English spelled-out numbers as digits. text2num reads English too, but not what the detector
needs: "oh" as a zero, ordinals kept apart (``twenty-third`` -> ``23th``), words and digits mixed
("sixty-8", "2 thousand 590")."""

from __future__ import annotations

import re

from comma_env.privacy.lexicon import alternation

_UNITS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9}
_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
         "seventy": 70, "eighty": 80, "ninety": 90}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
             "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
             "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30}
_SCALES = {"hundred": 100, "thousand": 1000}
_CARDINAL_VALUES = {**_UNITS, **_TEENS, **_TENS}
_NUMBER_WORDS = sorted({*_UNITS, *_TEENS, *_TENS, *_ORDINALS, *_SCALES}, key=len, reverse=True)
_WORD_ALT = alternation(_NUMBER_WORDS)
_NUMBER_RUN = re.compile(rf"\b{_WORD_ALT}(?:(?:(?<=thousand),)?[\s-]+(?:and[\s-]+)?{_WORD_ALT})*\b")
"""A run of number words ("seven thousand, five hundred and seventy-five")."""
# A number of 1-3 digits (not part of a decimal or a longer number) touching a number word:
# "sixty-8", "2 thousand", "three oh 3 seven". It is spelled out so the word parser reads it.
_CARDINALS = frozenset({*_UNITS, *_TEENS, *_TENS, *_SCALES} - {"oh"})
_PIECE = re.compile(r"[0-9]+|[a-z]+|[^a-z0-9]+")


def _spell_digits(digits: str) -> str:
    """1-3 digits in English words, as num2words writes them ("three hundred twenty", no "and")."""
    from num2words import num2words

    if len(digits) > 1 and digits[0] == "0":  # "08": a digit string, not a number
        return " ".join(num2words(int(d)) for d in digits)
    return num2words(int(digits)).replace(" and", "")


def _spell_digits_by_words(text: str) -> str:
    """Numbers of 1-3 digits (not in a decimal or a longer number) that touch a number word
    ("sixty-8", "2 thousand") spelled out, so the word parser reads the whole number."""
    pieces = _PIECE.findall(text)
    out = list(pieces)
    for i, piece in enumerate(pieces):
        if not piece[0].isdigit() or len(piece) > 3:
            continue
        before = pieces[i - 1] if i else ""
        after = pieces[i + 1] if i + 1 < len(pieces) else ""
        if (before[-1:] in (".", ",", "'", "$") and i > 1 and pieces[i - 2][0].isdigit()) or before[-1:] == "$":
            continue
        if after[:1] in (".", ",", "'") and i + 2 < len(pieces) and pieces[i + 2][0].isdigit():
            continue
        word_before = before in (" ", "-") and i > 1 and pieces[i - 2] in _CARDINALS
        word_after = after in (" ", "-") and i + 2 < len(pieces) and pieces[i + 2] in _CARDINALS
        if word_before or word_after:
            out[i] = _spell_digits(piece)
    return "".join(out)


def _parse_number_words(words: list[str]) -> str:
    out: list[str] = []
    total, small, last = 0, None, None

    def flush() -> None:
        nonlocal total, small, last
        if last is not None:
            out.append(str(total + (small or 0)))
        total, small, last = 0, None, None

    for word in words:
        if word == "and":
            if last not in ("hundred", "thousand"):
                flush()
                out.append("and")
            continue
        after_scale = last in ("hundred", "thousand")
        if word in _ORDINALS:
            value = _ORDINALS[word]
            if (last == "tens" and value < 10) or after_scale:  # "twenty-third", "hundred and first"
                small = (small or 0) + value
            else:
                flush()
                small = value
            out.append(f"{total + small}th")
            total, small, last = 0, None, None
        elif word in _CARDINAL_VALUES:
            if after_scale or (last == "tens" and word in _UNITS):  # "sixty-eight", "hundred and twelve"
                small = (small or 0) + _CARDINAL_VALUES[word]
            else:
                flush()
                small = _CARDINAL_VALUES[word]
            last = "unit" if word in _UNITS else "tens" if word in _TENS else "teen"
        elif word == "hundred":
            if small is not None and small < 100 and last not in ("hundred", None):
                small *= 100
            else:
                flush()
                small = 100
            last = "hundred"
        else:  # thousand
            total += (small if small is not None else 1) * 1000
            small, last = None, "thousand"
    flush()
    return " ".join(out)


def _replace_run(match: re.Match[str]) -> str:
    words = [w for w in re.split(r"[\s,\-]+", match.group(0)) if w]
    if words == ["oh"]:  # an interjection, not a zero
        return match.group(0)
    return _parse_number_words(words)


def english_numbers_to_digits(text: str) -> str:
    """Lower-case ASCII text with English spelled-out numbers as digits (ordinals ``23th``)."""
    if not _NUMBER_RUN.search(text):
        return text
    return _NUMBER_RUN.sub(_replace_run, _spell_digits_by_words(text))
