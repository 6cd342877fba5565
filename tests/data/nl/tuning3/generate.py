# ruff: noqa: E501  (item text reads better unbroken)
"""Writes the third tuning set (issue 56, fourth round): descriptions and advice in voices none of
dev, tuning and tuning2 has (a markdown table, numbered steps with sub-bullets, a reason or the
manual's rule before the answer, a question-mark hedger, texting abbreviations, colours by shade,
positions by landmark, numbers in words with typos, an "EDIT:" or struck-through correction), for
all 13 puzzles, with the expected outcome from the manual on the true state.

    python tests/data/nl/tuning3/generate.py   # rewrites tests/data/nl/tuning3/<puzzle>.jsonl

Per puzzle and direction: six act items and two ask items, the ask items written in the ways a
reader may act on a partial read (a landmark with two candidates, a dropped "not" or "except", a
shade between two colours, a blank table cell, a hedge between two answers). Every act item is
replayed here without a mistake before it is written. Seeds 600-699.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
NTH = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"]
NUM = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
TYPO = ["zeor", "oen", "twoo", "thre", "fuor", "fivee", "sixe", "sevn", "eigth", "nien", "tenn"]
SPOT = {"top_left": "top left", "top_right": "top right", "middle_left": "middle left",
        "middle_right": "middle right", "bottom_left": "bottom left", "bottom_right": "bottom right"}
FOUR = ["top_left", "top_right", "bottom_left", "bottom_right"]
SIX = ["top_left", "top_right", "middle_left", "middle_right", "bottom_left", "bottom_right"]
SHADE = {"red": "crimson", "blue": "navy", "white": "ivory", "black": "jet-black", "yellow": "lemon",
         "green": "emerald", "magenta": "fuchsia", "purple": "violet", "orange": "tangerine"}
SHADE2 = {"red": "scarlet", "blue": "cobalt", "white": "snow-white", "black": "ebony", "yellow": "golden",
          "green": "lime", "magenta": "hot pink", "purple": "lavender", "orange": "amber"}


def _tuning2() -> Any:
    """The second tuning set's generator, whose game helpers (a fresh instance, the manual's advice, whether
    a fact changes it, replaying an item) this one shares."""
    spec = importlib.util.spec_from_file_location("tuning2_generate", HERE.parent / "tuning2" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_T2 = _tuning2()
fresh, advice, changes, check = _T2.fresh, _T2.advice, _T2.changes, _T2.check


# -- voices: facts are (key, value, sentence) ---------------------------------------------------------
Fact = tuple[str, str, str]


def table(facts: list[Fact]) -> str:
    rows = "\n".join(f"| {k[0].upper() + k[1:]} | {v.replace('|', '/')} |" for k, v, _ in facts)
    return f"Here is what's on my screen:\n\n| What | I see |\n|---|---|\n{rows}\n\nWhich action should I take?"


def bullets(facts: list[Fact]) -> str:
    rows = "\n".join(f"{i + 1}. {k[0].upper() + k[1:]}\n   - {v}" for i, (k, v, _) in enumerate(facts))
    return f"Report:\n{rows}\n\nNext step?"


def hedge(facts: list[Fact]) -> str:
    parts = [f"I think maybe {facts[0][2]}?"] + [f"And {s}, I believe?" for _, _, s in facts[1:]]
    return "Hmm. " + " ".join(parts) + " Not 100% sure of my eyes, but that's my reading."


TEXT = [(r"\bthe\b ?", ""), (r"\byou\b", "u"), (r"\band\b", "&"), (r"\bwith\b", "w/"), (r"\bare\b", "r"),
        (r"\bnumber\b", "#"), (r"\bbefore\b", "b4"), (r"\bplease\b", "pls"), (r"\bthanks\b", "thx"),
        (r"\bbutton\b", "btn"), (r"\bsecond\b", "sec"), (r"\bthrough\b", "thru")]


def texting(text: str) -> str:
    for pattern, repl in TEXT:
        text = re.sub(pattern, repl, text)
    return text


def txt(facts: list[Fact]) -> str:
    return "hey so " + texting(", ".join(s for _, _, s in facts)) + " ... wat now? thx"


def esl(facts: list[Fact]) -> str:
    body = ". ".join(s[0].upper() + s[1:] for _, _, s in facts)
    return f"Good day. I describe for you the module. {body}. Which is the next step, please?"


def typos(facts: list[Fact]) -> str:
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if w.isdigit():
            return TYPO[int(w)] if int(w) <= 10 else w
        return TYPO[NUM.index(w.lower())]
    body = "; ".join(re.sub(r"(?<![\w:$.,])(?:\d{1,2}|" + "|".join(NUM[1:]) + r")(?![\w:.]|,\d)", word, s) for _, _, s in facts)
    return f"ok here goes: {body}. whats the move"


def shades(facts: list[Fact]) -> str:
    names = iter([SHADE, SHADE2] * 40)
    body = ". ".join(re.sub(r"\b(" + "|".join(SHADE) + r")\b", lambda m: next(names)[m.group(1)], s) for _, _, s in facts)
    return f"What I've got: {body}. Your call."


VOICES: dict[str, Callable[[list[Fact]], str]] = {"md-table": table, "sub-bullets": bullets, "maybe": hedge,
                                                  "txt-abbrev": txt, "esl": esl, "word-typos": typos, "shades": shades}
COLOUR_VOICES = ["md-table", "sub-bullets", "maybe", "txt-abbrev", "esl", "shades"]
NUMBER_VOICES = ["md-table", "sub-bullets", "maybe", "txt-abbrev", "esl", "word-typos"]


def edit(facts: list[Fact], index: int, wrong: str, right: str, struck: bool) -> str:
    """One message whose slip is fixed by an EDIT line or struck through in markdown."""
    out = [s for _, _, s in facts]
    if struck:
        out[index] = f"~~{wrong}~~ {out[index]}"
        return "; ".join(out) + ". What do I do?"
    out[index] = wrong
    return "; ".join(out) + f".\n\nEDIT: {right} (misread it above). What do I do?"


def say(voice: str, step: str, reason: str, rule: str) -> str:
    low = step[0].lower() + step[1:]
    return {"md-table": f"| Step | Action |\n|---|---|\n| 1 | {step} |\n\nReport back after.",
            "sub-bullets": f"1. {step}\n   - take your time\n   - double-check before you do it\n2. Tell me what you see next.",
            "reason-first": f"Since {reason}, {low}.",
            "rule-first": f"The manual's rule: {rule}. So for you: {low}.",
            "maybe": f"I think maybe... {low}? Yeah, I'm fairly sure that's it.",
            "txt-abbrev": f"ok so {texting(low)} pls, thx"}[voice]


ADVISE_VOICES = ["md-table", "sub-bullets", "reason-first", "rule-first", "maybe", "txt-abbrev"]


# -- items ----------------------------------------------------------------------------------------------
class Items:
    def __init__(self, puzzle: str) -> None:
        self.puzzle = puzzle
        self.items: list[dict[str, Any]] = []

    def _id(self, direction: str) -> str:
        n = sum(1 for i in self.items if i["direction"] == direction) + 1
        return f"{self.puzzle}-{direction}-V-{n:03d}"

    def describe(self, seed: int, style: str, messages: list[str], expect: list[str] | None = None,
                 ask: list[str] | None = None, why: str = "", alternatives: list[list[str]] | None = None) -> None:
        e: dict[str, Any] = {"ask": ask} if ask else {"advice": expect}
        if alternatives:
            e["alternatives"] = alternatives
        item = {"id": self._id("describe"), "puzzle": self.puzzle, "direction": "describe", "seed": seed,
                "style": style, "messages": messages, "expect": e}
        self.items.append({**item, "why": why} if why else item)

    def advise(self, seed: int, style: str, messages: list[str], actions: list[str] | None = None,
               ask: list[str] | None = None, why: str = "", prefix: list[str] = ()) -> None:
        e: dict[str, Any] = {"ask": ask} if ask else {"actions": actions}
        item = {"id": self._id("advise"), "puzzle": self.puzzle, "direction": "advise", "seed": seed,
                "prefix": list(prefix), "style": style, "messages": messages, "expect": e}
        pz = fresh(self.puzzle, seed, list(prefix))
        if pz.uses_clock:
            item["timer_shown"] = pz.visible_state()["timer"]
        self.items.append({**item, "why": why} if why else item)

    def voices(self, seeds: list[int], facts: Callable[[Any, int], list[Fact]],
               fix: Callable[[Any, list[Fact]], tuple[int, str, str]], voices: list[str] | None = None) -> None:
        """Six describe items: five voices and one correction."""
        names = voices or NUMBER_VOICES
        for k, s in enumerate(seeds[:6]):
            pz = fresh(self.puzzle, s)
            f = facts(pz, k)
            if k == 5:
                struck = len(self.puzzle) % 2 == 0
                self.describe(s, "struck-through" if struck else "edit-line", [edit(f, *fix(pz, f), struck)], advice(pz))
            else:
                voice = names[(k + len(self.puzzle)) % len(names)]
                self.describe(s, voice, [VOICES[voice](f)], advice(pz))

    def steps(self, seeds: list[int], step: Callable[[Any, int], tuple[str, list[str]]],
              reason: Callable[[Any], str], rule: str, wrong: Callable[[Any, int], str], prefix: list[str] = ()) -> None:
        """Six advise items: five voices and one correction."""
        for k, s in enumerate(seeds[:6]):
            pz = fresh(self.puzzle, s, list(prefix))
            text, actions = step(pz, k)
            if k == 5:
                if len(self.puzzle) % 2:
                    msg = f"~~{wrong(pz, k)}~~ {text}."
                    style = "struck-through"
                else:
                    msg = f"{wrong(pz, k)}.\n\nEDIT: ignore the line above -- {text[0].lower() + text[1:]}."
                    style = "edit-line"
                self.advise(s, style, [msg], actions, prefix=prefix)
            else:
                voice = ADVISE_VOICES[(k + len(self.puzzle) + 1) % 6]
                self.advise(s, voice, [say(voice, text, reason(pz), rule)], actions, prefix=prefix)

    def write(self) -> None:
        for item in self.items:
            check(item)
        path = HERE / f"{self.puzzle}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items), encoding="utf-8")


def seeds(puzzle: str, keep: Callable[[Any], bool], n: int, start: int) -> list[int]:
    out = [s for s in range(start, 700) if keep(fresh(puzzle, s))][:n]
    assert len(out) == n, (puzzle, out)
    return out




def one_of(options: list[str | None], k: int) -> str:
    """The k-th option, or the next one that exists."""
    return next(o for o in options[k:] + options[:k] if o)


# -- Wire ---------------------------------------------------------------------------------------------
def wire() -> Items:
    it = Items("wire")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        c = vs["wire_colors_top_to_bottom"]
        if k % 3 == 0:
            listing = ("wires, top to bottom", ", ".join(c), f"the wires from the top are {', '.join(c)}")
        elif k % 3 == 1:
            listing = ("wires, bottom first", ", ".join(reversed(c)), f"counting up from the bottom the wires are {', '.join(reversed(c))}")
        else:
            listing = ("wires", " ".join(f"{i + 1}) {x}" for i, x in enumerate(c)), ", ".join(f"wire {NUM[i + 1]} is {x}" for i, x in enumerate(c)))
        return [("how many wires", str(len(c)), f"there are {len(c)} wires"), listing,
                ("serial", vs["serial_number"], f"the serial is {vs['serial_number']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        other = next(x for x in ("yellow", "red", "blue") if x != c[-1])
        return 1, "the wires from the top are " + ", ".join([*c[:-1], other]), f"the bottom wire is {c[-1]}, not {other}"

    it.voices(list(range(600, 606)), facts, fix, COLOUR_VOICES)
    palette = ("red", "white", "blue", "yellow", "black")

    def last_blue_black(p: Any) -> bool:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return c[-1] in ("blue", "black") and changes(p, [{"wire_colors_top_to_bottom": [*c[:-1], x]} for x in ("blue", "black")])
    s = seeds("wire", last_blue_black, 1, 610)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "shade-between", [hedge([("", "", f"there are {len(c)} wires"), ("", "", "from the top they go " + ", ".join(c[:-1]) + ", and the bottom one is very dark, navy or maybe black"),
                                            ("", "", f"the serial is {vs['serial_number']}")])],
                ask=["last wire", "blue or black"], why="the bottom wire is navy or black, and the two cut different wires")

    def second_matters(p: Any) -> bool:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return changes(p, [{"wire_colors_top_to_bottom": [c[0], x, *c[2:]]} for x in palette])
    s = seeds("wire", second_matters, 1, 615)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "blank-cell", [table([("wire count", str(len(c)), ""), *[(f"wire {i + 1}", x if i != 1 else "?", "") for i, x in enumerate(c)],
                                         ("serial", vs["serial_number"], "")])],
                ask=["second wire", "colour"], why="the second wire's cell is blank, and its colour decides the cut")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1])
        n = len(c)
        typo = ["frist", "secnod", "thrid", "foruth", "fith", "sixht"]
        below = f"Cut the wire just below the {c[j - 2]} one" if j > 1 and c.count(c[j - 2]) == 1 else None
        above = f"Cut the wire right above the {c[j]} one" if j < n and c.count(c[j]) == 1 else None
        shade = f"Cut the {SHADE[c[j - 1]]} wire" if c.count(c[j - 1]) == 1 else f"Cut the {ORD[c[:j].count(c[j - 1]) - 1]} {SHADE2[c[j - 1]]} wire from the top"
        options = [below or above, shade, f"Cut the {typo[j - 1]} wire from the top", f"Counting from the bottom, cut wire {NUM[n - j + 1]}",
                   f"Snip the {c[j - 1]} one, the {ORD[j - 1]} wire", f"Cut wire {j}"]
        return one_of(options, k), a

    it.steps(list(range(630, 636)), step, lambda pz: f"the serial ends in {pz.visible_state()['serial_number'][-1]} and you have {NUM[len(pz.visible_state()['wire_colors_top_to_bottom'])]} wires",
             "if there is more than one red wire and the serial's last digit is odd, cut the last red wire; otherwise go down the list",
             lambda pz, k: "Cut wire 1" if advice(pz) != ["cut_wire_1"] else "Cut the last wire")

    def twice_with_below(p: Any) -> str | None:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return next((x for x in palette if [i for i, y in enumerate(c[:-1]) if y == x][1:2]), None)
    s = seeds("wire", lambda p: twice_with_below(p) is not None, 1, 640)[0]
    col = twice_with_below(fresh("wire", s))
    it.advise(s, "landmark-two", [say("sub-bullets", f"Cut the wire just below the {SHADE[col]} one", "", "")], ask=["which", col],
              why=f"two {col} wires have a wire below them")
    s = seeds("wire", lambda p: any(p.visible_state()["wire_colors_top_to_bottom"].count(x) >= 3 for x in palette), 1, 645)[0]
    c = fresh("wire", s).visible_state()["wire_colors_top_to_bottom"]
    col = next(x for x in palette if c.count(x) >= 3)
    it.advise(s, "not-leaves-two", [f"Cut a {col} wire -- not the top {col} one, the other."], ask=["which", col],
              why=f"{c.count(col)} {col} wires: 'not the top one' leaves more than one")
    return it


# -- Who's on First -------------------------------------------------------------------------------------
def who() -> Items:
    from comma_env.puzzles.who import LABELS
    it = Items("who")

    def disp(vs: dict) -> str:
        return "(blank)" if vs["display_text"] == "" else f"“{vs['display_text']}”"

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        b = vs["button_labels"]
        d = ("screen", disp(vs), "the screen is blank" if vs["display_text"] == "" else f"the screen says {disp(vs)}")
        if k % 2:
            return [d, *[(SPOT[p], b[p], f"{SPOT[p]} has {b[p]}") for p in SIX]]
        return [d, *[(f"{r} pair", f"{b[r + '_left']} / {b[r + '_right']}", f"the {r} pair is {b[r + '_left']} (left) and {b[r + '_right']} (right)")
                     for r in ("top", "middle", "bottom")]]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        vs = pz.visible_state()
        wrong = "READY" if vs["display_text"] != "READY" else "FIRST"
        return 0, f"the screen says “{wrong}”", f"the screen says {disp(vs)}" if vs["display_text"] else "the screen is blank"

    it.voices(list(range(600, 606)), facts, fix)

    def label_matters(p: Any, pos: str) -> bool:
        b = p.visible_state()["button_labels"]
        return changes(p, [{"button_labels": {**b, pos: x}} for x in LABELS if x not in b.values() or x == b[pos]])
    s = seeds("who", lambda p: label_matters(p, "middle_right"), 1, 610)[0]
    vs = fresh("who", s).visible_state()
    b = vs["button_labels"]
    it.describe(s, "blank-cell", [table([("display", disp(vs), ""), *[(SPOT[p], b[p] if p != "middle_right" else "", "") for p in SIX]])],
                ask=["middle right", "label"], why="the middle-right cell is empty, and the rule may need that label")
    pairs = [("YOU", "YOU ARE"), ("THEY ARE", "THEY'RE"), ("C", "CEE"), ("SEE", "C"), ("NOTHING", "")]
    s = seeds("who", lambda p: any(changes(p, [{"display_text": x}, {"display_text": y}]) for x, y in pairs), 1, 615)[0]
    x, y = next((x, y) for x, y in pairs if changes(fresh("who", s), [{"display_text": x}, {"display_text": y}]))
    b = fresh("who", s).visible_state()["button_labels"]
    it.describe(s, "two-candidates", [hedge([("", "", f"the screen says {x or 'nothing at all'}... or is it {y or 'empty'}"),
                                             *[("", "", f"{SPOT[p]} reads {b[p]}") for p in SIX]])],
                ask=["display", "screen"], why="two readings of the display that press different buttons")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_labels"]
        a = advice(pz)
        p = a[0][len("press_"):]
        r, side = p.split("_")
        i = SIX.index(p)
        under = f"Press the button under {b[SIX[i - 2]]}" if i >= 2 else None
        over = f"Press the one right above {b[SIX[i + 2]]}" if i < 4 else None
        beside = f"Press the button beside {b[SIX[i ^ 1]]}"
        options = [under or over, f"Press {b[p]}", beside, f"Hit “{b[p]}”, it's the {side} one in the {r} row",
                   over or under, f"Press the {r} {side} one"]
        return options[k] or beside, a

    it.steps(list(range(630, 636)), step, lambda pz: f"your screen shows {disp(pz.visible_state())}",
             "read the display, find the button it points to, then that button's word list tells you which label to press",
             lambda pz, k: "Press the top left one")
    s = seeds("who", lambda p: True, 1, 640)[0]
    b = fresh("who", s).visible_state()["button_labels"]
    it.advise(s, "landmark-two", [say("maybe", f"Press the one next to {b['middle_left']}", "", "")], ask=["which", "next to"],
              why="the middle-left button has neighbours above, below and beside it")
    s = seeds("who", lambda p: True, 1, 641)[0]
    b = fresh("who", s).visible_state()["button_labels"]
    it.advise(s, "not-leaves-many", [f"Press anything in the bottom row except {b['bottom_left']}... no, hold on, not the right one either."],
              ask=["which"], why="both bottom buttons are ruled out, then nothing is left to press")
    return it


# -- Keypad ---------------------------------------------------------------------------------------------
LOOK = {"Ω": "omega sign", "Ψ": "trident", "λ": "lambda", "Ж": "Ж (a K and its mirror stuck together)", "Я": "backwards R",
        "¶": "paragraph mark", "©": "copyright sign", "★": "black star", "☆": "white star", "¿": "upside-down ?",
        "♣": "club suit", "♠": "spade suit", "☺": "smiley", "☂": "umbrella", "♪": "music note", "∞": "infinity sign",
        "§": "section symbol", "†": "dagger", "€": "euro sign", "¥": "yen sign", "⌘": "command-key symbol",
        "Δ": "triangle", "☯": "yin and yang", "✈": "plane"}


def keypad() -> Items:
    it = Items("keypad")

    def facts(pz: Any, k: int) -> list[Fact]:
        b = pz.visible_state()["button_symbols"]
        if k % 2:
            return [(SPOT[p], LOOK[b[p]], f"the {SPOT[p]} key shows a {LOOK[b[p]]}") for p in FOUR]
        return [(f"{r} row", f"{b[r + '_left']} {b[r + '_right']}", f"the {r} row is {LOOK[b[r + '_left']]} then {LOOK[b[r + '_right']]}") for r in ("top", "bottom")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        b = pz.visible_state()["button_symbols"]
        return 0, f"the top row is {LOOK[b['top_right']]} then {LOOK[b['top_left']]}", f"the top row is {LOOK[b['top_left']]} then {LOOK[b['top_right']]} (I had them swapped)"

    it.voices(list(range(600, 606)), facts, fix)

    def corner_matters(p: Any) -> bool:
        b = p.visible_state()["button_symbols"]
        return changes(p, [{"button_symbols": {**b, "top_right": x}} for x in LOOK if x not in b.values()])
    s = seeds("keypad", corner_matters, 1, 610)[0]
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.describe(s, "blank-cell", [bullets([("top left", LOOK[b["top_left"]], ""), ("top right", "-", ""), ("bottom left", LOOK[b["bottom_left"]], ""),
                                           ("bottom right", LOOK[b["bottom_right"]], "")])],
                ask=["top right", "symbol"], why="the top-right symbol is a dash")
    s = seeds("keypad", lambda p: bool({"★", "☆"} & set(p.visible_state()["button_symbols"].values())), 1, 615)[0]
    b = fresh("keypad", s).visible_state()["button_symbols"]
    star = next(p for p in FOUR if b[p] in "★☆")
    it.describe(s, "shade-between", [txt([(SPOT[p], "", f"{SPOT[p]} {LOOK[b[p]] if p != star else 'a star, filled or outlined idk, its grey'}") for p in FOUR])],
                ask=["star", "filled or hollow"], why="a grey star may be the filled or the hollow one, which sit in different places of the order")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_symbols"]
        a = advice(pz)
        ps = [x[len("press_"):] for x in a]
        options = ["Press " + ", then ".join(LOOK[b[p]] for p in ps),
                   "Order: " + " → ".join(f"{SPOT[p]} ({b[p]})" for p in ps),
                   "Press " + ", ".join(f"the {LOOK[b[p]]}" for p in ps[:3]) + f", and finally the {LOOK[b[ps[3]]]}",
                   "Start at the " + SPOT[ps[0]] + ", then " + SPOT[ps[1]] + ", " + SPOT[ps[2]] + ", " + SPOT[ps[3]],
                   "Go " + b[ps[0]] + " " + b[ps[1]] + " " + b[ps[2]] + " " + b[ps[3]],
                   "Press " + ", ".join(SPOT[p] for p in ps)]
        return options[k], a

    it.steps(list(range(630, 636)), step, lambda pz: "all four of your symbols sit in one column of my manual",
             "find the column holding all four symbols and press them in the order they appear from top to bottom",
             lambda pz, k: "Press top left, top right, bottom left, bottom right")
    s = 640
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.advise(s, "landmark-two", [say("md-table", f"Press the key next to the {LOOK[b['top_left']]} first, then the rest clockwise", "", "")],
              ask=["which", "next to"], why="the top-left key has two neighbours")
    s = 641
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.advise(s, "except-unordered", [f"Press every key except the {LOOK[b['bottom_right']]}, then the {LOOK[b['bottom_right']]} last."],
              ask=["order"], why="the order of the first three is not given")
    return it


# -- LED ------------------------------------------------------------------------------------------------
def led() -> Items:
    from comma_env.puzzles.led import MULTIPLIERS
    it = Items("led")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        b = vs["button_letters"]
        colour = vs["led_colors_left_to_right"][vs["stage_number"] - 1]
        head = [("stage", f"{vs['stage_number']}", f"this is stage {vs['stage_number']}"), ("LED", colour, f"the LED glows {colour}")]
        if k % 2:
            return [*head, ("letters", f"{b['top_left']} {b['top_right']} / {b['bottom_left']} {b['bottom_right']}",
                            f"the letters are {b['top_left']} and {b['top_right']} up top, {b['bottom_left']} and {b['bottom_right']} below")]
        return [*head, *[(SPOT[p], b[p], f"{SPOT[p]} says {b[p]}") for p in FOUR]]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        colour = pz.visible_state()["led_colors_left_to_right"][0]
        wrong = "green" if colour != "green" else "blue"
        return 1, f"the LED glows {wrong}", f"the LED glows {colour}"

    it.voices(list(range(600, 606)), facts, fix, COLOUR_VOICES)

    def colour_matters(p: Any, xs: tuple[str, str]) -> bool:
        c = p.visible_state()["led_colors_left_to_right"]
        return c[0] in xs and changes(p, [{"led_colors_left_to_right": [x, *c[1:]]} for x in xs])
    s = seeds("led", lambda p: colour_matters(p, ("red", "orange")), 1, 610)[0]
    b = fresh("led", s).visible_state()["button_letters"]
    it.describe(s, "shade-between", [esl([("", "", "stage is one"), ("", "", "the LED is a coral colour, between red and orange"),
                                          ("", "", ", ".join(f"{SPOT[p]} {b[p]}" for p in FOUR))])],
                ask=["colour", "red or orange"], why="coral is between two LED colours that press different buttons")
    vs = fresh("led", 615).visible_state()
    b = vs["button_letters"]
    it.describe(615, "no-positions", [bullets([("stage", "1", ""), ("LED", vs["led_colors_left_to_right"][0], ""),
                                               ("letters", ", ".join(sorted(b.values())) + " (alphabetical, didn't note where)", "")])],
                ask=["where", "positions"], why="letters without places")
    del MULTIPLIERS

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_letters"]
        a = advice(pz)
        p = a[0][len("press_"):]
        r, side = p.split("_")
        across = {"top_left": "bottom_right", "top_right": "bottom_left", "bottom_left": "top_right", "bottom_right": "top_left"}[p]
        under = {"top": "bottom", "bottom": "top"}[r] + "_" + side
        options = [f"Press the letter {'below' if r == 'bottom' else 'above'} {b[under]}", f"Press {b[p]}",
                   f"Press the one diagonally across from {b[across]}", f"Press {b[p]} ({SPOT[p]})",
                   f"Hit the {side} letter of the {r} row", f"Press {b[p]}"]
        return options[k], a

    it.steps(list(range(630, 636)), step, lambda pz: f"your LED is {pz.visible_state()['led_colors_left_to_right'][pz.visible_state()['stage_number'] - 1]}",
             "multiply a letter's place in the alphabet by the LED's number, and if it lands on the letter across from it, that's the one",
             lambda pz, k: "Press the top left")
    b = fresh("led", 640).visible_state()["button_letters"]
    it.advise(640, "landmark-two", [say("reason-first", f"Press the letter next to {b['top_left']}", "the LED is what it is", "")], ask=["which", "next to"],
              why="in a 2x2 grid a letter has two neighbours")
    b = fresh("led", 641).visible_state()["button_letters"]
    it.advise(641, "maybe-two", [f"I think maybe {b['top_right']}? Or {b['bottom_left']}? One of them."], ask=["which"],
              why="two letters offered")
    return it


# -- Memory ---------------------------------------------------------------------------------------------
def memory() -> Items:
    it = Items("memory")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        labels = vs["button_labels_left_to_right"]
        d = vs["display_number"]
        if k % 2:
            return [("display", str(d), f"the screen shows {d}"), ("buttons", " ".join(map(str, labels)) + " (left to right)",
                                                                     "the buttons from the left are " + ", ".join(map(str, labels)))]
        return [("stage", "1", "it's the first stage"), ("number on top", NUM[d], f"the number on top is {NUM[d]}"),
                ("buttons", ", ".join(f"{NTH[i]}: {x}" for i, x in enumerate(labels)), ", ".join(f"button {i + 1} has {x}" for i, x in enumerate(labels)))]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        d = pz.visible_state()["display_number"]
        i = next(i for i, x in enumerate(f) if x[0] in ("display", "number on top"))
        return i, f"the screen shows {d % 4 + 1}", f"the screen shows {d}"

    it.voices(list(range(600, 606)), facts, fix)
    s = seeds("memory", lambda p: changes(p, [{"display_number": x} for x in (1, 4)]), 1, 610)[0]
    vs = fresh("memory", s).visible_state()
    it.describe(s, "two-candidates", [hedge([("", "", "the display shows 1 -- or a 4 with a faded top"),
                                             ("", "", "the buttons read " + " ".join(map(str, vs["button_labels_left_to_right"])))])],
                ask=["display"], why="two readings of the display")
    s = seeds("memory", lambda p: True, 1, 615)[0]
    vs = fresh("memory", s).visible_state()
    labels = vs["button_labels_left_to_right"]
    it.describe(s, "blank-cell-irrelevant", [table([("display", str(vs["display_number"]), ""), *[(f"button {i + 1}", str(x) if i != 1 else "", "") for i, x in enumerate(labels)]])],
                advice(fresh("memory", s)), why="the second label is blank, but stage 1 goes by position and the label pressed is known")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        labels = pz.visible_state()["button_labels_left_to_right"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1])
        right = f"Press the button just right of the {labels[j - 2]}" if j > 1 else None
        left = f"Press the one to the left of the {labels[j]}" if j < 4 else None
        typo = ["frist", "secnod", "thrid", "fourht"]
        options = [right or left, f"Press the {typo[j - 1]} button", f"Press the button that has the {labels[j - 1]} on it",
                   left or right, f"Press position {NUM[j]}", f"Press button {j}"]
        return options[k] or f"Press position {j}", a

    it.steps(list(range(630, 636)), step, lambda pz: f"the display shows {pz.visible_state()['display_number']}",
             "in stage 1, if the display is 1 or 2 press the second position, if 3 the third, if 4 the fourth",
             lambda pz, k: "Press position 1")
    s = seeds("memory", lambda p: p.visible_state()["button_labels_left_to_right"].index(3) in (1, 2), 1, 640)[0]
    it.advise(s, "landmark-two", [say("md-table", "Press the button next to the 3", "", "")], ask=["left or right"],
              why="the 3 sits in the middle, with a neighbour on each side")
    it.advise(641, "not-leaves-many", ["Don't press position 2 this time -- press one of the others."], ask=["which"],
              why="three positions are left")
    return it


# -- Password -------------------------------------------------------------------------------------------
def password() -> Items:
    it = Items("password")

    def facts(pz: Any, k: int) -> list[Fact]:
        letters = pz.visible_state()["letters_shown_left_to_right"]
        if k % 2:
            return [(f"slot {i + 1}", x, f"slot {NUM[i + 1]} shows {x}") for i, x in enumerate(letters)]
        return [("letters", " ".join(letters), "the five letters are " + " ".join(letters))]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        letters = pz.visible_state()["letters_shown_left_to_right"]
        wrong = "Q" if letters[0] != "Q" else "Z"
        return 0, "the five letters are " + " ".join([wrong, *letters[1:]]), f"the first letter is {letters[0]}, not {wrong}"

    it.voices(list(range(600, 606)), facts, fix)
    letters = fresh("password", 610).visible_state()["letters_shown_left_to_right"]
    it.describe(610, "blank-cell-irrelevant", [table([(f"window {i + 1}", x if i != 2 else "", "") for i, x in enumerate(letters)])],
                advice(fresh("password", 610)), why="the third window's cell is empty, but the first step cycles every window whatever it shows")
    it.describe(611, "no-letters", [hedge([("", "", "there are five letter windows with arrows"), ("", "", "the letters look blurry to me")])],
                ask=["letters"], why="no letters read")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        w = k % 5 + 1
        v = (k + 2) % 5 + 1
        options = [(f"Roll the window right of window {w} up once" if w < 5 else "Roll the rightmost window up once", [f"cycle_up_{w + 1}" if w < 5 else "cycle_up_5"]),
                   (f"Press down on window {TYPO[w]} twice", [f"cycle_down_{w}"] * 2),
                   ("Scroll all five windows up one", [f"cycle_up_{i}" for i in range(1, 6)]),
                   (f"First up on window {w}, then down on window {v}", [f"cycle_up_{w}", f"cycle_down_{v}"]),
                   (f"Move the {NTH[w - 1]} letter down one", [f"cycle_down_{w}"]),
                   (f"Cycle window {w} up three times", [f"cycle_up_{w}"] * 3)]
        return options[k]

    it.steps(list(range(630, 636)), step, lambda pz: "you need to see more letters in each window before the word is clear",
             "cycle the windows to see every letter they hold, then find the one listed word you can spell",
             lambda pz, k: "Spin window 5 down once")
    it.advise(640, "landmark-two", [say("maybe", "Spin the window next to the middle one up", "", "")], ask=["which", "left or right"],
              why="the middle window has a neighbour on each side")
    it.advise(641, "not-leaves-many", [say("txt-abbrev", "cycle every window up except the ones that already look right", "", "")], ask=["which"],
              why="the speaker does not say which look right")
    return it


# -- Maze -----------------------------------------------------------------------------------------------
def runs(actions: list[str], k: int) -> list[str]:
    out, i = [], 0
    while i < len(actions):
        a = actions[i]
        n = 1
        while i + n < len(actions) and actions[i + n] == a and a.startswith("move"):
            n += 1
        words = {"turn_left": ["turn to the left", "swing left", "face left (turn)"][k % 3],
                 "turn_right": ["turn to the right", "swing right", "face right (turn)"][k % 3],
                 "press_button": ["press the button", "press the button", "hit the button"][k % 3],
                 "move_forward": [f"step forward {NUM[n]} time{'s' * (n > 1)}", f"forward {TYPO[n]}", f"advance {n}"][k % 3],
                 "move_backward": [f"step back {NUM[n]} time{'s' * (n > 1)}", f"backward {TYPO[n]}", f"back up {n}"][k % 3]}[a]
        out.append(words)
        i += n
    return out


def maze() -> Items:
    it = Items("maze")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        rows = vs["maze_rows_top_to_bottom"]
        m = vs["mouse_row_column"]
        sph = vs["sphere_row_column_by_color"]
        grid = " ".join(f"r{i + 1}={r}" for i, r in enumerate(rows))
        return [("maze (# wall, . open)", grid, f"the maze (# is wall, . is open), row by row from the top: {grid}"),
                ("mouse", f"r{m[0]} c{m[1]}, facing {vs['mouse_facing']}", f"the mouse is on row {m[0]}, column {m[1]}, pointing {vs['mouse_facing']}"),
                ("spheres", ", ".join(f"{c} r{p[0]} c{p[1]}" for c, p in sph.items()), "the balls: " + ", ".join(f"{c} on row {p[0]} column {p[1]}" for c, p in sph.items())),
                ("torus", vs["torus_color"], f"the ring is {vs['torus_color']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        t = pz.visible_state()["torus_color"]
        wrong = "red" if t != "red" else "blue"
        return 3, f"the ring is {wrong}", f"the ring is {t}"

    it.voices(list(range(600, 606)), facts, fix, ["md-table", "sub-bullets", "shades", "txt-abbrev", "esl", "shades"])
    s = seeds("maze", lambda p: changes(p, [{"torus_color": x} for x in ("blue", "green")]), 1, 610)[0]
    f = facts(fresh("maze", s), 0)
    it.describe(s, "shade-between", [bullets([*f[:3], ("torus", "teal, somewhere between blue and green", "")])],
                ask=["torus", "blue or green"], why="the torus colour picks the goal sphere")
    f = facts(fresh("maze", 611), 0)
    it.describe(611, "no-facing", [table([f[0], ("mouse", f"r{fresh('maze', 611).visible_state()['mouse_row_column'][0]} c{fresh('maze', 611).visible_state()['mouse_row_column'][1]}", ""), *f[2:]])],
                ask=["facing", "which way"], why="which way the mouse faces is not given, and it decides the turns")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        words = runs(a, k)
        joint = ["\n   - ".join(words), ", ".join(words), ", after that ".join(words)][k % 3]
        return (joint[0].upper() + joint[1:]) if k % 3 else "Do this:\n   - " + joint, a

    it.steps(list(range(630, 636)), step, lambda pz: f"the ring is {pz.visible_state()['torus_color']} so the goal is the {pz.visible_state()['torus_color']} ball",
             "go to the sphere whose colour matches the torus and press the button there",
             lambda pz, k: "Turn right, forward 2")
    it.advise(640, "no-count", [say("md-table", "Step forward a few times, then turn left", "", "")], ask=["how many"],
              why="no count")
    it.advise(641, "two-candidates", ["Forward two... or three? Then press the button. Maybe three."], ask=["two or three", "how many"],
              why="two counts offered")
    return it


# -- Color ----------------------------------------------------------------------------------------------
def color() -> Items:
    from comma_env.puzzles.color import COLORS
    it = Items("color")

    def facts(pz: Any, k: int) -> list[Fact]:
        g = pz.visible_state()["square_colors_by_row"]
        if k % 2:
            return [(f"line {i + 1}", ", ".join(row), f"line {i + 1} goes {', '.join(row)}") for i, row in enumerate(g)]
        return [(f"{['top', 'second', 'third', 'bottom'][i]} row", " ".join(row), f"the {['top', 'second', 'third', 'bottom'][i]} row is {' '.join(row)}") for i, row in enumerate(g)]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        g = pz.visible_state()["square_colors_by_row"]
        wrong = "green" if g[1][0] != "green" else "blue"
        return 1, f"the second row is {' '.join([wrong, *g[1][1:]])}", f"the first square of the second row is {g[1][0]}, not {wrong}"

    it.voices(list(range(600, 606)), facts, fix, COLOUR_VOICES)

    def square_matters(p: Any, r: int, c: int, xs: tuple[str, ...]) -> bool:
        g = p.visible_state()["square_colors_by_row"]
        return g[r][c] in xs and changes(p, [{"square_colors_by_row": [row if i != r else [*row[:c], x, *row[c + 1:]] for i, row in enumerate(g)]} for x in xs])
    s = seeds("color", lambda p: square_matters(p, 2, 1, ("blue", "green")), 1, 610)[0]
    g = fresh("color", s).visible_state()["square_colors_by_row"]
    rows = [" ".join(r) for r in g]
    rows[2] = " ".join([g[2][0], "teal", *g[2][2:]])
    it.describe(s, "shade-between", [txt([(f"row {i + 1}", "", f"row {i + 1}: {r}") for i, r in enumerate(rows)])],
                ask=["teal", "blue or green"], why="teal may be the blue or the green of this grid, and the square matters")
    s = seeds("color", lambda p: changes(p, [{"square_colors_by_row": [*p.visible_state()["square_colors_by_row"][:3], [x] * 4]} for x in COLORS]), 1, 615)[0]
    g = fresh("color", s).visible_state()["square_colors_by_row"]
    it.describe(s, "missing-row", [table([(f"row {i + 1}", " ".join(row), "") for i, row in enumerate(g[:3])])],
                ask=["row 4", "bottom row"], why="the bottom row is not given")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        g = pz.visible_state()["square_colors_by_row"]
        a = advice(pz)
        cells = [tuple(map(int, x.split("_")[1:])) for x in a]
        rowname = ["top", "second", "third", "bottom"]
        options = ["Press " + ", ".join(f"the {SHADE[g[r - 1][c - 1]]} square in the {rowname[r - 1]} row, {NTH[c - 1]} from the left" for r, c in cells),
                   "Tap " + " and then ".join(f"row {r} column {c}" for r, c in cells),
                   "Press " + ", ".join(f"({r},{c})" for r, c in cells) + " (row, column)",
                   "Click these: " + "; ".join(f"row {TYPO[r]}, column {TYPO[c]}" for r, c in cells),
                   "Press " + ", ".join(f"the {NTH[c - 1]} square of row {r}" for r, c in cells),
                   "Press " + ", ".join(f"row {r} col {c}" for r, c in cells)]
        return options[k], a

    it.steps(list(range(630, 636)), step, lambda pz: "that group of same-coloured squares is the one the manual picks",
             "find the largest group of touching squares of one colour; if two tie, take the higher one",
             lambda pz, k: "Press row 1 column 1")
    s = seeds("color", lambda p: sum(x == "green" for row in p.visible_state()["square_colors_by_row"][1:] for x in row) >= 2, 1, 640)[0]
    it.advise(s, "landmark-two", [say("sub-bullets", "Press the square right above the emerald one", "", "")], ask=["which", "green"],
              why="more than one green square has a square above it")
    it.advise(641, "not-leaves-many", [say("maybe", "Press a square in the top row, but not the corner ones", "", "")], ask=["which", "top row"],
              why="two middle squares are left")
    return it


# -- ATM ------------------------------------------------------------------------------------------------
def atm() -> Items:
    it = Items("atm")
    rule = "If your balance is at least $500, withdraw $300; otherwise deposit $100."

    def login(seed: int, which: str) -> list[str]:
        pin = fresh("atm", seed).visible_state()["pin_on_card"]
        return [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]

    menu: list[Fact] = [("screen", "main menu", "the screen is on the main menu"),
                        ("options", "Deposit | Withdraw", "it offers Deposit and Withdraw"),
                        ("card", "have it, PIN on the back (not saying it)", "I've got my card with the PIN")]
    for k, s in enumerate(range(600, 603)):
        a = advice(fresh("atm", s))
        other = ["select_deposit" if a[0] == "select_withdraw" else "select_withdraw", *a[1:]]
        voice = ["md-table", "sub-bullets", "esl"][k]
        it.describe(s, voice, [VOICES[voice](menu)], a, alternatives=[other])
    for k, s in enumerate(range(603, 606)):
        prefix = login(s, ("withdraw", "deposit")[k % 2])
        pz = fresh("atm", s, prefix)
        bal = pz.visible_state()["balance"]
        f = [("screen", "balance", "it's showing my balance"), ("balance", bal, f"the balance reads {bal}"),
             ("buttons", "Continue, Back", "there's a Continue and a Back button")]
        if k < 2:
            voice = ["maybe", "txt-abbrev"][k]
            it.describe(s, voice, ["\n".join(prefix), VOICES[voice](f)], type(pz).expand_advice(rule, pz.visible_state()))
        else:
            wrong = "$12.00" if not bal.startswith("$12") else "$9,000.00"
            it.describe(s, "edit-line", ["\n".join(prefix), edit(f, 1, f"the balance reads {wrong}", f"the balance reads {bal}", False)],
                        type(pz).expand_advice(rule, pz.visible_state()))
    it.describe(610, "blank-cell", ["\n".join(login(610, "withdraw")), table([("screen", "balance", ""), ("balance", "$?,?20.00 (glare on the first digits)", "")])],
                ask=["balance", "500"], why="the first digits are not read; the rule compares with $500")
    it.describe(611, "partial-comparison", ["\n".join(login(611, "deposit")), hedge([("", "", "the balance is more than $300"), ("", "", "that's all I can make out")])],
                ask=["500", "balance"], why="more than $300 does not settle the $500 rule")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        which = ("withdraw", "deposit")[k % 2]
        pin = pz.visible_state()["pin_on_card"]
        acts = [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]
        options = [f"{which.title()} first, then the PIN from your card, then Enter",
                   f"Choose {which}. Then the PIN (it's on the card). Then press enter",
                   f"Hit {which}, key in the four digits printed on your card, and finish with Enter",
                   f"Go for the {which} button, punch in the card's PIN, confirm with enter",
                   f"{which.title()} → PIN → Enter",
                   f"Select {which}, enter your PIN, press Enter"]
        return options[k], acts

    it.steps(list(range(630, 636)), step, lambda pz: "the machine wants a transaction before it asks for your PIN",
             "pick a transaction, log in with your PIN, and then the balance decides: $500 or more, withdraw $300, else deposit $100",
             lambda pz, k: "Select deposit")
    it.advise(640, "maybe-two", ["I think maybe withdraw? Or deposit... either? I'm really not sure which the manual wants first."],
              ask=["deposit or withdraw"], why="two transactions offered")
    it.advise(641, "not-leaves-none", [say("txt-abbrev", "don't pick deposit, & don't pick withdraw yet, just log in", "", "")],
              ask=["deposit or withdraw"], why="the machine needs a transaction before the PIN, and both are ruled out")
    return it


# -- Telehealth -----------------------------------------------------------------------------------------
DIAG = {"bcc": ["basal cell carcinoma", "basal-cell cancer"], "scc": ["squamous cell carcinoma", "squamous-cell cancer"],
        "ack": ["actinic keratosis", "solar keratosis"], "sek": ["seborrheic keratosis", "seborrhoeic wart"],
        "mel": ["melanoma", "malignant melanoma"], "nev": ["benign nevus", "harmless mole"]}
TREAT = {"surgery": ["surgery", "excision"], "cryotherapy": ["cryotherapy", "liquid nitrogen"], "none": ["no treatment", "nothing (just reassure)"]}


def telehealth() -> Items:
    it = Items("telehealth")

    def facts(pz: Any, k: int, blank: str = "", vary: tuple[str, str] = ("", "")) -> list[Fact]:
        vs = pz.visible_state()
        f = {"age": ("age", str(vs["age"]), f"the patient is {vs['age']} years old"),
             "type": ("skin type", vs["skin_type"], f"Fitzpatrick {vs['skin_type']}"),
             "site": ("where", vs["body_region"], f"the spot is on the {vs['body_region']}"),
             "size": ("size", f"{vs['diameter_mm']} mm", f"it is {vs['diameter_mm']} mm wide"),
             "colours": ("colour", " and ".join(vs["lesion_colors"]), f"colour {' and '.join(vs['lesion_colors'])}"),
             "shape": ("shape", vs["lesion_shape"], f"shape {vs['lesion_shape']}"),
             "border": ("edge", vs["lesion_border"], f"the edge is {vs['lesion_border']}"),
             "surface": ("surface", vs["lesion_surface"], f"surface {vs['lesion_surface']}"),
             "vessels": ("blood vessels", "yes" if vs["visible_blood_vessels"] else "no", "vessels can be seen" if vs["visible_blood_vessels"] else "no vessels seen"),
             "raised": ("raised", vs["elevation"], "it is raised" if vs["elevation"] == "yes" else "it is not raised"),
             "itch": ("itch", vs["itch"], "it itches" if vs["itch"] == "yes" else "it does not itch"),
             "bleed": ("bleeding", vs["bleed"], "it bleeds" if vs["bleed"] == "yes" else "it does not bleed"),
             "grew": ("growing", vs["grew"], "it has been growing" if vs["grew"] == "yes" else "it has not grown"),
             "changed": ("changing", vs["changed"], "it has changed" if vs["changed"] == "yes" else "it has not changed")}
        if blank:
            f[blank] = (f[blank][0], "", f"{f[blank][0]}: not noted")
        if vary[0]:
            f[vary[0]] = (f[vary[0]][0], vary[1], f"{f[vary[0]][0]} {vary[1]}")
        keys = list(f)[::-1] if k % 2 else list(f)
        return [f[x] for x in keys]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        age = pz.visible_state()["age"]
        i = next(i for i, x in enumerate(f) if x[0] == "age")
        return i, "the patient is 91 years old", f"the patient is {age}, not 91"

    it.voices(list(range(600, 606)), facts, fix)

    def needs(p: Any, key: str, values: list[Any]) -> bool:
        return changes(p, [{key: x} for x in values])
    s = seeds("telehealth", lambda p: needs(p, "diameter_mm", [2.0, 5.0, 8.0, 15.0]), 1, 610)[0]
    it.describe(s, "blank-cell", [table(facts(fresh("telehealth", s), 0, blank="size"))], ask=["size", "diameter"], why="the size decides the answer here")
    s = seeds("telehealth", lambda p: needs(p, "bleed", ["yes", "no"]), 1, 615)[0]
    it.describe(s, "two-candidates", [bullets(facts(fresh("telehealth", s), 1, vary=("bleed", "maybe once? or it was a scratch, not sure")))],
                ask=["bleed"], why="whether it bleeds decides the answer here")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        d, t = a[0].split("_", 1)[1], a[1].split("_", 1)[1]
        options = [f"Record {DIAG[d][0]}, then give {TREAT[t][0]}",
                   f"Diagnosis is {DIAG[d][1]}; treatment: {TREAT[t][1]}",
                   f"It's {DIAG[d][0]} -- treatment is {TREAT[t][1]}",
                   f"Put down {DIAG[d][1]} as the diagnosis and choose {TREAT[t][0]}",
                   f"Diagnose {DIAG[d][0]}, and the treatment should be {TREAT[t][0]}",
                   f"Diagnose {DIAG[d][0]} and treat with {TREAT[t][0]}"]
        return options[k], a

    it.steps(list(range(630, 636)), step, lambda pz: "the surface, border and history point one way",
             "a pearly surface with visible vessels means basal cell carcinoma, which is treated with surgery",
             lambda pz, k: "Diagnose actinic keratosis and treat with cryotherapy")
    it.advise(640, "two-candidates", [say("maybe", "It's a keratosis, freeze it", "", "")], ask=["actinic or seborrheic", "which"],
              why="two keratoses")
    it.advise(641, "not-leaves-many", ["Not a melanoma -- so cryotherapy."], ask=["diagnosis"], why="'not a melanoma' names no diagnosis, and the diagnosis comes first")
    return it


# -- Button ---------------------------------------------------------------------------------------------
def button() -> Items:
    it = Items("button")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        return [("colour", vs["button_color"], f"it's a {vs['button_color']} button"),
                ("label", vs["button_label"], f"the word on it is {vs['button_label']}"),
                ("clock", vs["timer"], f"the clock reads {vs['timer']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        c = pz.visible_state()["button_color"]
        wrong = "red" if c != "red" else "blue"
        return 0, f"it's a {wrong} button", f"it's {c}, not {wrong}"

    holds = seeds("button", lambda p: advice(p) == ["hold"], 30, 600)
    it.voices(list(range(600, 604)) + holds[:2], facts, fix, COLOUR_VOICES)
    for k, s in enumerate(holds[2:4]):
        pz = fresh("button", s, ["hold"])
        vs = pz.visible_state()
        voice = ["md-table", "txt-abbrev"][k]
        it.describe(s, f"held-{voice}", ["hold", VOICES[voice]([("held down", "yes", "I'm holding it now"),
                                                                ("strip", vs["strip_color"], f"the strip lit up {vs['strip_color']}"),
                                                                ("clock", vs["timer"], f"the clock reads {vs['timer']}")])], advice(pz))
    from comma_env.puzzles.button import LABELS
    s = seeds("button", lambda p: changes(p, [{"button_label": x} for x in LABELS]), 1, 640)[0]
    vs = fresh("button", s).visible_state()
    it.describe(s, "blank-cell", [table([("colour", vs["button_color"], ""), ("label", "(worn off)", ""), ("clock", vs["timer"], "")])],
                ask=["label", "word"], why="the label decides tap or hold here")
    pz = fresh("button", holds[4], ["hold"])
    it.describe(holds[4], "shade-between", ["hold", hedge([("", "", "I'm holding it"), ("", "", "the strip is a pale gold... or is it white"), ("", "", f"clock {pz.visible_state()['timer']}")])],
                ask=["strip", "yellow or white"], why="yellow and white strips release on different digits")

    taps = seeds("button", lambda p: advice(p) == ["tap"], 3, 630)
    for k, (s, text) in enumerate([(taps[0], "Give it one short press"), (holds[5], "Press it and keep your finger on it"),
                                   (taps[1], "Press once, don't hold it")]):
        voice = ["md-table", "maybe", "rule-first"][k]
        it.advise(s, voice, [say(voice, text, "", "a blue button that says ABORT is held; a detonate label with more than one battery is tapped")],
                  advice(fresh("button", s)))
    for k, s in enumerate(holds[6:9]):
        pz = fresh("button", s, ["hold"])
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        strip = pz.visible_state()["strip_color"]
        text = [f"Let go when a {d} shows anywhere on the clock", f"release on {TYPO[d]}",
                f"Since the strip is {strip}, release when the timer has a {d} in it"][k]
        style = ["sub-bullets", "word-typos", "reason-first"][k]
        it.advise(s, style, [text], type(pz).expand_advice(line, pz.visible_state()), prefix=["hold"])
    it.advise(holds[9], "no-digit", [say("md-table", "Keep holding, release on the usual digit", "", "")], ask=["digit", "when"],
              why="the release digit is not given", prefix=["hold"])
    it.advise(holds[10], "not-leaves-many", ["Release on 5 -- no, not 5, the other one."], ask=["digit", "which"], why="'the other one' names no digit",
              prefix=["hold"])
    return it


# -- Dog ------------------------------------------------------------------------------------------------
def dog() -> Items:
    it = Items("dog")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        dogs = vs["dogs"]
        if k % 2:
            return [("dogs", str(len(dogs)), f"there are {len(dogs)} dogs"), ("timer", vs["timer"], f"the timer is at {vs['timer']}")]
        return [("dogs", "; ".join(f"a {d['coat']} one {d['pose']}" for d in dogs), "I see " + ", ".join(f"a {d['coat']} dog {d['pose']}" for d in dogs)),
                ("timer", vs["timer"], f"the timer is at {vs['timer']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        n = len(pz.visible_state()["dogs"])
        return 0, f"there are {n + 1} dogs", f"there are {n} dogs, not {n + 1}"

    it.voices(seeds("dog", lambda p: p.visible_state()["dogs"] != [], 6, 600), facts, fix)
    it.describe(610, "two-candidates", [hedge([("", "", "three dogs? maybe four, one is half behind the bench"), ("", "", f"the timer is at {fresh('dog', 610).visible_state()['timer']}")])],
                ask=["how many"], why="two counts")
    it.describe(611, "blank-cell", [table([("dogs", "several", ""), ("timer", fresh("dog", 611).visible_state()["timer"], "")])],
                ask=["how many"], why="no count")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        options = [f"Submit when the timer's last digit is {d}", f"Hit submit on a {TYPO[d]}", f"Wait until the clock ends with {d}, then submit",
                   f"Submit once the final digit shows {NUM[d]}", f"Submit as the seconds end in {d}", f"Submit when it ends in {d}"]
        return options[k], type(pz).expand_advice(line, pz.visible_state())

    it.steps(list(range(630, 636)), step, lambda pz: "you counted that many dogs",
             "count the dogs, then submit when the timer's last digit equals the count",
             lambda pz, k: "Submit when it ends in 0")
    it.advise(640, "qualifier", [say("sub-bullets", "Submit just before it ends in 4", "", "")], ask=["digit", "when"], why="'just before' a 4 names no digit")
    it.advise(641, "maybe-two", ["I think maybe submit on a 2? Or 7? One of those."], ask=["2 or 7", "which"], why="two digits")
    return it


# -- Sound ----------------------------------------------------------------------------------------------
HEARD = {
    "Car engine": "like an idling motor, low chugging",
    "Birdsong": "high tweeting that jumps around, short pauses",
    "Police siren": "a whooping tone going up and down about every second",
    "Dripping tap": "plip plip plip, water drops, steady",
    "Ticking clock": "tick-tock, two clicks a second",
    "Heartbeat": "thump-thump in pairs, low and soft",
    "Telephone": "brrring brrring, an old phone ringing in short bursts",
    "Doorbell": "ding... dong, falling, then it dies away",
    "Rain": "shhh with lots of tiny pattering",
    "Whistle": "a single shrill steady tone",
    "Cow": "mooooo",
    "Extractor fan": "a constant airy whirr",
}
SYMBOLS = {"press_dollar": ["$", "dollar sign", "dollar"], "press_star": ["*", "asterisk", "star key"],
           "press_ampersand": ["&", "ampersand", "and symbol"], "press_hash": ["#", "hashtag", "number sign"]}


def sound() -> Items:
    from comma_env.audio.synth import SIGNATURES
    it = Items("sound")
    name_of = {s.description: s.name for s in SIGNATURES}

    def facts(pz: Any, k: int) -> list[Fact]:
        h = HEARD[name_of[pz.visible_state()["sound_heard"]]]
        return [("sound", h, f"the sound is {h}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        name = name_of[pz.visible_state()["sound_heard"]]
        other = "Cow" if name != "Cow" else "Doorbell"
        return 0, f"the sound is {HEARD[other]}", f"the sound is {HEARD[name]}"

    it.voices(list(range(600, 606)), facts, fix)
    it.describe(610, "two-candidates", [hedge([("", "", "it's a ringing, maybe a phone? or the doorbell")])], ask=["phone or doorbell", "which"],
                why="two sounds offered")
    it.describe(611, "blank-cell", [table([("sound", "(muted, didn't hear it)", "")])], ask=["sound"], why="no sound described")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        names = [SYMBOLS[x][k % 3] for x in a]
        options = ["Type " + ", ".join(names), "Code: " + " then ".join(names), "Press " + " → ".join(names),
                   f"First {names[0]}, second {names[1]}, third {names[2]}, last {names[3]}", "Enter " + " ".join(names),
                   "Enter " + ", ".join(names)]
        return options[k], a

    it.steps(list(range(630, 636)), step, lambda pz: "that sound is listed with this code",
             "find the sound in the table, then enter its four symbols left to right",
             lambda pz, k: "Enter $ $ $ $")
    it.advise(640, "not-leaves-many", [say("maybe", "Enter the code but skip the ampersand", "", "")], ask=["code", "which"], why="no code given")
    it.advise(641, "refers-back", ["Press # first, then the rest in the order I gave you before."], ask=["order", "which"],
              why="no earlier order was given")
    return it


PUZZLES = (wire, who, keypad, led, memory, password, maze, color, atm, telehealth, button, dog, sound)


def main() -> None:
    for build in PUZZLES:
        build().write()


if __name__ == "__main__":
    main()
