"""A Maze layout as people write it: a grid of characters or emoji, a table, or each row's walls (or
floor) as column numbers ("row 2: dark at columns 2-8"); a grid may also place the mouse and spheres."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from comma_env.agents.natural.tables import tables
from comma_env.puzzles.maze import FLOOR, SIZE, WALL

_FLOOR_MARKS = set(".Ww⬜_·o ") | {"□", "◻", "░"}
_WALL_MARKS = set("#Dd⬛■█X▓") | {"◼", "▪"}
ARROWS = {">": "right", "<": "left", "^": "up", "v": "down", "V": "down", "→": "right", "←": "left", "↑": "up",
           "↓": "down", "➡": "right", "⬅": "left", "⬆": "up", "⬇": "down"}
_MOUSE_MARKS = {"🐭", "M", "m", "🐁", "*", "@"} | set(ARROWS)
SPHERE_EMOJI = {"🔵": "blue", "🟦": "blue", "🔴": "red", "🟥": "red", "🟢": "green", "🟩": "green", "🟡": "yellow",
                 "🟨": "yellow"}
_SPHERE_LETTERS = {"B": "blue", "R": "red", "G": "green", "Y": "yellow"}
_TORUS_MARKS = {"O", "⭕", "◯", "○", "T", "0"}
_ROW_PREFIX = re.compile(r"^\s*(?:row\s*)?\d\s*[:.)|]?\s+|^\s*(?:row\s*)?\d\s*[:.)|]\s*", re.IGNORECASE)
_RANGE = re.compile(r"(\d)\s*(?:-|–|to)\s*(\d)|(\d)")


@dataclass
class Layout:
    """What a layout description says: the rows (``.`` floor, ``#`` wall) and the marks on a grid (1-based)."""

    rows: list[str]
    mouse: tuple[int, int] | None = None
    facing: str | None = None
    spheres: dict[str, tuple[int, int]] = field(default_factory=dict)


def _cells(segment: str) -> list[str] | None:
    """The nine cells of one grid row, or None."""
    chars = [c for c in segment if c not in "\ufe0f`"]
    if len(chars) == SIZE:
        return chars
    spaced = segment.split()
    return spaced if len(spaced) == SIZE and all(len(c) == 1 for c in spaced) else None


def _grid_rows(text: str, marks: set[str]) -> list[list[str]] | None:
    """Nine rows of nine cells of `marks` drawn as a grid: a Markdown table, lines, or " / " rows."""
    for table in tables(text):
        numbered = [[c or " " for c in row[1:]] for row in [table.header, *table.rows]
                    if len(row) == SIZE + 1 and re.fullmatch(r"\**\d\**", row[0])]
        if len(numbered) == SIZE:
            return numbered
    digits = "" if marks & set("01") else r"|\d{9}"  # digits are cells when the legend says so: "1 = wall"
    lines = [line for line in text.splitlines()
             if line.strip() and not re.fullmatch(rf"\s*(?:```\w*{digits})\s*", line)]
    for line in lines:
        parts = [p.strip() for p in re.sub(r"\s*\([^)]*\)\s*$", "", line).split(" / ")]
        if len(parts) == SIZE:
            found = [cells for cells in map(_cells, parts) if cells]
            if len(found) < SIZE:  # words before the first row and after the last: "...: .#.. / ... / ..#., the mouse"
                last = re.split(r"[\s,;]", parts[-1])[0]
                ends = [parts[0].split()[-1], *parts[1:-1], last[:SIZE] if last[SIZE:] == "." else last]
                found = [cells for cells in map(_cells, ends) if cells]
            if len(found) == SIZE:
                return found
    rows: list[list[str]] = []
    numbers: list[str] = []
    for line in lines:
        lead = re.match(r"\s*(\S{9}|(?:\S[ \t]){8}\S)(?=[\s,.;/]|$)", line)  # a row, then the sentence goes on
        cells = _cells(_ROW_PREFIX.sub("", line, count=1).strip()) or _cells(line.strip()) or \
            (_cells(lead.group(1)) if lead else None)
        if cells and sum(c in marks for c in cells) >= SIZE - 4:
            rows.append(cells)
            prefix = re.match(r"\s*(?:row\s*)?(\d)\s*[:.)|]", line, re.IGNORECASE)
            numbers.append(prefix.group(1) if prefix else "")
            if len(rows) == SIZE:  # rows numbered in another order ("from the BOTTOM: row 9: ...") go by number
                return [row for _, row in sorted(zip(numbers, rows, strict=True))] \
                    if sorted(numbers) == list("123456789") else rows
        elif rows:
            rows, numbers = [], []
    return None


def _numbers(text: str) -> list[int]:
    """The columns `text` names, one by one or as ranges ("2-4, 7")."""
    spans = [(int(m.group(1) or m.group(3)), int(m.group(2) or m.group(3))) for m in _RANGE.finditer(text)]
    return [v for low, high in spans for v in range(low, high + 1) if 1 <= v <= SIZE]


_ROW_TEXT = re.compile(r"\b(?:row|line|r)\s*(\d)\s*(?:have|has|:|-|is)?\s*([^;\n]*?)"
                       r"(?=;|\n|\.\s|\.$|$|\b(?:row|line|r)\s*\d)", re.IGNORECASE)  # "r2 open: 3 9"


def _legend(text: str) -> dict[str, str]:
    """Which mark is a wall and which floor: the text's legend ("x is wall") over the usual marks."""
    kinds = {c: WALL for c in _WALL_MARKS} | {c: FLOOR for c in _FLOOR_MARKS if c != " "}
    for mark, word in re.findall(r"(?<![A-Za-z])([^\s,(=:])[ \t]*(?:is|=|:|means|for)?[ \t]*(?:an?[ \t]+)?"
                                 r"(wall|dark|black|floor|white|open|path)\b", text, re.IGNORECASE):
        kinds[mark] = WALL if word.lower() in ("wall", "dark", "black") else FLOOR
    for one, other in ("01", "10"):  # "1 = wall" alone: the other digit is the other kind
        if one in kinds and other not in kinds:
            kinds[other] = FLOOR if kinds[one] == WALL else WALL
    return kinds


def _written_rows(text: str) -> list[str] | None:
    """Rows given as the columns of their walls or their floor, row by row."""
    rows: dict[int, str] = {}
    kinds = {mark.lower(): kind for mark, kind in _legend(text).items()}
    first = _ROW_TEXT.search(text)
    head = re.search(r"\b(?:(walls?|dark)|(open|white|floor))\b", text[:first.start()] if first else "", re.I)
    for match in _ROW_TEXT.finditer(text):
        index, says = int(match.group(1)), match.group(2).lower()
        if head and re.fullmatch(r"(?:[\d\s,\-–]|to|and)+|none|nothing|-", says.strip()):  # "Walls by row: row 2: 1, 4"
            says = f"{'walls' if head.group(1) else 'open'} {says.replace('none', '').replace('nothing', '')}"
        if not 1 <= index <= SIZE:
            continue
        letters = re.sub(r"[\s,.]", "", says)
        if len(letters) == SIZE and all(c in kinds for c in letters):  # "wwdwddwww", "oxxxooxoo"
            rows[index] = "".join(kinds[c] for c in letters)
        elif re.search(r"\b(?:all|entirely|completely|fully)\s+(?:white|open|floor)|\bno (?:walls|dark)", says):
            rows[index] = FLOOR * SIZE
        elif re.search(r"\b(?:all|entirely|completely|fully)\s+(?:dark|black|walls?)", says):
            rows[index] = WALL * SIZE
        elif re.search(r"\b(?:dark|black|walls?|blocked)\b", says):
            walls = set(_numbers(says.split("rest")[0]))
            rows[index] = "".join(WALL if c in walls else FLOOR for c in range(1, SIZE + 1))
        elif re.search(r"\b(?:open|white|floor|free)\b", says):
            floor = set(_numbers(says))
            rows[index] = "".join(FLOOR if c in floor else WALL for c in range(1, SIZE + 1))
    return [rows[i] for i in range(1, SIZE + 1)] if len(rows) == SIZE else None


def _by_columns(text: str) -> str:
    """`text` with a grid written column by column ("col 1: 000000000") as its rows."""
    columns = re.findall(r"(?im)^\s*col(?:umn)?\s*([1-9])\s*[:.)|=]\s*(\S{9})\s*$", text)
    if sorted(k for k, _ in columns) != list("123456789"):
        return text
    cells = [cells for _, cells in sorted(columns)]
    return "\n".join(f"row {r + 1}: " + "".join(column[r] for column in cells) for r in range(SIZE)) + "\n" + text


def read_layout(text: str, legend: dict[str, str]) -> Layout | None:
    """The layout in `text`; `legend` maps grid letters to sphere colours (B/R/G/Y by default)."""
    text = _by_columns(text)
    written = _written_rows(text)
    if written:
        return Layout(written)
    kinds = _legend(text)
    grid = _grid_rows(text, set(kinds) | {" "})
    if grid is None:
        return None
    letters = {**_SPHERE_LETTERS, **legend}
    layout = Layout([])
    for r, cells in enumerate(grid, start=1):
        row = []
        for c, cell in enumerate(cells, start=1):
            if kinds.get(cell) == WALL:
                row.append(WALL)
                continue
            row.append(FLOOR)
            if cell in _MOUSE_MARKS and cell not in letters:
                layout.mouse = (r, c)
                layout.facing = ARROWS.get(cell, layout.facing)
            elif cell in SPHERE_EMOJI:
                layout.spheres[SPHERE_EMOJI[cell]] = (r, c)
            elif cell in letters and cell not in _TORUS_MARKS:
                layout.spheres[letters[cell]] = (r, c)
        layout.rows.append("".join(row))
    return layout


def plausible(rows: list[str]) -> bool:
    """Whether `rows` can be the puzzle's maze: the odd squares are floor, and the floor a tree over them."""
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        return False
    rooms = all(rows[r][c] == FLOOR for r in range(0, SIZE, 2) for c in range(0, SIZE, 2))
    floor = sum(row.count(FLOOR) for row in rows)
    return rooms and floor == 2 * ((SIZE + 1) // 2) ** 2 - 1
