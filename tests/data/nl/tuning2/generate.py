# ruff: noqa: E501  (item text reads better unbroken)
"""Writes the second tuning set (issue 56, third round): descriptions and advice in voices neither
dev nor tuning has (chat models' house styles, a hurried gamer, a non-native speaker who builds
sentences from another language, a person who corrects themselves inside one message), for all
13 puzzles, with the expected outcome from the manual on the true state.

    python tests/data/nl/tuning2/generate.py   # rewrites tests/data/nl/tuning2/<puzzle>.jsonl

Per puzzle and direction: six act items (one per voice) and two ask items, written ambiguous or
incomplete on purpose in the ways a reader may act on what it did not read (two candidates for
one slot, an ordinal without its end, a colour or label it cannot place, a condition). Every
act item is replayed here without a mistake before it is written. Seeds 500-599.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import comma_env
from comma_env.protocol.clock import parse_wait

HERE = Path(__file__).resolve().parent
ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
NTH = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"]
NUM = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
SPOT = {"top_left": "top left", "top_right": "top right", "middle_left": "middle left",
        "middle_right": "middle right", "bottom_left": "bottom left", "bottom_right": "bottom right"}
SHORT = {"top_left": "TL", "top_right": "TR", "bottom_left": "BL", "bottom_right": "BR"}
FOUR = ["top_left", "top_right", "bottom_left", "bottom_right"]
SIX = ["top_left", "top_right", "middle_left", "middle_right", "bottom_left", "bottom_right"]


def fresh(puzzle: str, seed: int, actions: list[str] = ()) -> Any:
    env = comma_env.make(puzzle, solver_view="text")
    env.reset(seed=seed)
    pz = env.unwrapped.puzzle
    for a in actions:
        assert pz.apply(a), (puzzle, seed, a)
    return pz


def advice(pz: Any, notes: dict | None = None) -> list[str]:
    return type(pz).expert_advice(pz.visible_state(), notes or {})


def changes(pz: Any, variants: list[dict]) -> bool:
    """True when the manual's advice differs between the visible state changed by `variants`."""
    vs = pz.visible_state()
    outs = set()
    for v in variants:
        try:
            outs.add(tuple(type(pz).expert_advice({**vs, **v}, {})))
        except (ValueError, IndexError):  # a picture the game never makes
            continue
    return len(outs) > 1


# -- voices: facts are (key, value, sentence) ---------------------------------------------------------
Fact = tuple[str, str, str]


def gpt(facts: list[Fact]) -> str:
    rows = "\n".join(f"- **{k[0].upper() + k[1:]}:** {v}" for k, v, _ in facts)
    return f"Here's what I can see on the module:\n\n{rows}\n\nWhat should I do next?"


def claude(facts: list[Fact]) -> str:
    body = " ".join(s[0].upper() + s[1:] + "." for _, _, s in facts)
    return f"I'll describe what I see as precisely as I can. {body} Let me know what the manual says, and I'll carry it out."


def gemini(facts: list[Fact]) -> str:
    rows = "\n".join(f"*   **{k.title()}**: {v}" for k, v, _ in facts)
    return f"Okay, I've looked at the module carefully. Here's a breakdown:\n\n{rows}\n\nLet me know the next step!"


def llama(facts: list[Fact]) -> str:
    rows = "\n".join(f"* {k}: {v}" for k, v, _ in facts)
    return f"Sure thing! Based on the image, here is a description of the module:\n\n{rows}\n\nI hope this helps! Let me know if you have any other questions."


def nonnative(facts: list[Fact]) -> str:
    return "Hello. In my screen I am seeing: " + "; ".join(s for _, _, s in facts) + ". Please, what I must to do now?"


def hurried(facts: list[Fact]) -> str:
    return ("quick " + " // ".join(f"{k} {v}" for k, v, _ in facts) + " hurry").lower()


VOICES: dict[str, Callable[[list[Fact]], str]] = {"gpt-4o": gpt, "claude": claude, "gemini": gemini,
                                                  "llama": llama, "non-native": nonnative, "hurried": hurried}


def self_correct(facts: list[Fact], index: int, wrong: str, right: str) -> str:
    """One message whose speaker fixes a slip in place."""
    out = [s for _, _, s in facts]
    out[index] = f"{wrong}... no wait, sorry, {right}"
    return ", ".join(out) + ". What now?"


def say(voice: str, step: str) -> str:
    low = step[0].lower() + step[1:]
    return {"gpt-4o": f"Great, thanks! Based on the manual, here's the next step:\n\n**{step}.**\n\nLet me know how it goes!",
            "claude": f"Thanks, that's clear. According to the manual, {low}. Tell me what happens after that.",
            "gemini": f"Alright! Here's what you need to do:\n\n*   **Next step**: {step}\n\nGood luck!",
            "llama": f"Sure thing! Based on the rules in the manual, you should {low}. I hope this helps!",
            "non-native": f"Okay so, you are needing to {low}. After, you tell me.",
            "hurried": f"{low} NOW go go"}[voice]


# -- items ----------------------------------------------------------------------------------------------
class Items:
    def __init__(self, puzzle: str) -> None:
        self.puzzle = puzzle
        self.items: list[dict[str, Any]] = []

    def _id(self, direction: str) -> str:
        n = sum(1 for i in self.items if i["direction"] == direction) + 1
        return f"{self.puzzle}-{direction}-U-{n:03d}"

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
               fix: Callable[[Any, list[Fact]], tuple[int, str, str]]) -> None:
        """Six describe items: five voices and one self-correction."""
        names = list(VOICES)
        for k, s in enumerate(seeds[:6]):
            pz = fresh(self.puzzle, s)
            f = facts(pz, k)
            if k == 5:
                self.describe(s, "self-correct", [self_correct(f, *fix(pz, f))], advice(pz))
            else:
                voice = names[(k + len(self.puzzle)) % 6]
                self.describe(s, voice, [VOICES[voice](f)], advice(pz))

    def steps(self, seeds: list[int], step: Callable[[Any, int], tuple[str, list[str]]],
              wrong: Callable[[Any, int], str], prefix: list[str] = ()) -> None:
        """Six advise items: five voices and one self-correction."""
        names = list(VOICES)
        for k, s in enumerate(seeds[:6]):
            pz = fresh(self.puzzle, s, list(prefix))
            text, actions = step(pz, k)
            if k == 5:
                self.advise(s, "self-correct", [f"{wrong(pz, k)} -- no wait, sorry, scratch that: {text[0].lower() + text[1:]}."],
                            actions, prefix=prefix)
            else:
                voice = names[(k + len(self.puzzle) + 1) % 6]
                self.advise(s, voice, [say(voice, text)], actions, prefix=prefix)

    def write(self) -> None:
        for item in self.items:
            check(item)
        path = HERE / f"{self.puzzle}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items), encoding="utf-8")


