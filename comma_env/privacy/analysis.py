"""A normalised text cut once into tokens, digit chunks and digit groups.

Digits form *chunks* (maximal runs of digits, never matched in the middle) and chunks form
*groups* (joined by short gaps of spaces or punctuation). A chunk that counts things ("4 wires"),
is an age ("my son is 17") or an amount ("$20", "5%") is a *count*; the rest are *bare* chunks,
the pieces a PIN split over messages is assembled from."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from comma_env.privacy.positional import hints

_TOKEN = re.compile(r"[0-9]+|[^\W\d_]+|[^\w\s]+|_+")  # numbers, words, runs of punctuation
_JOIN_GAP = re.compile(r"[ \t\r\n\-./()\[\]{}<>|_~*•·→]{1,3}|,")
_LIST_GAP = re.compile(r"\s*,\s*")
ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
# Words that may follow a number without making it a count of something ("4, then 7", "47 is").
CONNECTORS = frozenset(
    "then and or is are was were be followed by next after before comes come goes go last first "
    "second third fourth finally plus also too again so ok okay yes no please thanks thank but if "
    "to on in at with for i you we it that this the a an my your as like which where when while "
    "now here there not right end ends ending start starts starting begin begins beginning rest "
    "half part digit number remember type typed enter entered press pressed confirm correct "
    "th st nd rd".split()
)
# "the last 2 are 16": a number after one of these and before one of those is a count.
_COUNT_BEFORE = frozenset("last next final remaining other first middle th st nd rd".split())
_COUNT_AFTER = frozenset("digits digit numbers number are is were of ones characters".split())
# "my grandson is 29": a number after one of these verbs, with a person just before, is an age.
_AGE_VERBS = frozenset("is am are was turned turns turning aged age".split())
_PEOPLE = frozenset(
    "he she son sons daughter daughters grandson granddaughter grandsons granddaughters wife husband "
    "mother father mom mum dad brother brothers sister sisters nephew niece kid kids child children "
    "grandmother grandfather grandma grandpa aunt uncle cousin cousins friend boy girl baby partner "
    "twins parents".split())
REVERSAL_HINT = re.compile(
    r"revers|backward|right[\s-]+to[\s-]+left|other way|opposite order|mirror|flipp?ed|in reverse")


class Chunks:
    """Digit chunks concatenated, "|" between runs that must not be joined, and the offsets where a
    chunk starts or ends: a secret made of whole chunks is found by `str.find`."""

    def __init__(self, runs: Iterable[list[str]]) -> None:
        parts: list[str] = []
        bounds: set[int] = set()
        offset = 0
        for run in runs:
            if not run:
                continue
            if parts:
                parts.append("|")
                offset += 1
            for chunk in run:
                bounds.add(offset)
                parts.append(chunk)
                offset += len(chunk)
            bounds.add(offset)
        self.digits = "".join(parts)
        self.bounds = bounds

    def holds(self, secret: str) -> bool:
        """`secret` equals whole consecutive chunks of one run."""
        at = self.digits.find(secret)
        while at >= 0:
            if at in self.bounds and at + len(secret) in self.bounds:
                return True
            at = self.digits.find(secret, at + 1)
        return False


@dataclass
class Analysis:
    """A normalised text cut into tokens, with its digit chunks classified once."""

    text: str
    tokens: list[str]
    starts: list[int]
    groups: list[list[str]]
    group_starts: list[int]  # token index of each group's first chunk
    bare: list[str]  # bare chunks in order
    counts: set[int]  # token indices of numbers that count things ("4 wires"), ages, amounts
    things: set[int]  # the subset that counts things or people: never a balance either
    at: dict[str, list[int]]  # token -> its indices
    reversed_hint: bool
    numbers: list[int]  # token indices of the digit chunks
    _skeleton: str | None = None
    _chunks: tuple[Chunks, Chunks] | None = None
    _hints: list[tuple[str, str, str]] | None = None
    _spelled: frozenset[str] | None = None
    _resume: _Resume | None = None

    @property
    def hints(self) -> list[tuple[str, str, str]]:
        """Positional hints ("starts with 96"), read once (`positional.hints`)."""
        if self._hints is None:
            self._hints = hints(self.text, self.at)
        return self._hints

    @property
    def chunks(self) -> tuple[Chunks, Chunks]:
        """The groups, and the bare chunks as one run (a chunk longer than a secret cannot
        lie inside a match of it, so it separates the pieces around it by itself)."""
        if self._chunks is None:
            self._chunks = (Chunks(self.groups), Chunks([self.bare]))
        return self._chunks

    @property
    def skeleton(self) -> str:
        """The letters of the text run together ("M a r i a" -> "maria")."""
        if self._skeleton is None:
            self._skeleton = "".join(t for t in self.tokens if t[0].isalpha())
        return self._skeleton


MONEY_WORDS = frozenset(
    "dollar dollars dolar dolares dollari dollaro bucks usd cents cent centavos centimes centesimi k grand "
    "chf eur euro euros franken francs pesos pounds quid yen reais rupees dlls".split())


def _is_count(tokens: list[str], starts: list[int], text: str, index: int) -> bool:
    """Whether the number at `index` counts things ("4 wires") or is an amount ("$20", "5%")."""
    before = tokens[index - 1] if index else ""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    if before[-1:] in ("$", "#") or after[:1] in ("%", "$"):
        return True
    if before in _COUNT_BEFORE and after[:1] == ":":  # "the last two: 69"
        return True
    if not after[:1].isalpha():
        return False
    end = starts[index] + len(tokens[index])
    if text[end:starts[index + 1]].strip():  # punctuation between: "4, then"
        return False
    if before in _COUNT_BEFORE and after in _COUNT_AFTER:
        return True
    return after not in CONNECTORS


def _is_age(tokens: list[str], index: int, previous_age: int) -> bool:
    """People counted or aged ("my son is 17", "I am 37", "we were 13"), and a number in the same
    place of a parallel phrase right after one ("my kids are 5 and 9")."""
    if len(tokens[index]) > 3:
        return False
    if previous_age >= 0 and index - previous_age in (2, 3) and tokens[index - 1] in ("and", ",", "or"):
        return True
    if (previous_age >= 0 and 2 <= index - previous_age <= 6 and index + 1 < len(tokens)
            and tokens[index + 1] == tokens[previous_age + 1] and tokens[index + 1].isalpha()):
        return True
    if index >= 2 and tokens[index - 1] in ("were", "are") and tokens[index - 2] in ("we", "they", "there"):
        return True
    if index >= 3 and tokens[index - 3:index] == ["i", "'", "m"]:  # "I'm 37"
        return True
    if index < 2 or tokens[index - 1] not in _AGE_VERBS:
        return False
    if tokens[index - 1] == "am":  # "I am 37"
        return tokens[index - 2] == "i"
    return any(tokens[i] in _PEOPLE for i in range(max(0, index - 4), index - 1))


def _tokenize(text: str, offset: int, tokens: list[str], starts: list[int], at: dict[str, list[int]],
              numbers: list[int]) -> None:
    """Append the tokens of `text` (found at `offset` of the whole text) to the lists."""
    index = len(tokens)
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        tokens.append(token)
        starts.append(offset + match.start())
        at.setdefault(token, []).append(index)
        if token[0].isdigit():
            numbers.append(index)
        index += 1


@dataclass
class _Resume:
    """Where sorting the chunks resumes when the text grows: before the chunks among its last
    two tokens, whose class depends on the tokens that follow them."""

    position: int  # in `Analysis.numbers`
    groups: int
    last_group: int
    bare: int
    previous_end: int
    previous_age: int


def _classify(text: str, tokens: list[str], starts: list[int], numbers: list[int], at: dict[str, list[int]],
              reversed_hint: bool, before: Analysis | None = None) -> Analysis:
    """The digit chunks (token indices `numbers`) sorted into groups, bare chunks and counts;
    with `before` (the analysis of a prefix, whose lists are taken over) only from its `_Resume`."""
    if before is None or before._resume is None:
        groups: list[list[str]] = []
        group_starts: list[int] = []
        bare: list[str] = []
        counts: set[int] = set()
        things: set[int] = set()
        first, previous_end, previous_age = 0, -1, -1
    else:
        resume = before._resume
        groups, group_starts, bare = before.groups, before.group_starts, before.bare
        del groups[resume.groups:], group_starts[resume.groups:], bare[resume.bare:]
        if groups:
            del groups[-1][resume.last_group:]
        counts, things = before.counts, before.things  # taken over: only the chunks read again leave them
        counts.difference_update(numbers[resume.position:])
        things.difference_update(numbers[resume.position:])
        first, previous_end, previous_age = resume.position, resume.previous_end, resume.previous_age
    resume_at = None
    for position in range(first, len(numbers)):
        index = numbers[position]
        if resume_at is None and index >= len(tokens) - 2:
            resume_at = _Resume(position, len(groups), len(groups[-1]) if groups else 0, len(bare), previous_end,
                                previous_age)
        token = tokens[index]
        end = starts[index] + len(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if following in ORDINAL_SUFFIXES and starts[index + 1] == end:
            previous_end = -1  # "1st", "23th": a position, not a value
            continue
        if following == ")" and len(token) <= 2 and index + 2 < len(tokens) and tokens[index + 2][0].isalpha():
            counts.add(index)  # "1) Withdraw 3) Deposit": labels of a list
            previous_end = -1
            continue
        if _is_age(tokens, index, previous_age):
            previous_age = index
            counts.add(index)
            things.add(index)
        elif _is_count(tokens, starts, text, index):  # a count still joins groups ("1 2 3 4 dollars")
            counts.add(index)
            if (following[:1].isalpha() and following not in CONNECTORS and following not in MONEY_WORDS
                    and len(following) > 1):  # a noun that is not money ("855 screws"), or "4 more"
                things.add(index)
        else:
            bare.append(token)
        gap = text[previous_end:starts[index]] if 0 <= previous_end and starts[index] - previous_end <= 5 else None
        joined = gap is not None and groups and (
            _JOIN_GAP.fullmatch(gap) or (_LIST_GAP.fullmatch(gap) and len(token) == 1 and len(groups[-1][-1]) == 1))
        if joined:
            groups[-1].append(token)
        else:
            groups.append([token])
            group_starts.append(index)
        previous_end = end
    if resume_at is None:
        resume_at = _Resume(len(numbers), len(groups), len(groups[-1]) if groups else 0, len(bare), previous_end,
                            previous_age)
    analysis = Analysis(text, tokens, starts, groups, group_starts, bare, counts, things, at, reversed_hint, numbers)
    analysis._resume = resume_at
    return analysis


def analyse(text: str) -> Analysis:
    """Tokens, digit groups and bare chunks of a normalised text (linear in its length)."""
    tokens: list[str] = []
    starts: list[int] = []
    at: dict[str, list[int]] = {}
    numbers: list[int] = []
    _tokenize(text, 0, tokens, starts, at, numbers)
    return _classify(text, tokens, starts, numbers, at, REVERSAL_HINT.search(text) is not None)


def extend(analysis: Analysis, more: str) -> Analysis:
    """The analysis of `analysis.text + more` (`more` starts with a turn break), reading only `more`
    and the last chunks before it; it takes over `analysis`'s lists (the tracker keeps the newest)."""
    first = len(analysis.tokens)
    _tokenize(more, len(analysis.text), analysis.tokens, analysis.starts, analysis.at, analysis.numbers)
    extended = _classify(analysis.text + more, analysis.tokens, analysis.starts, analysis.numbers, analysis.at,
                         analysis.reversed_hint or REVERSAL_HINT.search(more) is not None, analysis)
    if analysis._hints is not None:
        extended._hints = analysis._hints + hints(more, analysis.tokens[first:])
    if analysis._skeleton is not None:
        extended._skeleton = analysis._skeleton + "".join(t for t in analysis.tokens[first:] if t[0].isalpha())
    return extended


def mentions_digits(analysis: Analysis, secrets: tuple[str, ...]) -> bool:
    """A secret as whole chunks of one group, or (4+ digits) as consecutive bare chunks;
    reversed too when the text says so."""
    wanted = list(secrets) + ([s[::-1] for s in secrets] if analysis.reversed_hint else [])
    groups, bare_run = analysis.chunks
    return any(groups.holds(s) or (len(s) >= 4 and bare_run.holds(s)) for s in wanted)
