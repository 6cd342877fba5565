"""Numbers in other scripts and languages (CJK and Sino-Korean numerals, digit words of non-Latin
scripts, number words of num2words' Latin-script languages, compound words split) and dates given
by a named day, read back as digits and dates (docs/privacy.md); the tables are built on first need.
"""

from __future__ import annotations

import contextlib
import datetime
import re
import unicodedata
from functools import lru_cache

from comma_env.privacy.lexicon import alternation, ascii_fold, english_words, small_numbers
from comma_env.privacy.relations import MONTHS

_POSITIONAL = {  # CJK and Hangul numeral characters -> value (digits below 10, then the units)
    **{ch: int(unicodedata.numeric(ch)) for ch in "〇零一二三四五六七八九十百千万"}, "两": 2,
    **dict(zip("영공일이삼사오육칠팔구십백천만", (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000, 10_000),
               strict=True)),
}
_KANJI_RUN = re.compile(r"[〇零一二两三四五六七八九十百千万]{2,}(?P<particle>(?=[\u3041-\u3096]))?")
"""Kanji numerals; hiragana after them is a particle or the copula ("です"), not a counter."""
_HANGUL_NUMBER = re.compile(r"(?<![가-힣])(?:[영공일이삼사오육칠팔구]{2,}(?![가-힣])|"
                            r"(?=[일이삼사오육칠팔구십백천만]*[십백천])[일이삼사오육칠팔구십백천만]{2,})")
"""Sino-Korean: a word of digits alone, or digits and units at a word's start (a counter may follow)."""
_NON_LATIN = ("am", "ar", "bn", "fa", "he", "kn", "te", "th")
_KOREAN_NATIVE = "공 하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉"  # 0 (the Sino-Korean 공) to 9; num2words writes none
_SEPARATOR = r"[ \t,、・·/\-]+"
_LETTER = r"[\u0590-\u06ff\u0980-\u09ff\u0c00-\u0cff\u0e00-\u0e7f\u1200-\u137f\u3040-\u30fa\u30fc-\u30ff\uac00-\ud7af]"
"""A letter of the scripts whose digit words `_Tables.digits` holds (Hebrew to Hangul)."""
_TEXT_RUN = re.compile(rf"(?<!{_LETTER}){_LETTER}++(?:{_SEPARATOR}{_LETTER}++)+")  # from a word's start: linear
_CJK = re.compile(r"[〇零一二两三四五六七八九十百千万영공일이삼사오육칠팔구십백천만]")
_CURRENCIES = {"ドル": " dollars ", "달러": " dollars ", "美元": " dollars ", "דולר": " dollars ", "دولار": " dollars ",
               "セント": " cents ", "센트": " cents "}
_LATIN_WORD = re.compile(r"[a-z]+")
_LATIN_GAP = re.compile(r"[ \t\-]*")
_SHORTEST = 4  # letters of a number word read alone (shorter ones are words in some language)
_LONGEST_WORD = 60  # letters of a compound number word cut into its words
SCALE = 1000


def positional(run: str) -> str:
    """A run of CJK or Hangul numerals as digits: digits alone in order (五七三五, 〇一), else digits
    times units (五千七百三十五, 구천육백팔)."""
    values = [_POSITIONAL[ch] for ch in run]
    if max(values) < 10:
        return "".join(map(str, values))
    total = section = small = 0
    for value in values:
        if value < 10:
            small = small * 10 + value
        elif value == 10_000:
            total, section, small = total + (section + small or 1) * value, 0, 0
        else:
            section, small = section + (small or 1) * value, 0
    return str(total + section + small)