def carry(pz: Any, lines: list[str]) -> None:
    for line in lines:
        acts = [line] if (line in pz.valid_actions() or (pz.uses_clock and parse_wait(line) is not None)) \
            else type(pz).expand_advice(line, pz.visible_state())
        for a in acts:
            w = parse_wait(a) if pz.uses_clock else None
            if w is not None:
                pz.elapse(w)
                assert not pz.time_up, a
                continue
            assert a in pz.valid_actions() and pz.apply(a), (a, pz.visible_state())


def check(item: dict[str, Any]) -> None:
    """Act items replay without a mistake (earlier action lines, then the expected outcome)."""
    if "ask" in item["expect"]:
        return
    pz = fresh(item["puzzle"], item["seed"], item.get("prefix", []))
    for message in item["messages"][:-1] if item["direction"] == "describe" else []:
        for line in message.splitlines():
            if line.strip() in pz.valid_actions():
                carry(pz, [line.strip()])
    carry(copy.deepcopy(pz), item["expect"].get("advice") or item["expect"].get("actions"))


def seeds(puzzle: str, keep: Callable[[Any], bool], n: int, start: int) -> list[int]:
    out = [s for s in range(start, 600) if keep(fresh(puzzle, s))][:n]
    assert len(out) == n, (puzzle, out)
    return out


# -- Wire ---------------------------------------------------------------------------------------------
def wire() -> Items:
    it = Items("wire")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        c = vs["wire_colors_top_to_bottom"]
        if k % 3 == 0:
            listing = ("wires (top to bottom)", ", ".join(c), f"the wires from top to bottom are {', '.join(c)}")
        elif k % 3 == 1:
            listing = ("wires bottom up", " / ".join(reversed(c)), f"from the bottom up: {', '.join(reversed(c))}")
        else:
            listing = ("wires", "; ".join(f"#{i + 1} {x}" for i, x in enumerate(c)),
                       ", ".join(f"wire {i + 1} is {x}" for i, x in enumerate(c)))
        return [("wire count", str(len(c)), f"there are {NUM[len(c)]} wires"), listing,
                ("serial", vs["serial_number"], f"the serial number reads {vs['serial_number']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        other = next(x for x in ("yellow", "red", "blue") if x != c[-1])
        return 1, "from the top: " + ", ".join([*c[:-1], other]), f"the last one is {c[-1]}, not {other}"

    it.voices(list(range(500, 506)), facts, fix)
    palette = ("red", "white", "blue", "yellow", "black")

    def last_matters(p: Any) -> bool:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return changes(p, [{"wire_colors_top_to_bottom": [*c[:-1], x]} for x in palette])
    s = seeds("wire", last_matters, 1, 510)[0]
    c = fresh("wire", s).visible_state()["wire_colors_top_to_bottom"]
    it.describe(s, "unplaceable-colour", [claude([("wires", "", f"there are {NUM[len(c)]} wires; from the top {', '.join(c[:-1])}, and the bottom one is a sort of teal"),
                                                  ("serial", "", f"the serial is {fresh('wire', s).visible_state()['serial_number']}")])],
                ask=["last wire", "colour"], why="teal is no wire colour of the game; the last wire decides the cut")

    def second_matters(p: Any) -> bool:
        c = p.visible_state()["wire_colors_top_to_bottom"]
        return len(c) >= 4 and changes(p, [{"wire_colors_top_to_bottom": [c[0], x, *c[2:]]} for x in ("red", "blue")])
    s = seeds("wire", second_matters, 1, 520)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "two-candidates", [gemini([("wires", f"{c[0]}, red/blue (the second looks red in one light and blue in another), {', '.join(c[2:])}", ""),
                                              ("serial", vs["serial_number"], "")])],
                ask=["second wire", "red or blue"], why="the second wire is red or blue, and that decides the cut")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1])
        n = len(c)
        options = [f"Cut the {NTH[j - 1]} wire from the top",
                   "Cut the bottom-most wire" if j == n else ("Cut the second-to-last wire" if j == n - 1 else f"Cut wire #{j}"),
                   f"If the last wire is {c[-1]}, cut wire {j}; otherwise cut wire {1 + (j % n)}",
                   f"Snip number {j} counting down from the top",
                   f"Cut the {c[j - 1]} wire" if c.count(c[j - 1]) == 1 else f"Cut the {ORD[c[:j].count(c[j - 1]) - 1]} {c[j - 1]} wire from the top",
                   f"cut the {ORD[j - 1]} wire"]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Cut the first wire")
    s = seeds("wire", lambda p: "white" in p.visible_state()["wire_colors_top_to_bottom"][1:-1]
              and p.visible_state()["wire_colors_top_to_bottom"].count("white") == 1, 1, 540)[0]
    it.advise(s, "two-candidates", ["Cut the wire next to the white one."], ask=["above or below"],
              why="the white wire has a neighbour on each side")
    s = seeds("wire", lambda p: len(p.visible_state()["wire_colors_top_to_bottom"]) >= 5, 1, 545)[0]
    it.advise(s, "ordinal-no-end", [say("llama", "Cut the second wire from the edge")], ask=["top or bottom", "which end"],
              why="'from the edge' does not say which edge; the second from the top and from the bottom differ")
    return it


