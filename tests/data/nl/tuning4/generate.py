# ruff: noqa: E501  (item text reads better unbroken)
"""Writes the fourth tuning set (issue 56, fifth round): advice that refers to what the solver sees (a
colour group, a count, a sphere to walk to, a key by its look), structured descriptions (a markdown table
with a label column, a listing grouped by value, a letter grid with a legend, a grid given again for a new
stage), verbose assistant prose (with a ``<think>`` block before the answer), symbols and words by look, and
multi-step advice, for all 13 puzzles, with the expected outcome from the manual on the true state.

    python tests/data/nl/tuning4/generate.py   # rewrites tests/data/nl/tuning4/<puzzle>.jsonl

Per puzzle and direction: six act items and two ask items (a reference that matches several things where
one is meant, or none). Every act item is replayed here without a mistake before it is written.
Seeds 700-799.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _tuning3() -> Any:
    """The third tuning set's generator, whose helpers (a fresh instance, the manual's advice, whether a fact
    changes it, replaying an item) this one shares."""
    spec = importlib.util.spec_from_file_location("tuning3_generate", HERE.parent / "tuning3" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_T3 = _tuning3()
fresh, _, changes, check, NUM, ORD, SPOT, FOUR, SIX = (_T3.fresh, _T3.advice, _T3.changes, _T3.check, _T3.NUM,
                                                             _T3.ORD, _T3.SPOT, _T3.FOUR, _T3.SIX)
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen"]


def advice(pz: Any, notes: dict[str, Any] | None = None) -> list[str]:
    """The manual's next step on the true state (`notes` carry a stage's memory to the next)."""
    return type(pz).expert_advice(pz.visible_state(), {} if notes is None else notes)


def advice_of(pz: Any, symbols: dict[str, str]) -> list[str]:
    """Keypad's advice for other symbols, or [] when no column holds them."""
    try:
        return type(pz).expert_advice({**pz.visible_state(), "button_symbols": symbols}, {})
    except (ValueError, IndexError):
        return []


def seeds(puzzle: str, keep: Any, n: int, start: int, prefix: list[str] = ()) -> list[int]:
    out = [s for s in range(start, 800) if keep(fresh(puzzle, s, list(prefix)))][:n]
    assert len(out) == n, (puzzle, out)
    return out


# -- voices -----------------------------------------------------------------------------------------------
def verbose(body: str) -> str:
    return (f"Certainly! Here is a complete description of everything I can see on the module.\n\n{body}\n\n"
            "Please let me know if you need any further details, and which step I should take next.")


def think(thought: str, body: str) -> str:
    return f"<think>\n{thought}\n</think>\n\n{body}"


def advise_verbose(reason: str, step: str) -> str:
    return (f"Certainly! Based on the manual and the details you provided, {reason}. Therefore, {step[0].lower() + step[1:]}.\n\n"
            "Please let me know what happens after that, and I will guide you through the next stage.")


def label_table(head: list[str], rows: list[tuple[str, list[str]]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += [f"| **{label}** | " + " | ".join(cells) + " |" for label, cells in rows]
    return "\n".join(lines)


class Items(_T3.Items):
    def _id(self, direction: str) -> str:
        n = sum(1 for i in self.items if i["direction"] == direction) + 1
        return f"{self.puzzle}-{direction}-W-{n:03d}"

    def write(self) -> None:
        for item in self.items:
            check(item)
        path = HERE / f"{self.puzzle}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items), encoding="utf-8")


def second_stage(puzzle: str, seed: int) -> tuple[list[str], Any, list[str]]:
    """The first stage's advice (the prefix), the instance after it, and the second stage's advice."""
    notes: dict[str, Any] = {}
    prefix = advice(fresh(puzzle, seed), notes)
    pz = fresh(puzzle, seed, prefix)
    return prefix, pz, advice(pz, notes)


def plural(n: int, word: str) -> str:
    return f"{WORDS[n]} ({n}) {word}{'s' * (n != 1)}"


# -- Wire ---------------------------------------------------------------------------------------------------
def wire() -> Items:
    it = Items("wire")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("wire", s)
        vs = pz.visible_state()
        c, serial = vs["wire_colors_top_to_bottom"], vs["serial_number"]
        n = len(c)
        if k == 0:
            runs = [f"the {', '.join(ORD[i] for i in range(j, n) if c[i] == c[j])} wires are all {c[j]}" if c[j:].count(c[j]) > 1 and c[j] not in c[:j] else (f"the {ORD[j]} wire is {c[j]}" if c[j] not in c[:j] else "") for j in range(n)]
            body = f"There are a total of {plural(n, 'wire')}, numbered from the top. " + "; ".join(r for r in runs if r) + f". The serial number is {serial}, whose final character is the {'odd' if int(serial[-1]) % 2 else 'even'} digit {serial[-1]}."
            it.describe(s, "verbose", [verbose(body)], advice(pz))
        elif k == 1:
            it.describe(s, "label-table", ["Here is the module:\n\n" + label_table(["wire", "colour"], [(str(i + 1), [x]) for i, x in enumerate(c)]) + f"\n\nSerial: `{serial}`"], advice(pz))
        elif k == 2:
            groups = {x: [i + 1 for i, y in enumerate(c) if y == x] for x in dict.fromkeys(c)}
            it.describe(s, "grouped", ["Wires by colour (numbered from the top, " + str(n) + " in all):\n" + "\n".join(f"{x}: {', '.join(map(str, p))}" for x, p in groups.items()) + f"\nserial {serial}"], advice(pz))
        elif k == 3:
            it.describe(s, "think", [think(f"The user wants the wires. I count {n}. Maybe the first is {'red' if c[0] != 'red' else 'blue'}? No, looking again it is {c[0]}.",
                                           f"I see {n} wires. From top to bottom: {', '.join(c)}. The serial number is {serial}.")], advice(pz))
        elif k == 4:
            it.describe(s, "verbose", [verbose(f"The module has {plural(n, 'wire')}, counted from the top down: " + ", ".join(f"wire {i + 1} is {x}" for i, x in enumerate(c)) + f". The serial number printed on the side reads {serial}.")], advice(pz))
        else:
            it.describe(s, "label-table", [label_table(["position", "colour"], [(ORD[i], [x]) for i, x in enumerate(c)]) + f"\n\nThe serial is {serial}. What should I do?"], advice(pz))
    palette = ("red", "white", "blue", "yellow", "black")

    def matters(p: Any, i: int) -> bool:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return i < len(c) and changes(p, [{"wire_colors_top_to_bottom": [*c[:i], x, *c[i + 1:]]} for x in palette])
    s = seeds("wire", lambda p: matters(p, 2), 1, 710)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "label-table", [label_table(["wire", "colour"], [(str(i + 1), [x if i != 2 else ""]) for i, x in enumerate(c)]) + f"\n\nSerial: {vs['serial_number']}"],
                ask=["third wire", "colour"], why="the third wire's cell is empty, and its colour decides the cut")
    s = seeds("wire", lambda p: changes(p, [{"serial_number": p.visible_state()["serial_number"][:-1] + d} for d in "0123456789"]), 1, 715)[0]
    c = fresh("wire", s).visible_state()["wire_colors_top_to_bottom"]
    it.describe(s, "think", [think("The serial is hard to read.", f"There are {len(c)} wires: {', '.join(c)}. The serial number ends in a digit I can't make out.")],
                ask=["serial", "digit"], why="the serial's last digit decides the cut")

    def step(pz: Any, k: int) -> tuple[str, list[str]] | None:
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1]) - 1
        col = c[j]
        if c.count(col) == 1:
            return [f"Cut the {col} wire", f"Snip the only {col} one", f"Certainly! Since there is exactly one {col} wire, cut the {col} wire. Please let me know how it goes."][k % 3], a
        if j == max(i for i, x in enumerate(c) if x == col):
            return [f"Cut the last {col} wire", f"Cut the bottom-most {col} wire", f"There are {WORDS[c.count(col)]} {col} wires; cut the lowest {col} one"][k % 3], a
        if j == c.index(col):
            return [f"Cut the first {col} wire", f"Cut the top {col} wire", f"Cut the highest of the {col} wires"][k % 3], a
        return None

    n = 0
    for s in range(730, 800):
        pz = fresh("wire", s)
        got = step(pz, n)
        if got and n < 6:
            text, a = got
            text = think("The user has these wires. The rule for this count applies.", text) if n == 4 else text
            it.advise(s, ["visible-ref", "visible-ref", "verbose", "visible-ref", "think", "visible-ref"][n], [text], a)
            n += 1
    s = seeds("wire", lambda p: p.visible_state()["wire_colors_top_to_bottom"].count("red") >= 2, 1, 770)[0]
    it.advise(s, "visible-ref", ["Cut the red wire."], ask=["which", "red"], why="more than one red wire, and one is meant")
    s = seeds("wire", lambda p: "yellow" not in p.visible_state()["wire_colors_top_to_bottom"], 1, 775)[0]
    it.advise(s, "visible-ref", [advise_verbose("the rule points to the yellow wire", "Cut the yellow wire")], ask=["yellow"], why="no yellow wire")
    return it