class _Tables:
    """The number words this module reads, built on first need (`tables`)."""

    def __init__(self) -> None:
        from num2words import num2words

        from comma_env.privacy.languages import LANGUAGES as TEXT2NUM  # read in `normalize` already

        digits: dict[str, int] = {}  # a digit word of a non-Latin script, as written -> its digit
        for lang in _NON_LATIN:
            for digit in range(10):
                with contextlib.suppress(NotImplementedError):  # a language older num2words cannot write
                    digits.setdefault(unicodedata.normalize("NFKC", str(num2words(digit, lang=lang))), digit)
        for digit in range(10):
            with contextlib.suppress(NotImplementedError):
                kana = str(num2words(digit, lang="ja", reading=True))
                digits[kana] = digits[kana.translate(_KATAKANA)] = digit
        digits.update((word, digit) for digit, word in enumerate(_KOREAN_NATIVE.split()))
        self.digits = digits
        self.words: dict[str, dict[str, int]] = {}  # Latin language -> folded word(s) -> value (SCALE: a thousand)
        for lang, (cardinals, _) in small_numbers()[0].items():
            if lang in TEXT2NUM or not cardinals.get(7, "").isascii():
                continue
            words = {form: number for number, form in cardinals.items()}
            for number in [*range(100, 1000, 100), *range(1000, 10_000, 1000)]:
                try:
                    form = " ".join(_LATIN_WORD.findall(ascii_fold(num2words(number, lang=lang))))
                except Exception:  # noqa: BLE001 - a number a language cannot write adds nothing
                    continue
                words.setdefault(form, number)
                if number >= 1000 and " " in form:
                    words.setdefault(form.split()[-1], SCALE)
            self.words[lang] = words
        self.single = {lang: {w: v for w, v in words.items() if " " not in w and len(w) >= 2}
                       for lang, words in self.words.items()}
        self.known = frozenset(w for words in self.words.values() for form in words for w in form.split())
        self.heads: dict[str, set[str]] = {}  # a single word -> the languages that have it
        for lang, single in self.single.items():
            for word in single:
                self.heads.setdefault(word, set()).add(lang)


_KATAKANA = {code: code + 0x60 for code in range(0x3041, 0x3097)}  # hiragana -> katakana


@lru_cache(maxsize=1)
def tables() -> _Tables:
    """This process's `_Tables`, made on the first call."""
    return _Tables()


def _digit_run(match: re.Match[str]) -> str:
    """A run of words of which two or more are digit words of a non-Latin script: those as digits."""
    digits = tables().digits
    parts = re.split(f"({_SEPARATOR})", match.group(0))
    words = parts[::2]
    if sum(w in digits for w in words) < 2:
        return match.group(0)
    out = [str(digits[p]) if i % 2 == 0 and p in digits else p for i, p in enumerate(parts)]
    return "".join(" " if i % 2 and not re.search("[,、]", p) else ", " if i % 2 else p for i, p in enumerate(out))


def read_scripts(text: str) -> str:
    """Text that is not ASCII with its numbers in CJK, Hangul and the digit words of other scripts as digits."""
    if _CJK.search(text):
        text = _KANJI_RUN.sub(lambda m: f" {positional(m.group(0))}{'' if m.group('particle') is None else ','} ",
                              text)
        text = _HANGUL_NUMBER.sub(lambda m: f" {positional(m.group(0))} ", text)
    text = _TEXT_RUN.sub(_digit_run, text)
    for word, plain in _CURRENCIES.items():
        text = text.replace(word, plain)
    return re.sub(r"  +", " ", re.sub(r"(?<! ) ++(?=[,.;:、。])", "", text).replace("、", ", ").replace("。", ". "))


def _segments(word: str, single: dict[str, int]) -> list[int] | None:
    """`word` cut into number words of one language, longest first ("tvahundratrettiofem" -> 2, 100, 30, 5)."""
    if word in single:
        return [single[word]]
    for end in range(len(word) - 3, 2, -1):
        if word[:end] in single:
            rest = _segments(word[end:], single)
            if rest is not None:
                return [single[word[:end]], *rest]
    return None


def _read(tokens: list[str], lang: str) -> list[int] | None:
    """The values of a run of folded words in `lang`, whole forms of several words first."""
    words, single = tables().words[lang], tables().single[lang]
    values: list[int] = []
    index = 0
    while index < len(tokens):
        width = next((w for w in (3, 2, 1) if index + w <= len(tokens) and " ".join(tokens[index:index + w]) in words),
                     0)
        if width:
            values.append(words[" ".join(tokens[index:index + width])])
            index += width
            continue
        pieces = _segments(tokens[index], single) if 5 <= len(tokens[index]) <= _LONGEST_WORD else None
        if pieces is None:
            return None
        values += pieces
        index += 1
    return values


