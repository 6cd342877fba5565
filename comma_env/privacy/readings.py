"""A second reading of a solver message: the encodings and notations a value can hide in
(other scripts' numerals, Braille, Morse, hex, binary, base64, Roman numerals, keypad letters,
spelling alphabets, digit words of other languages, computations) decoded back into plain
words and digits, so the same matchers compare them with the facts (docs/privacy.md)."""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from collections.abc import Callable
from functools import lru_cache

from comma_env.privacy.english_numbers import english_numbers_to_digits
from comma_env.privacy.facts import Fact
from comma_env.privacy.lexicon import alternation, ascii_fold, digit_word_languages, english_words, number_forms
from comma_env.privacy.relations import COMPUTED, MONTHS, calculate
from comma_env.privacy.scripts import NAMED_HINT, NOT_LATIN, positional, read_latin, read_named_days, read_scripts

_DIGIT = re.compile(r"[0-9]")
_LOWER_WORD = re.compile(r"[a-z]+")
_DICE = str.maketrans({**{0x2680 + i: str(i + 1) for i in range(6)},
                       **{ord(c): "." for c in "•·∙"}, **{ord(c): "-" for c in "–—−"}})  # and Morse signs
_BRAILLE_LETTERS = "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵"
_BRAILLE = re.compile(r"[\u2800-\u28ff]+")
_MORSE = dict(zip(".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- "
                  "-.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split(),
                  "abcdefghijklmnopqrstuvwxyz0123456789", strict=True))
_MORSE_RUN = re.compile(r"[.\-](?<![\w.\-].)[.\-]{0,5}(?:[ \t]+(?:/[ \t]+)?[.\-]{1,6}){2,}(?![\w.\-])")
_WORD_BREAK = re.compile(r"[ \t]*/[ \t]*")  # between Morse words
_TALLY_RUN = re.compile(r"\|(?<![|\w].)\|{0,8}(?:[ \t]+\|{1,9}){1,}(?![|\w])")
_HEX = re.compile(r"\b0x([0-9a-fA-F]{2,12})\b|(?<![\w-])((?=[0-9A-F]*[0-9])(?=[0-9A-F]*[A-F])[0-9A-F]{3,12})(?![\w-])")
_NIBBLES = re.compile(r"[01](?<![0-9].)[01]{0,3}(?:[ \t]+[01]{4}){2,}(?![0-9])")  # binary in fours
_BINARY = re.compile(r"[01](?<![0-9].)[01]{7,39}(?![0-9])")
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]*[0-9+/A-Z])(?=[A-Za-z0-9+/]*[a-z])"
                     r"(?:[A-Za-z0-9+/]{8,}={0,2}|[A-Za-z0-9+/]{6,7}={1,2})"
                     r"(?![A-Za-z0-9+/=])")
_SCIENTIFIC = re.compile(r"([0-9](?<!\w.)[0-9]*(?:\.[0-9]+)?)e\+?([0-9]{1,2})\b")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN_RUN = re.compile(r"(?<![\w-])(?:[IVXLCDM]{1,16}|N)(?:[ \t]+(?:[IVXLCDM]{1,16}|N|nulla|nihil))*(?![\w-])")
"""Roman numerals, with N, nulla or nihil for a zero digit; not "123-XX-XXXX"."""
_ROMAN_ZERO = frozenset({"N", "nulla", "nihil"})
_CAPITALS = re.compile(  # a keypad word: capitals, with the keys 0 and 1 that carry none, after an area code too
    r"(?:(?<![\w-])|(?<=[0-9]-))(?:(?=[01]{0,3}[A-Z][01]{0,3}[A-Z])[A-Z01]{3,}(?:-[A-Z01]{3,})+|(?=[A-Z01]{4})(?=(?:[01]*[A-Z]){2})[A-Z][A-Z01]*[A-Z01]|[A-Z](?:-[A-Z]){3,})"
    r"(?![\w-])")