# -- Who's on First -----------------------------------------------------------------------------------------
def who() -> Items:
    it = Items("who")

    def screen(d: str) -> str:
        if d == "":
            return "the screen is empty (nothing written on it)"
        if d in ("BLANK", "NOTHING", "EMPTY"):
            return f'the screen shows the word "{d}" (spelled out; the screen itself is not empty)'
        return f'the display reads "{d}"'

    for k, s in enumerate(range(700, 706)):
        pz = fresh("who", s)
        vs = pz.visible_state()
        b, d = vs["button_labels"], vs["display_text"]
        if k % 3 == 0:
            body = f"{screen(d)[0].upper() + screen(d)[1:]}.\n\nThe six buttons, in reading order:\n" + "\n".join(f"{b[r + '_left']}  {b[r + '_right']}" for r in ("top", "middle", "bottom"))
            it.describe(s, "reading-order", [body + "\n\nWhat now?"], advice(pz))
        elif k % 3 == 1:
            it.describe(s, "label-table", [f"Display: {'(blank)' if d == '' else repr(d)}\n\n" + label_table(["", "left", "right"], [(r, [b[r + '_left'], b[r + '_right']]) for r in ("top", "middle", "bottom")])], advice(pz))
        else:
            it.describe(s, "verbose", [verbose(f"At the top, {screen(d)}. Below it there are {plural(6, 'button')} in three rows of two. Reading left to right, top to bottom, they say: " + ", ".join(f'"{b[p]}"' for p in SIX) + ".")], advice(pz))
    s = seeds("who", lambda p: changes(p, [{"display_text": ""}, {"display_text": "BLANK"}]), 1, 710)[0]
    b = fresh("who", s).visible_state()["button_labels"]
    it.describe(s, "reading-order", ["The screen: blank, I think? Buttons in reading order:\n" + "\n".join(f"{b[r + '_left']} {b[r + '_right']}" for r in ("top", "middle", "bottom"))],
                ask=["screen", "blank"], why="'blank' may be an empty screen or the word BLANK, which press different buttons")
    s = seeds("who", lambda p: True, 1, 715)[0]
    vs = fresh("who", s).visible_state()
    b = vs["button_labels"]
    it.describe(s, "reading-order", [f"Display says {vs['display_text'] or 'nothing'}. Buttons in reading order: " + " ".join(b[p] for p in SIX[:5]) + " and one more I can't read."],
                ask=["label"], why="one label is missing")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_labels"]
        a = advice(pz)
        p = a[0][len("press_"):]
        return [f'Press the button labelled "{b[p]}"', f"Certainly! According to the manual, you should press the button that says {b[p]}. Please let me know the next display.",
                think("Their display points at a position; its list gives this word.", f"Press {b[p]}."), f"Press {b[p]} (the {SPOT[p]} one)",
                f'Find the button with the word "{b[p]}" and press it', f"Press {b[p]}"][k], a

    for k, s in enumerate(range(730, 736)):
        pz = fresh("who", s)
        text, a = step(pz, k)
        it.advise(s, ["visible-ref", "verbose", "think", "visible-ref", "visible-ref", "visible-ref"][k], [text], a)
    s = seeds("who", lambda p: "YES" not in p.visible_state()["button_labels"].values() and "YES" not in p.visible_state()["display_text"], 1, 740)[0]
    it.advise(s, "visible-ref", ['Press the button that says "YES".'], ask=["YES"], why="no button says YES")
    it.advise(741, "visible-ref", ["Press the button in the middle row."], ask=["left or right", "which"], why="two buttons in the middle row")
    return it


