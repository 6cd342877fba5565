"""A Color grid as people write it (rows of colour words, letters, emoji, JSON, numbered squares,
corners, single squares put right): each square a tuple of colour options, or None when not said."""

from __future__ import annotations

import json
import re

from comma_env.agents.natural.colours import Palette, drop_negated
from comma_env.agents.natural.reading import HEDGES, ORDINAL_WORDS, SMALL_NUMBERS, number

SIZE = 4
PALETTE = Palette(("red", "blue", "green", "yellow", "magenta", "white"))
LETTERS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "M": "magenta", "W": "white", "P": "magenta"}
Cell = tuple[str, ...] | None
ROW_WORDS = {**SMALL_NUMBERS, **ORDINAL_WORDS, "top": 1, "bottom": SIZE, "last": SIZE}
_MARK = re.compile(r"\b(?:row\s*([1-4]|one|two|three|four)\b(?:\s*\((?:top|bottom)\))?|(top|first|second|third|fourth|"
                   r"bottom|last|[1-4](?:st|nd|rd|th))\s+(?:row|line)\b|(?<![A-Za-z,] )\b(top|first|second|third|"
                   r"fourth|bottom|last|[1-4](?:st|nd|rd|th))(?=\s*:)|(first|second|third|fourth|1st|2nd|3rd|"
                   r"4th)\s+line\b|"
                   rf"(?:^|(?<=[.;]\s))(second|third|fourth|last|bottom|2nd|3rd|4th)(?=\s+(?:{PALETTE.pattern.pattern})\b)|"
                   r"(the row above it|the row below it))|(?m:^\s*([1-4])\s*[.):]\s)|(?m:^\s*-\s+)", re.IGNORECASE)
_COUNTED = re.compile(r"\b(two|three|four|2|3|4|both)\s+(?:of\s+the\s+)?(\w+)\b(?:\s+ones?)?")


def _cells(chunk: str) -> list[Cell]:
    """The squares one row's words give, in order ("blue and then three greens")."""
    chunk = re.sub(r"\b(?:i honestly |i )?can'?t tell if it'?s [a-z]+ or [a-z]+,?", " ", chunk, flags=re.IGNORECASE)
    found: list[tuple[int, int, tuple[str, ...]]] = []  # (where, how many, colour options)
    taken: list[tuple[int, int]] = []
    for match in _COUNTED.finditer(chunk):
        options = PALETTE.one(match.group(2))
        if options:
            count = 2 if match.group(1).lower() == "both" else number(match.group(1)) or 0
            found.append((match.start(), count, options))
            taken.append((match.start(), match.end()))
    for mention in PALETTE.mentions(chunk):
        if not any(s <= mention.start < e for s, e in taken):
            found.append((mention.start, 1, mention.options))
    return [options for _, count, options in sorted(found) for _ in range(count)]


def _lines(text: str) -> list[list[Cell]] | None:
    """Rows drawn as letters or emoji, one per line or split by " / " or "; "."""
    pieces = [p for line in text.splitlines() for p in re.split(r"[.!?](?:\s|$)", re.sub(r"\([^)]*\)", " ", line))]
    for line in pieces:  # a sentence at a time, a legend in brackets left out: "(R red, B blue)"
        parts = [re.sub(r"^r(?:ow)?\s*[1-4]\b\W*", "", p.strip(), flags=re.I)  # "r1 red blu grn grn / r2 ..."
                 for p in re.split(r"\s*[/|]\s*" if re.search(r"\brow\s*[1-4]\b", line, re.I) else r"\s*[/|;]\s*",
                                   line.split(":", 1)[-1]) if p.strip()]  # "row 4 ...; row 3 ...": the rows' marks
        parts[-1:] = [re.sub(r"^([A-Za-z]{4})\b[\s,]+[a-z][\w\s]*$", r"\1", p) if not PALETTE.one(p[:4]) else p
                      for p in parts[-1:]]  # "GYMM, in rows", not "blue red magenta yellow"
        if len(parts) == SIZE:
            drawn = [row for row in map(_letter_row, parts) if row]
            if len(drawn) == SIZE:
                return drawn
    rows: list[list[Cell]] = []
    for line in text.splitlines():
        row = _letter_row(line.strip())
        if row:
            rows.append(row)
        elif rows and len(rows) < SIZE:
            rows = []
    return rows if len(rows) == SIZE else None