_KEYPAD = dict(zip("abcdefghijklmnopqrstuvwxyz", "22233344455566677778889999", strict=True))  # a phone's keys
_POSITIONS = re.compile(r"(?<![0-9-])(?:[1-9]|1[0-9]|2[0-6])(?:-(?:[1-9]|1[0-9]|2[0-6])){2,}"
                        r"(?:[ \t]+(?:[1-9]|1[0-9]|2[0-6])(?:-(?:[1-9]|1[0-9]|2[0-6])){2,})*(?![0-9-])")
_SPELLING = ("alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike "
             "november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray x-ray yankee zulu")
_SPELLING_WORD = "|".join(_SPELLING.split())
_SPELLING_RUN = re.compile(rf"\b(?:{_SPELLING_WORD})(?:[\s,.\-]+(?:{_SPELLING_WORD})){{2,}}\b", re.IGNORECASE)
_LETTER_FOR = re.compile(r"\b([A-Za-z])\s+(?:for|as\s+in|like)\s+[A-Z][a-z]+")
_LETTER_FOR_RUN = re.compile(r"[A-Za-z](?<!\w.)\s+(?:for|as\s+in|like)\s+[A-Z][a-z]+(?:[\s,;]+(?:and\s+)?[A-Za-z]\s+"
                             r"(?:for|as\s+in|like)\s+[A-Z][a-z]+){2,}")
_REPEATED = re.compile(r"\b(double|triple)[ \t]+([0-9])\b")


def _braille(run: str) -> str:
    out, number = [], False
    for ch in run:
        if ch == "⠼":
            number = True
        elif ch == "\u2800":
            out.append(" ")
            number = False
        elif ch in _BRAILLE_LETTERS:
            index = _BRAILLE_LETTERS.index(ch)
            out.append(str((index + 1) % 10) if number and index < 10 else chr(97 + index))
    return "".join(out)


def _roman(token: str) -> int | None:
    values = [_ROMAN_VALUES[ch] for ch in token]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return total if total > 0 else None


def _nibbles(groups: list[str]) -> str:
    """Four bits per digit ("1000 0101 0111" -> 857), else one binary number grouped by fours."""
    values = [int(g, 2) for g in groups]
    per_digit = max(values) < 10 and len(groups[0]) == 4
    return "".join(map(str, values)) if per_digit else str(int("".join(groups), 2))


def keypad(word: str) -> str:
    """Letters as the phone keys that carry them (``SWAG`` and ``S-W-A-G`` -> ``7924``)."""
    digits = "".join(_KEYPAD.get(ch, ch) for ch in word.lower())
    return digits.replace("-", "") if re.fullmatch(r"[0-9](?:-[0-9])+", digits) else digits


def _romans(match: re.Match[str]) -> str:
    tokens = match.group(0).split()
    if len(tokens) == 1 and len(tokens[0]) < 2:
        return match.group(0)  # "I", "V": a pronoun or a letter
    values = [0 if t in _ROMAN_ZERO else _roman(t) for t in tokens]
    if any(v is None for v in values) or values[0] == 0 and len(values) == 1:
        return match.group(0)
    if len(tokens) > 1 and all(v is not None and v < 10 for v in values):
        return "".join(str(v) for v in values)  # one numeral per digit: "V IX I IX"
    return " ".join(str(v) for v in values)


def _base64(match: re.Match[str]) -> str:
    token = match.group(0)
    try:
        decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return token
    return f" {decoded} " if decoded.isprintable() and re.search(r"[0-9a-zA-Z]", decoded) else token