# -- Keypad -------------------------------------------------------------------------------------------------
SHAPE = {"Ω": "a horseshoe standing on two little feet", "Ψ": "a trident, like a pitchfork", "λ": "an upside-down y",
         "Ж": "a letter like two Ks glued back to back", "Я": "a capital R flipped in a mirror", "¶": "a backwards P with a double stem",
         "©": "a C inside a circle", "★": "a solid filled-in star", "☆": "a hollow star, just the outline", "¿": "a question mark turned upside down",
         "♣": "a three-leaf clover like on playing cards", "♠": "a black spade like on playing cards", "☺": "a smiling face",
         "☂": "an umbrella", "♪": "a musical note with a flag", "∞": "an 8 lying on its side", "§": "two S shapes stacked on each other",
         "†": "a dagger, a cross with a long bottom arm", "€": "a C with two lines through it", "¥": "a Y with two bars across it",
         "⌘": "a square with loops at the corners", "Δ": "a hollow triangle", "☯": "a circle split into a black and a white swirl",
         "✈": "a little aeroplane"}


def keypad() -> Items:
    it = Items("keypad")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("keypad", s)
        b = pz.visible_state()["button_symbols"]
        if k % 3 == 0:
            it.describe(s, "by-look", [verbose("The keypad has four keys in a two-by-two square. " + " ".join(f"The {SPOT[p]} key shows {SHAPE[b[p]]}." for p in FOUR))], advice(pz))
        elif k % 3 == 1:
            it.describe(s, "label-table", [label_table(["", "left", "right"], [(r, [SHAPE[b[r + '_left']], SHAPE[b[r + '_right']]]) for r in ("top", "bottom")])], advice(pz))
        else:
            it.describe(s, "think", [think("Four symbols. Let me describe them by their shape, since I don't know their names.",
                                           "; ".join(f"{SPOT[p]}: {SHAPE[b[p]]}" for p in FOUR) + ".")], advice(pz))
    s = seeds("keypad", lambda p: changes(p, [{"button_symbols": {**p.visible_state()["button_symbols"], "bottom_left": x}} for x in SHAPE if x not in p.visible_state()["button_symbols"].values()]), 1, 710)[0]
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.describe(s, "by-look", [f"Top left: {SHAPE[b['top_left']]}. Top right: {SHAPE[b['top_right']]}. Bottom left: some kind of squiggle. Bottom right: {SHAPE[b['bottom_right']]}."],
                ask=["bottom left", "symbol"], why="a squiggle names no symbol")
    def star_matters(p: Any) -> bool:
        b = p.visible_state()["button_symbols"]
        star = next((k for k, v in b.items() if v in "★☆"), None)
        return star is not None and all(advice_of(p, {**b, star: x}) for x in "★☆") and \
            len({tuple(advice_of(p, {**b, star: x})) for x in "★☆"}) == 2
    s = seeds("keypad", star_matters, 1, 715)[0]
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.describe(s, "by-look", ["; ".join(f"{SPOT[p]}: {SHAPE[b[p]] if b[p] not in '★☆' else 'a star'}" for p in FOUR)],
                ask=["star", "filled or hollow"], why="'a star' may be the filled or the hollow one")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("keypad", s)
        b = pz.visible_state()["button_symbols"]
        a = advice(pz)
        ps = [x[len("press_"):] for x in a]
        text = ["Press " + ", then ".join(f"the key with {SHAPE[b[p]]}" for p in ps),
                advise_verbose("all four of your symbols are in one column", "press them in this order: " + "; ".join(SHAPE[b[p]] for p in ps)),
                think("Find the column.", "Order: " + " → ".join(SHAPE[b[p]] for p in ps)),
                "First the " + SHAPE[b[ps[0]]].removeprefix("a ").removeprefix("an ") + ", then " + ", then ".join(SHAPE[b[p]] for p in ps[1:]),
                "Press " + ", ".join(f"{b[p]} ({SHAPE[b[p]]})" for p in ps),
                "Press the key with " + SHAPE[b[ps[0]]] + " first, and then " + ", ".join(SHAPE[b[p]] for p in ps[1:])][k]
        it.advise(s, ["by-look", "verbose", "think", "by-look", "by-look", "by-look"][k], [text], a)
    s = seeds("keypad", lambda p: not ({"★", "☆"} & set(p.visible_state()["button_symbols"].values())), 1, 740)[0]
    it.advise(s, "by-look", ["Press the key with the star first."], ask=["star"], why="no key shows a star")
    s = seeds("keypad", lambda p: {"★", "☆"} <= set(p.visible_state()["button_symbols"].values()), 1, 700)[0]
    it.advise(s, "by-look", ["Start with the star, then the other keys in column order."], ask=["star", "which"], why="two stars, and the rest's order is not given")
    return it


# -- LED ------------------------------------------------------------------------------------------------------
def led() -> Items:
    it = Items("led")
    for k, s in enumerate(range(700, 706)):
        prefix = [] if k < 3 else advice(fresh("led", s))
        pz = fresh("led", s, prefix)
        vs = pz.visible_state()
        b = vs["button_letters"]
        st = vs["stage_number"]
        colour = vs["led_colors_left_to_right"][st - 1]
        grid = label_table(["", "left", "right"], [(r, [b[r + "_left"], b[r + "_right"]]) for r in ("top", "bottom")])
        if k < 3:
            msgs = [[verbose(f"This is stage {st}. The LED is lit {colour}. The four letter buttons are: " + ", ".join(f"{b[p]} at the {SPOT[p]}" for p in FOUR) + ".")],
                    [f"Stage {st}, LED {colour}.\n\n{grid}"],
                    [think("Stage one, LED colour, letters.", f"LED: {colour}\nLetters: {b['top_left']}{b['top_right']} / {b['bottom_left']}{b['bottom_right']} (top row, then bottom row)")]][k]
        else:
            first = fresh("led", s).visible_state()
            fb = first["button_letters"]
            msgs = [f"Stage 1: LED {first['led_colors_left_to_right'][0]}, letters {fb['top_left']} {fb['top_right']} / {fb['bottom_left']} {fb['bottom_right']}.",
                    "\n".join(prefix),
                    f"Now stage {st}. The LED is {colour}. The grid again:\n\n{grid}"]
        it.describe(s, ["verbose", "label-table", "think", "restated", "restated", "restated"][k], msgs, advice(pz))
    s = seeds("led", lambda p: changes(p, [{"led_colors_left_to_right": [x, *p.visible_state()["led_colors_left_to_right"][1:]]} for x in ("red", "orange", "yellow", "green", "blue", "purple")]), 1, 710)[0]
    b = fresh("led", s).visible_state()["button_letters"]
    it.describe(s, "label-table", ["Stage 1, the LED is off or I can't tell its colour.\n\n" + label_table(["", "left", "right"], [(r, [b[r + "_left"], b[r + "_right"]]) for r in ("top", "bottom")])],
                ask=["LED", "colour"], why="no LED colour")
    vs = fresh("led", 715).visible_state()
    b = vs["button_letters"]
    it.describe(715, "label-table", [f"LED {vs['led_colors_left_to_right'][0]}.\n\n" + label_table(["", "left", "right"], [("top", [b["top_left"], b["top_right"]]), ("bottom", [b["bottom_left"], ""])])],
                ask=["bottom right", "letter"], why="one letter missing")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("led", s)
        b = pz.visible_state()["button_letters"]
        a = advice(pz)
        p = a[0][len("press_"):]
        text = [f"Press the letter {b[p]}", advise_verbose(f"the LED's multiplier lands on {b[p]}", f"press the {b[p]} button"),
                think("Multiply and check across.", f"Press {b[p]}."), f"Press the button with the letter {b[p]} on it",
                f"Hit {b[p]}, it's in the {SPOT[p]} corner", f"Press {b[p]}"][k]
        it.advise(s, ["visible-ref", "verbose", "think", "visible-ref", "visible-ref", "visible-ref"][k], [text], a)
    s = seeds("led", lambda p: "Q" not in p.visible_state()["button_letters"].values(), 1, 740)[0]
    it.advise(s, "visible-ref", ["Press the Q."], ask=["Q"], why="no Q on the buttons")
    it.advise(741, "visible-ref", ["Press the letter in the top row."], ask=["which", "left or right"], why="two letters in the top row")
    return it


