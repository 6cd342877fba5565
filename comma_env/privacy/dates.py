"""Dates of birth: day and month together, numeric, with a month name of any language, a Roman
month or as positions ("the 19th day of the 10th month"); a year given with them must be right."""

from __future__ import annotations

import re
from functools import lru_cache

from comma_env.privacy.analysis import Analysis
from comma_env.privacy.languages import foreign_month_names
from comma_env.privacy.normalize import digits_of, normalize
from comma_env.privacy.relations import MONTHS

ENGLISH_MONTHS = {
    **{name: number for number, name in enumerate(MONTHS, start=1)},
    **{name[:3]: number for number, name in enumerate(MONTHS, start=1)},
    "sept": 9,
}
_ROMAN = {numeral: month for month, numeral in enumerate("i ii iii iv v vi vii viii ix x xi xii".split(), start=1)}
_MAY_AFTER = frozenset("in of born since from until early late mid".split())  # "may" is a month only after these
_YEAR = r"(?P<y>[0-9]{4}|(?:19|20) [0-9]{2}|'?[0-9]{2})"
_DAY_SUFFIX = r"(?:st|nd|rd|th|\.)?"
_LINK = r"(?:of|de|del|di|du)"


@lru_cache(maxsize=1)
def months() -> dict[str, int]:
    """Month names and abbreviations, English and other languages, folded -> month number."""
    return {**foreign_month_names(), **ENGLISH_MONTHS}


@lru_cache(maxsize=1)
def _full_months() -> dict[int, list[str]]:
    """Month number -> its names of five letters or more (and "may", "june", "july", "mai")."""
    by_month: dict[int, list[str]] = {}
    for name, number in months().items():
        if len(name) > 4 or name in ("may", "june", "july", "mai"):
            by_month.setdefault(number, []).append(name)
    return by_month


_ROMAN_ALT = "|".join(sorted(_ROMAN, key=len, reverse=True))
# A month is any word in the patterns: `_pairs` keeps the month names (hundreds: an alternation is slow).
_PATTERNS = (
    re.compile(r"(?P<y>[0-9](?<![0-9].)[0-9]{3})[-/.](?P<a>[0-9]{1,2})[-/.](?P<b>[0-9]{1,2})(?![0-9])"),
    re.compile(r"(?P<a>[0-9](?<![0-9].)[0-9]?)[-/.](?P<b>[0-9]{1,2})[-/.](?P<y>[0-9]{4}|[0-9]{2})(?![0-9])"),
    re.compile(rf"\b(?P<mon>[a-z]+)(?:\.?,?[ \t]+(?:the[ \t]+)?|[ \t]*[-/][ \t]*)"
               rf"(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\b"
               rf"(?:,?[ \t]*(?:{_LINK}[ \t]+|in[ \t]+)?{_YEAR}(?![0-9]))?"),
    re.compile(rf"(?P<d>[0-9](?<![0-9].)[0-9]?){_DAY_SUFFIX}(?:[ \t]+|[ \t]*[-/.][ \t]*)(?:{_LINK}[ \t]+)?"
               rf"(?P<mon>[a-z]+)\b\.?(?:(?:,?[ \t]*(?:{_LINK}[ \t]+)?|[ \t]*[-/.][ \t]*){_YEAR}(?![0-9]))?"),
    # 8.V.2005, 18/II/1997, 12.VIII.
    # (with a year or a closing dot: "5-x" or "version 2.x" is no date)
    re.compile(rf"(?P<d>[0-9](?<![0-9].)[0-9]?)[./-](?P<rom>{_ROMAN_ALT})"
               rf"(?:[./-](?P<y>[0-9]{{4}}|[0-9]{{2}})(?![0-9])|\.(?![a-z0-9]))"),
    # the 19th day of the 10th month; the 23rd of the 11th month
    re.compile(r"(?P<d>[0-9](?<![0-9].)[0-9]?)(?:st|nd|rd|th)?[ \t]+(?:day[ \t]+)?of[ \t]+(?:the[ \t]+)?"
               r"(?P<m>[0-9]{1,2})(?:st|nd|rd|th)?[ \t]+month"),
    # the 5th of the 12th: two ordinals
    re.compile(r"(?P<d>[0-9](?<![0-9].)[0-9]?)(?:st|nd|rd|th)[ \t]+of[ \t]+the[ \t]+"
               r"(?P<m>[0-9]{1,2})(?:st|nd|rd|th)\b"),
    # day and month without a year: "4/23" or "23/4" (both readings)
    re.compile(r"(?P<a>[0-9](?<![0-9/.\-].)[0-9]?)/(?P<b>[0-9]{1,2})(?![0-9]|/[0-9])"),
    # "08.05." (day.month., the month in two digits: "the diameter is 17.4." is a measurement)
    re.compile(r"(?P<d>[0-9](?<![0-9.].)[0-9]?)\.(?P<m>[0-9]{2})\.(?![0-9])"),
)


