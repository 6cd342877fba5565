"""Color in plain English: the grid (`color_grid`); the expert tracks the stages itself (the group it
advised, the squares typed). Advice names squares by place, colour, corner, number, row or column."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from comma_env.agents.natural.color_grid import PALETTE, ROW_WORDS, SIZE, read_grid
from comma_env.agents.natural.colours import sounds_like
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, fact, unknown
from comma_env.agents.natural.reading import HEDGES, ORDINAL_WORDS, number, plain
from comma_env.agents.natural.words import choose, say_number, say_ordinal
from comma_env.puzzles.color import CELLS, COLORS, GROUPS, WHITE, action_name, cell_of, group_cells, stage_group

VOCABULARY = ("row", "column", "square", "squares", "grid", "white", "magenta", "yellow", "green", "then", "and", "the")


class ColorPhrases(Phrasebook):
    relations = r"\b(?:beside|adjacent|neighbou?r(?:ing)?|nearest|close to|whichever|one of (?:the|those|them|these))\b"
    """Relations it does not resolve (its reader places ends of rows itself)."""

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        squares, unsure_axes = read_grid(re.sub(r"\bline(?=\s*[1-4]\b)", "row", sounds_like(plain(text, VOCABULARY)),
                                                flags=re.I))
        grid: list[Any] = list(state.get("grid") or [None] * CELLS)
        for index, options in squares.items():
            grid[index] = options
        state["grid"] = grid
        state["axes"] = unsure_axes or state.get("axes", False) and not squares

    def typed(self, actions: list[str], memory: Memory) -> None:
        """Pressed squares turn white; a finished stage recolours the rest."""
        state, notes = memory["state"], memory["notes"]
        grid: list[Any] = list(state.get("grid") or [None] * CELLS)
        stage = notes.get("stage")
        if stage is None and all(g and len(g) == 1 for g in grid):
            flat = [g[0] for g in grid]
            group = stage_group(flat, notes.get("previous_group"))
            stage = notes["stage"] = {"group": group, "cells": group_cells(flat, group)}
        typed = set(notes.get("typed", []))
        notes["unread_group"] = notes.get("unread_group") or (  # squares pressed while their colours were unread
            stage is None and bool(actions) and notes.get("previous_group") is None)
        for action in actions:
            try:
                typed.add(cell_of(action))
                grid[cell_of(action)] = (WHITE,)
            except (ValueError, IndexError):
                continue
        notes["typed"] = sorted(typed)
        if stage and set(stage["cells"]) <= typed:
            notes["previous_group"], notes["unread_group"] = stage["group"], False
            notes["stage"], notes["typed"] = None, []
            grid = [g if g == (WHITE,) else None for g in grid]  # the other squares may change colour
        state["grid"] = grid

    def belief(self, memory: Memory) -> State:
        grid = memory["state"].get("grid") or [None] * CELLS
        every = (*COLORS, WHITE) if any(g == (WHITE,) for g in grid) else COLORS
        cells = [fact(options, f"the square in row {i // SIZE + 1}, column {i % SIZE + 1} is",
                      f"the colours of row {i // SIZE + 1}", every) for i, options in enumerate(grid)]
        rows: Any = [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]
        if memory["notes"].get("unread_group") and any(g == (WHITE,) for g in grid) and \
                all(isinstance(c, str) for c in cells):  # the rows first, then this
            rows = unknown("which colour the squares you pressed had before they turned white", [rows])
        elif memory["state"].get("axes") and all(isinstance(c, str) for c in cells):
            columns = [[cells[r * SIZE + c] for r in range(SIZE)] for c in range(SIZE)]
            rows = unknown("whether you listed rows or columns", [rows, columns])
        return {"square_colors_by_row": rows}

    def answers(self, state: State, notes: dict[str, Any]) -> list[list[str]]:
        grid = [str(c) for row in state["square_colors_by_row"] for c in row]
        if grid.count(WHITE) == CELLS:
            return []
        stage, typed = notes.get("stage"), set(notes.get("typed", []))
        if stage and typed and not set(stage["cells"]) <= typed:  # half way through a stage
            return [[action_name(c) for c in stage["cells"] if grid[c] != WHITE]]
        if notes.get("unread_group") and grid.count(WHITE):
            return []  # the group pressed before is unknown: the manual's next group depends on it
        previous = notes.get("previous_group") if grid.count(WHITE) else None
        group = stage_group(grid, previous)
        return [[action_name(c) for c in group_cells(grid, group)]]

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        grid = [str(c) for row in state["square_colors_by_row"] for c in row]
        return any(c != WHITE for c in grid)

    def advised(self, advice: list[str], memory: Memory) -> None:
        """Remember the stage advised: its group and squares (for the stages after it)."""
        notes = memory["notes"]
        if notes.get("stage") and notes.get("typed"):
            return  # the rest of a stage already under way
        grid = [g[0] if g else "?" for g in memory["state"].get("grid") or [None] * CELLS]
        cells = sorted(cell_of(a) for a in advice)
        fits = [g for g in GROUPS if sorted(group_cells(grid, g)) == cells]  # a colour may also be the row
        whites = grid.count(WHITE)
        ruled = stage_group(grid, notes.get("previous_group") if whites else None) if "?" not in grid else None
        group = ruled if ruled in fits else next(iter(fits), None)
        notes["stage"] = {"group": group or "?", "cells": cells}
        notes["typed"] = []

    def facts(self, memory: Memory) -> list[str]:
        return [*super().facts(memory), f"previous group: {memory['notes'].get('previous_group')}"]

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        _, row, col = action.split("_")
        r, c = int(row), int(col)
        rows = seen["square_colors_by_row"]
        color = rows[r - 1][c - 1] if isinstance(rows, list) else None
        options = [f"Press the square in row {say_number(r, rng)}, column {say_number(c, rng)}.",
                   f"Tap the {say_ordinal(c, rng)} square of the {say_ordinal(r, rng)} row."]
        if isinstance(color, str):
            options += [f"Press the {color} square at row {r}, column {c}."]
        return choose(rng, options)

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        rows = state["square_colors_by_row"]
        lines = [f"Row {r}: {', '.join(row)}." for r, row in enumerate(rows, start=1)]
        return choose(rng, ("The grid, top row first:\n", "Here are the squares row by row:\n")) + "\n".join(lines)

    def understand(self, text: str, puzzle: Any) -> Steps:
        grid = [str(c) for row in puzzle.visible_state()["square_colors_by_row"] for c in row]
        low = re.sub(r"\bupper\b", "top", re.sub(r"\blower\b", "bottom", plain(text, VOCABULARY).lower()))
        low = re.sub(r"\b[a-z]+ (?:has|have|covers?) the (?:fewest|most)\b[^,.;:(]*(?:\([^)]*\))?", " ", low)  # a count
        if HEDGES.search(low) or re.search(r"\bother side\b|\bfewest\b|\bnext to\b", low):
            return Steps.unclear("Which squares exactly (row and column)?")
        head = re.match(r"\s*(?:[\w ,!]*?)(?:press|tap|hit|want|again|you still have)[^:]*?:", low)
        context = [m.options[0] for m in PALETTE.mentions(head.group(0))] if head else []
        numbered = re.search(r"\bsquares?\s+((?:1[0-6]|[1-9])(?:\s*(?:,|and|&)\s*(?:1[0-6]|[1-9]))*)\b", low)
        if numbered and re.search(r"\bcounting\b|\bnumbered\b|\b1\s*(?:-|–|to)\s*16\b", low):
            return Steps([action_name(int(n) - 1) for n in re.findall(r"\d+", numbered.group(1))])
        pairs = re.findall(r"\(\s*([1-4])\s*,\s*([1-4])\s*\)", low)
        if pairs and not re.search(r"\bpress\b[^.]*\b(?:row|col(?:umn)?)\s*\d", low):  # "(3,1) and (3,4)"
            flip = bool(re.search(r"\(\s*(?:col(?:umn)?|x)\s*,\s*(?:row|y)\s*\)", low))
            coordinates = [(int(b), int(a)) if flip else (int(a), int(b)) for a, b in pairs]
            return Steps([action_name((r - 1) * SIZE + c - 1) for r, c in coordinates])
        low = re.sub(rf"\b({_ROW}),?\s+(?:the\s+)?({_NTH})\s+and\s+(?:the\s+)?({_NTH})\s+(?:squares|ones)\b",
                     r"\1 \2 square and \1 \3 square", low)  # "second row, second and third squares": each in the row
        low = re.sub(rf"\b(?:the\s+)?(first|last|left|right)(?:-?most)?\s+(two|three|2|3)\s+(?:squares|ones)\s+"
                     rf"(?:of|in)\s+(?:the\s+)?({_ROW})\b", _run_in_row, low)  # "the first two squares of row 2"
        low = re.sub(r"\b(?:what'?s|what is|everything|whatever(?:'?s)?|the (?:ones|squares))\s+"
                     r"(?:that'?s\s+|that are\s+)?(?:is\s*|are\s*)?(?:still\s+)?"
                     r"(?:(?:not|n'?t)\s+white|colou?red|left|remaining)\b|\bnon-?white\b|"
                     r"\b(?:the\s+)?(?:still[- ])?(?:colou?red|remaining)\s+(?:ones|squares)\b", " all ", low)
        if len(_TALLY.findall(low)) >= 2:  # "Counting: red 3, blue 4, no green": counts, not squares
            low = re.sub(rf"{_TALLY.pattern}|\bno\s+(?:{PALETTE.pattern.pattern})", " ", low)
        low = _NOT_WHITE.sub(" ", _EARLIER.sub(" ", low))
        cells = _cells(low[head.end():] if head else low, grid, context)
        stated = _STATED.search(low)
        if isinstance(cells, list) and stated and len(cells) != number(stated.group(1) or stated.group(2)):
            cells = _cells(low[stated.end():], grid, context)  # "greens: two of them - top row second, ..."
            if isinstance(cells, list) and len(cells) != number(stated.group(1) or stated.group(2)):
                return Steps.unclear(f"You said {stated.group(0)}, and I read {len(cells)}. Which squares exactly?")
        if isinstance(cells, str):
            return Steps.unclear(cells)
        if not cells:
            if head and context:
                same = [i for i, g in enumerate(grid) if g == context[0]]
                return Steps([action_name(i) for i in same]) if same else Steps.unclear("I see no such squares.")
            return Steps.unclear("Which squares should I press?") if re.search(r"\b(?:press|tap|hit)\b", low) \
                else Steps()
        return Steps([action_name(i) for i in cells])


def _cells(low: str, grid: list[str], context: list[str]) -> list[int] | str:
    """The squares named phrase by phrase, in order, or a question about one of them."""
    cells: list[int] = []
    phrases = [p.strip() for p in re.split(r"[;.\n]|,(?!\s*col)|\bthen\b|\band\b(?! column\b)", low)]
    index = 0
    while index < len(phrases):
        beside = _BESIDE.search(phrases[index])
        found = _beside(beside, cells[-1] if cells else None) if beside else _square_refs(phrases[index], grid,
                                                                                          context[:1])
        back = _square_refs(f"{phrases[index - 1]} {phrases[index]}", grid, context[:1]) if index and re.search(
            r"\b(?:place|position|spot)\b", phrases[index]) else None
        if isinstance(found, str) and isinstance(back, list) and set(back) <= set(cells):
            found = None  # "one in the second row, third place": the place of the square just named
        if isinstance(found, str) and index + 1 < len(phrases):  # "in the bottom row, second from the left"
            joined = _square_refs(f"{phrases[index]} {phrases[index + 1]}", grid, context[:1])
            if isinstance(joined, list):
                found, index = joined, index + 1
        restated = re.fullmatch(r"(?:the|that'?s the|it'?s the|which is the)\s+(\w+)\s+(?:one|square)",
                                phrases[index])
        index += 1
        if found is None or restated and cells and (grid[cells[-1]],) == PALETTE.one(restated.group(1)):
            continue  # "row 2 column 3, the blue one"
        if isinstance(found, str):
            return found
        cells += [c for c in found if c not in cells]
    return cells


_STATED = re.compile(r"\b(?:they are|there are|these are)\s+(two|three|four|2|3|4)\b|"
                     r"\b(two|three|four|2|3|4) of them\b")
"""How many squares the advice says it names ("They are three: ...", "Two of them - ...")."""
_NOT_WHITE = re.compile(r"\(?\b(?:(?:skip|except|ignore|not|leave out|but not)\s+(?:the\s+)?white\s+"
                        r"(?:one|ones|squares?)\b(?:\s+in\s+(?:row|col(?:umn)?)\s*\d)?|"
                        r"(?:that|which)\s+(?:isn'?t|aren'?t|is not|are not)\s+white(?:\s+yet)?)\)?")
"""A white square ruled out ("skip the white one in row 2", "that isn't white yet"): no white square is pressed."""
_EARLIER = re.compile(r"\b(?:the\s+)?(?:previous|last|prior|earlier|preceding)\s+(?:group|stage|colou?r|round)\s*"
                      r"(?:was|were|is|:|=)\s*(?:the\s+)?[a-z]+\b")
"""The group of the stage before, said as a reason ("previous group was red, so ..."): no square to press."""
_TALLY = re.compile(rf"(?:{PALETTE.pattern.pattern})\W{{0,3}}\d{{1,2}}\b(?!\s*(?:st|nd|rd|th|,?\s*col))")
"""A colour's count in a tally ("red 3", "- Blue: 4"), said before the advice as its reason."""
_NTH = r"(?:first|second|third|fourth|last|[1-4](?:st|nd|rd|th))"
_ROW = rf"(?:top|bottom|{_NTH})\s+row|row\s*[1-4]"