# -- Memory -----------------------------------------------------------------------------------------------------
def memory() -> Items:
    it = Items("memory")
    for k, s in enumerate(range(700, 706)):
        prefix, pz, want = ([], fresh("memory", s), advice(fresh("memory", s))) if k < 3 else second_stage("memory", s)
        vs = pz.visible_state()
        labels, d, st = vs["button_labels_left_to_right"], vs["display_number"], vs["stage"]
        row = label_table(["", "1", "2", "3", "4"], [("label", list(map(str, labels)))])
        if k < 3:
            msgs = [[verbose(f"The display shows the number {WORDS[d]} ({d}). Below it are {plural(4, 'button')}, numbered from the left, labelled " + ", ".join(map(str, labels)) + ".")],
                    [f"Display: **{d}**\n\n{row}"],
                    [think("Stage 1. Display and labels.", f"Screen {d}. Buttons left to right: {' '.join(map(str, labels))}.")]][k]
        else:
            v0 = fresh("memory", s).visible_state()
            msgs = [f"Display {v0['display_number']}, buttons {' '.join(map(str, v0['button_labels_left_to_right']))}.", "\n".join(prefix),
                    f"Stage {st} now. The display is {d}, and the buttons again:\n\n{row}"]
        it.describe(s, ["verbose", "label-table", "think", "restated", "restated", "restated"][k], msgs, want)
    s = seeds("memory", lambda p: changes(p, [{"display_number": x} for x in (1, 2, 3, 4)]), 1, 710)[0]
    labels = fresh("memory", s).visible_state()["button_labels_left_to_right"]
    it.describe(s, "label-table", ["Display: (flickering, can't read)\n\n" + label_table(["", "1", "2", "3", "4"], [("label", list(map(str, labels)))])],
                ask=["display"], why="the display decides the press")
    pre = advice(fresh("memory", 715))
    vs = fresh("memory", 715, pre).visible_state()
    it.describe(715, "restated", ["\n".join(pre), verbose(f"We are now on the next stage. The buttons read {' '.join(map(str, vs['button_labels_left_to_right']))}.")],
                ask=["display"], why="the new stage's display is not given")

    for k, s in enumerate(range(730, 736)):
        prefix, pz, a = ([], fresh("memory", s), advice(fresh("memory", s))) if k < 3 else second_stage("memory", s)
        vs = pz.visible_state()
        labels = vs["button_labels_left_to_right"]
        j = int(a[0].rsplit("_", 1)[1])
        if k < 3:
            text = [f"Press the button labelled {labels[j - 1]}", advise_verbose(f"the display shows {vs['display_number']}", f"press the {ORD[j - 1]} button, the one labelled {labels[j - 1]}"),
                    think("Stage 1 rule.", f"Press the {labels[j - 1]}.")][k]
            it.advise(s, ["visible-ref", "verbose", "think"][k], [text], a, prefix=prefix)
        else:
            first = int(prefix[0].rsplit("_", 1)[1])
            text = f"Stage 1: press position {first}.\nStage 2: press the button labelled {labels[j - 1]}."
            it.advise(s, "per-stage", [text], a, prefix=prefix)
    s = seeds("memory", lambda p: True, 1, 740)[0]
    it.advise(s, "visible-ref", ["Press the button labelled 7."], ask=["7"], why="labels run 1-4")
    pre = advice(fresh("memory", 745))
    it.advise(745, "per-stage", ["Stage 3: press the button labelled 2."], ask=["stage"], why="advice for stage 3 while the solver is at stage 2", prefix=pre)
    return it


# -- Password ---------------------------------------------------------------------------------------------------
def password() -> Items:
    it = Items("password")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("password", s)
        letters = pz.visible_state()["letters_shown_left_to_right"]
        msgs = [verbose(f"There are a total of {plural(5, 'letter window')}, numbered from the left. They currently show " + ", ".join(f"'{x}'" for x in letters) + ", with an up and a down arrow under each."),
                label_table(["", "1", "2", "3", "4", "5"], [("letter", letters)]),
                think("Five windows.", "Windows: " + " ".join(letters)),
                "\n".join(f"window {i + 1}: {x}" for i, x in enumerate(letters)),
                verbose("The letters, reading left to right, are " + "-".join(letters) + "."),
                "Letters (left to right):\n" + "\n".join(f"- {x}" for x in letters)][k]
        it.describe(s, ["verbose", "label-table", "think", "listing", "verbose", "listing"][k], [msgs], advice(pz))
    it.describe(710, "think", [think("There are letters.", "I see five windows with arrows above and below.")], ask=["letters"], why="no letters read")
    letters = fresh("password", 711).visible_state()["letters_shown_left_to_right"]
    it.describe(711, "label-table", [label_table(["", "1", "2", "3"], [("letter", letters[:3])]) + "\n\n(there are more windows but I can't see them)"],
                advice(fresh("password", 711)), why="the first step cycles every window whatever it shows")

    moves = [["down", "up", "down", "up", "down"], ["up"] * 5, ["down"] * 5, ["up", "up", "down", "down", "up"], ["down", "up", "up", "up", "down"], ["up", "down", "up", "down", "up"]]
    for k, s in enumerate(range(730, 736)):
        m = moves[k]
        acts = [f"cycle_{d}_{i + 1}" for i, d in enumerate(m)]
        text = [", ".join(f"{d} on window {i + 1}" for i, d in enumerate(m)).capitalize(),
                advise_verbose("you need to see more of each window's letters", "cycle every window " + m[0] + " once, from the first to the fifth"),
                think("Cycle them all.", "Press down once on each of the five windows, left to right."),
                "Window 1 up, window 2 up, window 3 down, window 4 down, window 5 up.",
                "1: down\n2: up\n3: up\n4: up\n5: down",
                "Up, down, up, down, up, one press per window from the left."][k]
        it.advise(s, ["multi-step", "verbose", "think", "multi-step", "multi-step", "multi-step"][k], [text], acts)
    it.advise(740, "multi-step", ["Down on window 1, up on window 2, and the rest the same way."], ask=["window", "which"], why="'the rest the same way' does not say which way")
    it.advise(741, "visible-ref", ["Cycle the window with the X until it shows a vowel."], ask=["X", "which"], why="no window shows an X")
    return it