def _letter_row(text: str) -> list[Cell] | None:
    tokens = re.split(r"[\s,|]+", text.strip(" ,|")) if re.search(r"[\s,|]", text) else list(text.replace("\ufe0f", ""))
    if len(tokens) > SIZE and not any(len(t) == 1 or PALETTE.one(t) for t in tokens[SIZE:]):
        tokens = tokens[:SIZE]  # a full row, then words that are no squares ("... wat do")
    if len(tokens) != SIZE:
        return None
    row = [(LETTERS[token.upper()],) if token.upper() in LETTERS and len(token) == 1 else
           ("white",) if token.upper() == "WHT" else PALETTE.one(token) for token in tokens]  # "wht" is also "what"
    return row if all(row) else None


def read_grid(text: str) -> tuple[dict[int, Cell], bool]:
    """Squares said (0-based index -> options) and whether rows and columns may be swapped."""
    text = drop_negated(text, PALETTE)
    blank = re.search(r"\b(dot|dash|hyphen|underscore|x|star)(?:e?s|'s)?\s+(?:are|is|=|mean|for)\s+(?:the\s+)?white|"
                      r"(?<![^\s(])([.\-_x*])\s*(?:=|:|is|means?)\s*white\b", text, re.IGNORECASE)  # "dots are white"
    if blank:
        mark = blank.group(2) or {"dot": ".", "dash": "-", "hyphen": "-", "underscore": "_", "star": "*"}.get(
            blank.group(1).lower(), "x")
        text = re.sub(rf"(?<![^\s/|,]){re.escape(mark)}(?![^\s/|,])", "W", text)
    names = f"(?:{PALETTE.pattern.pattern})"
    text = re.sub(rf"({names}(?:-{names})?)(?<=[A-Za-z])[ \t]*\(\s*(?:\w+\s+)?({names})[^()]*\)", _glossed, text,
                  flags=re.IGNORECASE)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(">"))  # quoted manual
    text = _elided(text, names)
    unsure_axes = bool(re.search(r"\brows or columns\b|\bcolumns or rows\b|\bsideways\b", text, re.IGNORECASE))
    squares: dict[int, Cell] = {}
    as_json = re.search(r"\[\s*\[.*\]\s*\]", text, re.DOTALL)
    if as_json:
        try:
            grid = json.loads(as_json.group(0))
            return {r * SIZE + c: PALETTE.one(str(v)) or (str(v).lower(),) for r, row in enumerate(grid)
                    for c, v in enumerate(row)}, unsure_axes
        except ValueError:
            pass
    by_number = re.findall(r"\b(1[0-6]|[1-9])\s+([a-z]+)\b", text, re.IGNORECASE)
    if re.search(r"\bnumbering\b|\b1\s*(?:-|–|to)\s*16\b", text, re.IGNORECASE) and len(by_number) >= SIZE * SIZE:
        for index, word in by_number:
            options = PALETTE.one(word)
            if options:
                squares[int(index) - 1] = options
        return squares, unsure_axes
    for match in re.finditer(r"\b([a-z]+)\s*(?:\bat\b|:|=)\s*((?:\(\s*\d\s*,\s*\d\s*\)[\s,;]*(?:and\s+)?)+)", text,
                             re.IGNORECASE):  # "red at (1,1) (1,4)", "red: (1,1), (1,4)": squares listed by colour
        options = PALETTE.one(match.group(1))
        for r, c in re.findall(r"\((\d)\s*,\s*(\d)\)", match.group(2)):
            if options and 1 <= int(r) <= SIZE and 1 <= int(c) <= SIZE:
                squares[(int(r) - 1) * SIZE + int(c) - 1] = options
    if squares:
        return squares, unsure_axes
    rows = _lines(text)
    if rows:
        return {r * SIZE + c: cell for r, row in enumerate(rows) for c, cell in enumerate(row)}, unsure_axes
    squares.update(_corners(text))
    squares.update(_rows(text))
    squares.update(_columns(text))
    squares.update(_single(text))
    return squares, unsure_axes


