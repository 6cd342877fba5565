"""Button positions as people write them in a grid of rows and a left and a right column (Who: three
rows; Keypad, LED: two): "top left", "TL", "(row 2, col 1)", "the top row on the right", a row alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from comma_env.agents.natural.reading import number, ordinal

ROW_WORDS = {"top": "top", "upper": "top", "up": "top", "uppermost": "top", "topmost": "top", "middle": "middle",
             "center": "middle", "centre": "middle", "central": "middle", "mid": "middle", "bottom": "bottom",
             "lower": "bottom", "down": "bottom", "bottommost": "bottom", "lowest": "bottom", "under": "bottom",
             "bot": "bottom", "btm": "bottom", "high": "top", "low": "bottom"}
COLUMN_WORDS = {"left-hand": "left", "right-hand": "right", "lefthand": "left", "righthand": "right", "left": "left",
                "right": "right"}
ABBREVIATIONS = {"TL": ("top", "left"), "TR": ("top", "right"), "ML": ("middle", "left"), "MR": ("middle", "right"),
                 "BL": ("bottom", "left"), "BR": ("bottom", "right")}
"""Two-letter names, in capitals, or in lower case when several are ("br bl tl tr"); "UR" is a Who label."""
VOCABULARY = ("top", "middle", "bottom", "left", "right", "upper", "lower", "column", "row", "button", "corner")
READING = r"reading order|(?:read(?:ing)?\s+)?like (?:a book|a page|text)|the (?:way|order) (?:you|one|we) reads?"
"""Words that list a grid in reading order ("as I read them, like a book")."""

_ROW = "|".join(sorted(ROW_WORDS, key=len, reverse=True))
_COL = "|".join(COLUMN_WORDS)
_PAIR = re.compile(rf"\b({_ROW})(?:\s*row)?[\s-]*(?:and\s+|on\s+the\s+|-\s*)?({_COL})\b|\b({_COL})[\s-]+({_ROW})\b",
                   re.IGNORECASE)
_ROW_COL = re.compile(r"\(?\brow\s*(\d)\s*,?\s*(?:col(?:umn)?)\s*(\d)\)?|\br(\d)\s*c(\d)\b", re.IGNORECASE)
_ROW_ONLY = re.compile(rf"\b(?:(?:the|in|on|at)\s+)?({_ROW})(?:\s+(?:row|line|one|button|key|two|pair))\b|"
                       rf"\b(?:on|at|across|along|up|in(?=\s+the\s+\w+\s*[,:]))\s+(?:the\s+)?(top|bottom)\b|\bin\s+(?:the\s+)?(middle)\b|"
                       r"\b(below|underneath|beneath)(?=\s*[,.;)!\n]|\s*$)|"  # "T and Y up top, R and K below"
                       rf"\b(top|middle|bottom|upper|lower)(?=\s*:)|\(\s*(top|middle|bottom)\s*\)|(?:^|(?<=[,;:-])|(?<=[,;:-]\s))"
                       rf"(?-i:(?![A-Z]{{2}}))({_ROW})(?=\s{{2,}}|\s+(?-i:[^a-z\s]))",  # "top X/Y", a label blanked
                       re.IGNORECASE | re.MULTILINE)
_COL_ONLY = re.compile(rf"\b({_COL})(?:\s+(?:column|col|side|hand\s+side|one|button|key|letter))\b|"
                       rf"\b(?:on|to)\s+the\s+({_COL})\b|\(\s*({_COL})\s*\)|\b({_COL})\b(?=\s*[,;).!\n]|\s+and\b|\s*$)",
                       re.IGNORECASE)
_ABBREVIATION = re.compile(r"(?<![A-Za-z])(TL|TR|ML|MR|BL|BR)(?![A-Za-z])")
_ORDINAL_IN_COLUMN = re.compile(rf"\b(first|second|third|1st|2nd|3rd|last)\s+(?:button|one|key)?\s*(?:in|of|from)\s+"
                                rf"the\s+({_COL})\s+(?:column|col|side)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Place:
    """A position named at `start`..`end`; `row` or `col` is None when the words leave it open."""

    row: str | None
    col: str | None
    start: int
    end: int

    @property
    def key(self) -> str | None:
        """``"top_left"`` when both are known."""
        return f"{self.row}_{self.col}" if self.row and self.col else None


_ROW_NUMBER = re.compile(r"\brow\s*(\d|one|two|three)\b|\b(first|1st|second|2nd|third|3rd|last)\s+row\b", re.IGNORECASE)


def _nth(word: str, count: int) -> int:
    """The index of the row an ordinal or number names ("third", "3", "last"), -1 for none."""
    return (ordinal(word, count) or number(word) or 0) - 1


def places(text: str, rows: tuple[str, ...] = ("top", "middle", "bottom"), abbreviations: bool = True) -> list[Place]:
    """Every position named in `text`, in order (`rows` from the top; abbreviations only in capitals)."""
    found: list[Place] = []
    taken: list[tuple[int, int]] = []

    def add(row: str | None, col: str | None, start: int, end: int) -> None:
        if any(start < e and s < end for s, e in taken):
            return
        if row not in rows:  # "middle" in a grid of two rows leaves the row open
            row = None
        taken.append((start, end))
        found.append(Place(row, col, start, end))

    for match in _ROW_COL.finditer(text):
        r, c = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        if 1 <= int(r) <= len(rows) and int(c) in (1, 2):
            add(rows[int(r) - 1], ("left", "right")[int(c) - 1], match.start(), match.end())
    for match in _ROW_NUMBER.finditer(text):  # "Row 2: ...", "third row" (its column said apart)
        index = _nth(match.group(1) or match.group(2), len(rows))
        if 0 <= index < len(rows):
            add(rows[index], None, match.start(), match.end())
    for match in _ORDINAL_IN_COLUMN.finditer(text):
        index = _nth(match.group(1), len(rows))
        if 0 <= index < len(rows):
            add(rows[index], COLUMN_WORDS[match.group(2).lower()], match.start(), match.end())
    for match in _PAIR.finditer(text):
        row, col = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        add(ROW_WORDS[row.lower()], COLUMN_WORDS[col.lower()], match.start(), match.end())
    if abbreviations:
        lower = list(re.finditer(r"(?<![A-Za-z])(tl|tr|ml|mr|bl|br)(?![A-Za-z])", text))
        for match in [*_ABBREVIATION.finditer(text), *(lower if len(lower) > 1 else [])]:  # "br bl tl tr" too
            row, col = ABBREVIATIONS[match.group(1).upper()]
            add(row, col, match.start(), match.end())
    for match in _ROW_ONLY.finditer(text):
        word = next(g for g in match.groups() if g)
        add(ROW_WORDS.get(word.lower(), "bottom"), None, match.start(), match.end())
    for match in _COL_ONLY.finditer(text):
        word = next(g for g in match.groups() if g)
        add(None, COLUMN_WORDS[word.lower()], match.start(), match.end())
    return _joined(text, sorted(found, key=lambda p: p.start))


_JOIN = re.compile(r"\s*(?:(?:button|key|one|square)\s*)?(?:(?:in|on|at|of)\s+)?(?:the\s+)?", re.IGNORECASE)


def _joined(text: str, found: list[Place]) -> list[Place]:
    """A row and a column named one after the other ("the top row on the right") as one position."""
    joined: list[Place] = []
    for place in found:
        last = joined[-1] if joined else None
        named = r"(?:row|column|col|side)$"  # "Right column, middle row"
        if (last is not None and (_JOIN.fullmatch(text[last.end:place.start]) or (
                re.fullmatch(r"\s*,\s*", text[last.end:place.start]) and re.search(named, text[last.start:last.end])
                and re.search(named, text[place.start:place.end])))
                and ((last.row and not last.col and place.col and not place.row)
                     or (last.col and not last.row and place.row and not place.col))):
            joined[-1] = Place(last.row or place.row, last.col or place.col, last.start, place.end)
        else:
            joined.append(place)
    return joined


def positions(rows: tuple[str, ...] = ("top", "middle", "bottom")) -> list[str]:
    """Every position of the grid in reading order (``top_left``, ``top_right``, ...)."""
    return [f"{row}_{col}" for row in rows for col in ("left", "right")]


def matching(place: Place, rows: tuple[str, ...]) -> set[str]:
    """The positions a place can mean (a row alone: both of its buttons)."""
    return {p for p in positions(rows) if (place.row is None or p.startswith(place.row + "_"))
            and (place.col is None or p.endswith("_" + place.col))}


def blanked(text: str, found: Sequence[Any]) -> str:
    """`text` with each thing `found` in it (a label, a symbol, a letter: its `start`..`end`) blanked in place."""
    masked = list(text)
    for thing in found:
        masked[thing.start:thing.end] = " " * (thing.end - thing.start)
    return "".join(masked)


_FILLER = re.compile(r"[\s:=,.?\-]*(?:(?:one|button|key|label|labell?ed|says|reads|shows|has|have|is|with|the|"
                     r"word|written|it|i|think|believe|maybe|a|an|that|symbol|sign|letter|glyph|looks|like|there'?s|there|"
                     r"probably|pretty|sure|guess)[\s:=,.?\-]*)*", re.IGNORECASE)
_TIGHT_AFTER = re.compile(r"(?:\s+corner\b)?"  # "in the top left corner there's a dagger"
                          r"(?:\s*[:=\-]?\s*(?:(?:is|has|have|shows|says|reads|there'?s|there is)\s+)?"
                          r"(?:(?:a|an|the|that)\s+)?|"
                          r"\s*(?:wrong|incorrect)?\s*[-,:;]?\s*(?:it'?s|it is|should be|is actually|is really)\s+"
                          r"(?:(?:a|an|the)\s+)?|"
                          r"\s*[:=]\s*(?:(?:a|an|the)\s+)?|\s+(?:key|button|one)\s+(?:is|has|shows|says)\s+(?:(?:a|an|the)\s+)?)"
                          r"(?:(?:little|small|tiny|big|large|hollow|solid|black|white|dark)\s+)?", re.IGNORECASE)
_TIGHT_BEFORE = re.compile(r"\s*(?:symbol|sign|one|key|button)?\s*\(?\s*|"
                           r"\s+(?:(?:symbol|sign|one|thing|shape|icon)\s+)?(?:(?:is|are|sits?)\s+(?:(?:on|in|at)\s+)?|(?:on|in|at)\s+)(?:the\s+)?",
                           re.IGNORECASE)


def assign(text: str, found_places: Sequence[Place], things: Sequence[Any],
           rows: tuple[str, ...] = ("top", "middle", "bottom")) -> dict[str, Any]:
    """Which thing is at which position ("top left: X", "X (top left)", "top row: X and Y", "left column,
    top to bottom: X, Y, Z", "top left, top right: X, Y"): position -> thing, the thing objects as given."""
    tokens: list[Any] = sorted([*found_places, *things], key=lambda t: t.start)
    keys = [t.key for t in found_places if t.key]
    kinds = [isinstance(t, Place) for t in tokens]
    if len(things) == len(found_places) == len(keys) == len(set(keys)) >= 2 and kinds in (
            sorted(kinds), sorted(kinds, reverse=True)):  # every place, then as many things (or the other way round)
        return dict(zip(keys, [t for t in tokens if not isinstance(t, Place)], strict=True))
    placed: dict[str, Any] = {}
    used: set[int] = set()
    row: str | None = None
    col: str | None = None
    run: list[Any] = []

    def take(key: str, thing: Any) -> None:
        if key not in placed and id(thing) not in used:
            placed[key] = thing
            used.add(id(thing))

    def flush() -> None:
        nonlocal run
        free = [t for t in run if id(t) not in used]
        if row and len(free) == 2:
            take(f"{row}_left", free[0])
            take(f"{row}_right", free[1])
        elif col and len(free) == len(rows):
            for r, thing in zip(rows, free, strict=True):
                take(f"{r}_{col}", thing)
        run = []

    for index, token in enumerate(tokens):
        if not isinstance(token, Place):
            run.append(token)
            continue
        prev = tokens[index - 1] if index else None
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.row and not token.col:
            before = [t for t in run if id(t) not in used]
            if len(before) == 2 and not row and not col:  # "X and Y on top"
                take(f"{token.row}_left", before[0])
                take(f"{token.row}_right", before[1])
                run = []
                continue
            flush()
            row, col = token.row, None
            continue
        key = token.key or (f"{row}_{token.col}" if row and token.col else None)
        if token.row and token.col:
            row = token.row  # "top left: X, next to it on the right: Y"
        if token.col and not token.row and not key:
            flush()
            col, row = token.col, None
            continue
        after = text[token.end:nxt.start] if nxt is not None and not isinstance(nxt, Place) else None
        before_gap = text[prev.end:token.start] if prev is not None and not isinstance(prev, Place) \
            and id(prev) not in used else None
        tight_after = after is not None and _TIGHT_AFTER.fullmatch(after) is not None
        tight_before = before_gap is not None and _TIGHT_BEFORE.fullmatch(before_gap) is not None
        if key and tight_after and (not tight_before or re.search(r"[:=]|says|reads|shows|has", after or "")):
            take(key, nxt)
        elif key and tight_before:
            take(key, prev)
        elif key and after is not None and _FILLER.fullmatch(after) and "(" not in after and not (
                nxt is not None and index + 2 < len(tokens) and isinstance(tokens[index + 2], Place)
                and _TIGHT_BEFORE.fullmatch(text[nxt.end:tokens[index + 2].start])):  # "X top left, Y top right"
            take(key, nxt)
    flush()
    return placed


def by_lines(text: str, find: Any, rows: tuple[str, ...], placed: dict[str, Any]) -> dict[str, Any]:
    """Grids drawn one row per line (ASCII art, emoji, tables): a line with two things (`find(line)`) is
    the next row not in `placed` yet, or the row its first cell names (a cell of its own: Who's label
    MIDDLE is no row name)."""
    placed = dict(placed)
    for line in text.splitlines():
        cells = [c.strip().lower() for c in line.strip().strip("|").split("|")] if "|" in line else None
        things = find(line)
        if len(things) != 2 or not (cells or not places(line, rows)) or len(re.findall(r"[a-z]{2,}", blanked(
                line, things).lower())) > 4:  # "omega and the mirror R are glowing" is prose, not a row drawn
            continue
        target = ROW_WORDS.get(cells[0]) if cells and len(cells) > len(things) else None  # "| middle | A | B |"
        target = target or next((r for r in rows if f"{r}_left" not in placed and f"{r}_right" not in placed), None)
        if target in rows:
            placed.setdefault(f"{target}_left", things[0])
            placed.setdefault(f"{target}_right", things[1])
    return placed


_STEPS = (("above", (-1, 0)), ("over", (-1, 0)), ("below", (1, 0)), ("under", (1, 0)), ("beneath", (1, 0)),
          ("left", (0, -1)), ("right", (0, 1)), ("diagonal", (0, 0)), ("across", (0, 0)), ("opposite", (0, 0)))
_RELATION = (r"\b(?:just |right |directly |immediately )?(above|over|below|under(?:neath)?|beneath|"
             r"(?:to the )?left of|(?:to the )?right of|diagonal(?:ly)?(?: across)?(?: from| to)?|across from|"
             r"opposite(?: to)?)\s+(?:the\s+)?(?:(?:one|button|key|letter)\s+(?:labell?ed|marked|with|that says)\s+)?")


def landmarks(text: str, anchors: dict[tuple[int, int], str], name: Any) -> tuple[str, str | None]:
    """`text` with a place given by a landmark ("the letter above F", "diagonally across from W") named as
    `name((row, column))` says it (`anchors`: each place's regex); a landmark with nothing there gives a question."""
    size = (max(r for r, _ in anchors) + 1, max(c for _, c in anchors) + 1)
    for (row, col), anchor in anchors.items():
        pattern = re.compile(_RELATION + rf"(?:{anchor})")
        match = pattern.search(text)
        while match:
            word = match.group(1).lower()
            dr, dc = next(step for key, step in _STEPS if key in word)
            if (size[0] == 1 and dr) or (size[1] == 1 and dc):  # "the arrow above window 1": not among these places
                match = pattern.search(text, match.end())
                continue
            if (dr, dc) == (0, 0):  # diagonally across: only one place in a grid of two by two
                target = (1 - row, 1 - col) if size == (2, 2) else None
            else:
                target = (row + dr, col + dc) if (row + dr, col + dc) in anchors else None
            if target is None:
                return text, f'There is nothing {match.group(0).strip()} on my module. Which one do you mean?'
            text = text[:match.start()] + name(target) + text[match.end():]
            match = pattern.search(text)
    return text, None
