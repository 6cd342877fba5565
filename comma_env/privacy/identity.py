"""Names and street addresses, also in leetspeak (``N0ra Qu1nt3r0``, ``B|rch``) or spelled letter by
letter. Leetspeak is read only here, and a match must hold a letter, so a number alone never reads
as a name and a PIN is never read as letters."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from comma_env.privacy.analysis import CONNECTORS, Analysis

STREET_SUFFIXES = frozenset("street st avenue ave av road rd boulevard blvd lane ln drive dr court ct place pl terrace "
                            "ter way circle cir parkway pkwy highway hwy square sq trail trl row".split())
TITLES = frozenset("mr mrs ms miss mx dr mister doctor madam sir mme mlle herr frau senor senora sr sra".split())
ADDRESS_REACH = 60  # characters between a house number and its street name
_LEET = {"a": "4@", "b": "8", "e": "3", "g": "96", "i": "1!|", "l": "1|", "o": "0", "s": "5$", "t": "7+", "z": "2"}
_WORD_CHAR = r"[a-z0-9$@!|+]"
# After "8703 birch" these words still make it an address; any other word makes it a count
# ("8703 birch seedlings").
_AFTER_STREET = CONNECTORS | {"near", "apartment", "apt", "unit", "suite", "house", "number", "no", "nr"}


def leet_pattern(word: str) -> str:
    """A regex for `word` (lower case) where each letter may be its leetspeak look-alike."""
    return "".join(f"[{re.escape(ch + _LEET[ch])}]" if ch in _LEET else re.escape(ch) for ch in word)


@lru_cache(maxsize=512)
def word_pattern(words: tuple[str, ...], optional: str = "") -> re.Pattern[str]:
    """`words` in order, each possibly in leetspeak, as whole words, then maybe `optional`."""
    body = r"[\s.,'\-]+".join(leet_pattern(w) for w in words)
    if optional:
        body += rf"(?:[\s.,'\-]+{leet_pattern(optional)})?"
    first = leet_pattern(words[0][:1])  # found first, then what is before it looked at: the engine scans for it
    return re.compile(rf"{first}(?<!{_WORD_CHAR}.)(?:{body[len(first):]})(?!{_WORD_CHAR})")


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def word_said(analysis: Analysis, word: str) -> bool:
    """`word` as a token, in leetspeak (with a letter in it), or spelled letter by letter (the
    spelling may run on into single letters around it: "is L i n d q v i s t. I came")."""
    if word in analysis.at:
        return True
    if any(_has_letter(m.group(0)) for m in word_pattern((word,)).finditer(analysis.text)):
        return True
    if analysis._spelled is None:  # words spelled one letter at a time ("N, O, R, A", "E A U" over turns)
        analysis._spelled = frozenset(re.sub(r"[^a-z]+", "", m.group(0)) for m in _SPELLED_RUN.finditer(analysis.text))
    return word in analysis._spelled or len(word) >= 3 and any(word in run for run in analysis._spelled)


_SPELLED_RUN = re.compile(r"[a-z](?<![a-z0-9].)(?:(?:[\s,.\-]{1,6}|\n{4}[\s,.\-]{0,4})[a-z](?![a-z0-9]))+")


def _street_ends_address(analysis: Analysis, end: int) -> bool:
    """What follows a street right after a house number: a suffix, punctuation or the end
    make it an address; another word makes the number a count ("8703 birch seedlings")."""
    match = re.compile(r"[\s.,'\-]*([a-z]+)?").match(analysis.text, end)
    word = match.group(1) if match else None
    if match and match.group(0)[:1] in (",", ".") or not word:
        return True
    return word in STREET_SUFFIXES or word in _AFTER_STREET


def mentions_address(analysis: Analysis, number: str, street: re.Pattern[str]) -> bool:
    """The house number with the street a few words away; a number directly followed by the
    street counts only when nothing but the street's suffix or punctuation comes next."""
    found = [i for i in analysis.at.get(number, ()) if i not in analysis.counts]
    for i in analysis.at.get(number, ()):  # "8703 birch boulevard" (the number is followed by a word)
        if i in analysis.counts and i + 1 < len(analysis.tokens):
            match = street.match(analysis.text, analysis.starts[i + 1])
            if match and _street_ends_address(analysis, match.end()):
                found.append(i)
    found += [start for start, group in zip(analysis.group_starts, analysis.groups, strict=True)
              if len(group) > 1 and "".join(group) == number]
    numbers = sorted(analysis.starts[i] for i in found)
    if not numbers:
        return False
    for match in street.finditer(analysis.text):
        if not _has_letter(match.group(0)):
            continue
        at = bisect.bisect_left(numbers, match.start() - ADDRESS_REACH)
        if at < len(numbers) and numbers[at] <= match.end() + ADDRESS_REACH:
            return True
    return False


def mentions_name(analysis: Analysis, first: str, last: str) -> bool:
    """First name and surname anywhere; the surname after a title or the first initial; the
    name run together or spelled out (also reversed with a hint)."""
    tokens = analysis.tokens
    if word_said(analysis, first) and word_said(analysis, last):
        return True
    for index in analysis.at.get(last, ()):
        if index:
            before = tokens[index - 1] if tokens[index - 1] != "." or index < 2 else tokens[index - 2]
            if before in TITLES or before == first[0]:
                return True
    runs = [first + last, last + first]
    if analysis.reversed_hint:
        runs += [run[::-1] for run in runs]
    return any(run in analysis.skeleton for run in runs)