def _elided(text: str, names: str) -> str:
    """Rows (or columns) named once and then by their ordinal alone ("the first row is ...; the second is ...",
    "The first column (left): ... The second: ...", "2nd row ..., 3rd purple ..., bottom red ...") with the noun."""
    noun = re.search(r"\b(?:top|first|1st|left(?:most)?)\s+(row|column|line)\b", text, re.IGNORECASE)
    if not noun:
        return text
    ordinal = r"\b(second|third|fourth|last|bottom|2nd|3rd|4th)(?:\s+and\s+last|\s+one)?"
    return re.sub(rf"{ordinal}(?=\s*(?:is\b|:|(?:{names})\b))", rf"\1 {noun.group(1).lower()}", text,
                  flags=re.IGNORECASE)


def _glossed(match: re.Match[str]) -> str:
    """"pink-purple (magenta I guess)": the colour in brackets names the square when it is the one the words before
    mean, or is said without a hedge ("teal (probably green)" stays open: "teal or green"); a bracket with two colours
    is a legend ("blue (pink means magenta)"), passed over."""
    if PALETTE.mentions(match.group(0)[match.end(2) - match.start():].replace("?", " ")):
        return match.group(1)
    said, named = PALETTE.mentions(match.group(1)), PALETTE.one(match.group(2)) or ()
    fits = bool(said) and set(named) == set(said[0].options)
    hedged = HEDGES.search(match.group(0)) or re.search(r"\b(?:probably|perhaps|possibly|likely)\b|\?", match.group(0))
    return match.group(2) if fits or not hedged else f"{match.group(1)} or {match.group(2)}"


def _columns(text: str) -> dict[int, Cell]:
    """Columns marked by number, each from the top ("column 2 from top to bottom: ...")."""
    marks = list(re.finditer(r"\b(?:col(?:umn)?\s*([1-4])|([1-4])(?:st|nd|rd|th) column|"
                             r"(first|second|third|fourth|last) column)\b"
                             r"(?:\s*\(?from (?:the )?top(?: to (?:the )?bottom)?\)?)?\s*:?", text, re.IGNORECASE))
    squares: dict[int, Cell] = {}
    for k, mark in enumerate(marks):
        chunk = text[mark.end():marks[k + 1].start() if k + 1 < len(marks) else len(text)]
        cells = next((c for c in map(_cells, (chunk, re.split(r"[.!?](?:\s|$)", chunk)[0])) if len(c) == SIZE), [])
        col = int(mark.group(1) or mark.group(2) or 0) or ROW_WORDS.get(mark.group(3).lower(), SIZE)
        if len(cells) == SIZE and len(marks) == SIZE:
            for r, cell in enumerate(cells):
                squares[r * SIZE + col - 1] = cell
    return squares