# -- Maze -------------------------------------------------------------------------------------------------------
def maze() -> Items:
    from comma_env.puzzles.maze import goal_color
    it = Items("maze")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("maze", s)
        vs = pz.visible_state()
        rows, m, sph = vs["maze_rows_top_to_bottom"], vs["mouse_row_column"], vs["sphere_row_column_by_color"]
        grid = "\n".join(rows)
        tail = (f"Mouse at ({m[0]},{m[1]}) facing {vs['mouse_facing']}. Spheres: " + ", ".join(f"{c} ({p[0]},{p[1]})" for c, p in sph.items())
                + f". Torus: {vs['torus_color']}. Coordinates are (row,col) from the top left.")
        msgs = [verbose(f"The maze, row by row from the top (# is a wall, . is open floor):\n\n```\n{grid}\n```\n\n{tail}"),
                think("Maze. Rows.", f"```\n{grid}\n```\n{tail}"),
                "Grid:\n" + "\n".join(f"row {i + 1}: {r}" for i, r in enumerate(rows)) + "\n" + tail][k % 3]
        it.describe(s, ["verbose", "think", "listing"][k % 3], [msgs], advice(pz))
    s = seeds("maze", lambda p: changes(p, [{"torus_color": x} for x in ("blue", "green", "red", "yellow")]), 1, 710)[0]
    vs = fresh("maze", s).visible_state()
    m = vs["mouse_row_column"]
    it.describe(s, "verbose", [verbose("```\n" + "\n".join(vs["maze_rows_top_to_bottom"]) + f"\n```\nMouse at ({m[0]},{m[1]}) facing {vs['mouse_facing']}. Spheres: "
                                       + ", ".join(f"{c} ({p[0]},{p[1]})" for c, p in vs["sphere_row_column_by_color"].items()) + ". I can't make out the torus colour.")],
                ask=["torus"], why="the torus picks the goal")
    vs = fresh("maze", 715).visible_state()
    it.describe(715, "listing", ["Mouse at (" + ",".join(map(str, vs["mouse_row_column"])) + f") facing {vs['mouse_facing']}, torus {vs['torus_color']}. The maze walls are too faint to copy."],
                ask=["maze", "walls"], why="no maze")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("maze", s)
        torus = pz.visible_state()["torus_color"]
        t = goal_color(torus)
        a = advice(pz)
        text = [f"Take the mouse to the {t} sphere and press the button.", advise_verbose(f"the torus is {torus}", f"walk the mouse to the {t} ball by the shortest path and press the button there"),
                think("Goal sphere matches the torus.", f"Go to the {t} sphere, then press the button."), f"Navigate to the {t} sphere and hit the button.",
                f"Your goal is the {t} sphere: get there and press the button", f"Move to the {t} sphere. Press the button when you are on it."][k]
        it.advise(s, ["visible-ref", "verbose", "think", "visible-ref", "visible-ref", "visible-ref"][k], [text], a)
    it.advise(740, "visible-ref", ["Take the mouse to the sphere and press the button."], ask=["which", "sphere"], why="four spheres")
    it.advise(741, "visible-ref", ["Go to the purple sphere and press the button."], ask=["purple"], why="no purple sphere")
    return it


# -- Color ------------------------------------------------------------------------------------------------------
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "magenta": "M", "white": "W"}