def numbers(values: list[int]) -> list[int]:
    """A run of number words' values as the numbers it says: a value that fits below the last
    one's lowest place continues the number ("30 8" is 38, "5000 700 30 5" is 5735); one that
    does not starts a new number ("8 1 7 3" is four); a thousand multiplies what came before it."""
    out: list[int] = []
    current, low = 0, -1  # the number being read, and the lowest place its last word filled (-1: none yet)
    for value in values:
        if value == SCALE and current:
            current, low = current * SCALE, 3
            continue
        if low >= 0 and current and len(str(value)) - 1 < low:
            current += value
        else:
            if low >= 0:
                out.append(current)
            current = value
        low = len(str(value)) - len(str(value).rstrip("0")) if value else 0
    return [*out, current] if low >= 0 else out


_LONGEST = 8  # words of a run read at once


def _run_numbers(run: list[str]) -> list[int] | None:
    """The numbers a run of candidate words says, if it counts (see `read_latin`) and every
    language that reads all of it reads the same numbers."""
    english = english_words()
    foreign = [w for w in run if w not in english]
    if not (len(foreign) >= 2 or (len(run) == 1 and foreign and len(run[0]) >= _SHORTEST)):
        return None
    t = tables()
    read = {tuple(numbers(v)) for lang in t.words if (v := _read(run, lang)) is not None}
    return list(read.pop()) if len(read) == 1 else None


def _candidate(word: str, english: frozenset[str]) -> bool:
    """A number word of some language in `tables`, or a longer word that is no English word and
    cuts into number words of one language."""
    t = tables()
    if word in t.known:
        return True
    if not 5 <= len(word) <= _LONGEST_WORD or word in english:
        return False
    heads = {lang for end in range(len(word) - 3, 2, -1) for lang in t.heads.get(word[:end], ())}
    return any(_segments(word, t.single[lang]) for lang in heads)  # only a language with a word it starts with