def _year_matches(text_year: str | None, year: int) -> bool:
    if not text_year:
        return True
    digits = digits_of(text_year)[:4]
    return int(digits) == year if len(digits) == 4 else int(digits) == year % 100


def _pairs(index: int, match: re.Match[str]) -> list[tuple[int, int]]:
    """(month, day) readings of a match of pattern `index`."""
    if index == 0:
        return [(int(match.group("a")), int(match.group("b")))]
    if index in (1, 7):  # US month/day or day.month: both readings
        a, b = int(match.group("a")), int(match.group("b"))
        return [(a, b), (b, a)]
    if index in (2, 3):
        month = months().get(match.group("mon"))
        return [(month, int(match.group("d")))] if month else []
    if index == 4:
        return [(_ROMAN[match.group("rom")], int(match.group("d")))]
    return [(int(match.group("m")), int(match.group("d")))]


def parse_date(value: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a date written as ISO, numeric US order or with a month name."""
    text = normalize(value)
    for index, pattern in enumerate(_PATTERNS[:4]):
        for match in pattern.finditer(text):
            if not match.group("y") or (index >= 2 and match.group("mon") not in months()):
                continue
            year = int(digits_of(match.group("y")))
            if year < 100:
                year += 1900 if year > 30 else 2000
            if index < 2:
                return year, int(match.group("a")), int(match.group("b"))
            return year, months()[match.group("mon")], int(match.group("d"))
    return None


def _month_near_day(analysis: Analysis, date: tuple[int, int, int]) -> bool:
    """A month name with the day a few words away ("April, on the 23rd"), and no other year."""
    year, month, day = date
    tokens = analysis.tokens
    names = _full_months().get(month, [])
    for index in (i for name in names for i in analysis.at.get(name, ())):
        if tokens[index] == "may" and (index == 0 or tokens[index - 1] not in _MAY_AFTER):
            continue
        window = range(max(0, index - 5), min(len(tokens), index + 7))
        days = [i for i in window if tokens[i].isdigit() and len(tokens[i]) <= 2 and int(tokens[i]) == day]
        years = [tokens[i] for i in window if tokens[i].isdigit() and len(tokens[i]) == 4]
        if days and all(int(y) == year for y in years):
            return True
    return False


def _compact(date: tuple[int, int, int]) -> set[str]:
    year, month, day = date
    return {f"{year:04d}{month:02d}{day:02d}", f"{month:02d}{day:02d}{year:04d}",
            f"{day:02d}{month:02d}{year:04d}", f"{month:02d}{day:02d}{year % 100:02d}"}


def may_complete_date(tokens: set[str], date: tuple[int, int, int]) -> bool:
    """Whether a turn of `tokens` can complete a mention of `date` the text before it did not hold: every
    form has the day as a number of its own or is compact, and reaches back over turns only from a month's name."""
    day, month = date[2], date[1]
    return bool(tokens & ({str(day), f"{day:02d}"} | _compact(date))) or any(months().get(t) == month for t in tokens)


def mentions_date(analysis: Analysis, date: tuple[int, int, int]) -> bool:
    year, month, day = date
    text = analysis.text
    if any(value in analysis.at for value in _compact(date)):
        return True
    if str(day) not in analysis.at and f"{day:02d}" not in analysis.at:
        return False  # every other form writes the day as a number of its own
    named = any(months()[token] == month for token in analysis.at.keys() & months().keys())
    needs = (True, True, named, named, True, "month" in analysis.at, "of" in analysis.at, True, True)
    for index, pattern in enumerate(_PATTERNS):
        for match in pattern.finditer(text) if needs[index] else ():
            if (month, day) in _pairs(index, match) and _year_matches(match.groupdict().get("y"), year):
                return True
    return _month_near_day(analysis, date)
