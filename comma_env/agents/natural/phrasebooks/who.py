"""Who in plain English: the display word (or an empty display) and the six labels by position, row,
column, grid or reading order. Advice names the button by label, position, both, or a neighbour."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural import grid
from comma_env.agents.natural.labels import Found, Printed
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, meant, one_button, unknown
from comma_env.agents.natural.reading import CONDITIONS, HEDGES, clean, fix_typos, sentences
from comma_env.agents.natural.words import choose, position_words, which_one
from comma_env.puzzles.who import DISPLAY_WORDS, LABELS, NO_TEXT, POSITIONS

WORDS = Printed([*LABELS, *DISPLAY_WORDS])
ROWS = ("top", "middle", "bottom")
VOCABULARY = (*grid.VOCABULARY, "display", "screen", "says", "buttons", "labels", "press", "empty")
_DISPLAY = re.compile(r"\b(?:display|screen|word on the display|the word)\b", re.IGNORECASE)
_EMPTY = re.compile(r"\b(?:empty|no text|nothing on it|nothing written|blank screen|shows nothing|is clear)\b",
                    re.IGNORECASE)
_LOOSE = re.compile(r"\b(?:display|screen)\b[^.\n]{0,25}?\b(blank|nothing)\b(?!\s+else)", re.IGNORECASE)
_PRESS = re.compile(r"\b(?:press|push|hit|tap|click|go for|choose|pick|select|it'?s|that'?s|want)\b", re.IGNORECASE)
_VERB = re.compile(r"(?:^|(?<=[.!?]))\W*(?:PRESS|PUSH|HIT|TAP|CLICK)\b(?=\s+\S)")
_ASKING = re.compile(r"(?<![\"'A-Za-z])(" + "|".join(re.escape(w) for w in LABELS if w.endswith("?")) + r")(?=\s|$)")
_NOT = re.compile(r"\b[Nn]ot\s+(?:the\s+)?(\"[^\"]*\"|'[^']*'|[A-Z][A-Z' ?]*[A-Z?])(?=\W|$)")  # "Not READY."
_DIRECTIONS = re.compile(r"\b(?:left to right|right to left|top to bottom|bottom to top|then down(?: a row)?|"
                         r"(?-i:[Ll]eft[\s-]+(?:then\s+)?right|[Tt]op[\s-]+(?:then\s+)?(?:bottom|down))|"
                         rf"row by row|(?:down|along) the rows|{grid.READING})\b", re.IGNORECASE)
"""Words saying a list is in reading order ("left to right", "left-right, top-down", "left right down the rows")."""


def _tokens(text: str, lowercase: bool = False) -> tuple[list[grid.Place], list[Found]]:
    """Positions and printed words in `text`, neither inside the other: printed words in capitals win,
    except in a message all in capitals (where a sentence's first "PRESS" is the verb)."""
    text = _DIRECTIONS.sub(lambda m: " " * len(m.group(0)), text)
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.8 * len(letters):
        text = _VERB.sub(lambda m: " " * len(m.group(0)), text)
        places = grid.places(text, ROWS)
        return places, WORDS.find(grid.blanked(text, places), lowercase)
    words = WORDS.find(text, lowercase)
    return grid.places(grid.blanked(text, words), ROWS), words


class WhoPhrases(Phrasebook):
    relations = r"\b(?:nearest|close to|(?:from|at|on) the (?:edge|end|side)|whichever|one of (?:the|those|them|these))"
    """Relations it does not resolve (its reader places next to itself)."""

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = fix_typos(clean(text), VOCABULARY)
        text = re.sub(r"\b[Nn]ot\s+(?:the\s+)?(?:\"[^\"]*\"|'[^']*'|[A-Z](?:[A-Z' ?]*[A-Z?])?)", " ", text)  # "not U"
        grid_text = re.sub(r"\(([^()\n]{0,40})\)", lambda m: m.group(0) if WORDS.find(m.group(1)) or grid.places(
            m.group(0), ROWS) else " " * len(m.group(0)), text)  # an aside naming nothing: "UH HUH (w a space) / UHHH"
        places, words = _tokens(grid_text)
        display, said = self._display(text, words)
        if display is not None:
            state["display"] = display
        lead = re.search(r"\b(?:display|screen)\s+(?:says|shows|reads)?[\s:]*$", text[:said.start], re.I) \
            if said else None
        shown = [w for w in words if w is not said  # not the words saying it: "DISPLAY SAYS HOLD ON"
                 and not (lead and said and lead.start() <= w.start < said.start)]
        labels = state.setdefault("labels", {})
        placed = grid.by_lines(grid_text, WORDS.find, ROWS, grid.assign(grid_text, places, shown, ROWS))  # a row a line
        labels.update({key: found.word for key, found in placed.items()})
        if not labels and len({w.word for w in shown}) == 6 and _DIRECTIONS.search(text):
            labels.update(dict(zip(POSITIONS, (w.word for w in shown), strict=False)))
        elif not labels and len(shown) >= 4 and not places:
            state["loose"] = [w.word for w in shown]
        if not labels and not shown:
            labels.update(_rows_in_lower_case(grid_text))


    def _display(self, text: str, words: list[Found]) -> tuple[Any, Found | None]:
        """The display word said (an `Open` between two readings, or None), and the printed word saying it."""
        art = re.search(r"<\s*([^<>\n]{1,12}?)\s*>", text)
        if art and WORDS.canonical(art.group(1)):
            return WORDS.canonical(art.group(1)), next((w for w in words if art.start() < w.start < art.end()), None)
        for keyword in _DISPLAY.finditer(text):
            window = re.sub(r"^\s*(?:up top|at the top|on top)\b", lambda m: " " * len(m.group(0)),
                            text[keyword.end():keyword.end() + 60])  # "the screen up top just says YOU"
            stop = re.search(r"[.\n|]\s|\bbuttons?\b|\b(?:top|upper|left|right)\b", window, re.IGNORECASE)
            window = window[:stop.start()] if stop else window
            inside = [w for w in words if keyword.end() <= w.start < keyword.end() + len(window)]
            if inside:
                if len(inside) > 1 and (re.search(r"\bor\b", window) or HEDGES.search(window)):
                    return unknown("the word on the display (" + " or ".join(w.word for w in inside) + ")",
                                   [w.word for w in inside]), None
                first = inside[0]
                if first.word in ("SAYS", "DISPLAY") and not first.quoted and len(inside) > 1:
                    first = inside[1]
                if first.word in DISPLAY_WORDS:
                    return first.word, first
            if _EMPTY.search(window):
                return NO_TEXT, None
            loose = _LOOSE.search(text[keyword.start():keyword.end() + 40])
            if loose:
                word = loose.group(1).upper()
                return unknown(f"whether the display is empty or shows the word {word}", [NO_TEXT, word]), None
        if re.search(r"\b(?:display|screen)\b", text, re.IGNORECASE):
            spare = [w for w in words if w.word in DISPLAY_WORDS and w.word not in LABELS]
            if len({w.word for w in spare}) == 1:
                return spare[0].word, spare[0]
        return None, None

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        display = said.get("display", unknown("the word on the display", DISPLAY_WORDS))
        labels: dict[str, Any] = dict(said.get("labels") or {})
        if not labels and said.get("loose"):
            loose = said["loose"]
            orders = [dict(zip(POSITIONS, p, strict=True)) for p in itertools.permutations(loose)] if len(loose) == 6 \
                else []
            return {"display_text": display, "button_labels": unknown("which label is on which button", orders),
                    "module_disarmed": False}
        for position in POSITIONS:
            if position not in labels:
                labels[position] = unknown(f"the label on the {position.replace('_', ' ')} button", LABELS)
        return {"display_text": display, "button_labels": labels, "module_disarmed": False}

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        return len(set(state["button_labels"].values())) == len(POSITIONS)

    def question(self, about: list[str], rng: np.random.Generator) -> str:
        if len(about) > 2 and all(a.startswith("the label on the") for a in about):
            about = ["the labels of " + ", ".join(a.removeprefix("the label on the ").removesuffix(" button")
                                                  for a in about) + " buttons"]
        return super().question(about, rng)

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        position = action.removeprefix("press_")
        labels = seen["button_labels"]
        shown = labels.get(position) if isinstance(labels, dict) else None
        where = position_words(position, rng)
        options = [f"Press the {where} button."]
        if isinstance(shown, str):
            options = [f'Press the button that says "{shown}", {where}.', *options, f'The one you want is "{shown}", '
                       f'{where}.', f'Go for the {where} one, the button showing "{shown}".']
            if all(isinstance(v, str) for v in labels.values()):  # every label known: the label alone will do
                options += [f'Press the button with the label "{shown}".', f'Hit "{shown}".']
        return choose(rng, options)

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        display = state["display_text"]
        labels = state["button_labels"]
        shown = choose(rng, (f'The display says "{display}".', f"Display: {display}.",
                             f'The screen shows "{display}".')) \
            if display else choose(rng, ("The display is empty, no text at all.", "Display: (no text)."))
        layout = choose(rng, ("positions", "rows", "columns", "reading"))
        if layout == "positions":
            body = ", ".join(f"{p.replace('_', ' ')} {labels[p]}" for p in POSITIONS)
            body = f"Buttons: {body}."
        elif layout == "rows":
            body = " ".join(f"{row.capitalize()} row: {labels[row + '_left']} on the left, "
                            f"{labels[row + '_right']} on the right." for row in ROWS)
        elif layout == "columns":
            body = " ".join(f"{col.capitalize()} column, top to bottom: "
                            f"{', '.join(labels[row + '_' + col] for row in ROWS)}." for col in ("left", "right"))
        else:
            body = "Buttons in reading order: " + " / ".join(labels[p] for p in POSITIONS) + "."
        return f"{shown}\n{body}"

    def understand(self, text: str, puzzle: Any) -> Steps:
        labels: dict[str, str] = dict(puzzle.visible_state()["button_labels"])
        text = fix_typos(clean(text), VOCABULARY)
        text = _ASKING.sub(r'"\1"', text)  # "Push WHAT? - the one with ...": a label, not a sentence's end
        alone = re.fullmatch(r"\W*(?:PRESS|PUSH|HIT|TAP|CLICK)\s+([A-Z][A-Z' ?]*?)[\s!.]*", text)
        word = WORDS.canonical(alone.group(1)) if alone else None
        if word in labels.values() and f"{word}?" not in labels.values():  # "PRESS LEFT!!": the label, no column
            return Steps([f"press_{next(p for p, w in labels.items() if w == word)}"])
        ruled_out = re.findall(_NOT, text)
        said = sentences(re.sub(_NOT, " ", text))
        chosen, _ = meant(said, lambda s: _pressed(s, labels, lowercase=text == text.lower()), _PRESS)
        others = {p for p, label in labels.items() for w in ruled_out for f in WORDS.find(w) if f.word == label}
        if chosen and len(chosen) > 1 and chosen - others:  # "in the middle row, and it's not DONE"
            chosen -= others
        quoted = {position: f'"{label}"' for position, label in labels.items()}
        return one_button(chosen, lambda p: f"press_{p}",
                          "I don't see that button. Which one do you mean (its label or position)?",
                          lambda ps: which_one("button", ps, quoted))


def _pressed(sentence: str, labels: dict[str, str], lowercase: bool) -> set[str] | None:
    """`_refers_to`, or when the reasoning before a last "press X" names other buttons, what that press names
    ("the first word on your panel is YOUR - so press YOUR, which is bottom right")."""
    found = _refers_to(sentence, labels, lowercase)
    verb = next(reversed(list(re.finditer(r"\b(?:press|push|hit|tap|click)\b", sentence, re.IGNORECASE))), None)
    if found == set() and verb and verb.start() and not re.search(CONDITIONS, sentence[:verb.start()], re.I):
        return _refers_to(sentence[verb.start():], labels, lowercase) or found
    return found


def _neighbour(position: str, relation: str) -> str | None:
    """The button beside (the other of its row), below or above `position`, or None."""
    row, _, col = position.partition("_")
    if relation in ("next to", "beside"):
        return f"{row}_{'right' if col == 'left' else 'left'}"
    step = -1 if relation in ("above", "over", "on top of") else 1
    index = ROWS.index(row) + step
    return f"{ROWS[index]}_{col}" if 0 <= index < len(ROWS) else None


def _refers_to(sentence: str, labels: dict[str, str], lowercase: bool) -> set[str] | None:
    """The buttons a sentence of advice could mean (by label, position or neighbour), or None; in a
    message all in lower case any word of a label counts."""
    places, words = _tokens(sentence)
    by_label = {label: position for position, label in labels.items()}
    constraints: list[set[str]] = []
    near = re.search(r"\b(next to|beside|below|under(?:neath)?|beneath|above|over|on top of)\b"
                     r"(?!\s+(?:it|that|this)\b)", sentence)  # "next to it ... - YOUR": YOUR itself
    places = [p for p in places if not (near and p.start < near.end() and near.start() < p.end)]  # "right under"
    for word in words:
        if near and word.start > near.start():  # "the one next to WHAT?", "just below NEXT"
            relations = [near.group(1)]
            if near.group(1) == "next to" and not re.search(r"\bsame row\b", sentence):
                relations += ["above", "below"]  # "next to" alone: beside, above or below
            at = by_label.get(word.word)
            constraints.append({n for r in relations if at and (n := _neighbour(at, r))})
        else:
            twin = by_label.get(word.word + "?") if not word.quoted else None  # "hit WHAT": WHAT or WHAT?
            constraints.append({by_label[word.word], *([twin] if twin else [])} if word.word in by_label else set())
    spoken = re.sub(r"^\W*(?:press|push|hit|tap|click)\b", " ", sentence, flags=re.IGNORECASE)
    named = {by_label[label] for label in labels.values()
             for found in WORDS.find(spoken, lowercase=True) if found.word.rstrip("?") == label.rstrip("?")}
    if len(named) > 1 and re.search(r"\s/\s|\bi mean\b|\bor\b|\.\.\.", sentence):
        return named  # several labels, the speaker not sure which
    if lowercase and not words and named and not places:  # "bottom right" is a place, not the label RIGHT
        constraints.append(named)
    partial = WORDS.partial(sentence)
    constraints += [{by_label[w] for w in starts if w in by_label} for starts in partial]
    constraints += [grid.matching(place, ROWS) for place in places]
    if not constraints:
        return None
    chosen = set.intersection(*constraints)
    if len(chosen) == 1 and HEDGES.search(sentence):
        return set.union(*constraints) | set(POSITIONS)
    return chosen


def _rows_in_lower_case(text: str) -> dict[str, str]:
    """Labels written in lower case, a row a line or between slashes ("buttons: sure okay / next right / like uh uh"):
    three rows of two labels and nothing else, top to bottom unless the text says otherwise."""
    rows = []
    for part in re.split(r"[\n/;|]|[.!](?=\s|$)", text):
        cells = part.rpartition(":")[2]
        found = [f for f in WORDS.find(cells, lowercase=True) if f.word in LABELS]
        rest = "".join(c for i, c in enumerate(cells) if not any(f.start <= i < f.end for f in found))
        lead = cells[:found[0].start] if found else ""  # "the buttons are sure okay": no place named before
        if len(found) == 2 and not re.search(r"[A-Za-z0-9]", rest[len(lead):]) and not grid.places(lead, ROWS):
            rows.append(found)
    if len(rows) != len(ROWS) or re.search(r"bottom to top|right to left|\bup\b", text, re.IGNORECASE):
        return {}
    return {f"{row}_{col}": cell.word for row, pair in zip(ROWS, rows, strict=True)
            for col, cell in zip(("left", "right"), pair, strict=True)}