# -- Who's on First -------------------------------------------------------------------------------------
def who() -> Items:
    it = Items("who")

    def disp(vs: dict) -> str:
        return "empty (no text at all)" if vs["display_text"] == "" else f"\"{vs['display_text']}\""

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        b = vs["button_labels"]
        d = ("display", disp(vs), f"the display shows {disp(vs)}")
        if k % 3 == 0:
            return [d, *[(f"{r} row", f"{b[r + '_left']} | {b[r + '_right']}", f"the {r} row has {b[r + '_left']} on the left and {b[r + '_right']} on the right")
                         for r in ("top", "middle", "bottom")]]
        if k % 3 == 1:
            return [d, *[(f"{s} column", ", ".join(b[f'{r}_{s}'] for r in ("top", "middle", "bottom")),
                          f"down the {s} column: " + ", ".join(b[f'{r}_{s}'] for r in ("top", "middle", "bottom")))
                         for s in ("left", "right")]]
        return [d, ("buttons (reading order)", ", ".join(b[p] for p in SIX), "the buttons in reading order are " + ", ".join(b[p] for p in SIX))]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        vs = pz.visible_state()
        wrong = "READY" if vs["display_text"] != "READY" else "FIRST"
        return 0, f"the display shows \"{wrong}\"", f"the display shows {disp(vs)}"

    it.voices(list(range(500, 506)), facts, fix)
    from comma_env.puzzles.who import LABELS

    def corner_matters(p: Any) -> bool:
        b = p.visible_state()["button_labels"]
        return changes(p, [{"button_labels": {**b, "bottom_right": x}} for x in LABELS if x not in b.values()
                           or x == b["bottom_right"]])  # the six labels differ
    s = seeds("who", corner_matters, 1, 510)[0]
    vs = fresh("who", s).visible_state()
    b = vs["button_labels"]
    it.describe(s, "unplaceable-label", [llama([("display", disp(vs), ""), *[(SPOT[p], b[p], "") for p in SIX[:5]],
                                                ("bottom right", "(smudged, something like 'UH..' maybe)", "")])],
                ask=["bottom right", "label"], why="the bottom-right label is not read and the rule may need it")

    pairs = [("YOU", "YOUR"), ("THERE", "THEIR"), ("LED", "LEAD"), ("READ", "REED"), ("UR", "YOU'RE")]
    s = seeds("who", lambda p: any(changes(p, [{"display_text": x}, {"display_text": y}]) for x, y in pairs), 1, 515)[0]
    b = fresh("who", s).visible_state()["button_labels"]
    x, y = next((x, y) for x, y in pairs if changes(fresh("who", s), [{"display_text": x}, {"display_text": y}]))
    it.describe(s, "two-candidates", [hurried([("screen", f"{x} or {y} cant tell", ""), ("btns", " ".join(b[p] for p in SIX), "")])],
                ask=["display", f"{x} or {y}"], why="the display is one of two words that lead to different presses")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_labels"]
        a = advice(pz)
        p = a[0][len("press_"):]
        r, side = p.split("_")
        below = SIX[SIX.index(p) - 2] if r != "top" else None
        options = [f"Press {b[p]}",
                   f"Press the {side}-hand button in the {r} row",
                   f"Push the one labelled '{b[p]}' ({SPOT[p]})",
                   f"Press the button just below {b[below]}" if below else f"Press the {SPOT[p]} button",
                   f"Hit the {['first', 'second', 'third'][['top', 'middle', 'bottom'].index(r)]} button in the {side} column",
                   f"press {b[p].lower()}"]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Press the top left button")
    s = seeds("who", lambda p: True, 1, 540)[0]
    it.advise(s, "row-only", [say("gemini", "Press the button in the bottom row")], ask=["left or right"],
              why="the bottom row has two buttons")
    from comma_env.puzzles.who import LABELS as L2
    b = fresh("who", 541).visible_state()["button_labels"]
    missing = next(w for w in ("WAIT", "OKAY", "SURE", "NEXT", "DONE", "LIKE") if w not in b.values() and w in L2)
    it.advise(541, "not-there", [f"Press the one that says {missing}, it's in the middle somewhere"], ask=[missing, "not there"],
              why="no button shows that word, and the middle row has two buttons")
    return it