def color() -> Items:
    it = Items("color")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("color", s)
        g = pz.visible_state()["square_colors_by_row"]
        cells = [(r + 1, c + 1, x) for r, row in enumerate(g) for c, x in enumerate(row)]
        msgs = [label_table(["", "c1", "c2", "c3", "c4"], [(f"r{i + 1}", row) for i, row in enumerate(g)]),
                "\n".join(f"{x}: " + " ".join(f"({r},{c})" for r, c, y in cells if y == x) for x in dict.fromkeys(y for _, _, y in cells)) + "\n(row,col)",
                " / ".join("".join(LETTER[x] for x in row) for row in g) + " (R red, B blue, G green, Y yellow, M magenta), rows from the top",
                verbose("The grid is four by four. " + " ".join(f"Row {i + 1}, from left to right: {', '.join(row)}." for i, row in enumerate(g))),
                think("Sixteen squares.", "\n".join(f"row {i + 1}: the squares in columns " + ", ".join(str(c + 1) for c, x in enumerate(row) if x == col) + f" are {col}" for i, row in enumerate(g) for col in dict.fromkeys(row))),
                "```\n" + "\n".join(" ".join(LETTER[x] for x in row) for row in g) + "\n```\nLegend: R = red, B = blue, G = green, Y = yellow, M = magenta."][k]
        it.describe(s, ["label-table", "grouped", "letter-grid", "verbose", "think", "letter-grid"][k], [msgs], advice(pz))
    s = seeds("color", lambda p: changes(p, [{"square_colors_by_row": [[*p.visible_state()["square_colors_by_row"][0][:3], x], *p.visible_state()["square_colors_by_row"][1:]]} for x in ("red", "blue", "green", "yellow", "magenta")]), 1, 710)[0]
    g = fresh("color", s).visible_state()["square_colors_by_row"]
    it.describe(s, "letter-grid", [" / ".join("".join(LETTER[x] if (r, c) != (0, 3) else "?" for c, x in enumerate(row)) for r, row in enumerate(g)) + " (R red, B blue, G green, Y yellow, M magenta)"],
                ask=["row 1", "column 4"], why="one square unread")
    g = fresh("color", 715).visible_state()["square_colors_by_row"]
    it.describe(715, "grouped", ["\n".join(f"{x}: " + " ".join(f"({r + 1},{c + 1})" for r, row in enumerate(g) for c, y in enumerate(row) if y == x) for x in ("red", "blue", "green")) + "\n(the rest I didn't list)"],
                ask=["yellow", "magenta"], why="two colours not listed, and the fewest decides")

    def step(pz: Any, k: int) -> tuple[str, list[str]] | None:
        g = pz.visible_state()["square_colors_by_row"]
        a = advice(pz)
        cells = [tuple(map(int, x.split("_")[1:])) for x in a]
        col = g[cells[0][0] - 1][cells[0][1] - 1]
        count = Counter(x for row in g for x in row)
        if any(g[r - 1][c - 1] != col for r, c in cells) or len(cells) != count[col]:
            return None
        n = len(cells)
        where = " and ".join(f"the one in row {r}, column {c}" for r, c in cells)
        return [f"Press {'both' if n == 2 else 'all ' + WORDS[n]} {col} squares" if n > 1 else f"Press the {col} square",
                f"Certainly! {col.capitalize()} has the fewest squares (just {WORDS[n]}), so press {'both ' if n == 2 else 'all ' if n > 1 else 'the '}{col} square{'s' * (n > 1)}: {where}.",
                think("Count colours. " + ", ".join(f"{x} {count[x]}" for x in count), f"Press every {col} square."),
                f"Tap all the {col} ones", f"Press the {col} group", f"The {col} squares, all of them"][k], a

    n = 0
    for s in range(730, 800):
        got = step(fresh("color", s), n) if n < 6 else None
        if got:
            it.advise(s, ["visible-ref", "verbose", "think", "visible-ref", "visible-ref", "visible-ref"][n], [got[0]], got[1])
            n += 1
    s = seeds("color", lambda p: sum(x == "red" for row in p.visible_state()["square_colors_by_row"] for x in row) >= 3, 1, 770)[0]
    it.advise(s, "visible-ref", ["Press the red square."], ask=["which", "red"], why="several red squares and 'the' means one")
    s = seeds("color", lambda p: all(x != "green" for x in p.visible_state()["square_colors_by_row"][0]), 1, 775)[0]
    it.advise(s, "visible-ref", ["Press the green square in the top row."], ask=["green", "top row"], why="no green square in the top row")
    return it


# -- ATM ------------------------------------------------------------------------------------------------------------
def atm() -> Items:
    it = Items("atm")
    rule = "If your balance is at least $500, withdraw $300; otherwise deposit $100."
    for k, s in enumerate(range(700, 703)):
        a = advice(fresh("atm", s))
        other = ["select_deposit" if a[0] == "select_withdraw" else "select_withdraw", *a[1:]]
        msg = [verbose("The screen shows the main menu with two on-screen buttons: “Deposit” and “Withdraw”. I also have my bank card, with the PIN printed on it."),
               label_table(["item", "value"], [("screen", ["main menu"]), ("buttons", ["Deposit, Withdraw"]), ("card", ["yes"])]),
               think("Menu.", "Main menu: Deposit / Withdraw. Card in hand.")][k]
        it.describe(s, ["verbose", "label-table", "think"][k], [msg], a, alternatives=[other])
    for k, s in enumerate(range(703, 706)):
        pz0 = fresh("atm", s)
        prefix = ["select_withdraw", *[f"press_{d}" for d in pz0.visible_state()["pin_on_card"]], "press_enter"]
        pz = fresh("atm", s, prefix)
        bal = pz.visible_state()["balance"]
        msg = [verbose(f"The screen now shows the account balance, which is {bal}, and a Continue button."),
               label_table(["item", "value"], [("screen", ["balance"]), ("balance", [bal])]),
               think("Balance is shown.", f"Balance: {bal}.")][k]
        it.describe(s, ["verbose", "label-table", "think"][k], ["\n".join(prefix), msg], type(pz).expand_advice(rule, pz.visible_state()))
    prefix = ["select_withdraw", *[f"press_{d}" for d in fresh("atm", 710).visible_state()["pin_on_card"]], "press_enter"]
    it.describe(710, "think", ["\n".join(prefix), think("There's a balance.", "The balance screen is up, but the amount is cut off.")], ask=["balance"], why="no balance")
    prefix = ["select_deposit", *[f"press_{d}" for d in fresh("atm", 711).visible_state()["pin_on_card"]], "press_enter"]
    it.describe(711, "label-table", ["\n".join(prefix), label_table(["item", "value"], [("screen", ["balance"]), ("balance", ["$4??.00"])])], ask=["balance", "500"], why="the amount is not read")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("atm", s)
        pin = pz.visible_state()["pin_on_card"]
        which = ("withdraw", "deposit")[k % 2]
        acts = [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]
        text = [f"Choose {which.title()}, then type the PIN printed on your card and press enter.",
                advise_verbose("the machine asks for a transaction first", f"select {which.title()}, then enter your PIN ({pin}) and press Enter"),
                think("Transaction, then PIN.", f"Select {which}, key in {pin}, then enter."),
                f"{which.title()}. PIN {' '.join(pin)}. Enter.",
                f"Pick {which}, type the four digits on the card, then hit enter",
                f"1. Select {which}\n2. Enter the PIN from your card\n3. Press enter"][k]
        it.advise(s, ["visible-ref", "verbose", "think", "multi-step", "visible-ref", "multi-step"][k], [text], acts)
    it.advise(740, "visible-ref", ["Type the PIN and press enter."], ask=["deposit or withdraw", "transaction"], why="the machine needs a transaction first")
    it.advise(741, "multi-step", ["Select withdraw, then type the PIN from the receipt and press enter."], ask=["receipt", "PIN"], why="no receipt; the PIN is on the card")
    return it


# -- Telehealth ----------------------------------------------------------------------------------------------------
DIAG = _T3.DIAG
TREAT = _T3.TREAT