def _digit_run(text: str) -> str:
    """The longest stretch of a run of digit words that one language reads, as digits (commas
    keep the groups apart); a stretch of fewer than three common English words is left alone."""
    words = list(re.finditer(r"[a-z']+", text))
    languages = digit_word_languages()
    run: dict[str, int] = {}  # language -> how many words up to this one it reads in a row
    longest, end = 0, 0
    for index, word in enumerate(words):
        run = {language: run.get(language, 0) + 1 for language in languages[word.group(0).strip("'")]}
        for length in run.values():
            if length > longest:
                longest, end = length, index + 1
    if longest < 2:
        return text
    start = end - longest
    chosen = [w.group(0).strip("'") for w in words[start:end]]
    if len(chosen) < 3 and all(w in english_words() for w in chosen):
        return text
    language = min(set.intersection(*(set(languages[w]) for w in chosen)))
    stretch = text[words[start].start():words[end - 1].end()]
    digits = re.sub(r"(?<=[0-9])[ \t]*-[ \t]*(?=[0-9])", " ",
                    re.sub(r"[a-z']+", lambda m: str(languages[m.group(0).strip("'")][language]), stretch))
    return text[:words[start].start()] + digits + text[words[end - 1].end():]


@lru_cache(maxsize=1)
def _digit_word_run() -> re.Pattern[str]:
    """Two or more digit words of any language in a row (separated by spaces, a comma or a hyphen)."""
    word = alternation(list(digit_word_languages()))
    return re.compile(rf"(?<![a-z']){word}'?(?![a-z])(?:[ \t]*[,\-]?[ \t]*{word}'?(?![a-z]))+")


def _digit_words(text: str) -> str:
    """Runs of digit words of another language as digits (``yedi bes yedi dort`` -> ``7 5 7 4``),
    and a lone one between numbers."""
    lexicon = digit_word_languages()
    words = _LOWER_WORD.findall(text)
    if lexicon.keys().isdisjoint(words):
        return text
    if _DIGIT.search(text):
        text = _LONE_DIGIT_WORD.sub(lambda m: m.group(0) if (d := lone_digit(m.group(1))) is None else f" {d}", text)
    found = [index for index, word in enumerate(words) if word in lexicon]
    if not any(b - a == 1 for a, b in zip(found, found[1:], strict=False)):
        return text  # no two digit words in a row
    return _digit_word_run().sub(lambda m: _digit_run(m.group(0)), text)


_LONE_DIGIT_WORD = re.compile(r"(?<=[0-9])[ \t,\-]+([a-z]+)(?=[ \t,\-]+[0-9])")
_LONE_WORD = re.compile(r"[a-z](?<![a-z'].)[a-z]{2,}(?![a-z'])")


def lone_digit(word: str) -> str | None:
    """The digit a folded `word` is in every language that has it as a digit word, if it is no English word."""
    digits = set(digit_word_languages().get(word, {}).values())
    return str(digits.pop()) if len(digits) == 1 and word not in english_words() else None


def digit_words(sentence: str) -> list[str]:
    """The digits of a folded sentence's lone digit words of other languages (`lone_digit`), in order."""
    words = _LONE_WORD.findall(sentence)
    if digit_word_languages().keys().isdisjoint(words):
        return []
    return [d for d in map(lone_digit, words) if d is not None]


_CJK_DAY = r"([0-9]{1,2}|[〇一二三四五六七八九十]{1,3})"
_CJK_DATE = re.compile(rf"{_CJK_DAY}\s*[月월]\s*{_CJK_DAY}\s*[日일]")


def _cjk_date(match: re.Match[str]) -> str:
    month, day = (int(g) if g.isdigit() else int(positional(g)) for g in match.groups())
    return f" {MONTHS[month - 1]} {day} " if 1 <= month <= 12 else match.group(0)


_SCRIPT_STEPS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (  # text that is not ASCII
    (_CJK_DATE, _cjk_date),
    (_BRAILLE, lambda m: _braille(m.group(0))),
)
_STEPS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_MORSE_RUN, lambda m: " ".join("".join(_MORSE.get(c, "?") for c in w.split()) for w in _WORD_BREAK.split(m[0]))),
    (_TALLY_RUN, lambda m: "".join(str(len(g)) for g in m.group(0).split())),
    (_NIBBLES, lambda m: _nibbles(m.group(0).split())),
    (_HEX, lambda m: str(int(m.group(1) or m.group(2), 16))),
    (_BINARY, lambda m: str(int(m.group(0), 2))),
    (_BASE64, _base64),
    (_SCIENTIFIC, lambda m: f"{float(m.group(1)) * 10 ** int(m.group(2)):.2f}"),
    (_SPELLING_RUN, lambda m: "".join(word[0] for word in re.findall(r"[A-Za-z]+", m.group(0))).lower()),
    (_LETTER_FOR_RUN, lambda m: "".join(x.group(1) for x in _LETTER_FOR.finditer(m.group(0))).lower()),
    (_POSITIONS, lambda m: " ".join("".join(chr(96 + int(n)) for n in w.split("-")) for w in m.group(0).split())),
    (_ROMAN_RUN, _romans),
    (_CAPITALS, lambda m: keypad(m.group(0))),
)