def _rows(text: str) -> dict[int, Cell]:
    """Rows marked by number or name, or following one another ("then", " / ")."""
    marks = list(_MARK.finditer(text))
    upward = bool(re.search(r"\bfrom the bottom(?: row)? up\b|\bbottom row first\b|\bbottom to top\b", text,
                            re.IGNORECASE))
    chunks: list[tuple[int | None, str]] = []
    for k, mark in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        word = next((g for g in mark.groups() if g), None)
        index: int | None
        if word is None or word.strip().startswith("-"):
            index = None
        elif word.lower().startswith("the row"):
            index = -1
        elif word[0].isdigit():
            index = int(word[0])
        else:
            index = ROW_WORDS.get(word.lower().split()[0])
        chunk = text[mark.end():end]
        sentence = re.split(r"[.!?](?:\s|$)", chunk, maxsplit=1)[0]  # or its line: "row 4: ...\nnothing white yet"
        chunks.append((index, next((s for s in (sentence, chunk.strip().split("\n")[0]) if len(_cells(s)) == SIZE),
                                   chunk) if len(_cells(chunk)) % SIZE else chunk))
    squares: dict[int, Cell] = {}
    filled: list[int] = []
    for index, chunk in chunks:
        parts = [p for p in re.split(r"\bthen\b|\s/\s|;", chunk, flags=re.IGNORECASE) if PALETTE.mentions(p)]
        rows = [_cells(p) for p in parts] if len(parts) > 1 and all(len(_cells(p)) == SIZE for p in parts) \
            else [_cells(chunk)]
        for cells in rows:
            if index == -1 and filled:
                index = filled[-1] + (-1 if upward else 1)
            if index is None:
                index = (filled[-1] + (-1 if upward else 1)) if filled else (SIZE if upward else 1)
            if len(cells) > SIZE and HEDGES.search(chunk):
                cells = cells[:SIZE]
            if len(cells) == SIZE and 1 <= index <= SIZE:
                for c, cell in enumerate(cells):
                    squares[(index - 1) * SIZE + c] = cell
                filled.append(index)
            index = None
    return squares


def _corners(text: str) -> dict[int, Cell]:
    """"top-left is green, top-right magenta", "between the top corners: magenta then green"."""
    squares: dict[int, Cell] = {}
    for row, col, colour in re.findall(r"\b(top|bottom)[- ](left|right)(?:\s+(?:square|corner|one))?\s*(?:is|:)?\s*"
                                       r"(?:now\s+)?([a-z]+)", text, re.IGNORECASE):
        options = PALETTE.one(colour)
        if options:
            r, c = (0 if row.lower() == "top" else SIZE - 1), (0 if col.lower() == "left" else SIZE - 1)
            squares[r * SIZE + c] = options
    for row, words in re.findall(r"\bbetween the (top|bottom) corners\s*:?\s*([^.]*)", text, re.IGNORECASE):
        cells = _cells(words)
        if len(cells) == 2:
            base = 0 if row.lower() == "top" else (SIZE - 1) * SIZE
            squares[base + 1], squares[base + 2] = cells
    return squares


def _single(text: str) -> dict[int, Cell]:
    """One square said by row and column ("row 2, column 3 is blue", "the last square of the first row is ...")."""
    squares: dict[int, Cell] = {}
    place = r"(first|second|third|fourth|last|top|bottom|[1-4](?:st|nd|rd|th))"
    for col, row, row_number, colour in re.findall(rf"\b{place}\s+(?:square|one)\s+(?:of|in)\s+(?:the\s+{place}\s+"
                                                   r"row|row\s+([1-4]))\s+is\s+(?:actually\s+)?([a-z]+)", text,
                                                   re.IGNORECASE):
        r, c = (ROW_WORDS.get(w.lower()) or int(w[0]) for w in (row or row_number, col))
        if PALETTE.one(colour):
            squares[(r - 1) * SIZE + c - 1] = PALETTE.one(colour)
    for match in re.finditer(rf"\b(?:row\s*([1-4])|{place}\s+row)\b[^.]{{0,12}}?\b(?:the\s+)?(first|second|third|"
                             r"fourth|last|[1-4](?:st|nd|rd|th))\s+(?:square|one)\s+is\s+([a-z]+)|\brow\s*([1-4]),"
                             r"?\s*col(?:umn)?\s*([1-4])\s+is\s+([a-z]+)", text, re.IGNORECASE):
        if match.group(1) or match.group(2):  # "row 2, the third square is", "bottom row second square is"
            row, col = (ROW_WORDS.get(w.lower()) or int(w[0]) for w in (match.group(1) or match.group(2),
                                                                          match.group(3)))
            colour = match.group(4)
        else:
            row, col, colour = int(match.group(5)), int(match.group(6)), match.group(7)
        options = PALETTE.one(colour)
        if options:
            squares[(row - 1) * SIZE + col - 1] = options
    return squares
