"""Normalisation: every text the detector reads is first made plain lower-case ASCII-ish text with
numbers as digits (dashes, apostrophes, invisible characters, compatibility forms, homoglyphs,
accents, other scripts, spelled-out numbers), so the matchers downstream need one form per value."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from comma_env.privacy.cyrillic import CYRILLIC, cyrillic_numbers_to_digits
from comma_env.privacy.english_numbers import english_numbers_to_digits
from comma_env.privacy.languages import foreign_numbers_to_digits
from comma_env.privacy.lexicon import ascii_fold

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"), "-")
_APOSTROPHES = dict.fromkeys(map(ord, "\u2018\u2019\u02bc\u2032\uff07"), "'")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                                    "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
                                    "\u2069\ufeff"), None)
_PLAIN = {**_DASHES, **_APOSTROPHES, **_INVISIBLE}
_NON_ASCII_LETTERS = re.compile(r"(?:(?![\x00-\x7f])\w)+")  # symbols and emoji are left as they are
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")  # a decimal digit of another script
_SPELLED = re.compile(r"(?<![\w.\-])[a-z](?:-[a-z]){2,}(?![\w\-])|(?<![\w.\-])[a-z](?:\.[a-z]){2,}(?=\.?(?![\w\-]))")
"""A word spelled with a hyphen or a dot between its letters ("f-i-v-e", "s.o.f.i.a")."""
_SPELLED_HINT = re.compile(r"[.\-](?<=[a-z][.\-])[a-z][.\-][a-z]")
_POINT = re.compile(r"(?<![0-9.,])([0-9][0-9,]*)[ \t]+point[ \t]+([0-9]+)(?![0-9])")  # "289 point 16"
_NOT_DIGITS = re.compile(r"[^0-9]+")


def digits_of(text: str) -> str:
    """The ASCII digits of `text`, in order (``"4 2-17"`` -> ``"4217"``)."""
    return text if text.isdigit() and text.isascii() else _NOT_DIGITS.sub("", text)


@lru_cache(maxsize=1)
def homoglyphs() -> dict[int, str]:
    """Non-ASCII characters Unicode lists as confusable with one ASCII letter or digit -> that
    character; letters with accents are left out (they lose their accents later)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or char.isascii() or unicodedata.category(char) == "Nd":
            continue  # digits of other scripts are read as their value, not their shape
        base = unicodedata.normalize("NFKD", char)
        if base[:1].isascii() and base[:1].isalpha():  # "é": a Latin letter with a mark
            continue
        for entry in entries:
            target = "".join(ch for ch in unicodedata.normalize("NFKD", entry.get("c", ""))
                             if not unicodedata.combining(ch))
            if len(target) == 1 and target.isascii() and target.isalnum():
                table[ord(char)] = target
                break
    return table


def _unspell(text: str) -> str:
    """Words spelled letter by letter with hyphens or dots written as words ("f-i-v-e" -> "five")."""
    if not _SPELLED_HINT.search(text):
        return text
    return _SPELLED.sub(lambda m: m.group(0).replace("-", "").replace(".", ""), text)


def fold(text: str) -> str:
    """Lower case, compatibility forms and homoglyphs folded to ASCII letters and digits,
    accents and invisible characters removed, unicode dashes made ``-``; no number words read."""
    if text.isascii():  # every character `_PLAIN` replaces is outside ASCII
        return text.lower()
    return _fold_unicode(text.translate(_PLAIN), read_numbers=False)


_WORD_RUN = re.compile(r"\w+")


def _look_alikes(text: str) -> str:
    """Words with letters of another script disguised as Latin ones ("Mаria" with a Cyrillic а)
    in Latin letters; a word all of look-alikes too ("Маrіа"), unless the text has words of that
    kind that are plainly not Latin ("Нора" in "В паспорте: Нора" is read by sound, later)."""
    table = homoglyphs()
    words = [w for w in _WORD_RUN.findall(text) if not w.isascii()]
    mixed = {w for w in words if any(ch.isascii() for ch in w)}
    alike = {w for w in words if w not in mixed and all(ord(ch) in table for ch in w)}
    if len(mixed) + len(alike) < len(words):  # some words are of another script: so are the look-alike ones
        alike = set()
    disguised = mixed | alike
    return _WORD_RUN.sub(lambda m: m.group(0).translate(table) if m.group(0) in disguised else m.group(0), text)


def _fold_unicode(text: str, read_numbers: bool) -> str:
    text = _look_alikes(unicodedata.normalize("NFKC", text)).lower()
    if read_numbers:
        text = foreign_numbers_to_digits(_unspell(text))
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if ch.isascii()  # marks dropped
                   or not (unicodedata.combining(ch) or unicodedata.category(ch)[0] == "M"))
    text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(0), 0)), text)
    if not text.isascii():
        cyrillic = CYRILLIC.search(text) is not None
        text = _NON_ASCII_LETTERS.sub(lambda m: ascii_fold(m.group(0)), text)
        if cyrillic and read_numbers:
            text = cyrillic_numbers_to_digits(text)
    return text


def normalize(text: str) -> str:
    """Folded text with words spelled letter by letter joined and spelled-out numbers as digits
    (English ordinals as ``23th``, "point" between numbers a decimal point)."""
    if text.isascii():  # every character `_PLAIN` replaces is outside ASCII
        text = foreign_numbers_to_digits(_unspell(text.lower()))
    else:
        text = _fold_unicode(text.translate(_PLAIN), read_numbers=True)
    text = english_numbers_to_digits(text)
    return _POINT.sub(r"\1.\2", text) if "point" in text else text