def telehealth() -> Items:
    it = Items("telehealth")
    for k, s in enumerate(range(700, 706)):
        pz = fresh("telehealth", s)
        vs = pz.visible_state()
        rows = [("age", [str(vs["age"])]), ("skin type", [vs["skin_type"]]), ("site", [vs["body_region"]]), ("diameter", [f"{vs['diameter_mm']} mm"]),
                ("colours", [", ".join(vs["lesion_colors"])]), ("shape", [vs["lesion_shape"]]), ("border", [vs["lesion_border"]]),
                ("surface", [vs["lesion_surface"]]), ("vessels", ["visible" if vs["visible_blood_vessels"] else "none"]), ("raised", [vs["elevation"]]),
                ("itches", [vs["itch"]]), ("bleeds", [vs["bleed"]]), ("has grown", [vs["grew"]]), ("has changed", [vs["changed"]])]
        prose = (f"The patient is {WORDS[vs['age']] if vs['age'] <= 16 else vs['age']} years old, Fitzpatrick skin type {vs['skin_type']}. The lesion is on the {vs['body_region']} and measures "
                 f"{vs['diameter_mm']} mm across. It is {' and '.join(vs['lesion_colors'])}, {vs['lesion_shape']}, with a {vs['lesion_border']} border and a surface that is {vs['lesion_surface']}. "
                 f"Blood vessels are {'visible' if vs['visible_blood_vessels'] else 'not visible'}. Raised: {vs['elevation']}. Itching: {vs['itch']}. Bleeding: {vs['bleed']}. "
                 f"Grown: {vs['grew']}. Changed: {vs['changed']}.")
        msg = [label_table(["finding", "value"], rows), verbose(prose), think("Lesion exam.", prose)][k % 3]
        it.describe(s, ["label-table", "verbose", "think"][k % 3], [msg], advice(pz))
    s = seeds("telehealth", lambda p: changes(p, [{"lesion_surface": x} for x in ("smooth", "pearly", "scaly crust on a sore", "rough and scaly", "waxy and stuck-on")]), 1, 710)[0]
    vs = fresh("telehealth", s).visible_state()
    it.describe(s, "label-table", [label_table(["finding", "value"], [("age", [str(vs["age"])]), ("site", [vs["body_region"]]), ("diameter", [f"{vs['diameter_mm']} mm"]),
                                                                      ("colours", [", ".join(vs["lesion_colors"])]), ("border", [vs["lesion_border"]]), ("surface", [""])])],
                ask=["surface"], why="the surface decides")
    it.describe(711, "think", [think("Patient.", "A patient with a spot on the skin. I can't see the details well.")], ask=["lesion", "size"], why="no findings")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("telehealth", s)
        a = advice(pz)
        d, t = a[0].split("_", 1)[1], a[1].split("_", 1)[1]
        text = [advise_verbose("the findings match", f"record the diagnosis as {DIAG[d][0]} and then give {TREAT[t][0]}"),
                think(f"Could it be {DIAG['nev'][0]}? No.", f"Diagnosis: {DIAG[d][0]}. Treatment: {TREAT[t][0]}."),
                label_table(["step", "choice"], [("diagnosis", [DIAG[d][0]]), ("treatment", [TREAT[t][0]])]),
                f"Certainly! The most likely diagnosis is {DIAG[d][1]} (the findings fit it best). The recommended treatment is {TREAT[t][1]}. Please let me know if you have questions.",
                f"1. Diagnose: {DIAG[d][0]}\n2. Treat: {TREAT[t][0]}",
                f"It's {DIAG[d][0]}; go with {TREAT[t][0]}."][k]
        it.advise(s, ["verbose", "think", "label-table", "verbose", "multi-step", "multi-step"][k], [text], a)
    it.advise(740, "think", [think("Diagnosis: melanoma. Treatment: surgery.", "I'm not certain from what you described; I need to see more of the lesion before I decide.")],
              ask=["diagnosis"], why="the think block's content is not advice; the answer decides nothing")
    it.advise(741, "verbose", [advise_verbose("it is one of the carcinomas", "treat it with surgery once you have recorded the carcinoma")], ask=["basal or squamous", "which"], why="two carcinomas")
    return it


# -- Button ---------------------------------------------------------------------------------------------------------
def button() -> Items:
    it = Items("button")
    holds = seeds("button", lambda p: advice(p) == ["hold"], 20, 700)
    taps = seeds("button", lambda p: advice(p) == ["tap"], 10, 700)
    for k, s in enumerate([taps[0], holds[0], taps[1], holds[1]]):
        pz = fresh("button", s)
        vs = pz.visible_state()
        msg = [verbose(f"The module has a single large {vs['button_color']} button with the word “{vs['button_label']}” printed on it. The timer reads {vs['timer']}."),
               label_table(["", "value"], [("colour", [vs["button_color"]]), ("label", [vs["button_label"]]), ("timer", [vs["timer"]])]),
               think("A button.", f"{vs['button_color'].capitalize()} button, label {vs['button_label']}, timer {vs['timer']}."),
               verbose(f"I see one button. It is {vs['button_color']} and labelled {vs['button_label']}.")][k]
        it.describe(s, ["verbose", "label-table", "think", "verbose"][k], [msg], advice(pz))
    for k, s in enumerate(holds[2:4]):
        pz = fresh("button", s, ["hold"])
        vs = pz.visible_state()
        msg = [verbose(f"I am holding the button down. A coloured strip next to it has lit up {vs['strip_color']}. The timer reads {vs['timer']}."),
               think("Holding.", f"Holding it. Strip: {vs['strip_color']}.")][k]
        it.describe(s, ["verbose", "think"][k], ["hold", msg], advice(pz))
    vs = fresh("button", holds[4], ["hold"]).visible_state()
    it.describe(holds[4], "verbose", ["hold", verbose("I am holding the button. The strip has lit up, but I can't tell its colour in this light.")], ask=["strip", "colour"], why="the strip's colour sets the digit")
    from comma_env.puzzles.button import LABELS
    s = next(s for s in holds + taps if changes(fresh("button", s), [{"button_label": x} for x in LABELS]))
    vs = fresh("button", s).visible_state()
    it.describe(s, "label-table", [label_table(["", "value"], [("colour", [vs["button_color"]]), ("label", ["(smudged)"]), ("timer", [vs["timer"]])])], ask=["label"], why="the label decides")

    for k, s in enumerate(taps[2:5]):
        pz = fresh("button", s)
        vs = pz.visible_state()
        text = [advise_verbose(f"your button is {vs['button_color']} and says {vs['button_label']}", "press it and release it right away"),
                think("Tap rule.", "Tap the button once."), f"Since it's a {vs['button_color']} {vs['button_label']} button: quick press, don't hold."][k]
        it.advise(s, ["verbose", "think", "visible-ref"][k], [text], ["tap"])
    for k, s in enumerate(holds[6:9]):
        pz = fresh("button", s, ["hold"])
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        strip = pz.visible_state()["strip_color"]
        text = [advise_verbose(f"your strip is {strip}", f"keep holding and let go when any digit of the timer is a {d}"),
                think(f"{strip} strip means {d}.", f"Release when the timer shows a {d} anywhere."),
                f"Your strip is {strip}, so release when the countdown has a {WORDS[d]} ({d}) in any position."][k]
        it.advise(s, ["verbose", "think", "visible-ref"][k], [text], type(pz).expand_advice(line, pz.visible_state()), prefix=["hold"])
    it.advise(holds[9], "visible-ref", ["Release when the timer shows the number on the strip."], ask=["digit", "when"], why="the strip has a colour, not a number", prefix=["hold"])
    it.advise(holds[10], "think", [think("Release on 4.", "Let go at the right moment.")], ask=["digit", "when"], why="the think block is not advice; the answer names no digit", prefix=["hold"])
    return it


