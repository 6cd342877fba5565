"""Maze in plain English: the layout (`maze_layout`), the mouse's square and facing, the spheres and the
torus; the expert follows typed moves itself. Advice: a route of turns and counted moves, then the button."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from comma_env.agents.natural.colours import SYNONYMS, Palette
from comma_env.agents.natural.maze_layout import ARROWS, SPHERE_EMOJI, plausible, read_layout
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, unknown
from comma_env.agents.natural.reading import number, plain
from comma_env.agents.natural.retractions import UNDO
from comma_env.agents.natural.words import choose, say_number, times
from comma_env.puzzles.maze import (
    BACKWARD,
    COLORS,
    FACINGS,
    FORWARD,
    PRESS,
    SIZE,
    TURN_LEFT,
    TURN_RIGHT,
    apply_to_pose,
    goal_color,
    is_floor,
    shortest_actions,
)

PALETTE = Palette(COLORS)
VOCABULARY = ("mouse", "facing", "sphere", "spheres", "torus", "ring", "row", "column", "forward", "backward", "turn",
              "left", "right", "press", "button", "then", "steps", "squares", "wall", "walls", "floor", "the", "walk")
_FACING = {"up": "up", "north": "up", "top": "up", "upward": "up", "upwards": "up", "down": "down", "south": "down",
           "bottom": "down", "downward": "down", "downwards": "down", "left": "left", "west": "left", "right": "right",
           "east": "right", "<-": "left", "->": "right", "U": "up", "D": "down", "L": "left", "R": "right"}
_COORD = (r"(?:\(\s*(\d)\s*,\s*(\d)\s*\)|\b(?:row|line|r)\s*(\d)\s*,?\s*(?:and\s+)?(?:column|col|c)\s*(\d)\b|"
          r"\b(\d)\s*,\s*(\d)\b(?!\s*,\s*\d)|\b(\d)\s*/\s*(\d)\b)")  # "(5,1)", "row 5 col 1", "9/3", "5,1" (no list)
_EDGE = {"top": 1, "first": 1, "left": 1, "bottom": SIZE, "last": SIZE, "right": SIZE}
_PLACES = ((r"\b(?:the\s+)?(top|bottom)[\s-](left|right)\s+corner\b",
            lambda m: f"row {_EDGE[m.group(1).lower()]} column {_EDGE[m.group(2).lower()]}"),
           (r"\b(?:the\s+)?(top|first|bottom|last)\s+row\b", lambda m: f"row {_EDGE[m.group(1).lower()]}"),
           (r"\b(\d)(?:st|nd|rd|th)\s+(row|col(?:umn)?)\b", r"\2 \1"))
"""Rows, columns and corners said in words ("top row, 3rd column", "bottom right corner") in numbers."""
_FACES = re.compile(r"\b(?:facing|faces|face|look(?:s|ing|in')?(?:\s+to)?|points?(?:\s+to)?|pointing|"
                    r"nose(?:\s+(?:is\s+)?(?:facing|pointing|pointed|points|shows|showing|looking|aimed))?(?:\s+to)?|heading)(?:\s*[:=]\s*|\s+)"
                    r"(?:the\s+)?(?:to\s+the\s+)?((?:up|down|left|right|north|south|east|west|top|bottom|upwards?|"
                    r"downwards?)\b|<-|->|(?-i:[UDLR])\b)", re.IGNORECASE)
"""A facing said ("facing left", "nose pointing down", "nose to up", "still lookin' left", "facing R")."""
_POSE = re.compile(rf"\b(?:mouse|i'?m|i am|we'?re|it'?s|it is)\b[^.\n]{{0,40}}?{_COORD}", re.IGNORECASE)
_TORUS = re.compile(r"\b(?:ring|torus|donut|doughnut)\b", re.IGNORECASE)
_PROSE_MARKS = str.maketrans({"🐭": "mouse", "🐁": "mouse", **{mark: f" {word} " for mark, word in ARROWS.items()
                                                               if not mark.isascii()},
                              **{mark: f" {colour} " for mark, colour in SPHERE_EMOJI.items()}})
_SHADES = re.compile(r"\b(" + "|".join(w for w, c in SYNONYMS.items() if c[:1] == c[-1:] and c[0] in COLORS) + r")\b",
                     re.IGNORECASE)
_LEGEND = re.compile(r"\b([A-Z])\s*=\s*([a-z]+)|\b([A-Z](?:\s*/\s*[A-Z])+)\s*=\s*([a-z]+(?:\s*/\s*[a-z]+)+)")


def _coord(match: re.Match[str], first: int = 1) -> tuple[int, int]:
    groups = [g for g in match.groups()[first - 1:] if g]
    return int(groups[0]), int(groups[1])


class MazePhrases(Phrasebook):
    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = plain(text.replace("_", "·"), VOCABULARY)  # "_" for floor in a grid
        text = re.sub(r"\b[Rr]([1-9])\s*=\s*([.#·]{9})", r"\nrow \1: \2\n", text)  # "r1=..#.. r2=..."
        legend = self._legend(text)
        layout = read_layout(text, legend)
        if layout:
            state["rows"] = layout.rows
            if layout.mouse:
                state["mouse"] = layout.mouse
            if layout.facing:
                state["facing"] = layout.facing
            state.setdefault("spheres", {}).update(layout.spheres)
        prose = re.sub(r"(\w+)[·\s]?row\s*[=:]\s*(\d)\W+\1[·\s]?col(?:umn)?\s*[=:]\s*(\d)", r"\1 at row \2 column \3",
                       text.translate(_PROSE_MARKS))  # "mouse_row=7, mouse_col=7"; "🐭 row 1", "facing ⬇️"
        for pattern, words in _PLACES:
            prose = re.sub(pattern, words, prose, flags=re.IGNORECASE)
        prose = _SHADES.sub(lambda m: SYNONYMS[m.group(1).lower()][0], prose)  # "navy on row 7 column 9"
        prose = re.sub(r"\b(?:not|isn'?t)\s+(?:the\s+)?(?:up|down|left|right|north|south|east|west|red|blue|green|"
                       r"yellow)\b", " ", prose, flags=re.IGNORECASE)
        for sentence in re.split(r"(?<=[.!?;])\s+|\n", prose):
            self._sentence(sentence, state)

    def _legend(self, text: str) -> dict[str, str]:
        legend: dict[str, str] = {}
        for match in _LEGEND.finditer(text):
            letters = re.findall(r"[A-Z]", match.group(1) or match.group(3))
            names = re.findall(r"[a-z]+", match.group(2) or match.group(4))
            for letter, name in zip(letters, names, strict=False):
                if name in COLORS:
                    legend[letter] = name
        return legend

    def _sentence(self, sentence: str, state: dict[str, Any]) -> None:
        low = sentence.lower()
        torus = _TORUS.search(sentence)
        if torus:
            after = re.split(r"[;]|\bspheres?\b|\bballs?\b", sentence[torus.end():torus.end() + 40])[0]
            found = PALETTE.mentions(after) or PALETTE.mentions(low[max(0, torus.start() - 14):torus.start()])[-1:]
            if found:
                state["torus"] = found[0].options
        pose = _POSE.search(sentence)
        if pose:
            state["mouse"] = _coord(pose, 1)
        if pose or re.search(r"\bmouse\b|\bi'?m\b|\bstill\b|^\W*(?:\d\.\s*)?facing\s*[:=]", low):  # "3. Facing: left"
            faces = _FACES.search(sentence)
            if faces:
                state["facing"] = _FACING.get(faces.group(1), _FACING.get(faces.group(1).lower()))
        spheres = state.setdefault("spheres", {})
        coloured = list(re.finditer(rf"\b(blue|red|green|yellow)\b(?:\s+(?:sphere|ball|one))?\s*(?:is\s+)?"
                                    rf"(?:at|in|on|:|-|=)?\s*{_COORD}", low))
        for match in coloured:
            if not (torus and torus.start() <= match.start() <= torus.end() + 12 and "sphere" not in low):
                spheres[match.group(1)] = _coord(match, 2)
        partial = re.search(r"\b(blue|red|green|yellow)\b[^.;]*\bsomewhere in (row|column)\s*(\d)", low)
        if partial:
            spheres[partial.group(1)] = (partial.group(2), int(partial.group(3)))
        if not coloured and re.search(r"\b(?:balls|spheres)\b", low) and "colou" in low:
            spots = re.findall(r"\(\s*(\d)\s*,\s*(\d)\s*\)", low)
            if len(spots) == len(COLORS):
                state["sphere_spots"] = [(int(r), int(c)) for r, c in spots]

    def typed(self, actions: list[str], memory: Memory) -> None:
        """The expert follows the mouse on the layout it was told (a blocked move leaves it)."""
        state = memory["state"]
        rows, mouse, facing = state.get("rows"), state.get("mouse"), state.get("facing")
        for action in actions:
            if action == PRESS or action not in (FORWARD, BACKWARD, TURN_LEFT, TURN_RIGHT):
                continue
            if not (rows and mouse and facing):
                state.pop("mouse", None)
                state.pop("facing", None)
                return
            cell, facing, _ = apply_to_pose(rows, (mouse[0] - 1, mouse[1] - 1), facing, action)
            mouse = (cell[0] + 1, cell[1] + 1)
        if mouse and facing:
            state["mouse"], state["facing"] = mouse, facing

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        rows = said.get("rows")
        if not rows or not plausible(rows):
            rows = unknown("the maze layout, row by row (which squares are walls)", [])
        rooms = [(r, c) for r in range(1, SIZE + 1, 2) for c in range(1, SIZE + 1, 2)]
        mouse = said.get("mouse") or unknown("which square the mouse is on (row and column)", rooms)
        facing = said.get("facing") or unknown("which way the mouse is facing", FACINGS)
        torus = said.get("torus")
        colour: Any = torus[0] if torus and len(torus) == 1 else unknown(
            "the colour of the ring (torus) in the middle", torus or COLORS)
        spheres: dict[str, Any] = {}
        spots = said.get("sphere_spots")
        for name in COLORS:
            where = (said.get("spheres") or {}).get(name)
            if isinstance(where, tuple) and isinstance(where[0], str):  # only its row or column
                line, index = where
                cells = [(index, c) if line == "row" else (c, index) for c in range(1, SIZE + 1)]
                spheres[name] = unknown(f"the {'column' if line == 'row' else 'row'} of the {name} sphere",
                                        [list(cell) for cell in cells])
            elif where:
                spheres[name] = list(where)
            else:
                spheres[name] = unknown(f"where the {name} sphere is", [list(s) for s in (spots or rooms)])
        return {"maze_rows_top_to_bottom": rows, "mouse_row_column": list(mouse) if isinstance(mouse, tuple) else mouse,
                "mouse_facing": facing, "sphere_row_column_by_color": spheres, "torus_color": colour}

    def answers(self, state: State, notes: dict[str, Any]) -> list[list[str]]:
        rows = state["maze_rows_top_to_bottom"]
        r, c = state["mouse_row_column"]
        goal_rc = state["sphere_row_column_by_color"][goal_color(state["torus_color"])]
        path = shortest_actions(rows, (r - 1, c - 1), state["mouse_facing"], (goal_rc[0] - 1, goal_rc[1] - 1))
        return [] if path is None else [[*path, PRESS]]

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        rows = state["maze_rows_top_to_bottom"]
        cells = [state["mouse_row_column"], *state["sphere_row_column_by_color"].values()]
        spheres = [tuple(v) for v in state["sphere_row_column_by_color"].values()]
        return len(set(spheres)) == len(spheres) and all(is_floor(rows, (r - 1, c - 1)) for r, c in cells)

    # -- the expert's words ----------------------------------------------------------------------------
    def countable(self, action: str) -> bool:
        return action != PRESS

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == PRESS:
            return choose(rng, ("Push the button.", "Press the button now.", "Now press the round button.",
                                "You're on the goal square: press the button."))
        if action.startswith("turn_"):
            side = action.removeprefix("turn_")
            return choose(rng, (f"Turn {side} {times(count, rng)}." if count > 1 else f"Turn {side}.",
                                f"Turn to your {side} {times(count, rng)}."))
        squares = f"{say_number(count, rng)} {'square' if count == 1 else 'squares'}"
        if action == FORWARD:
            return choose(rng, (f"Go forward {squares}.", f"Move forward {times(count, rng)}.",
                                f"Walk forward {say_number(count, rng)} {'step' if count == 1 else 'steps'}."))
        return choose(rng, (f"Step back {squares}.", f"Move backward {times(count, rng)}.",
                            f"Go backward {say_number(count, rng)} {'step' if count == 1 else 'steps'}, facing the "
                            f"same way."))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        rows = state["maze_rows_top_to_bottom"]
        r, c = state["mouse_row_column"]
        spheres = "; ".join(f"{name} sphere at row {rc[0]}, column {rc[1]}"
                            for name, rc in state["sphere_row_column_by_color"].items())
        if choose(rng, ("grid", "walls")) == "grid":
            layout = "Rows top to bottom (# wall, . floor):\n" + "\n".join(f"{k}: {r}" for k, r in enumerate(rows, 1))
        else:
            layout = "Walls by row (everything else is floor):\n" + "\n".join(
                f"row {k}: " + (("dark at columns " + ", ".join(str(i + 1) for i, ch in enumerate(row) if ch != "."))
                                if "#" in row else "all white") for k, row in enumerate(rows, 1))
        return (f"{layout}\nThe mouse is at row {r}, column {c}, facing {state['mouse_facing']}. "
                f"The ring in the middle is {state['torus_color']}. Spheres: {spheres}.")

    def understand(self, text: str, puzzle: Any) -> Steps:
        state = puzzle.visible_state()
        facing = state["mouse_facing"]
        text = re.sub(r"([⬆⬇⬅➡↑↓→←])\ufe0f?(?:\s*\1\ufe0f?)+",  # "→→→→ ↓↓": four right, two down
                      lambda m: f" {m.group(1)} {m.group(0).count(m.group(1))} times ", text)
        text = plain(text.translate(_ARROW_WORDS), VOCABULARY)
        undo = list(UNDO.finditer(text))
        if undo and re.search(r"\b(?:turn|forward|back|move|go)\b", text[undo[-1].end():], re.IGNORECASE):
            text = text[undo[-1].end():]  # "Sorry!! I mean turn left, not right. Then forward 2."
        whole = re.search(r"\b(?:full|whole|complete|entire|new)\s+(?:route|path)\b[^:\n]{0,20}:|"
                          r"^[ \t]*(?:route|path|directions|moves)[ \t]*:", text, re.IGNORECASE | re.MULTILINE)
        text = text[whole.end():] if whole else text  # "..., it's a RIGHT turn. Full route: reverse two, ..."
        again = re.search(r"\b(?:summary|in short|tl;?dr|short version|recap|in brief)\W{0,4}:", text, re.IGNORECASE)
        if again and _STEP.search(text[:again.start()]):  # the route said again; its press counts
            only_there = bool(_PRESSED.search(text[again.end():])) and not _PRESSED.search(text[:again.start()])
            text = text[:again.start()] + (". Press the button." if only_there else "")
        text = re.sub(r"\bnot\s+(?:to\s+the\s+)?(?:left|right)\b", " ", text, flags=re.IGNORECASE)
        text = _GLOSS.sub(" ", text)
        first = _STEP.search(text)
        pose = _SAID_FACING.search(text[:first.start() if first else len(text)])  # "You should be facing down now"
        if pose and _FACING[pose.group(1).lower()] != facing:
            return Steps.unclear(f"I'm facing {facing}, not {_FACING[pose.group(1).lower()]}. Which way from here?")
        goal = _TO_SPHERE.search(text)
        rows, (r, c) = state["maze_rows_top_to_bottom"], state["mouse_row_column"]
        route = _route(text, rows, (r - 1, c - 1), facing)
        if goal is None or any(a != PRESS for a in route.actions or []):
            return route  # a route said step by step: a sphere it names is a remark
        spheres = state["sphere_row_column_by_color"]
        named = [c for m in PALETTE.mentions(goal.group(1) or "") for c in m.options if c in spheres]
        if len(named) != 1:
            return Steps.unclear(f"Which sphere do you mean? I see {', '.join(spheres)} ones.")
        gr, gc = spheres[named[0]]
        path = shortest_actions(rows, (r - 1, c - 1), facing, (gr - 1, gc - 1)) or []
        after = _route(text[goal.end():], rows, (gr - 1, gc - 1), _pose(rows, (r - 1, c - 1), facing, path)[1])
        if after.ask:
            return after
        pressed = PRESS not in (after.actions or []) and _PRESSED.search(text[:goal.start()])  # "press - you're at X"
        return Steps([*path, *(after.actions or []), *([PRESS] if pressed else [])])


_SAID_FACING = re.compile(r"\b(?:you(?:'re| are| should be)|(?:the |your )?mouse(?:'s| is| should be))\s+"
                          r"(?:now\s+|already\s+|still\s+)?(?:facing|pointing)\s+(up|down|left|right|north|south|east|west)\b",
                          re.IGNORECASE)
"""The pose advice says the mouse is in before its first step ("You should be facing down now"): checked."""
_TO_SPHERE = re.compile(r"(?:\b(?:go|move|walk|head|get|navigate|take|bring|drive|steer|guide)\b[^.,;:\n]{0,30}?)?"
                        r"\b(?:the\s+)?(?:([a-z-]+)\s+)?(?:sphere|ball|orb)s?\b(?:\s+is\b)?"
                        r"(?:[:,]?\s*(?:and\s+)?(?:get|go|walk|move|head)\s+there\b)?(?:\s+(?:by|along|via|using)\s+"
                        r"(?:the\s+)?(?:shortest|quickest|fastest|best)\s+(?:path|route|way))?", re.IGNORECASE)
"""A walk to a sphere named by its colour ("take the mouse to the red sphere"): the solver finds the route itself."""
_GLOSS = re.compile(r"\((?=[^()\n]*\b(?:you(?:'re|'ll| are| will)?|so|which|i\.?e|that is|meaning|because|since)\b)"
                    r"[^()\n]*\)", re.IGNORECASE)
"""A remark in brackets on a step ("back up 2 (you're facing left, so backing up moves you right)"): not a step."""
_PRESSED = re.compile(r"\b(?:press|push|hit|click|tap)\b[^.,;\n]*?\bbutton\b", re.IGNORECASE)
_LEGEND_WORDS = re.compile(r"\(\s*[A-Z]\s*=\s*forward[^)]*\)", re.IGNORECASE)
_STEP = re.compile(
    r"\bturn(?:ing)?\s*(?:to\s+(?:(?:the|your)\s+)?)?(left|right)?(?:\s+(twice|\d+\s*(?:times|x)))?\b|"
    r"\b(?:go|move|walk|step|head|drive)\s+(left|right|up|down)\b|"
    r"\b(?:(\d+)\s*(?:x\s+)?(?:steps?|squares?|spaces?|cells?|times)\s+)?(forwards?|ahead|backwards?|reverse|"
    r"back\s+up|(?<=move )back|(?<=go )back|(?<=step )back|(?<=walk )back|(?<=then )back|back(?=\s*\d))\b"
    r"(?:\s*(?:by\s+|x\s*)?(\d+|twice|once)(?:\s*(?:x|times|steps?|squares?|spaces?|cells?))?)?|"
    r"\b(?:move|go)\s+(\d+)\s+(?:squares?|steps?|spaces?)\s+(left|right|up|down)\b|"
    r"\b(?:press|push|hit|click|tap)\b[^.,;\n]*?\bbutton\b|\bpress\s*$|(?<![A-Za-z])([FBLR])(\d{0,2})(?![A-Za-z])|"
    r"\bpress\b(?=[\s.!]*\(|[\s.!]*$)|\bheading\s+(up|down|left|right)\s+(\d+)|"
    r"\bfaced\s+(up|down|left|right)\b", re.IGNORECASE | re.MULTILINE)
_FACED = re.compile(r"\(?\b(?:so\s+(?:that\s+)?(?:you|it|the mouse)(?:'re|'ll| are| will)?\s+|"
                    r"you(?:'re|'ll| are| will)\s+|to\s+|now\s+)(?:now\s+)?fac(?:e|es|ing)\s+"
                    r"(up|down|left|right|north|south|east|west)\b\s*\)?", re.I)
"""A remark on the facing a step leaves ("turn left again (now facing down)", "so you face right"): checked."""

_TURN_WORDS = ((re.compile(r"\b(one|two|three|four|five|six|seven|eight)(?=[\s-]+(?:more\b|squares?\b|steps?\b|"
                           r"up|down|left|right|north|south|east|west|across)\b)", re.IGNORECASE),
                lambda m: str(number(m.group(1)))),  # "two down"
               (re.compile(r"(?:^|(?<=[.,;!:] )|(?<=\band )|(?<=\bthen ))(?!(?:press|push|hit|click|tap)\b)[a-z]+\s+"
                           r"(?:that|the|this|your)\s+(?:big\s+|round\s+)?button\b(?=[\s.!]*$)", re.I | re.M),
                "press the button"),  # "and SMASH that button": a verb of its own for the press
               (re.compile(r"\bwithout (?:turning|a turn)\b|\bturn(?:ing)?\s+(?:to\s+face\s+(?:each|every|the)\s+"
                           r"(?:arrows?|ways?|directions?)|(?:first\s+)?(?:before|at|on|for)\s+(?:each|every)\s+"
                           r"(?:direction\s+)?(?:change|arrow|direction|corner))\b[^.;)\n]*", re.I), " "),  # a remark
               (re.compile(r"\b(?:run|travel|proceed|scoot|dash)\b", re.IGNORECASE), "go"),
               (re.compile(r"\b(?:do|make|take|hang)\s+an?\s+(left|right)(?:\s+turn)?\b", re.IGNORECASE), r"turn \1"),
               (re.compile(r"\b(?:rotate|spin|pivot|swivel|swing)(?:s|ing)?\b", re.IGNORECASE), "turn"),
               (re.compile(r"\badvance\b|\bfwd\b", re.IGNORECASE), "forward"),
               (re.compile(r"\b(?:straight|dead|directly)\s+(?=ahead\b|forwards?\b)", re.I), ""),  # "2 straight ahead"
               (re.compile(r"(?im)(?:(?<=^)|(?<=[.,;] )|(?<=\bthen )|(?<=\band ))button(?=[.!]?\s*$)"), "press"),
               (re.compile(r"\b(go|move|walk|step)\s+(\d+)\s+(forwards?|backwards?|back|ahead)\b", re.IGNORECASE),
                r"\1 \3 \2"),  # "go 2 forward"
               (re.compile(r"\b(left|right)\s+turn\b|\bface\s+(?:to\s+the\s+)?(left|right)\s*\(\s*turn\s*\)", re.I),
                lambda m: f"turn {m.group(1) or m.group(2)}"),  # "right turn", "face left (turn)"
               (re.compile(r"(?m)(?:(?<=[,;:])|(?<=\bthen))[ \t]*(?:to[ \t]+the[ \t]+)?(left|right)(?:[ \t]+again)?"
                           r"[ \t]*(?=[,;]|$|[ \t]+and\b)", re.I),
                r" turn \1"),  # "fwd 4, left, fwd 8", "After that: left again and two up": a side alone is a turn
               (re.compile(r"(?im)\b(?:press|push|hit|tap|smash)\s+it\b(?=[.!]?\s*$)"), "press the button"),
               (re.compile(r"\b(?:turn(?:ing)?\s+a?round(?!\s+(?:the|a)\b)|(?:do|make)\s+a\s+u-?turn)(?:\s*\(\s*(left|right)\s+twice\s*\))?",
                           re.IGNORECASE), lambda m: f"turn {m.group(1) or 'right'} twice"),  # either way ends the same
               (re.compile(r"(?<![\w.])(\d+)\s+(forwards?|ahead)\b", re.IGNORECASE), r"\2 \1"),  # "1. two forward"
               (re.compile(r"\b(?:go|move|walk|step)\s+(\d+)(?:\s+more)?+(?:\s+(?:squares?|steps?|spaces?|cells?))?+\b"
                           r"(?!\s+(?:forwards?|ahead|backwards?|back|left|right|up|down|north|south|east|west)\b)",
                           re.IGNORECASE), r"forward \1"),  # "turn left and move two squares": ahead
               (re.compile(r"(\bturn\s+(?:to\s+(?:the\s+|your\s+)?)?(?:left|right)(?:\s+again|\s+a\s+\w+\s+time)?(?:\s+faced\s+\w+)?\s*"
                           r"(?:[,;]|\.[ \t])\s*(?:then\s+|and\s+)?)"
                           r"(?:(?:along|across|over)\s+)?(\d+|one|two|three|four|five|six|seven|eight)(?:\s+more)?\b(?!\s*(?:times|x)\b|"
                           r"\s+(?:\w+\s+)?(?:forwards?|ahead|backwards?|back|up|down|north|south|east|west)\b)", re.I),
                lambda m: f"{m.group(1)}forward {number(m.group(2))}"))  # "Turn right, two."
_MORE = re.compile(r"\b(?:another\s+(\d+)|(\d+)\s+more)\b(?:\s+(?:squares?|steps?|spaces?|cells?))?+"
                   r"(?!\s+(?:up|down|left|right|north|south|east|west|forwards?|backwards?|back|ahead|times|turns?)\b)",
                   re.IGNORECASE)
"""A further run in the way of the last move ("walk 2, then 3 more", "forward 2 and another 3")."""
_ARROW_WORDS = str.maketrans({"\u2b06": " up ", "\u2b07": " down ", "\u2b05": " left ", "\u27a1": " right ",
                              "\u2191": " up ", "\u2193": " down ", "\u2192": " right ", "\u2190": " left "})
"""Arrows as the absolute directions they point to ("\u2b07\ufe0fx2": down twice)."""
_UNTIL = re.compile(r"\b(?:straight|forwards?|ahead|going)?\s*(?:on\s+)?(?:until|till|as far as|all the way)\b"
                    r"[^,.;\n]*", re.IGNORECASE)
"""Walking on while the way ahead is open ("go straight until you hit a wall"), read as "forward 99"."""
_ABSOLUTE = re.compile(r"\b(?:go\s+|move\s+|walk\s+)?(?:(\d+)[\s-]+(?:more\s+)?(?:squares?\s+|steps?\s+|spaces?\s+)?"
                       r"(?:(?:sprint|dash|run|walk|trip|hop|go)\s+)?"
                       r"(up|down|north|south|east|west|left|right)\b(?!\s*\d)|(up|down|north|south|east|west|left|"
                       r"right)\s+(\d+)\s*times\b)", re.IGNORECASE)


def _pose(rows: list[str], cell: tuple[int, int], facing: str, actions: list[str]) -> tuple[tuple[int, int], str]:
    """Where `actions` leave the mouse (a refused move leaves it where it is)."""
    for action in actions:
        if action != PRESS:
            cell, facing, _ = apply_to_pose(rows, cell, facing, action)
    return cell, facing


def _open(rows: list[str], cell: tuple[int, int], facing: str, step: str) -> int:
    """How many squares the mouse can walk with `step` before a wall."""
    count = 0
    while count < SIZE and (moved := apply_to_pose(rows, cell, facing, step))[2]:
        cell, facing, _ = moved
        count += 1
    return count


def _heading(way: str, facing: str, count: int) -> list[str]:
    """Moves `count` squares toward an absolute direction: turn to it from `facing` (back up when it is behind)."""
    quarter = (FACINGS.index(way) - FACINGS.index(facing)) % 4
    return {0: [], 1: [TURN_RIGHT], 3: [TURN_LEFT], 2: []}[quarter] + [BACKWARD if quarter == 2 else FORWARD] * count


_MOTION = re.compile(r"\b(?:turn|go|move|walk|drive|forwards?|backwards?|back|ahead|reverse|left|right|up|down|"
                     r"across|press|\d+\s+(?:squares?|steps?|spaces?|cells?))\b", re.IGNORECASE)
"""A part of a route with a move or a direction: a step the reader must read."""


def _route(text: str, rows: list[str], cell: tuple[int, int], facing: str) -> Steps:
    """The actions of a route, in order, from the mouse's pose; a step it cannot read or that leaves a side or direction
    open is asked. Directions are absolute ("2 up, then 2 right") when the route names up, down or a compass point."""
    text = _FACED.sub(lambda m: f" faced {_FACING[m.group(1).lower()]} ", text)
    for pattern, word in _TURN_WORDS:
        text = pattern.sub(word, text)
    text = _MORE.sub(lambda m: ("backward " if (re.findall(r"\b(?:forwards?|ahead|backwards?|back|reverse)\b", m.string[
        :m.start()], re.IGNORECASE) or ["forward"])[-1].lower().startswith(("back", "rev")) else "forward ")
        + (m.group(1) or m.group(2)), text)
    text = re.sub(r"\bas\s+far\s+(up|down)\s+as\b[^,.;\n]*|\ball\s+the\s+way\s+(up|down)\b", lambda m:
                  f" heading {m.group(1) or m.group(2)} 99 ", text, flags=re.IGNORECASE)  # "go all the way up"
    text = _UNTIL.sub(" forward 99 ", text)
    text = re.sub(r"\bback(?:ing)?\s+up\b", "backward", text, flags=re.IGNORECASE)  # a move, not the direction up
    absolute = bool(re.search(r"(?<!facing )(?<!face )\b(?:up|down|north|south|east|west)\b", text, re.I))  # not a pose
    if absolute:  # "west 8", "up 2 squares": "8 west"
        text = re.sub(r"(?<!turn )\b(up|down|north|south|east|west|left|right)\s+(\d+)"
                      r"(?:\s+(?:squares?|steps?|spaces?|cells?))?+\b(?!\s*(?:times|x)\b)", r"\2 \1", text, flags=re.I)
        text = _ABSOLUTE.sub(lambda m: f" heading {_FACING[(m.group(2) or m.group(3)).lower()]} "
                                       f"{m.group(1) or m.group(4)} ", text)
    parts = re.split(r"->|[;,\n]|\bthen\b|\band\b|\.\s", text)
    unread = [part for k, part in enumerate(parts)
              if _MOTION.search(part) and not _STEP.search(part) and (k or len(part.split()) > 1)  # not "Right. ..."
              and not re.search(r"\bfacing\b|\byou(?:'re| are)\b|\b(?:you|mouse|it)(?:'ll| will| now)?\s+faces?\b|"
                                r"\blet(?:'s| me| us)\b", part, re.IGNORECASE)  # "You're facing left", "Let me walk"
              and not (k and " 99 " in parts[k - 1] and re.fullmatch(r"\W*\d+\s+\w+\W*", part))]  # "all the way, 8"
    if unread and _STEP.search(text):
        return Steps.unclear(f'What do you mean by "{unread[0].strip()}"?')
    compact = bool(_LEGEND_WORDS.search(text)) or bool(re.fullmatch(r"[\sFBLR\d]*(?:press)?[\s\S]*", text.strip())
                                                          and re.search(r"(?<![A-Za-z])[FB]\d", text))
    text = _LEGEND_WORDS.sub(" ", text)
    actions: list[str] = []
    for match in _STEP.finditer(text):
        whole = match.group(0).lower()
        if match.group(9) and compact:
            letter, count = match.group(9).upper(), int(match.group(10) or 1)
            actions += [{"F": FORWARD, "B": BACKWARD, "L": TURN_LEFT, "R": TURN_RIGHT}[letter]] * count
        elif match.group(9):
            continue
        elif whole.startswith("turn"):
            if not match.group(1):
                return Steps.unclear("Turn which way, left or right?")
            repeat = match.group(2)
            count = 2 if repeat and "twice" in repeat else int(re.sub(r"\D", "", repeat)) if repeat else 1
            actions += [f"turn_{match.group(1).lower()}"] * count
        elif match.group(3):
            return Steps.unclear(f"Do you mean turn {match.group(3).lower()} only, or turn and move? How far?")
        elif match.group(5):
            count = number(match.group(4) or match.group(6) or "1") or 1
            step = BACKWARD if match.group(5).lower().startswith(("back", "reverse")) else FORWARD
            actions += [step] * (count if count != 99 else _open(rows, *_pose(rows, cell, facing, actions), step))
        elif match.group(11):
            moves = _heading(match.group(11).lower(), _pose(rows, cell, facing, actions)[1], 1)
            count = int(match.group(12))
            if count == 99:  # "as far up as the maze lets you"
                count = _open(rows, *_pose(rows, cell, facing, actions + moves[:-1]), moves[-1])
            actions += moves[:-1] + moves[-1:] * count
        elif match.group(7):
            count, way = int(match.group(7)), match.group(8).lower()
            facing = _pose(rows, cell, facing, actions)[1]
            if way == facing:
                actions += [FORWARD] * count
            elif FACINGS.index(way) == (FACINGS.index(facing) + 2) % 4:
                actions += [BACKWARD] * count
            else:
                return Steps.unclear(f"I'm facing {facing}. Should I turn {way} first, or move another way?")
        elif match.group(13):
            facing_now = _pose(rows, cell, facing, actions)[1]
            if facing_now != match.group(13).lower():
                return Steps.unclear(f'Then I face {facing_now}, not {match.group(13).lower()}. Which way do you mean?')
        else:
            actions.append(PRESS)
    if not actions and re.search(r"\b(?:go|head|move|walk|get)\b", text, re.IGNORECASE):
        return Steps.unclear("Which moves should I make (turns, and how many squares forward or back)?")
    return Steps(actions) if actions else Steps()