NOT_LATIN = re.compile(r"[\u0370-\u052f\u0590-\u06ff\u0900-\u0dff\u0e00-\u0e7f\u1100-\u11ff\u1200-\u137f"
                       r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
"""Letters of other scripts (Greek to Hangul): what they transliterate to is no Latin-script number word."""


def read_latin(text: str) -> str:
    """Folded `text` with runs of number words of num2words' Latin-script languages (not those of
    `languages.py`) as digits, when every language that reads a run (English words at its ends left
    out if need be) reads the same numbers (`_run_numbers`); else the run is left as it is."""
    english = english_words()
    words = {w: _candidate(w, english) for w in set(_LATIN_WORD.findall(text))}
    matches = [m for m in _LATIN_WORD.finditer(text) if words[m.group(0)]]
    out, at, index = [], 0, 0
    while index < len(matches):
        end = index + 1
        while end < len(matches) and end - index < _LONGEST and _LATIN_GAP.fullmatch(
                text, matches[end - 1].end(), matches[end].start()):
            end += 1
        run = [m.group(0) for m in matches[index:end]]
        first, last = 0, len(run)
        said = _run_numbers(run)
        if said is None:
            while first < last and run[first] in english:
                first += 1
            while last > first and run[last - 1] in english:
                last -= 1
            said = _run_numbers(run[first:last]) if 0 < last - first < len(run) else None
        if said is not None:
            out += [text[at:matches[index + first].start()], " ".join(map(str, said))]
            at = matches[index + last - 1].end()
        index = end
    return "".join(out) + text[at:]


_FIXED_DAYS = {  # named days with a fixed date (English and a few other languages, folded) -> (month, day)
    "new year's day": (1, 1), "new years day": (1, 1), "epiphany": (1, 6), "dia de reyes": (1, 6),
    "groundhog day": (2, 2), "valentine's day": (2, 14), "valentines day": (2, 14), "san valentin": (2, 14),
    "saint valentin": (2, 14), "st patrick's day": (3, 17), "st. patrick's day": (3, 17),
    "saint patrick's day": (3, 17), "st patricks day": (3, 17), "april fools' day": (4, 1),
    "april fools day": (4, 1), "april fool's day": (4, 1), "may day": (5, 1), "cinco de mayo": (5, 5),
    "juneteenth": (6, 19), "canada day": (7, 1), "independence day": (7, 4), "bastille day": (7, 14),
    "halloween": (10, 31), "all saints' day": (11, 1), "all saints day": (11, 1), "toussaint": (11, 1),
    "guy fawkes night": (11, 5), "bonfire night": (11, 5), "armistice day": (11, 11), "veterans day": (11, 11),
    "veterans' day": (11, 11), "remembrance day": (11, 11), "christmas eve": (12, 24), "heiligabend": (12, 24),
    "nochebuena": (12, 24), "wigilia": (12, 24), "christmas day": (12, 25), "christmas": (12, 25),
    "xmas": (12, 25), "navidad": (12, 25), "weihnachten": (12, 25), "boxing day": (12, 26),
    "st stephen's day": (12, 26), "new year's eve": (12, 31), "new years eve": (12, 31), "nochevieja": (12, 31),
    "silvester": (12, 31), "sylwester": (12, 31), "saint-sylvestre": (12, 31),
}
_MOVABLE = ("easter sunday", "easter", "thanksgiving day", "thanksgiving")
_DAY_NAMES = "|".join(re.escape(n) for n in sorted([*_FIXED_DAYS, *_MOVABLE], key=len, reverse=True))
NAMED_HINT = re.compile(r"\b(?:day|eve)\b|" + alternation(
    [n for n in [*_FIXED_DAYS, *_MOVABLE] if not re.search(r"\b(?:day|eve)\b", n)]))
"""A cheap test before `read_named_days`: a word every name of its table has (read from the table)."""
_COUNTS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNT_WORDS = "|".join(_COUNTS)
_NAMED_DAY = re.compile(
    rf"(?:\b(?:the[ \t]+)?(?:(?:(?P<n>[0-9]{{1,2}}|a|{_COUNT_WORDS})[ \t]+)?(?P<unit>days?|weeks?)[ \t]+"
    rf"(?P<dir>after|before)|(?P<eve>eve[ \t]+of))[ \t]+)?"
    rf"\b(?:the[ \t]+)?(?P<name>{_DAY_NAMES})\b")
_QUALIFIED = re.compile(r"\b(?:[a-z]{2,}(?:an|ish|ese)|orthodox|old)[ \t]+(?:the[ \t]+)?$")
"""A word that may move the day ("Mexican", "Orthodox", "Swedish"): such a day is not read."""
_YEAR = re.compile(r"(?<![0-9])(?:1[89][0-9]{2}|20[0-9]{2})(?![0-9])")
_SENTENCE = re.compile(r"[^.!?\n]+")


def _movable(name: str, year: int) -> datetime.date:
    """Easter (Western, `dateutil.easter`) or the US Thanksgiving (the fourth Thursday of November) of `year`."""
    if name.startswith("easter"):
        from dateutil.easter import easter

        return easter(year)
    first = datetime.date(year, 11, 1)
    return first + datetime.timedelta(days=(3 - first.weekday()) % 7 + 21)


def read_named_days(text: str) -> str:
    """Folded `text` with each named day (and "the day after", "3 days before", "a week after" one)
    written as its month and day ("the day after boxing day 1984" -> "december 27 1984"); a
    movable feast only with a year in its sentence, as is a day counted across a year's end."""
    out = []
    for sentence in _SENTENCE.finditer(text):
        part = sentence.group(0)
        years = _YEAR.findall(part)
        year = int(years[0]) if len(set(years)) == 1 else None

        def named(match: re.Match[str], year: int | None = year) -> str:
            name = match.group("name")
            if _QUALIFIED.search(match.string, 0, match.start("name")):
                return match.group(0)
            if name in _FIXED_DAYS:
                month, day = _FIXED_DAYS[name]
                date = datetime.date(year or 2000, month, day)  # 2000: a leap year, when none is said
            elif year is not None:
                date = _movable(name, year)
            else:
                return match.group(0)
            if match.group("dir") or match.group("eve"):
                said = match.group("n")
                if said is None and (match.group("unit") or "").endswith("s"):
                    return match.group(0)  # "days after ..." without a count
                count = 1 if said in (None, "a") else _COUNTS.index(said) + 1 if said in _COUNTS else int(said)
                days = count * (7 if (match.group("unit") or "").startswith("week") else 1)
                counted = date + datetime.timedelta(days=days if match.group("dir") == "after" else -days)
                if counted.year != date.year:
                    return match.group(0)
                date = counted
            return f"({name}) {MONTHS[date.month - 1]} {date.day}"

        out.append(_NAMED_DAY.sub(named, part))
    return _SENTENCE.sub(lambda m: out.pop(0), text) if out else text