# -- Dog ----------------------------------------------------------------------------------------------------------------
def dog() -> Items:
    it = Items("dog")
    with_dogs = seeds("dog", lambda p: p.visible_state()["dogs"] != [], 12, 700)
    for k, s in enumerate(with_dogs[:6]):
        pz = fresh("dog", s)
        vs = pz.visible_state()
        dogs = vs["dogs"]
        n = len(dogs)
        msg = [verbose(f"The picture shows a park with a total of {plural(n, 'dog')}: " + "; ".join(f"a {d['coat']} dog {d['pose']}" for d in dogs) + f". The timer reads {vs['timer']}."),
               label_table(["dog", "coat", "pose"], [(str(i + 1), [d["coat"], d["pose"]]) for i, d in enumerate(dogs)]) + f"\n\nTimer {vs['timer']}",
               think("Count the dogs.", f"{n} dog{'s' * (n != 1)}, timer {vs['timer']}"),
               "Dogs by pose:\n" + "\n".join(f"{pose}: {sum(d['pose'] == pose for d in dogs)}" for pose in dict.fromkeys(d["pose"] for d in dogs)) + f"\ntimer {vs['timer']}",
               verbose(f"I count {WORDS[n]} ({n}) dog{'s' * (n != 1)} in the park. Time left: {vs['timer']}."),
               "Dogs by coat:\n" + "\n".join(f"- {coat}: {sum(d['coat'] == coat for d in dogs)}" for coat in dict.fromkeys(d["coat"] for d in dogs))][k]
        it.describe(s, ["verbose", "label-table", "think", "grouped", "verbose", "grouped"][k], [msg], advice(pz))
    it.describe(with_dogs[6], "think", [think("Dogs.", "There are some dogs in the park, a few of them running.")], ask=["how many"], why="no count")
    it.describe(with_dogs[7], "grouped", ["Dogs by pose:\nrunning: 1\nsitting: ?"], ask=["how many", "sitting"], why="one count is unknown")

    for k, s in enumerate(with_dogs[6:12]):
        pz = fresh("dog", s)
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        text = ["Count the dogs and submit when the timer's last digit equals that number.",
                advise_verbose(f"there are {WORDS[d]} dogs", f"submit when the last digit of the timer is {d}"),
                think("Count, then match.", "Submit when the timer ends in the number of dogs you see."),
                "Submit when the last digit matches the dog count.",
                f"You have {d} dog{'s' * (d != 1)}, so submit on a {d}.",
                "Press submit once the timer's final digit equals how many dogs are in the picture."][k]
        it.advise(s, ["visible-ref", "verbose", "think", "visible-ref", "visible-ref", "visible-ref"][k], [text], type(pz).expand_advice(line, pz.visible_state()))
    it.advise(740, "visible-ref", ["Submit when the last digit equals the number of cats."], ask=["cats"], why="there are no cats to count; the rule counts dogs")
    it.advise(741, "visible-ref", ["Submit when the timer matches the number."], ask=["digit", "which number"], why="no number")
    return it


# -- Sound ----------------------------------------------------------------------------------------------------------------
HEARD = _T3.HEARD
LOOKS = {"press_dollar": "the S with a line through it", "press_star": "the little asterisk", "press_ampersand": "the pretzel-shaped one",
         "press_hash": "the tic-tac-toe grid"}
NAMES = {"press_dollar": "dollar", "press_star": "star", "press_ampersand": "ampersand", "press_hash": "hash"}


def sound() -> Items:
    from comma_env.audio.synth import SIGNATURES
    it = Items("sound")
    name_of = {s.description: s.name for s in SIGNATURES}
    for k, s in enumerate(range(700, 706)):
        pz = fresh("sound", s)
        h = HEARD[name_of[pz.visible_state()["sound_heard"]]]
        msg = [verbose(f"When I press play, the sound is {h}. Below it are four keys: $, *, & and #."),
               label_table(["", "what I hear"], [("sound", [h])]), think("A sound.", f"It sounds {h}."),
               verbose(f"The audio clip can best be described as {h}."), f"Sound: {h}\nKeys: $ * & #", think("Listen.", f"Heard: {h}")][k]
        it.describe(s, ["verbose", "label-table", "think", "verbose", "listing", "think"][k], [msg], advice(pz))
    it.describe(710, "verbose", [verbose("There is a play button and four keys: $, *, & and #. I haven't played the sound yet.")], ask=["sound"], why="no sound")
    it.describe(711, "think", [think("Sounds like a siren.", "It's some kind of noise, I couldn't say what.")], ask=["sound"], why="the think block is not the description")

    for k, s in enumerate(range(730, 736)):
        pz = fresh("sound", s)
        a = advice(pz)
        text = ["Press " + ", then ".join(LOOKS[x] for x in a),
                advise_verbose("that sound is listed with this code", "enter " + ", ".join(NAMES[x] for x in a)),
                think("Look up the sound.", "Code: " + " ".join({"press_dollar": "$", "press_star": "*", "press_ampersand": "&", "press_hash": "#"}[x] for x in a)),
                label_table(["#", "key"], [(str(i + 1), [NAMES[x]]) for i, x in enumerate(a)]),
                "Type the code: " + ", ".join(f"{NAMES[x]} ({LOOKS[x]})" for x in a),
                "\n".join(f"{i + 1}. {NAMES[x]}" for i, x in enumerate(a))][k]
        it.advise(s, ["by-look", "verbose", "think", "label-table", "by-look", "multi-step"][k], [text], a)
    it.advise(740, "by-look", ["Press the key with the circle first, then the others."], ask=["circle", "which"], why="no key has a circle; the rest is unordered")
    it.advise(741, "think", [think("Code: $ * & #.", "Enter the code for your sound.")], ask=["code"], why="the think block is not advice")
    return it


if __name__ == "__main__":
    for build in (wire, who, keypad, led, memory, password, maze, color, atm, telehealth, button, dog, sound):
        build().write()