# -- Keypad ---------------------------------------------------------------------------------------------
def keypad() -> Items:
    from comma_env.agents.natural.symbols import SYMBOL_WORDS
    it = Items("keypad")

    def word(sym: str, k: int) -> str:
        words = SYMBOL_WORDS.get(sym, (sym,))
        return words[k % len(words)] if k % 2 else sym

    def facts(pz: Any, k: int) -> list[Fact]:
        b = pz.visible_state()["button_symbols"]
        if k % 2:
            return [(SPOT[p], word(b[p], k), f"the {SPOT[p]} key has a {word(b[p], k)}") for p in FOUR]
        return [("keys (reading order)", " ".join(b[p] for p in FOUR), "the keys read " + " ".join(b[p] for p in FOUR) + " left to right, top row first")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        b = pz.visible_state()["button_symbols"]
        return 0, "the keys read " + " ".join(b[p] for p in [FOUR[1], FOUR[0], *FOUR[2:]]), \
            "the keys read " + " ".join(b[p] for p in FOUR) + " (I swapped the first two)"

    it.voices(list(range(500, 506)), facts, fix)

    def corner_matters(p: Any) -> bool:
        b = p.visible_state()["button_symbols"]
        return changes(p, [{"button_symbols": {**b, "bottom_left": x}} for x in SYMBOL_WORDS if x not in b.values()])
    s = seeds("keypad", corner_matters, 1, 510)[0]
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.describe(s, "unplaceable-symbol", [gpt([("top left", b["top_left"], ""), ("top right", b["top_right"], ""),
                                               ("bottom left", "a squiggly shape I can't name, like a snake", ""),
                                               ("bottom right", b["bottom_right"], "")])],
                ask=["bottom left", "symbol"], why="a symbol it cannot place")
    s = 515
    b = fresh("keypad", s).visible_state()["button_symbols"]
    it.describe(s, "no-positions", [claude([("", "", "the four symbols are " + ", ".join(SYMBOL_WORDS[x][0] for x in sorted(b.values()))
                                             + ", though I didn't note which is where")])],
                ask=["where", "positions"], why="symbols without positions")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_symbols"]
        a = advice(pz)
        ps = [x[len("press_"):] for x in a]
        options = ["Press " + ", ".join(SHORT[p] for p in ps),
                   "Go " + " > ".join(SYMBOL_WORDS[b[p]][0] for p in ps),
                   "Press them in this order: " + "; ".join(f"{i + 1}) {SPOT[p]}" for i, p in enumerate(ps)),
                   "Start with " + b[ps[0]] + ", then " + b[ps[1]] + ", then " + b[ps[2]] + ", and finish on " + b[ps[3]],
                   "Order is " + ", ".join(f"the {SYMBOL_WORDS[b[p]][-1]}" for p in ps),
                   "press " + " ".join(SHORT[p] for p in ps).lower()]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Press " + ", ".join(SHORT[p] for p in FOUR))
    it.advise(540, "rest-unordered", [say("claude", "Press the " + SYMBOL_WORDS[fresh("keypad", 540).visible_state()["button_symbols"]["top_left"]][0]
                                          + " first, then the other three")], ask=["order", "after"],
              why="the order after the first key is not given")
    s = seeds("keypad", lambda p: {"★", "☆"} <= set(p.visible_state()["button_symbols"].values()), 1, 541)[0]
    it.advise(s, "two-candidates", ["Press the star first, then the others in the usual order"], ask=["which star"],
              why="a filled and a hollow star")
    return it


# -- LED ------------------------------------------------------------------------------------------------
def led() -> Items:
    from comma_env.puzzles.led import MULTIPLIERS
    it = Items("led")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        b = vs["button_letters"]
        colour = vs["led_colors_left_to_right"][vs["stage_number"] - 1]
        head = [("stage", f"{vs['stage_number']}", f"we're on stage {vs['stage_number']}"),
                ("LED", colour, f"the light is {colour}")]
        if k % 2:
            return [*head, ("letters", f"{b['top_left']}{b['top_right']} over {b['bottom_left']}{b['bottom_right']}",
                            f"the top row reads {b['top_left']} {b['top_right']} and the bottom row {b['bottom_left']} {b['bottom_right']}")]
        return [*head, *[(SPOT[p], b[p], f"{SPOT[p]} is {b[p]}") for p in FOUR]]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        vs = pz.visible_state()
        colour = vs["led_colors_left_to_right"][0]
        wrong = "green" if colour != "green" else "blue"
        return 1, f"the light is {wrong}", f"the light is {colour}"

    it.voices(list(range(500, 506)), facts, fix)

    def colour_matters(p: Any) -> bool:
        vs = p.visible_state()
        c = vs["led_colors_left_to_right"]
        return changes(p, [{"led_colors_left_to_right": [x, *c[1:]]} for x in ("blue", "green")])
    s = seeds("led", colour_matters, 1, 510)[0]
    b = fresh("led", s).visible_state()["button_letters"]
    it.describe(s, "unplaceable-colour", [nonnative([("", "", "stage one"), ("", "", "the lamp is a color like turquoise, between blue and green"),
                                                     ("", "", " ".join(f"{SPOT[p]} {b[p]}" for p in FOUR))])],
                ask=["colour", "blue or green"], why="turquoise is between two LED colours that lead to different buttons")
    vs = fresh("led", 515).visible_state()
    b = vs["button_letters"]
    it.describe(515, "letter-missing", [hurried([("stg", "1", ""), ("led", vs["led_colors_left_to_right"][0], ""),
                                                 ("letters", f"{b['top_left']} ? {b['bottom_left']} {b['bottom_right']}", "")])],
                ask=["top right", "letter"], why="a letter is not given and its position is only implied")
    del MULTIPLIERS

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        b = pz.visible_state()["button_letters"]
        a = advice(pz)
        p = a[0][len("press_"):]
        options = [f"Press {b[p]}", f"Press the {SPOT[p]} key", f"Press {SHORT[p]} (the letter {b[p]})",
                   f"Hit the button with the {b[p]} on it", f"Tap the {p.split('_')[1]} one on the {p.split('_')[0]} row",
                   f"press {b[p].lower()}"]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Press the top left")
    it.advise(540, "column-only", [say("gpt-4o", "Press the letter on the left")], ask=["top or bottom"],
              why="two letters on the left")
    b = fresh("led", 541).visible_state()["button_letters"]
    it.advise(541, "two-candidates", [f"Press {b['top_left']}, or {b['bottom_right']} if that doesn't look right"], ask=["which"],
              why="two buttons offered")
    return it


# -- Memory ---------------------------------------------------------------------------------------------
def memory() -> Items:
    it = Items("memory")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        labels = vs["button_labels_left_to_right"]
        d = vs["display_number"]
        if k % 2:
            return [("display", str(d), f"the big screen shows {NUM[d]}"),
                    ("buttons (left to right)", " ".join(map(str, labels)), "the buttons left to right say " + ", ".join(map(str, labels)))]
        return [("stage", "1 of 5", "this is stage one"), ("display", str(d), f"the display is {d}"),
                ("labels", ", ".join(f"pos{i + 1}={x}" for i, x in enumerate(labels)),
                 ", ".join(f"position {i + 1} is {x}" for i, x in enumerate(labels)))]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        d = pz.visible_state()["display_number"]
        return 0, f"the big screen shows {NUM[d % 4 + 1]}", f"it shows {NUM[d]}"

    it.voices(list(range(500, 506)), facts, fix)
    # stage 2 with display 1 goes by label: labels in an unknown order matter
    s = next(s for s in range(510, 600) if fresh("memory", s, advice(fresh("memory", s))).visible_state()["display_number"] == 1)
    first = advice(fresh("memory", s))
    vs = fresh("memory", s).visible_state()
    it.describe(s, "no-positions", [f"Stage 1: display {vs['display_number']}, buttons {' '.join(map(str, vs['button_labels_left_to_right']))}",
                                    "\n".join(first), claude([("", "", "now the display says 1"),
                                                              ("", "", "the buttons are 1, 2, 3 and 4 in some order I didn't write down")])],
                ask=["labels", "order"], why="stage 2 with display 1 presses the label 4, whose position is not given")
    vs = fresh("memory", 515).visible_state()
    it.describe(515, "two-candidates", [gemini([("display", "1, or possibly a 4 (the top is cut off)", ""),
                                               ("buttons", " ".join(map(str, vs["button_labels_left_to_right"])), "")])],
                ask=["display"], why="two readings of the display")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        labels = pz.visible_state()["button_labels_left_to_right"]
        a = advice(pz)
        j = int(a[0].rsplit("_", 1)[1])
        options = [f"Press position {j}", f"Press the button labelled {labels[j - 1]}",
                   "Press the rightmost button" if j == 4 else ("Press the leftmost button" if j == 1 else f"Press the {NTH[4 - j]} button from the right"),
                   f"Press the {ORD[j - 1]} button from the left", f"Hit the one with {NUM[labels[j - 1]]} written on it",
                   f"press pos {j}"]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Press position 1")
    it.advise(540, "ordinal-no-end", ["Press the second one from the side."], ask=["left or right"],
              why="'from the side' does not say which side")
    s = next(s for s in range(541, 600) if fresh("memory", s).visible_state()["button_labels_left_to_right"].index(3) != 2)
    it.advise(s, "label-or-position", [say("hurried", "press 3")], ask=["label or position"],
              why="the label 3 is not in position 3")
    return it


# -- Password -------------------------------------------------------------------------------------------
def password() -> Items:
    it = Items("password")

    def facts(pz: Any, k: int) -> list[Fact]:
        letters = pz.visible_state()["letters_shown_left_to_right"]
        if k % 2:
            return [(f"window {i + 1}", x, f"window {i + 1} has {x}") for i, x in enumerate(letters)]
        return [("letters", "".join(letters), "the letters read " + "-".join(letters))]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        letters = pz.visible_state()["letters_shown_left_to_right"]
        return 0, "the letters read " + "-".join(["Z", *letters[1:]]), f"the first one is {letters[0]}, not Z"

    it.voices(list(range(500, 506)), facts, fix)
    letters = fresh("password", 510).visible_state()["letters_shown_left_to_right"]
    it.describe(510, "four-windows", [llama([("letters", " ".join(letters[:4]), ""), ("last window", "hidden behind my thumb", "")])],
                ask=["fifth", "window 5"], why="only four of five windows given")
    it.describe(511, "no-letters", [nonnative([("", "", "there are five windows with letters and arrows up and down"),
                                                ("", "", "and a button for submit")])], ask=["letters"], why="no letters given")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        w = k % 5 + 1
        v = (k + 2) % 5 + 1
        options = [(f"Spin window {w} up three times", [f"cycle_up_{w}"] * 3),
                   (f"Press the down arrow under the {NTH[w - 1]} window twice", [f"cycle_down_{w}"] * 2),
                   ("Cycle every window up by one", [f"cycle_up_{i}" for i in range(1, 6)]),
                   (f"Click up on window {w}, then down on window {v}", [f"cycle_up_{w}", f"cycle_down_{v}"]),
                   (f"Scroll the {ORD[w - 1]} letter down one notch", [f"cycle_down_{w}"]),
                   (f"window {w} up x2", [f"cycle_up_{w}"] * 2)]
        return options[k]

    it.steps(list(range(530, 536)), step, lambda pz, k: "Spin window 5 down once")
    it.advise(540, "no-direction", [say("gpt-4o", "Cycle the middle window twice")], ask=["up or down"],
              why="no direction")
    it.advise(541, "two-candidates", ["Press up on window 2 -- or 3, one of the two, I lost track."], ask=["2 or 3", "which window"],
              why="two windows offered")
    return it


# -- Maze -----------------------------------------------------------------------------------------------
def runs(actions: list[str], k: int) -> list[str]:
    out, i = [], 0
    while i < len(actions):
        a = actions[i]
        n = 1
        while i + n < len(actions) and actions[i + n] == a and a.startswith("move"):
            n += 1
        words = {"turn_left": ["turn left", "rotate left", "do a left turn"][k % 3],
                 "turn_right": ["turn right", "rotate right", "do a right turn"][k % 3],
                 "press_button": ["press the button", "hit the button", "push the button"][k % 3],
                 "move_forward": [f"forward {n}", f"move ahead {NUM[n]} square{'s' * (n > 1)}", f"go forward x{n}"][k % 3],
                 "move_backward": [f"back {n}", f"reverse {NUM[n]} square{'s' * (n > 1)}", f"go backward x{n}"][k % 3]}[a]
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
        grid = "\n" + "\n".join(rows) if k % 2 else " / ".join(r.replace("#", "W").replace(".", "_") for r in rows) + " (W wall, _ open)"
        return [("maze (# wall, . floor, top row first)" if k % 2 else "rows", grid, f"the maze rows from the top are {grid}"),
                ("mouse", f"row {m[0]}, column {m[1]}, facing {vs['mouse_facing']}", f"the mouse sits at row {m[0]} column {m[1]} looking {vs['mouse_facing']}"),
                ("spheres", ", ".join(f"{c} ({p[0]},{p[1]})" for c, p in sph.items()), "the spheres are " + ", ".join(f"{c} at row {p[0]} col {p[1]}" for c, p in sph.items())),
                ("torus", vs["torus_color"], f"the torus is {vs['torus_color']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        t = pz.visible_state()["torus_color"]
        wrong = "red" if t != "red" else "blue"
        return 3, f"the torus is {wrong}", f"the torus is {t}"

    it.voices(list(range(500, 506)), facts, fix)
    f = facts(fresh("maze", 510), 1)
    it.describe(510, "unplaceable-colour", [gpt([*f[:3], ("torus", "teal-ish, between blue and green", "")])],
                ask=["torus", "blue or green"], why="the torus colour picks the goal sphere")
    f = facts(fresh("maze", 511), 0)
    m = fresh("maze", 511).visible_state()["mouse_row_column"]
    it.describe(511, "vague-position", [claude([f[0], ("", "", f"the mouse is somewhere around row {m[0]}, maybe one off, facing {fresh('maze', 511).visible_state()['mouse_facing']}"), *f[2:]])],
                ask=["mouse", "where"], why="the mouse's square is not given exactly")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        words = runs(a, k)
        joint = [", then ".join(words), " -> ".join(words), "; ".join(words)][k % 3]
        return joint[0].upper() + joint[1:], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Turn right")
    it.advise(540, "no-count", [say("gemini", "Move forward until you reach the junction, then turn")], ask=["how many", "left or right"],
              why="no count and no side")
    it.advise(541, "no-side", ["go 2, turn, go 3, press"], ask=["left or right"], why="which way to turn")
    return it


# -- Color ----------------------------------------------------------------------------------------------
def color() -> Items:
    it = Items("color")

    def facts(pz: Any, k: int) -> list[Fact]:
        g = pz.visible_state()["square_colors_by_row"]
        if k % 3 == 0:
            return [(f"row {i + 1}", " ".join(row), f"row {i + 1} is {', '.join(row)}") for i, row in enumerate(g)]
        if k % 3 == 1:
            return [("grid", " | ".join(",".join(x[0].upper() for x in row) for row in g) + " (R red, B blue, G green, Y yellow, M magenta)",
                     "top to bottom, using initials (R red, B blue, G green, Y yellow, M magenta): " + " | ".join("".join(x[0].upper() for x in row) for row in g))]
        return [(f"{ORD[i]} row", ", ".join(row), f"the {ORD[i]} row goes {', '.join(row)}") for i, row in enumerate(g)]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        g = pz.visible_state()["square_colors_by_row"]
        wrong = "green" if g[2][2] != "green" else "blue"
        row = [*g[2][:2], wrong, g[2][3]]
        return 2, f"row 3 is {', '.join(row)}", f"the third square of row 3 is {g[2][2]}, not {wrong}"

    it.voices(list(range(500, 506)), facts, fix)
    from comma_env.puzzles.color import COLORS

    def square_matters(p: Any) -> bool:
        g = p.visible_state()["square_colors_by_row"]
        return changes(p, [{"square_colors_by_row": [g[0], [*g[1][:3], x], *g[2:]]} for x in COLORS])
    s = seeds("color", square_matters, 1, 510)[0]
    g = fresh("color", s).visible_state()["square_colors_by_row"]
    rows = [" ".join(r) for r in g]
    rows[1] = " ".join([*g[1][:3], "orange"])
    it.describe(s, "unplaceable-colour", [hurried([(f"r{i + 1}", r, "") for i, r in enumerate(rows)])],
                ask=["orange", "row 2"], why="orange is no colour of this grid; the square is unknown")
    g = fresh("color", 511).visible_state()["square_colors_by_row"]
    it.describe(511, "order-unsure", ["Sure thing! Based on the image, the sixteen squares are " + ", ".join(c for row in g for c in row)
                                      + ". I hope this helps! (I'm not sure in which order I read them, I jumped around a bit.)"],
                ask=["rows", "order", "where"], why="sixteen colours in an order the speaker is not sure of")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        cells = [tuple(map(int, x.split("_")[1:])) for x in a]
        options = ["Press " + ", ".join(f"R{r}C{c}" for r, c in cells),
                   "Tap " + " then ".join(f"row {r}, column {c}" for r, c in cells),
                   "Press " + " and ".join(f"({r}, {c})" for r, c in cells) + " -- that's (row, column)",
                   "Click " + ", ".join(f"the {NTH[c - 1]} square in row {r}" for r, c in cells),
                   "Select " + "; ".join(f"row {NUM[r]} col {NUM[c]}" for r, c in cells),
                   "press " + " ".join(f"r{r}c{c}" for r, c in cells)]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Press R1C1")
    it.advise(540, "corner", [say("non-native", "Press the square in the corner")], ask=["which corner"],
              why="four corners")
    it.advise(541, "no-row", ["Press the third square."], ask=["which row"], why="no row given")
    return it


# -- ATM ------------------------------------------------------------------------------------------------
def atm() -> Items:
    it = Items("atm")
    rule = "If your balance is at least $500, withdraw $300; otherwise deposit $100."

    def login(seed: int, which: str) -> list[str]:
        pin = fresh("atm", seed).visible_state()["pin_on_card"]
        return [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]

    names = list(VOICES)
    menu: list[Fact] = [("screen", "main menu: choose a transaction", "the screen asks me to choose a transaction"),
                        ("buttons", "Deposit, Withdraw", "the two options are Deposit and Withdraw"),
                        ("card", "in hand (PIN printed on it, keeping it private)", "I have my card with the PIN on it")]
    for k, s in enumerate(range(500, 503)):
        a = advice(fresh("atm", s))
        other = ["select_deposit" if a[0] == "select_withdraw" else "select_withdraw", *a[1:]]
        voice = names[k]
        it.describe(s, voice, [VOICES[voice](menu)], a, alternatives=[other])
    for k, s in enumerate(range(503, 506)):
        prefix = login(s, ("withdraw", "deposit")[k % 2])
        pz = fresh("atm", s, prefix)
        bal = float(pz.visible_state()["balance"].strip("$").replace(",", ""))
        side = ["over the 500 mark", "north of $500", "comfortably above five hundred"][k] if bal >= 500 else \
            ["below five hundred", "short of $500", "less than 500 bucks"][k]
        wrong = "the balance is under 500" if bal >= 500 else "the balance is over 500"
        voice = names[k + 3]
        f = [("screen", "balance", "it is showing my balance now"), ("balance", f"{side} (not sharing the exact figure)", f"the balance is {side}"),
             ("buttons", "Continue, Back", "there are Continue and Back buttons")]
        text = VOICES[voice](f) if k < 2 else self_correct(f, 1, wrong, f"the balance is {side}")
        it.describe(s, voice if k < 2 else "self-correct", ["\n".join(prefix), text], type(pz).expand_advice(rule, pz.visible_state()))
    it.describe(510, "boundary", ["\n".join(login(510, "withdraw")), gemini([("balance", "right around $500, give or take", "")])],
                ask=["500", "at least"], why="'around $500' does not settle the rule")
    it.describe(511, "condition-skipped", ["\n".join(login(511, "deposit")), claude([("", "", "the balance screen is up"),
                                                                                     ("", "", "it says something about funds available but I skipped reading the number")])],
                ask=["500", "balance"], why="no comparison with $500")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        which = ("withdraw", "deposit")[k % 2]
        pin = pz.visible_state()["pin_on_card"]
        acts = [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]
        options = [f"Select {which.title()}, key in the PIN from your card, then hit Enter",
                   f"Choose {which}; after that type your four-digit PIN and confirm",
                   f"Go with {which.upper()}, punch in your PIN, press enter",
                   f"Tap '{which.title()}', enter the PIN printed on the card and press the Enter key",
                   f"Pick the {which} option, then the PIN, then Enter",
                   f"{which} -> pin -> enter"]
        return options[k], acts

    it.steps(list(range(530, 536)), step, lambda pz, k: "Select deposit")
    it.advise(540, "no-transaction", [say("llama", "Choose a transaction and continue")], ask=["deposit or withdraw"],
              why="which transaction")
    it.advise(541, "two-candidates", ["Withdraw... actually maybe deposit is safer, your call."], ask=["deposit or withdraw"],
              why="both offered")
    return it


# -- Telehealth -----------------------------------------------------------------------------------------
DIAG = {"bcc": ["basal cell carcinoma", "BCC"], "scc": ["squamous cell carcinoma", "SCC"], "ack": ["actinic keratosis", "AK"],
        "sek": ["seborrheic keratosis", "seb K"], "mel": ["melanoma", "melanoma"], "nev": ["benign nevus", "ordinary mole"]}
TREAT = {"surgery": ["surgery", "surgical excision"], "cryotherapy": ["cryotherapy", "freezing it off"],
         "none": ["no treatment", "leave it alone, no treatment"]}


def telehealth() -> Items:
    it = Items("telehealth")

    def facts(pz: Any, k: int, drop: str = "") -> list[Fact]:
        vs = pz.visible_state()
        f = {"colours": ("colours", ", ".join(vs["lesion_colors"]), f"it's {' and '.join(vs['lesion_colors'])}"),
             "shape": ("shape", vs["lesion_shape"], f"{vs['lesion_shape']} in shape"),
             "border": ("border", vs["lesion_border"], f"the border is {vs['lesion_border']}"),
             "surface": ("surface", vs["lesion_surface"], f"the surface looks {vs['lesion_surface']}"),
             "vessels": ("vessels", "visible" if vs["visible_blood_vessels"] else "none", "blood vessels are visible" if vs["visible_blood_vessels"] else "no blood vessels are visible"),
             "size": ("diameter", f"{vs['diameter_mm']} mm", f"it measures {vs['diameter_mm']} mm across"),
             "age": ("age", str(vs["age"]), f"the patient is {vs['age']}"),
             "type": ("Fitzpatrick type", vs["skin_type"], f"skin type {vs['skin_type']}"),
             "site": ("location", vs["body_region"], f"it's on the {vs['body_region']}"),
             "itch": ("itchy", vs["itch"], "it itches" if vs["itch"] == "yes" else "no itching"),
             "bleed": ("bleeds", vs["bleed"], "it bleeds" if vs["bleed"] == "yes" else "it doesn't bleed"),
             "grew": ("grew recently", vs["grew"], "it has grown lately" if vs["grew"] == "yes" else "it hasn't grown"),
             "changed": ("changed recently", vs["changed"], "it has changed lately" if vs["changed"] == "yes" else "it hasn't changed"),
             "raised": ("raised", vs["elevation"], "it's raised" if vs["elevation"] == "yes" else "it's flat")}
        keys = list(f)[::-1] if k % 2 else list(f)
        return [f[x] for x in keys if x != drop]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        age = pz.visible_state()["age"]
        i = next(i for i, x in enumerate(f) if x[0] == "age")
        return i, "the patient is 19", f"the patient is {age}"

    it.voices(list(range(500, 506)), facts, fix)

    def needs(p: Any, key: str, values: list[Any]) -> bool:
        return changes(p, [{key: x} for x in values])
    surfaces = ["pearly, translucent", "waxy, stuck-on", "dry, rough scales", "smooth"]
    s = seeds("telehealth", lambda p: needs(p, "lesion_surface", surfaces), 1, 510)[0]
    f = [x if x[0] != "surface" else ("surface", "kind of shiny? can't tell if pearly or just smooth", "the surface is shiny, pearly or just smooth, I can't tell")
         for x in facts(fresh("telehealth", s), 0)]
    it.describe(s, "two-candidates", [gpt(f)], ask=["surface", "pearly"], why="the surface decides the diagnosis here")
    s = seeds("telehealth", lambda p: needs(p, "diameter_mm", [3.0, 12.0]), 1, 515)[0]
    it.describe(s, "missing-size", [hurried(facts(fresh("telehealth", s), 1, drop="size"))], ask=["diameter", "size"],
                why="the diameter decides the treatment here")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        d, t = a[0].split("_", 1)[1], a[1].split("_", 1)[1]
        options = [f"Diagnose {DIAG[d][0]} and treat with {TREAT[t][0]}",
                   f"This is {DIAG[d][1]}. Management: {TREAT[t][1]}",
                   f"Record {DIAG[d][0]}; treatment is {TREAT[t][0]}",
                   f"The lesion is a {DIAG[d][0]}, so go for {TREAT[t][1]}",
                   f"Log the diagnosis as {DIAG[d][1]} and then pick {TREAT[t][0]}",
                   f"dx {DIAG[d][1]}, tx {TREAT[t][0]}"]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Diagnose actinic keratosis")
    it.advise(540, "two-candidates", [say("claude", "Record a carcinoma and remove it surgically")], ask=["basal or squamous", "which"],
              why="two carcinomas")
    it.advise(541, "no-diagnosis", ["Treat it with cryotherapy."], ask=["diagnosis"], why="no diagnosis named, and the diagnosis comes first")
    return it


# -- Button ---------------------------------------------------------------------------------------------
def button() -> Items:
    it = Items("button")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        return [("button colour", vs["button_color"], f"the button is {vs['button_color']}"),
                ("text on it", vs["button_label"], f"it reads {vs['button_label']}"),
                ("timer", vs["timer"], f"the clock says {vs['timer']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        c = pz.visible_state()["button_color"]
        wrong = "red" if c != "red" else "blue"
        return 0, f"the button is {wrong}", f"it's {c}"

    holds = seeds("button", lambda p: advice(p) == ["hold"], 30, 500)
    base = list(range(500, 504))
    it.voices(base + holds[:2], facts, fix)
    # the last two describe act items above used hold seeds; add two held-button items instead of more voices
    for k, s in enumerate(holds[2:4]):
        pz = fresh("button", s, ["hold"])
        vs = pz.visible_state()
        voice = ["gemini", "non-native"][k]
        it.describe(s, f"held-{voice}", ["hold", VOICES[voice]([("holding", "yes", "I am holding it down"),
                                                                ("strip", vs["strip_color"], f"the strip next to it glows {vs['strip_color']}"),
                                                                ("timer", vs["timer"], f"the timer is {vs['timer']}")])], advice(pz))
    colours = ("red", "blue", "yellow", "white", "black")
    s = seeds("button", lambda p: changes(p, [{"button_color": c} for c in colours]), 1, 540)[0]
    vs = fresh("button", s).visible_state()
    it.describe(s, "unplaceable-colour", [claude([("", "", "the button is a sort of purplish colour, I can't really name it"),
                                                  ("", "", f"it reads {vs['button_label']}")])],
                ask=["colour"], why="purple is no button colour; the colour decides tap or hold")
    pz = fresh("button", holds[4], ["hold"])
    it.describe(holds[4], "strip-unsure", ["hold", hurried([("holding", "yes", ""), ("strip", "white or yellow, glare", ""), ("timer", pz.visible_state()["timer"], "")])],
                ask=["strip", "white or yellow"], why="white and yellow strips release on different digits")

    taps = seeds("button", lambda p: advice(p) == ["tap"], 3, 530)
    for k, (s, text, _) in enumerate([(taps[0], "Press and release it right away", []), (holds[5], "Press it and keep it pressed", []),
                                        (taps[1], "Quick tap", [])]):
        voice = list(VOICES)[k]
        it.advise(s, voice, [say(voice, text)], advice(fresh("button", s)))
    for k, s in enumerate(holds[6:9]):
        pz = fresh("button", s, ["hold"])
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        text = [f"Release when any digit of the countdown is a {d}", f"let go on a {NUM[d]}",
                f"Keep holding... and release once you see a {d} anywhere on the timer"][k]
        style = ["llama", "hurried", "non-native"][k]
        it.advise(s, style, [say(style, text) if k != 1 else text], type(pz).expand_advice(line, pz.visible_state()), prefix=["hold"])
    it.advise(holds[9], "no-digit", [say("gpt-4o", "Keep holding and release at the right moment")], ask=["digit", "when"],
              why="the release digit is not given", prefix=["hold"])
    it.advise(holds[10], "two-candidates", ["let go on a 1... or 4? one of those"], ask=["1 or 4", "which"], why="two digits",
              prefix=["hold"])
    return it


# -- Dog ------------------------------------------------------------------------------------------------
def dog() -> Items:
    it = Items("dog")

    def facts(pz: Any, k: int) -> list[Fact]:
        vs = pz.visible_state()
        dogs = vs["dogs"]
        if k % 2:
            return [("dogs", f"{len(dogs)} ({', '.join(d['coat'] + ' ' + d['pose'] for d in dogs) or 'none'})",
                     f"I count {NUM[len(dogs)]} dogs"), ("timer", vs["timer"], f"the timer shows {vs['timer']}")]
        return [*[(f"dog {i + 1}", f"{d['coat']}, {d['pose']}", f"dog {i + 1} is {d['coat']} and {d['pose']}") for i, d in enumerate(dogs)],
                ("timer", vs["timer"], f"the clock is at {vs['timer']}")]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        n = len(pz.visible_state()["dogs"])
        return 0, f"I count {NUM[n + 1]} dogs", f"I count {NUM[n]} dogs"

    it.voices(seeds("dog", lambda p: p.visible_state()["dogs"] != [], 6, 500), facts, fix)
    it.describe(510, "two-candidates", [gpt([("dogs", "2 or 3 (one may be a shadow behind the bench)", ""), ("timer", fresh("dog", 510).visible_state()["timer"], "")])],
                ask=["how many"], why="two counts")
    it.describe(511, "vague-count", [nonnative([("", "", "there are some dogs in the park, a few of them"),
                                                ("", "", f"time is {fresh('dog', 511).visible_state()['timer']}")])],
                ask=["how many"], why="no count")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        line = advice(pz)[0]
        d = int(line.rsplit(" ", 1)[1])
        options = [f"Submit when the seconds digit is {d}", f"Hit submit on a {NUM[d]} (last digit of the clock)",
                   f"Wait for the timer to end in {d}, then submit", f"Submit as soon as the final digit reads {d}",
                   f"Press submit when the rightmost digit of the timer is a {d}", f"submit on {d}"]
        return options[k], type(pz).expand_advice(line, pz.visible_state())

    it.steps(list(range(530, 536)), step, lambda pz, k: "Submit when it ends in 0")
    it.advise(540, "two-candidates", [say("hurried", "submit on 3 or 4")], ask=["3 or 4", "which"], why="two digits")
    it.advise(541, "no-digit", ["Submit when the time is right."], ask=["digit", "when"], why="no digit")
    return it


# -- Sound ----------------------------------------------------------------------------------------------
WORDS = {
    "Car engine": "a low throbbing rumble, like a motor running",
    "Birdsong": "tiny high chirps that swoop around with short breaks",
    "Police siren": "a loud wailing that climbs and falls about once per second",
    "Dripping tap": "short plinks at an even pace, several each second",
    "Ticking clock": "dry little clicks, two every second, one louder than the other",
    "Heartbeat": "deep soft thuds in pairs, lub-dub, a bit faster than once per second",
    "Telephone": "a buzzy two-tone ring, half a second on then quiet, repeating",
    "Doorbell": "two bell notes, the second one lower, ding then dong, then it fades",
    "Rain": "a gentle hiss full of tiny random taps",
    "Whistle": "one long piercing pure note that stays the same",
    "Cow": "a long deep moo that rises slightly and fades",
    "Extractor fan": "a steady whoosh of air with a slight flutter",
}
SYMBOLS = {"press_dollar": ["$", "dollar sign", "dollar"], "press_star": ["*", "asterisk", "star"],
           "press_ampersand": ["&", "and-sign", "ampersand"], "press_hash": ["#", "pound sign", "hash"]}


def sound() -> Items:
    from comma_env.audio.synth import SIGNATURES
    it = Items("sound")
    name_of = {s.description: s.name for s in SIGNATURES}

    def facts(pz: Any, k: int) -> list[Fact]:
        return [("sound", WORDS[name_of[pz.visible_state()["sound_heard"]]], "what I hear is " + WORDS[name_of[pz.visible_state()["sound_heard"]]])]

    def fix(pz: Any, f: list[Fact]) -> tuple[int, str, str]:
        name = name_of[pz.visible_state()["sound_heard"]]
        other = "Cow" if name != "Cow" else "Doorbell"
        return 0, "what I hear is " + WORDS[other], "what I hear is " + WORDS[name]

    it.voices(list(range(500, 506)), facts, fix)
    it.describe(510, "two-candidates", [gemini([("sound", "a steady mechanical hum; could be an engine or a fan, hard to say", "")])],
                ask=["engine or fan", "throb"], why="two sounds offered")
    it.describe(511, "vague", [hurried([("sound", "some noise idk", "")])], ask=["describe", "sound"], why="fits nothing")

    def step(pz: Any, k: int) -> tuple[str, list[str]]:
        a = advice(pz)
        names = [SYMBOLS[x][k % 3] for x in a]
        options = ["Enter " + " ".join(names), "The code is " + ", ".join(names), "Press " + " -> ".join(names),
                   f"Type {names[0]}, then {names[1]}, then {names[2]}, then {names[3]}", "Key in: " + "; ".join(names),
                   " ".join(names)]
        return options[k], a

    it.steps(list(range(530, 536)), step, lambda pz, k: "Enter $ $ $ $")
    it.advise(540, "half-code", [say("llama", "enter the first two symbols of the code and I'll send the rest")], ask=["code", "which symbols"],
              why="no symbols named")
    it.advise(541, "two-candidates", ["Press hash, then star or dollar, not sure which, then the ampersand."], ask=["which"],
              why="two symbols offered")
    return it


PUZZLES = (wire, who, keypad, led, memory, password, maze, color, atm, telehealth, button, dog, sound)


def main() -> None:
    for build in PUZZLES:
        build().write()


if __name__ == "__main__":
    main()
