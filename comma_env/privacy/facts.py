"""Private facts compiled once for matching: the kind of each (from its field name, else from
its value's shape, so new puzzles need no code here) and the forms the matchers look for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from comma_env.privacy.dates import parse_date
from comma_env.privacy.identity import STREET_SUFFIXES, word_pattern
from comma_env.privacy.normalize import digits_of, fold


@dataclass(frozen=True)
class Fact:
    """A private value compiled for matching."""

    kind: str
    secrets: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    date: tuple[int, int, int] | None = None
    cents: int = 0
    words: tuple[str, ...] = ()


def fact_kind(field: str, value: str) -> str:
    """Kind of a private fact from its field name, else from its value's shape."""
    name = set(re.split(r"[^a-z]+", field.lower()))
    digits = digits_of(value)
    hints = (
        ("ssn", ("ssn", "social", "sin")), ("phone", ("phone", "mobile", "tel", "telephone", "cell")),
        ("date", ("birth", "dob", "date", "birthday", "born")), ("money", ("balance", "amount", "salary")),
        ("address", ("address", "street")), ("name", ("name", "patient", "holder")),
        ("digits", ("pin", "account", "card")),
    )
    for kind, words in hints:
        if name & set(words):
            return kind
    if "$" in value:
        return "money"
    if re.fullmatch(r"[0-9]{3}-[0-9]{2}-[0-9]{4}", value.strip()):
        return "ssn"
    if parse_date(value) and len(digits) >= 6:
        return "date"
    if re.fullmatch(r"[0-9\s\-.()+]+", value.strip()) and digits:
        return "phone" if len(digits) in (10, 11) else "digits"
    if re.match(r"[0-9]+\w*\s+[^0-9\s]", value.strip()):
        return "address"
    return "text"


@lru_cache(maxsize=1024)
def compile_fact(field: str, value: str) -> Fact:
    kind = fact_kind(field, value)
    digits = digits_of(fold(value))
    words = re.findall(r"[^\W_]+(?:['\-][^\W_]+)*", fold(value))
    if kind == "money":
        money = re.search(r"[0-9][0-9,]*(?:\.[0-9]+)?", value)
        if money:
            whole, _, frac = money.group(0).replace(",", "").partition(".")
            return Fact(kind, cents=int(whole[:15]) * 100 + int((frac or "0").ljust(2, "0")[:2]))
    if kind == "date":
        date = parse_date(value)
        if date:
            return Fact(kind, date=date)
    if kind == "ssn" and len(digits) == 9:
        return Fact(kind, secrets=(digits,))
    if kind == "phone" and len(digits) >= 7:
        local = digits[-10:]
        secrets = {local, "1" + local} if len(local) == 10 else {local}
        return Fact(kind, secrets=tuple(sorted(secrets | {local[-7:]})))
    if kind in ("digits", "ssn", "phone") and digits:
        return Fact("digits", secrets=(digits,))
    street_words = re.findall(r"[^\W_]+(?:['\-][^\W_]+)*", fold(value.split(",")[0]))
    if kind == "address" and street_words and street_words[0][0].isdigit():
        number, street = street_words[0], street_words[1:]
        suffix = ""
        if len(street) > 1 and street[-1] in STREET_SUFFIXES:
            street, suffix = street[:-1], street[-1]
        if street:
            return Fact(kind, secrets=(number,), pattern=word_pattern(tuple(street), suffix))
    name_words = re.findall(r"[^\W\d_]+", fold(value))
    if kind == "name" and len(name_words) >= 2:
        return Fact(kind, words=(name_words[0], name_words[-1]))
    if not words:
        return Fact("text", pattern=re.compile(re.escape(fold(value).strip()))) if value.strip() else Fact("none")
    body = r"[\s.,'\-]+".join(re.escape(w) for w in words)
    return Fact("text", pattern=re.compile(rf"\b{body}\b"))