_BESIDE = re.compile(r"\b(under|below|beneath|above|over|left of|right of)\s+(?:it|that(?: one| square)?|this one)\b|"
                     r"\b(?:to|on|at) its (left|right)\b|(?<=one )(?:under|below|beneath|above)(?=\s*$)")
"""A square named from the one just named ("the square right under it", "the one to its left")."""


def _beside(match: re.Match[str] | None, last: int | None) -> list[int] | str:
    """The square `match` names beside square `last`, or a question when there is none."""
    word = match and (match.group(1) or match.group(2) or match.group(0))
    step = {"under": SIZE, "below": SIZE, "beneath": SIZE, "above": -SIZE, "over": -SIZE}.get(word or "", 0) or \
        (1 if "right" in (word or "") else -1)
    to = (last or 0) + step
    if last is None or not 0 <= to < CELLS or abs(step) == 1 and to // SIZE != last // SIZE:
        return "Which square do you mean, by row and column?"
    return [to]


def _square_refs(phrase: str, grid: list[str], context: list[str]) -> list[int] | str | None:
    """The squares one phrase names, a question when it is ambiguous, or None."""
    if not phrase or re.fullmatch(r"(?:all|both)(?: (?:two|three|four|[2-4]))?(?: of them| squares| ones)?"
                                  r"(?:,? top to bottom)?|them all|(?:there should be|that'?s) .*", phrase):
        return None  # refers back to the squares just named
    row = re.search(r"\brow\s*([1-4])\b|\b(top|bottom|first|second|third|fourth|last|[1-4](?:st|nd|rd|th))\s+row\b|"
                    r"\brow\s+(one|two|three|four)\b", phrase)
    col = re.search(r"\bcol(?:umn)?\s*([1-4])\b|\b(first|second|third|fourth|last|[1-4](?:st|nd|rd|th))\s+column\b|"
                    r"\b(left|right)(?:[- ]?most|[- ]hand)?\s+column\b", phrase)
    r = _index(row) if row else None
    c = _index(col) if col else None
    ranked = re.search(r"\b(first|second|third|fourth|last|\d(?:st|nd|rd|th))\s+(?:square|one|place|position|spot)\b"
                       r"(?:\s+(?:from|counting from)\s+(?:the\s+)?(left|right))?|"
                       r"\b(second|third)\s+from\s+(?:the\s+)?(left|right)\b|\b(right|left) end\b|\bthe end\b", phrase)
    if ranked and c is None:
        word = ranked.group(1) or ranked.group(3)
        side = ranked.group(2) or ranked.group(4) or ("right" if ranked.group(5) == "right" or "end" in ranked.group(0)
                                                      else "left")
        k = 1 if ranked.group(5) or ranked.group(0) == "the end" else \
            ORDINAL_WORDS.get(word or "") or (SIZE if word == "last" else int((word or "1")[0]))
        c = k if side == "left" else SIZE + 1 - k
    corner = re.search(r"\b(top|bottom)[- ](left|right)\b|\bboth corners of the (top|bottom) row\b", phrase)
    if corner and corner.group(3):
        base = 0 if corner.group(3) == "top" else (SIZE - 1) * SIZE
        return [base, base + SIZE - 1]
    if corner:
        r = 1 if corner.group(1) == "top" else SIZE
        c = 1 if corner.group(2) == "left" else SIZE
    mentions = PALETTE.mentions(phrase)
    unsure = next((m for m in mentions if len(m.options) > 1), None)
    if unsure and all(len(m.options) > 1 for m in mentions):  # "the teal squares": blue or green?
        return f'By "{phrase[unsure.start:unsure.end]}" do you mean {" or ".join(unsure.options)}?'
    colours = [m.options[0] for m in mentions if len(m.options) == 1] or \
        (context if re.search(r"\b(?:one|ones|the \w+ in|the (?:two|three|four) in)\b", phrase) else [])
    if r is None and c is None and (colours[:1] == [WHITE] or not colours and not re.search(r"\bwhole|\ball\b",
                                                                                                phrase)):
        return None  # nothing named, or a remark on the white squares ("you now have two white squares")
    candidates = [i for i in range(CELLS) if (r is None or i // SIZE + 1 == r) and (c is None or i % SIZE + 1 == c)
                  and (not colours or grid[i] == colours[0]) and grid[i] != WHITE]
    if r is not None and c is not None:
        there = grid[(r - 1) * SIZE + c - 1]
        return candidates or f"The square at row {r}, column {c} is {there}. Which square do you mean?"
    unplaced = re.sub(r"\b(?:row|col(?:umn)?|square)\s*\d", " ", phrase)
    count = re.search(r"\b(two|three|four|2|3|4|both|only one|one)\b(?!\s+(?:of|more|whites?)\b)", unplaced)
    named = re.search(r"\b(?:all|every|each|group|whole|both|them|ones|squares|reds|blues|greens|yellows|magentas|"
                      r"crimsons)\b", phrase)
    plural = named or bool(count and count.group(1) not in ("one", "only one"))
    if count and count.group(1) not in ("one", "only one") and len(candidates) != (number(count.group(1)) or 2):
        return f"I see {len(candidates)} of those, not {count.group(1)}. Which squares do you mean?"
    if not plural and len(candidates) != 1:
        return "Which square do you mean?" if candidates else "I don't see such a square. Which one do you mean?"
    return candidates or "I don't see such squares. Which ones do you mean?"


def _index(match: re.Match[str]) -> int:
    word = next(g for g in match.groups() if g)
    return int(word[0]) if word[0].isdigit() else {**ROW_WORDS, "left": 1, "right": SIZE}[word]


def _run_in_row(match: re.Match[str]) -> str:
    """"the first two squares of row 2" as one square at a time ("row 2 first square and row 2 second square")."""
    n = number(match.group(2)) or 2
    places = range(1, n + 1) if match.group(1) in ("first", "left") else range(SIZE - n + 1, SIZE + 1)
    return " and ".join(f"{match.group(3)} {('first', 'second', 'third', 'fourth')[k - 1]} square" for k in places)