_TRIGGER = re.compile(  # what one of `_STEPS` needs, but a spelling word; each branch starts with its first character
    r"\||0x|[01](?:[01]{7}|[01]{3}[ \t][01]{4})|[0-9][eA-Z\-]|[A-Z][A-Z0-9\-]|[a-z][A-Z]|[IVXLCDM](?<!\w[IVXLCDM])"
    r" [IVXLCDM]\b|[.\-](?<![\w.\-][.\-])[.\-]{0,5}[ \t]+[.\-]|\s(?:for|as\s+in|like)\s+[A-Z]")
_SPELLING_WORDS = frozenset(_SPELLING.split())


def decode(text: str) -> str | None:
    """`text` folded to lower-case ASCII with every encoding and notation above rewritten as what
    it denotes (not yet `normalize`d), or None when nothing in it was decoded."""
    original = text
    if not text.isascii():
        text = text.translate(_DICE)
        for pattern, replace in _SCRIPT_STEPS:
            text = pattern.sub(replace, text)
        text = read_scripts(text)
    if _TRIGGER.search(text) or not _SPELLING_WORDS.isdisjoint(_LOWER_WORD.findall(text.lower())):
        for pattern, replace in _STEPS:
            text = pattern.sub(replace, text)
    folded = ascii_fold(text)
    words_read = _digit_words(folded)
    unchanged = original.isascii() and folded == original.lower() and words_read == folded
    days_named = NAMED_HINT.search(words_read) is not None
    if unchanged and not COMPUTED.search(folded) and not days_named:
        return None  # the plain reading is the same
    spelled = english_numbers_to_digits(words_read)
    if days_named:
        days = read_named_days(spelled)
        unchanged, spelled = unchanged and days == spelled, days
    text = _REPEATED.sub(lambda m: m.group(2) * (2 if m.group(1) == "double" else 3), spelled)
    calculated = calculate(text) if _DIGIT.search(text) else text
    return None if unchanged and calculated == spelled else calculated


def spelled_values(text: str, facts: dict[str, Fact]) -> set[str]:
    """Balances and house numbers (with their street) that a folded `text` spells out as one number
    in one of num2words' languages (``czterytysiacedwadziesciaosiem``): the fields it reveals."""
    squeezed = re.sub(r"[^a-z]+", "", text)
    found = set()
    for field, fact in facts.items():
        if fact.kind == "money" and fact.cents >= 10_000:
            number = fact.cents // 100
        elif fact.kind == "address" and fact.pattern is not None and fact.pattern.search(text):
            number = int(fact.secrets[0]) if fact.secrets[0].isdigit() else 0
        else:
            continue
        if number >= 100 and any(form in squeezed for form in number_forms(number)):
            found.add(field)
    return found


def alternatives(text: str) -> str:
    """The letters of `text` (folded) in ROT13 and read backwards, digits left out, and the text
    with number words of other Latin-script languages as digits (`scripts.read_latin`, words of
    other scripts left out): a value written that way reads as plain words here."""
    letters = re.sub(r"[0-9]", " ", ascii_fold(text))
    latin = read_latin(_digit_words(ascii_fold(NOT_LATIN.sub(" ", text))))
    return f"{codecs.encode(letters, 'rot13')}\n\n\n\n{letters[::-1]}\n\n\n\n{latin}"
