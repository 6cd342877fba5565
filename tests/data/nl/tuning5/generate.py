# ruff: noqa: E501  (item text reads better unbroken)
"""Writes the fifth tuning set (issue 56, sixth round): conditional advice the solver settles from what it sees
("cryotherapy if it itches, none if not", "blue strip: release on a 4; any other: on a 1", "confirm only if the
balance is $500 or more, otherwise back out"), sequences said once ("up on window 5, then 4, then 3"; "clockwise
from the top-left"; arrows as directions on the maze; "go straight until you hit a wall"; "enter your PIN, then
ENTER"), corrections and asides ("Hold it." then "No wait, tap it!"), advice without its value ("set the
password, then submit"), and descriptions in assistant prose or ending in a question, for all 13 puzzles, with
the expected outcome from the manual on the true state.

    python tests/data/nl/tuning5/generate.py   # rewrites tests/data/nl/tuning5/<puzzle>.jsonl

Per puzzle: four describe items (three act, one ask) and eight advise items (six act, two ask). Every act item
is replayed here without a mistake before it is written. Seeds 14000-14999.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _tuning4() -> Any:
    """The fourth tuning set's generator, whose helpers (a fresh instance, the manual's advice, replaying an
    item, the voices) this one shares."""
    spec = importlib.util.spec_from_file_location("tuning4_generate", HERE.parent / "tuning4" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_T4 = _tuning4()
fresh, advice, changes, ORD, SPOT, verbose, think = _T4.fresh, _T4.advice, _T4.changes, _T4.ORD, _T4.SPOT, _T4.verbose, _T4.think
NUM = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
LO, HI = 14000, 14999


class Items(_T4.Items):
    def _id(self, direction: str) -> str:
        n = sum(1 for i in self.items if i["direction"] == direction) + 1
        return f"{self.puzzle}-{direction}-X-{n:03d}"

    def write(self) -> None:
        for item in self.items:
            _T4.check(item)
        path = HERE / f"{self.puzzle}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items), encoding="utf-8")


def seeds(puzzle: str, keep: Any, n: int, start: int, prefix: Any = ()) -> list[int]:
    """The first `n` seeds from `start` whose instance (after `prefix`, a list or a function of the instance)
    `keep` accepts."""
    out = []
    for s in range(start, HI):
        pre = prefix(fresh(puzzle, s)) if callable(prefix) else list(prefix)
        if keep(fresh(puzzle, s, pre)):
            out.append(s)
            if len(out) == n:
                return out
    raise AssertionError((puzzle, out))


def expand(pz: Any, lines: list[str]) -> list[str]:
    """Advice lines as the actions they come to on `pz` ("release when the timer shows a 4": a wait, then release)."""
    return [a for line in lines for a in type(pz).expand_advice(line, pz.visible_state())]


# -- Wire ---------------------------------------------------------------------------------------------------
def wire() -> Items:
    it = Items("wire")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("wire", s)
        vs = pz.visible_state()
        c, serial = vs["wire_colors_top_to_bottom"], vs["serial_number"]
        parity = "odd" if int(serial[-1]) % 2 else "even"
        text = [verbose(f"There are a total of {NUM[len(c)]} ({len(c)}) wires, numbered from the top: " + "; ".join(f"the {ORD[i]} wire is {x}" for i, x in enumerate(c)) + f". The serial number is {serial}, whose final character is the {parity} digit {serial[-1]}."),
                f"Okay so from the top down I've got {', '.join(c)}. Serial {serial}. Which one should I cut?",
                think("Count them.", f"{len(c)} wires ({', '.join(c)}), serial {serial}. Do I cut the last one?")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    s = seeds("wire", lambda p: len(p.visible_state()["wire_colors_top_to_bottom"]) >= 5 and changes(p, [{"wire_colors_top_to_bottom": p.visible_state()["wire_colors_top_to_bottom"][:3] + [x] * (len(p.visible_state()["wire_colors_top_to_bottom"]) - 3)} for x in ("red", "blue", "black", "white", "yellow")]), 1, LO + 10)[0]
    c = fresh("wire", s).visible_state()["wire_colors_top_to_bottom"]
    it.describe(s, "partial", [f"I can see the top three wires: {', '.join(c[:3])}. The rest are hidden behind a panel. Which should I cut?"], ask=["wires", "colour"], why="the hidden wires decide the cut")

    ss = seeds("wire", lambda p: True, 6, LO + 30)
    for k, s in enumerate(ss):
        pz = fresh("wire", s)
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        serial = pz.visible_state()["serial_number"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1]) - 1
        other = ORD[(j + 1) % len(c)]
        reds = c.count("red")
        if k == 0:
            text = [f"If there are more than {reds} red wires, cut the {other} wire; otherwise cut the {ORD[j]} wire."]
        elif k == 1:
            odd = int(serial[-1]) % 2 == 1
            text = [f"If the last digit of the serial is {'even' if odd else 'odd'}, cut the {other} wire; if it is {'odd' if odd else 'even'}, cut the {ORD[j]} one."]
        elif k == 2:
            text = ["Cut the first wire.", f"No wait, sorry - cut the {ORD[j]} wire!"]
        elif k == 3:
            text = [think(f"Maybe the {other}? No.", f"Counterintuitively, you cut the {ORD[j]} wire, not the {other}.")]
        elif k == 4:
            col = c[-1]
            text = [f"If the bottom wire is {col}, cut the {ORD[j]} wire. Otherwise cut the {other} wire."]
        else:
            n = c.count(c[j])
            text = [f"Count the {c[j]} wires. If there is exactly {NUM[n]}, cut the {ORD[j]} wire; if not, cut the {other}."]
        it.advise(s, ["conditional", "conditional", "correction", "aside", "conditional", "conditional"][k], text, a)
    it.advise(LO + 40, "conditional", ["If the bomb has more than one battery, cut the second wire; otherwise cut the third."], ask=["batteries"], why="the solver sees no batteries")
    it.advise(LO + 41, "no-value", ["Cut the wire whose position equals the number of lit indicators."], ask=["indicators"], why="a rule over something the solver does not have")
    return it


# -- Who ------------------------------------------------------------------------------------------------------
def who() -> Items:
    it = Items("who")
    for k, s in enumerate(range(LO, LO + 3)):
        vs = fresh("who", s).visible_state()
        b = vs["button_labels"]
        d = vs["display_text"] or "nothing (it is blank)"
        text = [verbose(f"The display reads {d}. The six buttons, in reading order, are labelled " + ", ".join(f"{b[p]} ({SPOT[p]})" for p in b) + "."),
                f"display says {d}. buttons: " + " / ".join(f"{SPOT[p]} {b[p]}" for p in b) + ". which one do I press?",
                think("Six labels.", "Display: " + d + "\n" + "\n".join(f"- {SPOT[p]}: {b[p]}" for p in b))][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(fresh("who", s)))
    vs = fresh("who", LO + 10).visible_state()
    it.describe(LO + 10, "partial", ["The buttons say " + ", ".join(f"{vs['button_labels'][p]} ({SPOT[p]})" for p in SIX) + ". I can't read the display from here. What now?"], ask=["display"], why="the display picks the label to read")
    for k, s in enumerate(range(LO + 30, LO + 36)):
        pz = fresh("who", s)
        vs = pz.visible_state()
        a = advice(pz)
        pos = a[0].removeprefix("press_")
        b = vs["button_labels"]
        wrong = next(p for p in SIX if p != pos)
        d = vs["display_text"]
        text = [[f"If the display says {d!r}, press {b[pos]}; otherwise press {b[wrong]}."],
                [f"If the display is blank, press the {SPOT[wrong]} button; otherwise press the {SPOT[pos]} one."] if d else [f"If the display shows any word, press the {SPOT[wrong]} button; if it is blank, press the {SPOT[pos]} one."],
                [f"Press {b[wrong]}.", f"Wait, no - press {b[pos]}!"],
                [think(f"{b[wrong]}?", f"Counterintuitively, the answer is the button labelled {b[pos]}.")],
                [f"If {b[pos]} is in the {SPOT[pos]} spot, press it; otherwise press {b[wrong]}."],
                [f"Press the {SPOT[pos]} button. Oh and ignore what I said before about {b[wrong]}."]][k]
        it.advise(s, ["conditional", "conditional", "correction", "aside", "conditional", "correction"][k], text, a)
    it.advise(LO + 40, "no-value", ["Press the button whose label comes first in the list I read you."], ask=["list", "which"], why="no list was given")
    it.advise(LO + 41, "conditional", ["If the bomb's serial has a vowel, press the top left button; otherwise the bottom right."], ask=["serial"], why="Who has no serial")
    return it


SIX = ["top_left", "top_right", "middle_left", "middle_right", "bottom_left", "bottom_right"]
FOUR = ["top_left", "top_right", "bottom_left", "bottom_right"]
CLOCKWISE = ["top_left", "top_right", "bottom_right", "bottom_left"]


# -- Keypad -----------------------------------------------------------------------------------------------------
def keypad() -> Items:
    it = Items("keypad")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("keypad", s)
        b = pz.visible_state()["button_symbols"]
        text = [verbose("There are four keys with symbols: " + "; ".join(f"the {SPOT[p]} key shows {b[p]}" for p in FOUR) + "."),
                " ".join(f"{SPOT[p]}: {b[p]}." for p in FOUR) + " In what order do I press them?",
                think("Four glyphs.", "Keys (reading order): " + ", ".join(b[p] for p in FOUR))][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    pz = fresh("keypad", LO + 10)
    b = pz.visible_state()["button_symbols"]
    it.describe(LO + 10, "partial", [f"Top row: {b['top_left']} and {b['top_right']}. The bottom two are smudged. What order?"], ask=["bottom"], why="two symbols unread")

    def rotation(order: list[str]) -> tuple[str, str] | None:
        for start in CLOCKWISE:
            i = CLOCKWISE.index(start)
            if CLOCKWISE[i:] + CLOCKWISE[:i] == order:
                return "clockwise", start
            rev = list(reversed(CLOCKWISE))
            j = rev.index(start)
            if rev[j:] + rev[:j] == order:
                return "counter-clockwise", start
        return None

    def press_order(p: Any) -> list[str]:
        return [a.removeprefix("press_") for a in advice(p)]
    ss = seeds("keypad", lambda p: rotation(press_order(p)) is not None, 2, LO + 30)
    for s in ss:
        pz = fresh("keypad", s)
        way, start = rotation(press_order(pz))
        it.advise(s, "shape", [f"Go {way} starting at the {SPOT[start]}."], advice(pz))
    for k, s in enumerate(range(LO + 50, LO + 54)):
        pz = fresh("keypad", s)
        a = advice(pz)
        b = pz.visible_state()["button_symbols"]
        order = [x.removeprefix("press_") for x in a]
        text = ["\n".join(f"{i + 1}. {b[p]} ({SPOT[p]})" for i, p in enumerate(order)),
                f"Press {b[order[0]]}, then {b[order[1]]}, then {b[order[2]]}, then {b[order[3]]}.",
                f"Press the {SPOT[order[1]]} key first.\n\nActually no, scratch that: {', '.join(SPOT[p] for p in order)}.",
                think("Column 3?", "Press: " + " -> ".join(f"{SPOT[p]}" for p in order))][k]
        it.advise(s, ["numbered", "sequence", "correction", "think"][k], [text], a)
    it.advise(LO + 60, "no-value", ["Press the diagonal that starts at the top left."], ask=["diagonal", "order"], why="two keys, and the manual needs all four in order")
    it.advise(LO + 61, "no-value", ["Press them in the order of the column they share."], ask=["order"], why="a rule, not an order")
    return it


# -- LED --------------------------------------------------------------------------------------------------------
def led() -> Items:
    it = Items("led")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("led", s)
        vs = pz.visible_state()
        c, b = vs["led_colors_left_to_right"], vs["button_letters"]
        text = [verbose(f"This is stage {vs['stage_number']}. There are a total of {NUM[len(c)]} ({len(c)}) LEDs, from left to right: {', '.join(c)}. The four buttons show the letters " + ", ".join(f"{b[p]} ({SPOT[p]})" for p in FOUR) + "."),
                f"stage {vs['stage_number']}, LEDs {' '.join(c)}, letters {b['top_left']} {b['top_right']} / {b['bottom_left']} {b['bottom_right']} (top row, then bottom). what do I press?",
                think("LEDs.", f"Stage {vs['stage_number']}. LEDs L->R: {', '.join(c)}. Buttons: " + ", ".join(f"{SPOT[p]} {b[p]}" for p in FOUR))][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    vs = fresh("led", LO + 10).visible_state()
    b = vs["button_letters"]
    it.describe(LO + 10, "partial", ["Stage 1. Buttons: " + ", ".join(f"{SPOT[p]} {b[p]}" for p in FOUR) + ". The LEDs haven't lit up yet - what should I press?"], ask=["LED", "colour"], why="no LED colours")
    for k, s in enumerate(range(LO + 30, LO + 36)):
        pz = fresh("led", s)
        vs = pz.visible_state()
        a = advice(pz)
        pos = a[0].removeprefix("press_")
        b, c = vs["button_letters"], vs["led_colors_left_to_right"]
        wrong = next(p for p in FOUR if p != pos)
        other = next(x for x in ("red", "blue", "green", "yellow", "purple", "orange") if x != c[0])
        text = [[f"If the leftmost LED is {other}, press {b[wrong]}; otherwise press {b[pos]}."],
                [f"If the first LED is {c[0]}, press the letter {b[pos]}. If not, press {b[wrong]}."],
                [f"Press {b[wrong]}.", f"No wait, press {b[pos]}!"],
                [think(f"{b[wrong]}", f"Counterintuitively, it's {b[pos]} you want.")],
                [f"If there are {NUM[c.count(c[0]) + 1]} {c[0]} LEDs press {b[wrong]}, otherwise {b[pos]}."],
                [verbose(f"the answer for this stage is the {SPOT[pos]} button, labelled {b[pos]}").replace("Here is a complete description of everything I can see on the module.", "Based on the manual:")]][k]
        it.advise(s, ["conditional", "conditional", "correction", "aside", "conditional", "verbose"][k], text, a)
    it.advise(LO + 40, "no-value", ["Press the letter that matches the number of LEDs."], ask=["which", "letter"], why="a rule, not a letter")
    it.advise(LO + 41, "conditional", ["If the strip is blue press the top left, otherwise the bottom right."], ask=["strip"], why="LED has no strip")
    return it


# -- Memory -----------------------------------------------------------------------------------------------------
def memory() -> Items:
    it = Items("memory")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("memory", s)
        vs = pz.visible_state()
        lab = vs["button_labels_left_to_right"]
        text = [verbose(f"This is stage {vs['stage']}. The display shows the number {NUM[vs['display_number']]} ({vs['display_number']}). Below it are a total of four (4) buttons, numbered from the left, labelled {', '.join(map(str, lab))}."),
                f"Display {vs['display_number']}, buttons {' '.join(map(str, lab))} left to right, stage {vs['stage']}. Which one?",
                think("Stage one.", f"display = {vs['display_number']}; labels = {lab}")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    lab = fresh("memory", LO + 10).visible_state()["button_labels_left_to_right"]
    it.describe(LO + 10, "partial", [f"Stage 1. The buttons read {', '.join(map(str, lab))} from the left. The display is flickering and I can't read it. Which do I press?"], ask=["display"], why="the display decides the press")
    for k, s in enumerate(range(LO + 30, LO + 36)):
        pz = fresh("memory", s)
        vs = pz.visible_state()
        a = advice(pz)
        pos = int(a[0].rsplit("_", 1)[1])
        d, lab = vs["display_number"], vs["button_labels_left_to_right"]
        wrong = 1 + pos % 4
        text = [[f"If the display shows {1 + d % 4}, press the {ORD[wrong - 1]} button; otherwise press the {ORD[pos - 1]} button."],
                [f"If the display is {d}, press the button labelled {lab[pos - 1]}. Otherwise press the one labelled {lab[wrong - 1]}."],
                [f"Press position {wrong}.", f"Sorry, no: press position {pos}."],
                [think("Position?", f"Counterintuitively, you press the button labelled {lab[pos - 1]}.")],
                [f"If the display number is {'bigger' if d >= 3 else 'smaller'} than {2 if d >= 3 else 3}, press the {ORD[pos - 1]} button; if not, the {ORD[wrong - 1]}."],
                [f"Press the {ORD[pos - 1]} button from the left (the one labelled {lab[pos - 1]})."]][k]
        it.advise(s, ["conditional", "conditional", "correction", "aside", "conditional", "listing"][k], text, a)
    it.advise(LO + 40, "no-value", ["Press the button whose label equals the display from stage 3."], ask=["stage"], why="a later stage's value the solver does not have")
    it.advise(LO + 41, "conditional", ["If you pressed a 4 in stage 1, press position 2; otherwise position 1."], ask=["stage 1"], why="at stage 1 there is no earlier press")
    return it


# -- Password ---------------------------------------------------------------------------------------------------
def password() -> Items:
    it = Items("password")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("password", s)
        x = pz.visible_state()["letters_shown_left_to_right"]
        text = [verbose(f"There are a total of five (5) letter windows, numbered from the left. They currently show {', '.join(x)}, and there is a submit button."),
                f"windows read {' '.join(x)}. what do i do?",
                think("Five letters.", "Letters: " + "".join(x) + ". Should I submit?")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    it.describe(LO + 10, "partial", ["I see five windows and a submit button. The letters are too blurry to read. What's the word?"], ask=["letters"], why="no letters read")

    def ups(pz: Any) -> list[str]:
        out = []
        for i, (cyc, shown) in enumerate(zip(pz.cycles, pz.shown, strict=True)):
            n = (cyc.index(pz.answer[i].upper()) - cyc.index(shown)) % len(cyc)
            out += [f"cycle_up_{i + 1}"] * n
        return out + ["submit"]
    for k, s in enumerate(range(LO + 30, LO + 34)):
        pz = fresh("password", s)
        if k == 0:
            it.advise(s, "sequence", ["Press up on window 5, then 4, then 3, then 2, then 1."], ["cycle_up_5", "cycle_up_4", "cycle_up_3", "cycle_up_2", "cycle_up_1"])
        elif k == 1:
            it.advise(s, "sequence", ["Down on 1, up on 2, down on 3, up on 4, down on 5, then tell me the letters."], ["cycle_down_1", "cycle_up_2", "cycle_down_3", "cycle_up_4", "cycle_down_5"])
        elif k == 2:
            it.advise(s, "correction", ["Cycle window 3 down twice.", "No wait - window 2, not 3. Down twice."], ["cycle_down_2", "cycle_down_2"])
        else:
            it.advise(s, "spell", [think("The word is in the list.", f"Set the windows to spell {pz.answer.upper()}, then submit.")], ups(pz))
    pz = fresh("password", LO + 35)
    it.advise(LO + 35, "sequence", [f"Spell {pz.answer}: " + ", then ".join(f"window {i + 1} to {ch.upper()}" for i, ch in enumerate(pz.answer)) + ", then press submit."], ups(pz))
    it.advise(LO + 36, "aside", ["Counterintuitively, you press the up arrow on every window once, starting from the rightmost."], ["cycle_up_5", "cycle_up_4", "cycle_up_3", "cycle_up_2", "cycle_up_1"])
    it.advise(LO + 40, "no-value", ["Set the password, then submit."], ask=["word", "password"], why="no word")
    it.advise(LO + 41, "no-value", ["Spell it and submit."], ask=["word"], why="no word")
    return it


# -- Maze -------------------------------------------------------------------------------------------------------
HEADINGS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}
ARROW = {"up": "\u2b06\ufe0f", "right": "\u27a1\ufe0f", "down": "\u2b07\ufe0f", "left": "\u2b05\ufe0f"}


def walk(pz: Any, actions: list[str]) -> list[tuple[str, int]]:
    """The route of `actions` as absolute runs: (direction, squares)."""
    order = ["up", "right", "down", "left"]
    facing = pz.visible_state()["mouse_facing"]
    runs: list[tuple[str, int]] = []
    for a in actions:
        if a.startswith("turn_"):
            facing = order[(order.index(facing) + (1 if a == "turn_right" else -1)) % 4]
        elif a.startswith("move_"):
            d = facing if a == "move_forward" else order[(order.index(facing) + 2) % 4]
            runs = runs[:-1] + [(d, runs[-1][1] + 1)] if runs and runs[-1][0] == d else [*runs, (d, 1)]
    return runs


def open_ahead(pz: Any) -> int:
    vs = pz.visible_state()
    r, c = vs["mouse_row_column"]
    dr, dc = HEADINGS[vs["mouse_facing"]]
    rows = vs["maze_rows_top_to_bottom"]
    n = 0
    while 1 <= r + dr <= len(rows) and 1 <= c + dc <= len(rows[0]) and rows[r + dr - 1][c + dc - 1] != "#":
        r, c, n = r + dr, c + dc, n + 1
    return n


def maze() -> Items:
    it = Items("maze")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("maze", s)
        vs = pz.visible_state()
        m, sph = vs["mouse_row_column"], vs["sphere_row_column_by_color"]
        grid = "\n".join(vs["maze_rows_top_to_bottom"])
        tail = f"Mouse at ({m[0]},{m[1]}) facing {vs['mouse_facing']}. Spheres: " + ", ".join(f"{c} ({p[0]},{p[1]})" for c, p in sph.items()) + f". Torus: {vs['torus_color']}. (row,col) from the top left."
        text = [verbose(f"The maze, row by row from the top (# wall, . floor):\n\n```\n{grid}\n```\n\n{tail}"),
                f"```\n{grid}\n```\n{tail} Where do I go?",
                think("Grid.", f"```\n{grid}\n```\n{tail}")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    vs = fresh("maze", LO + 10).visible_state()
    m = vs["mouse_row_column"]
    it.describe(LO + 10, "partial", [f"The mouse is at ({m[0]},{m[1]}) facing {vs['mouse_facing']}, the torus is {vs['torus_color']}. I can only see the walls right around the mouse. Which way?"], ask=["maze", "walls"], why="no maze")
    for k, s in enumerate(range(LO + 30, LO + 34)):
        pz = fresh("maze", s)
        a = advice(pz)
        runs = walk(pz, a)
        if k % 2 == 0:
            text = " ".join(f"{ARROW[d]}x{n}" for d, n in runs) + " then PRESS"
        else:
            text = "Go " + ", then ".join(f"{n} {d}" for d, n in runs) + " (up is toward the top of the map), then press the button."
        it.advise(s, "arrows" if k % 2 == 0 else "absolute", [text], a)

    def walls_ahead(p: Any) -> bool:
        return open_ahead(p) >= 2
    s = seeds("maze", walls_ahead, 1, LO + 40)[0]
    pz = fresh("maze", s)
    it.advise(s, "until-wall", ["Go straight until you hit a wall."], ["move_forward"] * open_ahead(pz))
    for s2 in range(LO + 50, HI):
        q = fresh("maze", s2, ["turn_left"])
        if open_ahead(q) >= 2:
            it.advise(s2, "until-wall", ["Turn left, then keep going straight until you can't go any further."], ["turn_left"] + ["move_forward"] * open_ahead(q))
            break
    it.advise(LO + 60, "no-value", ["Follow the path I described and press the button."], ask=["path", "which way"], why="no path was described")
    it.advise(LO + 61, "no-value", ["Go to the sphere the torus points to, then press."], ask=["which", "sphere"], why="a rule, not a sphere")
    return it


# -- Color ------------------------------------------------------------------------------------------------------
def color() -> Items:
    it = Items("color")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("color", s)
        g = pz.visible_state()["square_colors_by_row"]
        text = [verbose("The grid has a total of four (4) rows of four (4) squares, numbered from the top and from the left. " + " ".join(f"Row {i + 1} is {', '.join(r)}." for i, r in enumerate(g))),
                "\n".join(" ".join(r) for r in g) + "\n(top row first) Which do I press?",
                think("4x4.", "\n".join(f"row {i + 1}: {', '.join(r)}" for i, r in enumerate(g)))][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    g = fresh("color", LO + 10).visible_state()["square_colors_by_row"]
    it.describe(LO + 10, "partial", ["Rows 1 and 2 are " + "; ".join(", ".join(r) for r in g[:2]) + ". The bottom half is in shadow. What now?"], ask=["row 3", "row 4"], why="half the grid unread")
    for k, s in enumerate(range(LO + 30, LO + 36)):
        pz = fresh("color", s)
        a = advice(pz)
        cells = [tuple(map(int, x.split("_")[1:])) for x in a]
        g = pz.visible_state()["square_colors_by_row"]
        flat = [x for r in g for x in r]
        top = max(set(flat), key=flat.count)
        spell = ", then ".join(f"row {r} column {c}" for r, c in cells)
        text = [[f"Press {spell}."],
                [f"If there are more than {flat.count(top)} {top} squares, press row 1 column 1; otherwise press {spell}."],
                ["Press row 4 column 4.", f"No wait! Ignore that. Press {spell}."],
                [think("Which?", f"Counterintuitively, you press {spell}.")],
                [f"If {top} is the most common colour, press {spell}. Otherwise press row 1 column 1."],
                ["Press " + ", then ".join(f"R{r}C{c}" for r, c in cells) + "."]][k]
        it.advise(s, ["sequence", "conditional", "correction", "aside", "conditional", "sequence"][k], text, a)
    it.advise(LO + 40, "no-value", ["Press the diagonal that starts at the top left."], ask=["which", "squares"], why="four squares on that diagonal; press order and extent unclear")
    it.advise(LO + 41, "no-value", ["Press the squares the rule picks."], ask=["which", "squares"], why="no squares named")
    return it


# -- ATM --------------------------------------------------------------------------------------------------------
def login(pz: Any) -> list[str]:
    return ["select_withdraw"] + [f"press_{d}" for d in pz.visible_state()["pin_on_card"]] + ["press_enter"]


def atm() -> Items:
    it = Items("atm")
    for k, s in enumerate(range(LO, LO + 2)):
        pz = fresh("atm", s)
        pre = login(pz)
        after = fresh("atm", s, pre)
        bal = after.visible_state()["balance"]
        text = [verbose(f"The screen now shows the account balance, which is {bal}, with Continue and Back buttons."),
                f"Logged in. It says my balance is {bal}. Should I withdraw?"][k]
        it.describe(s, ["verbose", "question"][k], ["\n".join(pre), text], expand(after, advice(after)))
    pz = fresh("atm", LO + 2)
    it.describe(LO + 2, "verbose", [verbose("The screen shows the main menu with two buttons, Deposit and Withdraw. I have my bank card.")], advice(pz), alternatives=[["select_deposit", *advice(pz)[1:]]])
    pz = fresh("atm", LO + 10)
    pre = login(pz)
    it.describe(LO + 10, "partial", ["\n".join(pre), "I'm on the balance screen but the number is cut off. Continue?"], ask=["balance"], why="the balance decides")

    def low(p: Any) -> bool:
        return float(p.visible_state()["balance"].strip("$").replace(",", "")) < 500
    for k, s in enumerate(range(LO + 30, LO + 36)):
        pz = fresh("atm", s)
        if k in (0, 1, 4):
            pre = login(pz)
            after = fresh("atm", s, pre)
            act = expand(after, advice(after))
            text = [["Confirm a $300 withdrawal only if the balance is $500 or more; otherwise back out and deposit $100."],
                    ["If your balance is under $500, go back and deposit $100. If it's $500 or more, continue and withdraw $300."],
                    [think("Balance rule.", "Check the balance: at least $500 -> continue, take out $300, confirm. Less -> back, deposit, $100, confirm.")]][[0, 1, 4].index(k)]
            it.advise(s, ["conditional", "conditional", "think"][[0, 1, 4].index(k)], text, act, prefix=pre)
        elif k == 2:
            it.advise(s, "sequence", ["Choose Withdraw, enter your PIN, then ENTER."], login(pz))
        elif k == 3:
            it.advise(s, "correction", ["Select Deposit.", "Sorry, I meant Withdraw. Then key in your PIN and hit enter."], login(pz))
        else:
            pin = pz.visible_state()["pin_on_card"]
            it.advise(s, "aside", [f"Counterintuitively, you pick Withdraw even if you want to check the balance. Then type {' '.join(pin)} and press enter."], login(pz))
    pz = fresh("atm", LO + 40)
    it.advise(LO + 40, "no-value", ["Withdraw the amount I mentioned earlier, then confirm."], ask=["amount"], why="no amount given", prefix=login(pz))
    it.advise(LO + 41, "conditional", ["If your savings account has more than $1000, choose Withdraw; otherwise Deposit."], ask=["savings"], why="the solver sees no savings account")
    return it


# -- Telehealth -------------------------------------------------------------------------------------------------
def telehealth() -> Items:
    it = Items("telehealth")

    def findings(vs: dict[str, Any]) -> str:
        return (f"The patient is {vs['age']}, skin type {vs['skin_type']}. The lesion is on the {vs['body_region']}, {vs['diameter_mm']} mm across, "
                f"{' and '.join(vs['lesion_colors'])}, {vs['lesion_shape']}, with a {vs['lesion_border']} border and a {vs['lesion_surface']} surface. "
                f"Itching: {vs['itch']}. Bleeding: {vs['bleed']}. Grown: {vs['grew']}. Changed: {vs['changed']}. Raised: {vs['elevation']}. "
                f"Visible blood vessels: {'yes' if vs['visible_blood_vessels'] else 'no'}.")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("telehealth", s)
        vs = pz.visible_state()
        text = [verbose(findings(vs)), findings(vs) + " What is it, and how do I treat it?", think("Skin.", findings(vs))][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    vs = fresh("telehealth", LO + 10).visible_state()
    it.describe(LO + 10, "partial", [f"The patient is {vs['age']}. There's a spot on the {vs['body_region']}, {vs['diameter_mm']} mm. That's all I can see on the chart - what do I diagnose?"], ask=["colour", "border", "surface"], why="the lesion's look decides")

    def dx(p: Any) -> str:
        return advice(p)[0]
    name = {"diagnose_bcc": "basal cell carcinoma", "diagnose_scc": "squamous cell carcinoma", "diagnose_ack": "actinic keratosis",
            "diagnose_sek": "seborrheic keratosis", "diagnose_mel": "melanoma", "diagnose_nev": "benign nevus"}
    sek = seeds("telehealth", lambda p: dx(p) == "diagnose_sek", 3, LO + 30)
    for k, s in enumerate(sek):
        pz = fresh("telehealth", s)
        text = ["Record seborrheic keratosis. Then: cryotherapy if it itches or bleeds, no treatment if neither.",
                "It's a seborrheic keratosis. If the lesion neither itches nor bleeds, give no treatment; otherwise cryotherapy.",
                "Diagnose seborrheic keratosis, then treat: itching or bleeding -> cryotherapy, else none."][k]
        it.advise(s, "conditional", [text], advice(pz))
    car = seeds("telehealth", lambda p: dx(p) in ("diagnose_bcc", "diagnose_scc"), 2, LO + 60)
    for k, s in enumerate(car):
        pz = fresh("telehealth", s)
        text = [f"Diagnose {name[dx(pz)]}. If it is 5 mm or bigger, surgery; smaller, cryotherapy.",
                f"{name[dx(pz)].capitalize()}: under 5 mm gets cryotherapy, 5 mm or more gets surgery."][k]
        it.advise(s, "conditional", [text], advice(pz))
    pz = fresh("telehealth", LO + 90)
    a = advice(pz)
    it.advise(LO + 90, "correction", ["Diagnose melanoma.", f"Scratch that - it's {name[a[0]]}, then {a[1].removeprefix('treat_').replace('none', 'no treatment')}."] if a[0] != "diagnose_mel" else ["Diagnose benign nevus.", "Scratch that - it's melanoma, then surgery."], a)
    it.advise(LO + 91, "conditional", ["If the biopsy came back positive, diagnose melanoma; otherwise benign nevus."], ask=["biopsy"], why="no biopsy")
    it.advise(LO + 92, "no-value", ["Record the diagnosis from the table, then the matching treatment."], ask=["diagnosis"], why="no diagnosis named")
    return it


# -- Button -----------------------------------------------------------------------------------------------------
def button() -> Items:
    it = Items("button")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("button", s)
        vs = pz.visible_state()
        text = [verbose(f"There is a single large {vs['button_color']} button labelled \"{vs['button_label']}\". The timer reads {vs['timer']}. The strip beside it is unlit."),
                f"{vs['button_color']} button, says {vs['button_label']}. Tap or hold?",
                think("Button.", f"Colour: {vs['button_color']}. Label: {vs['button_label']}.")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    holds = seeds("button", lambda p: advice(p) == ["hold"], 6, LO + 10)
    it.describe(holds[0], "partial", ["hold", "I'm holding it. A strip lit up next to it. When do I let go?"], ask=["strip", "colour"], why="the strip's colour sets the digit")
    for k, s in enumerate(holds[1:4]):
        pz = fresh("button", s, ["hold"])
        text = ["Blue strip: release on a 4; yellow: on a 5; any other colour: on a 1.",
                "If the strip is white, let go when the timer has a 1 in it; if it's blue, a 4; yellow, a 5; anything else, a 1.",
                think("Strip rule.", "What colour is the strip? Blue means release on a 4, yellow on a 5, otherwise on a 1.")][k]
        it.advise(s, "conditional", [text], expand(pz, advice(pz)), prefix=["hold"])
    taps = seeds("button", lambda p: advice(p) == ["tap"], 2, LO + 40)
    it.advise(taps[0], "correction", ["Hold it.", "No wait, tap it!"], ["tap"])
    it.advise(taps[1], "aside", ["Counterintuitively, you tap it - don't hold."], ["tap"])
    pz = fresh("button", holds[4])
    vs = pz.visible_state()
    other = "red" if vs["button_color"] != "red" else "blue"
    it.advise(holds[4], "conditional", [f"If the button is {other}, tap it; otherwise hold it down."], ["hold"])
    it.advise(holds[5], "no-value", ["Release when the timer shows the right digit."], ask=["digit", "when"], why="no digit", prefix=["hold"])
    it.advise(LO + 71, "conditional", ["If there are more than two batteries, tap; otherwise hold."], ask=["batteries"], why="no batteries on this module")
    return it


# -- Dog --------------------------------------------------------------------------------------------------------
def dog() -> Items:
    it = Items("dog")
    ss = seeds("dog", lambda p: len(p.visible_state()["dogs"]) > 0, 3, LO)
    for k, s in enumerate(ss):
        pz = fresh("dog", s)
        vs = pz.visible_state()
        dogs = vs["dogs"]
        each = "; ".join(f"a {d['coat']} dog {d['pose']}, facing {d['facing']}" for d in dogs)
        text = [verbose(f"The timer reads {vs['timer']}. In the park there are a total of {NUM[len(dogs)]} ({len(dogs)}) dogs: {each}."),
                f"{len(dogs)} dogs ({each}). timer {vs['timer']}. when do i submit?",
                think("Count.", f"I count {NUM[len(dogs)]} dogs: {each}.")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    it.describe(LO + 10, "partial", ["There are some dogs in the park, I can see at least two behind a bush. When do I submit?"], ask=["how many"], why="no count")
    ss = seeds("dog", lambda p: len(p.visible_state()["dogs"]) > 0, 6, LO + 30)
    for k, s in enumerate(ss):
        pz = fresh("dog", s)
        n = len(pz.visible_state()["dogs"])
        a = expand(pz, advice(pz))
        text = [[f"If you see more than {n} dogs, submit when the timer ends in {(n + 1) % 10}; otherwise when it ends in {n}."],
                [f"If there are exactly {NUM[n]} dogs, submit on a {n}; if not, submit on a {(n + 2) % 10}."],
                [f"Submit when the timer ends in {(n + 3) % 10}.", f"No wait, make that {n}!"],
                [think("Count dogs.", f"Counterintuitively, you ignore the cats: submit when the last digit is {n}.")],
                [f"Fewer than {n} dogs: submit when the last digit is {max(n - 1, 0)}. Otherwise: submit when it's {n}."],
                ["Count the dogs, then submit when the timer's last digit is that count."]][k]
        it.advise(s, ["conditional", "conditional", "correction", "aside", "conditional", "visible-ref"][k], text, a)
    it.advise(LO + 40, "no-value", ["Submit when the timer ends in the number of cats."], ask=["cats"], why="no cats")
    it.advise(LO + 41, "no-value", ["Submit at the right moment."], ask=["when", "digit"], why="no digit")
    return it


# -- Sound ------------------------------------------------------------------------------------------------------
SYMBOL = {"press_dollar": "$", "press_star": "*", "press_ampersand": "&", "press_hash": "#"}
WORD = {"press_dollar": "dollar", "press_star": "star", "press_ampersand": "ampersand", "press_hash": "hash"}


def sound() -> Items:
    it = Items("sound")
    for k, s in enumerate(range(LO, LO + 3)):
        pz = fresh("sound", s)
        h = pz.visible_state()["sound_heard"]
        text = [verbose(f"After pressing play, the sound I heard can best be described as {h}. There are four keys: $, *, & and #."),
                f"the sound is {h}. which code?",
                think("Listen.", f"Heard: {h}.")][k]
        it.describe(s, ["verbose", "question", "think"][k], [text], advice(pz))
    it.describe(LO + 10, "partial", ["I pressed play but the volume is too low to hear anything. What's the code?"], ask=["sound"], why="no sound heard")
    ss = list(range(LO + 30, LO + 36))
    for k, s in enumerate(ss):
        pz = fresh("sound", s)
        a = advice(pz)
        h = pz.visible_state()["sound_heard"]
        syms = [SYMBOL[x] for x in a]
        text = [[f"Press {syms[0]}, then {syms[1]}, then {syms[2]}, then {syms[3]}."],
                [f"If the sound is a dog barking, enter # # # #; otherwise enter {' '.join(syms)}."] if "bark" not in h else [f"Enter {' '.join(syms)}."],
                [f"Enter {' '.join(reversed(syms))}.", f"Sorry, reversed it - enter {' '.join(syms)}."],
                [think("Code?", f"Counterintuitively, the code is {''.join(syms)}.")],
                ["Type " + ", ".join(WORD[x] for x in a) + "."],
                [f"The code is: {syms[0]} {syms[1]} {syms[2]} {syms[3]} - in that order."]][k]
        it.advise(s, ["sequence", "conditional", "correction", "aside", "sequence", "sequence"][k], text, a)
    it.advise(LO + 40, "no-value", ["Enter the code for that sound from the manual."], ask=["code"], why="no code given")
    it.advise(LO + 41, "conditional", ["If the sound is the one from the last round, enter $ $ $ $; otherwise * * * *."], ask=["last round"], why="the solver has no earlier round")
    return it


PUZZLES = [wire, who, keypad, led, memory, password, maze, color, atm, telehealth, button, dog, sound]

if __name__ == "__main__":
    for make in PUZZLES:
        make().write()
    print(sum(1 for p in HERE.glob("*.jsonl") for _ in p.open()), "items")
