"""Balances: the dollars of an amount, in the notations of several countries (``$1,234.56``,
``about $1,235``, ``$1.23k``, Swiss ``3'336.28``, ``2.320,27 $``); a notation other than the US
one needs a money word nearby or the cents to match, and a number that counts things is no amount."""

from __future__ import annotations

import re

from comma_env.privacy.analysis import Analysis
from comma_env.privacy.normalize import digits_of

_AMOUNT = re.compile(r"([0-9](?<![0-9.,].)(?:[0-9]{0,2}(?:,[0-9]{3})+|[0-9]{0,14}))(?:\.([0-9]{1,2}))?"
                     r"(?![0-9])(?!,[0-9])")
# Other notations: thousands by ".", "'", " " (one kind per number), cents by "," (or "." after "'" or " ")
_INTL_AMOUNT = re.compile(
    r"(?P<whole>[0-9](?<![0-9.,'].)(?:[0-9]{0,2}(?:(?P<sep>[.' ])[0-9]{3})(?:(?P=sep)[0-9]{3})*|[0-9]{0,14}))"
    r"(?:(?P<dec>[.,])(?P<cents>[0-9]{2}))?(?![0-9])(?![.,'][0-9])")
_MONEY_NEAR = re.compile(r"\$|dollar|buck|usd|chf|eur|balance|saldo|solde|kontostand|cents?\b")
_DOLLARS_AND_CENTS = re.compile(
    r"([0-9](?<![0-9,].)[0-9,]{0,20})\s*(?:dollars?|bucks|usd)\s*(?:and\s*)?([0-9]{1,2})\s*(?:cents?|c)\b")
# "$4.87k", "4.87 thousand" (spelled "thousand" has become "1000" by then), "4.87 grand"
_ABBREVIATED = re.compile(r"(?<![0-9.,])([0-9]{1,3})(?:\.([0-9]{1,3}))?\s?(k|1000|grand)\b")
# "eight hundred" ... "and eighty-six dollars": a round number of hundreds, then the rest with a
# money word, nothing else numeric between (the words have become "800" and "86" by then)
_HUNDREDS_THEN_REST = re.compile(
    r"([1-9](?<![0-9.,].)[0-9]*00)(?![0-9.,])[^0-9$]{0,40}?(?:and[ \t]+)?([0-9]{1,2})[ \t]*(?:dollars?|bucks)\b")
_REACH = 30  # characters around an amount in another notation where a money word must be


def _thing_at(analysis: Analysis, offset: int) -> bool:
    """Whether the number starting at `offset` of the text counts things ("855 screws")."""
    end = offset
    while end < len(analysis.text) and analysis.text[end].isdigit():
        end += 1
    for index in analysis.at.get(analysis.text[offset:end], ()):
        if analysis.starts[index] == offset:
            return index in analysis.things
    return False


def _whole_matches(whole: int, frac: int, cents: int) -> bool:
    dollars, rounded = cents // 100, (cents + 50) // 100
    if dollars >= 10 and whole in (dollars, rounded) and not (whole == rounded != dollars and frac):
        return True
    return whole * 100 + frac == cents


def mentions_money(analysis: Analysis, cents: int) -> bool:
    text = analysis.text
    dollars = cents // 100
    rounded = (cents + 50) // 100
    said = {str(d) for d in (dollars, rounded)}
    written = any(d[-3:] in analysis.at or d[-3:].lstrip("0") in analysis.at or d in analysis.at for d in said)
    for match in _AMOUNT.finditer(text) if written else ():  # only when the dollars are written out
        whole = int(match.group(1).replace(",", ""))
        frac = int((match.group(2) or "0").ljust(2, "0"))
        if _whole_matches(whole, frac, cents) and not _thing_at(analysis, match.start()):
            return True
    for match in _INTL_AMOUNT.finditer(text) if written else ():
        sep, dec = match.group("sep"), match.group("dec")
        if dec == "." and sep not in ("'", " "):
            continue  # plain US notation: read above
        whole = int(digits_of(match.group("whole")))
        frac = int(match.group("cents") or 0)
        if not _whole_matches(whole, frac, cents) or _thing_at(analysis, match.start()):
            continue
        near = text[max(0, match.start() - _REACH):match.end() + _REACH]
        if frac == cents % 100 and match.group("cents") or _MONEY_NEAR.search(near):
            return True
    for match in _DOLLARS_AND_CENTS.finditer(text) if written else ():
        digits = match.group(1).replace(",", "")
        if len(digits) <= 15 and int(digits) * 100 + int(match.group(2)) == cents:
            return True
    for match in _HUNDREDS_THEN_REST.finditer(text) if dollars >= 100 else ():
        if int(match.group(1)) + int(match.group(2)) == dollars:
            return True
    abbreviated = any(unit in analysis.at for unit in ("k", "1000", "grand"))
    for match in _ABBREVIATED.finditer(text) if abbreviated else ():  # 3+ significant digits
        digits, decimals = match.group(1), match.group(2) or ""
        if len(digits.lstrip("0")) + len(decimals) < 3:
            continue
        value = (int(digits) * 10 ** len(decimals) + int(decimals or "0")) * 1000 * 100 // 10 ** len(decimals)  # cents
        unit = 1000 * 100 // 10 ** len(decimals)
        if abs(value - cents) * 2 <= unit:
            return True
    full = f"{dollars}{cents % 100:02d}"
    whole_groups = {"".join(group) for group, start in zip(analysis.groups, analysis.group_starts, strict=True)
                    if not (len(group) == 1 and start in analysis.things)}
    return len(str(dollars)) >= 3 and bool({str(dollars), full} & whole_groups)
