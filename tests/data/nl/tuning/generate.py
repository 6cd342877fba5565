# ruff: noqa: E501  (item text reads better unbroken)
"""Writes the tuning set (issue 56, second round): descriptions and advice in voices the dev set
lacks, for all 13 puzzles, with the expected outcome taken from the manual (each puzzle's
`expert_advice` on the true state, or the action the words name on the true picture).

    python tests/data/nl/tuning/generate.py   # rewrites tests/data/nl/tuning/<puzzle>.jsonl

Voices: a terse gamer, a verbose teacher, a non-native speaker, a model with markdown and
hedging, and a person correcting themselves; ask items are written ambiguous or incomplete on
purpose, and each says why. Seeds 400-499 (dev uses 100-299).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import comma_env

HERE = Path(__file__).resolve().parent
SEEDS = range(400, 500)
ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
NUM = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
POS = {"top_left": "top left", "top_right": "top right", "middle_left": "middle left",
       "middle_right": "middle right", "bottom_left": "bottom left", "bottom_right": "bottom right"}


def fresh(puzzle: str, seed: int, actions: list[str] = ()) -> Any:
    env = comma_env.make(puzzle, solver_view="text")
    env.reset(seed=seed)
    pz = env.unwrapped.puzzle
    for a in actions:
        assert pz.apply(a), (puzzle, seed, a)
    return pz


def advice(pz: Any, notes: dict | None = None) -> list[str]:
    return type(pz).expert_advice(pz.visible_state(), {} if notes is None else notes)


def expand(pz: Any, line: str) -> list[str]:
    return type(pz).expand_advice(line, pz.visible_state())


# -- voices -----------------------------------------------------------------------------------------
def gamer(facts: list[str]) -> str:
    text = ", ".join(facts) + " wat do"
    return "".join(ch.lower() if ch.isascii() else ch for ch in text)


def teacher(facts: list[str]) -> str:
    body = " ".join(f[0].upper() + f[1:] + "." for f in facts)
    return ("Good morning! Let me walk you through exactly what I can see, one detail at a time, so that we "
            f"understand each other perfectly. {body} I hope that is clear; please take your time with the manual.")


def nonnative(facts: list[str]) -> str:
    return "Hello, I am seeing this thing. " + ". ".join(f"There is {f}" if i % 2 else f"I have {f}"
                                                          for i, f in enumerate(facts)) + ". What I must do?"


def model(facts: list[str]) -> str:
    bullets = "\n".join(f"- {f}" for f in facts)
    return ("Sure! Here's my best reading of the module (I'm fairly confident, though lighting may vary):\n\n"
            f"## Observations\n{bullets}\n\n> Let me know the next step and I'll carry it out.")


VOICES: dict[str, Callable[[list[str]], str]] = {"gamer": gamer, "teacher": teacher, "non-native": nonnative,
                                                 "model-markdown": model}


def say_advice(voice: str, instruction: str) -> str:
    return {"gamer": f"{instruction} gg",
            "teacher": f"Very good. Now, listen carefully: {instruction[0].lower()}{instruction[1:]}. Take your "
                       "time, there is no hurry, and tell me what happens.",
            "non-native": f"Okay friend, you must to {instruction[0].lower()}{instruction[1:]}. Is good.",
            "model-markdown": f"**Next step** (I'm fairly sure about this one):\n\n1. {instruction}\n\n"
                              "_Let me know if anything looks different._"}[voice]


# -- the item builders --------------------------------------------------------------------------------
class Items:
    def __init__(self, puzzle: str) -> None:
        self.puzzle = puzzle
        self.items: list[dict[str, Any]] = []
        self.rng = random.Random(f"tuning-{puzzle}")

    def _id(self, direction: str) -> str:
        n = sum(1 for i in self.items if i["direction"] == direction) + 1
        return f"{self.puzzle}-{direction}-T-{n:03d}"

    def describe(self, seed: int, style: str, messages: list[str], expect: list[str] | None = None,
                 ask: list[str] | None = None, why: str = "", alternatives: list[list[str]] | None = None) -> None:
        e: dict[str, Any] = {"ask": ask} if ask else {"advice": expect}
        if alternatives:
            e["alternatives"] = alternatives
        item = {"id": self._id("describe"), "puzzle": self.puzzle, "direction": "describe", "seed": seed,
                "style": style, "messages": messages, "expect": e}
        if why:
            item["why"] = why
        self.items.append(item)

    def advise(self, seed: int, prefix: list[str], style: str, messages: list[str], actions: list[str] | None = None,
               ask: list[str] | None = None, why: str = "", timer: str | None = None) -> None:
        e: dict[str, Any] = {"ask": ask} if ask else {"actions": actions}
        item = {"id": self._id("advise"), "puzzle": self.puzzle, "direction": "advise", "seed": seed,
                "prefix": list(prefix), "style": style, "messages": messages, "expect": e}
        if why:
            item["why"] = why
        if timer:
            item["timer_shown"] = timer
        self.items.append(item)

    def write(self) -> None:
        path = HERE / f"{self.puzzle}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items), encoding="utf-8")


def seeds(puzzle: str, keep: Callable[[Any], bool], n: int, start: int = 0) -> list[int]:
    out = []
    for s in SEEDS[start:]:
        if keep(fresh(puzzle, s)):
            out.append(s)
        if len(out) == n:
            return out
    raise AssertionError((puzzle, n, out))


def correction_pair(voice: str, facts: list[str], index: int | str, wrong: str, fix: str) -> list[str]:
    slipped = list(facts)
    if isinstance(index, str):
        index = next(i for i, f in enumerate(facts) if f.startswith(index))
    slipped[index] = wrong
    return [VOICES[voice](slipped), fix]


# -- Wire ---------------------------------------------------------------------------------------------
def wire() -> Items:
    it = Items("wire")

    def facts(vs: dict, k: int) -> list[str]:
        c = vs["wire_colors_top_to_bottom"]
        n = len(c)
        if k % 3 == 0:
            listing = "from the top: " + ", ".join(c)
        elif k % 3 == 1:
            listing = "going from the bottom up they are " + ", ".join(reversed(c))
        else:
            listing = ", ".join(f"the {ORD[i]} is {x}" for i, x in enumerate(c))
        return [f"{NUM[n]} wires", listing, f"serial number {vs['serial_number']}"]

    for k, s in enumerate(seeds("wire", lambda p: True, 10)):
        pz = fresh("wire", s)
        vs = pz.visible_state()
        voice = list(VOICES)[k % 4]
        if k < 8:
            it.describe(s, voice, [VOICES[voice](facts(vs, k))], advice(pz))
        else:
            c = list(vs["wire_colors_top_to_bottom"])
            i = len(c) - 1
            other = next(x for x in ("red", "blue", "yellow", "white", "black") if x != c[i])
            wrong_vs = dict(vs, wire_colors_top_to_bottom=c[:i] + [other])
            f = facts(vs, 0)
            it.describe(s, "correction", correction_pair("teacher", f, 1, facts(wrong_vs, 0)[1],
                        f"Oh sorry, I misread: the last wire is {c[i]}, not {other}. Everything else is right."),
                        advice(pz))
    # ask: counts and list disagree; a hedged colour that matters; serial left out where it matters
    s = seeds("wire", lambda p: len(p.visible_state()["wire_colors_top_to_bottom"]) < 6, 1, 20)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "count-mismatch", [f"{NUM[len(c) + 1]} wires: {', '.join(c)}. serial {vs['serial_number']}"],
                ask=["how many wires", "colour"], why="says one more wire than it lists")

    def hedge_matters(p: Any) -> bool:
        v = p.visible_state()
        c = v["wire_colors_top_to_bottom"]
        alts = {x for x in ("red", "blue", "yellow", "white", "black")}
        outs = {tuple(type(p).expert_advice(dict(v, wire_colors_top_to_bottom=c[:1] + [x] + c[2:]), {}))
                for x in alts}
        return len(outs) > 1 and len(c) >= 4
    s = seeds("wire", hedge_matters, 1, 30)[0]
    vs = fresh("wire", s).visible_state()
    c = vs["wire_colors_top_to_bottom"]
    it.describe(s, "hedged-colour", [model([f"{NUM[len(c)]} wires", f"top to bottom: {c[0]}, then the second one "
                                             f"is hard to make out, maybe {c[1]}, maybe not, then {', '.join(c[2:])}",
                                             f"serial {vs['serial_number']}"])],
                ask=["second wire", "colour"], why="the second wire's colour is not known and decides the cut")

    def serial_matters(p: Any) -> bool:
        v = p.visible_state()
        outs = {tuple(type(p).expert_advice(dict(v, serial_number="AB12C" + d), {})) for d in "01"}
        return len(outs) > 1
    s = seeds("wire", serial_matters, 1, 40)[0]
    vs = fresh("wire", s).visible_state()
    it.describe(s, "missing-serial", [gamer([f"{len(vs['wire_colors_top_to_bottom'])} wires",
                                            "top->bottom " + " ".join(vs["wire_colors_top_to_bottom"]),
                                            "cant read the serial"])],
                ask=["serial number"], why="the rule for these wires needs the serial's last digit")

    # advise
    for k, s in enumerate(seeds("wire", lambda p: True, 10, 50)):
        pz = fresh("wire", s)
        c = pz.visible_state()["wire_colors_top_to_bottom"]
        n = len(c)
        j = int(advice(pz)[0].rsplit("_", 1)[1])
        refs = [f"Cut wire number {NUM[j]}", f"Snip the {ORD[j - 1]} wire counting from the top",
                "Cut the bottom wire" if j == n else f"Cut the {ORD[n - j]} wire from the bottom"]
        if c.count(c[j - 1]) == 1:
            refs.append(f"Cut the {c[j - 1]} one")
        if j > 1 and c.count(c[j - 2]) == 1:
            refs.append(f"Cut the wire directly below the {c[j - 2]} wire")
        voice = list(VOICES)[k % 4]
        if k < 8:
            it.advise(s, [], voice, [say_advice(voice, refs[k % len(refs)])], [f"cut_wire_{j}"])
        else:
            wrong = j + 1 if j < n else j - 1
            it.advise(s, [], "correction", [f"Cut the {ORD[wrong - 1]} wire from the top.",
                                            f"Wait, no, my mistake: not the {ORD[wrong - 1]}, cut the "
                                            f"{ORD[j - 1]} wire from the top instead."], [f"cut_wire_{j}"])
    s = seeds("wire", lambda p: any(p.visible_state()["wire_colors_top_to_bottom"].count(x) > 1
                                    for x in p.visible_state()["wire_colors_top_to_bottom"]), 1, 70)[0]
    c = fresh("wire", s).visible_state()["wire_colors_top_to_bottom"]
    dup = next(x for x in c if c.count(x) > 1)
    it.advise(s, [], "two-candidates", [say_advice("gamer", f"cut the {dup} wire")], ask=[dup, "which one"],
              why=f"there are {c.count(dup)} {dup} wires")
    s = seeds("wire", lambda p: len(p.visible_state()["wire_colors_top_to_bottom"]) < 5, 1, 75)[0]
    n = len(fresh("wire", s).visible_state()["wire_colors_top_to_bottom"])
    it.advise(s, [], "not-there", [say_advice("teacher", f"Cut the {ORD[n + 1]} wire from the top")],
              ask=["which wire", "only"], why=f"there are only {n} wires")
    s = seeds("wire", lambda p: len(p.visible_state()["wire_colors_top_to_bottom"]) >= 4, 1, 80)[0]
    it.advise(s, [], "self-doubt", ["Cut the second wire... or was it the third? Hmm, I'm not sure anymore."],
              ask=["second or third"], why="two wires named, the speaker is unsure")
    return it


def standard(it: Items, puzzle: str, facts: Callable[[dict, int], list[str]], start: int = 0,
             correct: Callable[[dict], tuple[int, str, str]] | None = None) -> None:
    """Eight describe items in the four voices and two corrections (when `correct` gives the
    index of a fact, its slip and the message fixing it)."""
    for k, s in enumerate(seeds(puzzle, lambda p: True, 10 if correct else 8, start)):
        pz = fresh(puzzle, s)
        vs = pz.visible_state()
        voice = list(VOICES)[k % 4]
        if k < 8:
            it.describe(s, voice, [VOICES[voice](facts(vs, k))], advice(pz))
        else:
            index, wrong, fix = correct(vs)
            it.describe(s, "correction", correction_pair(list(VOICES)[k % 4], facts(vs, k), index, wrong, fix),
                        advice(pz))


def by_voice(it: Items, seed: int, k: int, instruction: str, actions: list[str], prefix: list[str] = (),
             timer: str | None = None) -> None:
    voice = list(VOICES)[k % 4]
    it.advise(seed, list(prefix), voice, [say_advice(voice, instruction)], actions, timer=timer)


# -- Who's on First -------------------------------------------------------------------------------------
def who() -> Items:
    it = Items("who")
    order = ["top_left", "top_right", "middle_left", "middle_right", "bottom_left", "bottom_right"]
    alt = {"top_left": "upper left", "top_right": "upper right", "middle_left": "centre left",
           "middle_right": "centre right", "bottom_left": "lower left", "bottom_right": "lower right"}

    def display(vs: dict) -> str:
        d = vs["display_text"]
        return "the screen is empty, no text" if d == "" else f'the screen says "{d}"'

    def facts(vs: dict, k: int) -> list[str]:
        b = vs["button_labels"]
        if k % 2:
            rows = [f"row {r + 1}: \"{b[order[2 * r]]}\" left, \"{b[order[2 * r + 1]]}\" right" for r in range(3)]
            return [display(vs), *rows]
        return [display(vs), *[f"{alt[p]} button \"{b[p]}\"" for p in order]]

    def fix(vs: dict) -> tuple[int, str, str]:
        b = vs["button_labels"]
        return (1, "upper left button \"SOMETHING\"",
                f"correction: the upper left one actually reads \"{b['top_left']}\", I misread it")
    standard(it, "who", facts, correct=lambda vs: (0, 'the screen says "SOMETHING"',
                                                   f"Sorry, I meant the screen shows {display(vs)[15:]}"
                                                   if vs["display_text"] else "Sorry, the screen is actually empty, "
                                                   "no text at all"))
    del fix
    s = 420
    vs = fresh("who", s).visible_state()
    it.describe(s, "no-display", [gamer([f"{POS[p]} {vs['button_labels'][p]}" for p in order])],
                ask=["display", "screen"], why="the display word is not given")
    s = 421
    vs = fresh("who", s).visible_state()
    b = dict(vs["button_labels"])
    it.describe(s, "missing-button", [teacher([display(vs)] + [f"{alt[p]} button \"{b[p]}\"" for p in order[:5]]
                                              + ["the last button I can't quite read"])],
                ask=["bottom right", "label"], why="one label is missing; the manual's list may need it")
    s = 422
    vs = fresh("who", s).visible_state()
    it.describe(s, "hedged-display", [f"Display looks like \"{vs['display_text'] or 'YOU'}\" or maybe \"UR\", can't "
                                      "tell. Buttons: " + ", ".join(f"{POS[p]} {vs['button_labels'][p]}"
                                                                     for p in order)],
                ask=["display"], why="two readings of the display")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("who", s)
        b = pz.visible_state()["button_labels"]
        a = advice(pz)[0]
        p = a[len("press_"):]
        refs = [f"Press the {alt[p]} button", f"Press \"{b[p]}\"", f"Hit the button labelled {b[p]} ({POS[p]})",
                f"Push the {p.split('_')[1]} button in the {['top', 'middle', 'bottom'][order.index(p) // 2]} row"]
        if k < 8:
            by_voice(it, s, k, refs[k % 4], [a])
        else:
            other = order[(order.index(p) + 1) % 6]
            it.advise(s, [], "correction", [f"Press the {POS[other]} button.",
                                            f"Oops, not that one. I meant the {POS[p]} button."], [a])
    it.advise(460, [], "row-only", ["Press the middle one."], ask=["left or right"], why="two buttons in the middle row")
    b = fresh("who", 461).visible_state()["button_labels"]
    missing = next(w for w in ("NOTHING", "UHHH", "SURE", "LIKE", "DONE", "NEXT") if w not in b.values())
    it.advise(461, [], "not-there", [say_advice("model-markdown", f'Press the button labelled "{missing}"')],
              ask=[missing, "not there"], why="no button shows that word")
    it.advise(462, [], "either", ["press top left or top right, whichever one"], ask=["which"],
              why="two buttons offered")
    return it


# -- Keypad ---------------------------------------------------------------------------------------------
def keypad() -> Items:
    from comma_env.agents.natural.symbols import SYMBOL_WORDS
    it = Items("keypad")
    order = ["top_left", "top_right", "bottom_left", "bottom_right"]

    def name(sym: str, k: int) -> str:
        words = SYMBOL_WORDS.get(sym)
        return sym if (k % 2 == 0 or not words) else f"{words[0]} ({sym})"

    def facts(vs: dict, k: int) -> list[str]:
        b = vs["button_symbols"]
        return [f"{POS[p]}: {name(b[p], k)}" for p in order]

    def swap(vs: dict) -> tuple[int, str, str]:
        b = vs["button_symbols"]
        return (0, f"top left: {b['top_right']}", f"oops, correction: the top left is {b['top_left']} and the "
                f"top right is {b['top_right']}, I mixed them up")
    standard(it, "keypad", facts, correct=swap)
    vs = fresh("keypad", 420).visible_state()
    it.describe(420, "no-positions", [gamer(["symbols " + " ".join(sorted(vs["button_symbols"].values()))])],
                ask=["positions", "where"], why="symbols named without positions")
    vs = fresh("keypad", 421).visible_state()["button_symbols"]
    it.describe(421, "partial-enough", [model([f"{POS[p]}: {vs[p]}" for p in order[:3]]
                                              + ["bottom right: a symbol I don't recognise"])],
                advice(fresh("keypad", 421)), why="one symbol not given, but every symbol of the one column that "
                                                  "holds the other three sits in the same place of the order")
    vs = fresh("keypad", 422).visible_state()["button_symbols"]
    it.describe(422, "three-keys", [nonnative([f"{POS[p]} is {vs[p]}" for p in order[:2]] + ["bottom left is "
                                                                                               f"{vs['bottom_left']}"])],
                ask=["bottom right"], why="the fourth key is not described")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("keypad", s)
        b = pz.visible_state()["button_symbols"]
        a = advice(pz)
        ps = [x[len("press_"):] for x in a]
        if k % 3 == 0:
            text = "Press " + ", then ".join(f"the {POS[p]}" for p in ps)
        elif k % 3 == 1:
            text = "Order: " + " -> ".join(b[p] for p in ps)
        else:
            text = "First the " + POS[ps[0]] + " key, second " + b[ps[1]] + ", third the " + POS[ps[2]] + \
                   " one, and last " + b[ps[3]]
        if k < 8:
            by_voice(it, s, k, text, a)
        else:
            swapped = [ps[1], ps[0], *ps[2:]]
            it.advise(s, [], "correction", ["Press " + ", ".join(POS[p] for p in swapped) + ".",
                                            f"Sorry, I swapped the first two: {POS[ps[0]]} comes first, then "
                                            f"{POS[ps[1]]}, then {POS[ps[2]]}, then {POS[ps[3]]}."], a)
    it.advise(460, [], "no-order", ["Press all four keys in the right order."], ask=["order"],
              why="no order given")
    it.advise(461, [], "half-order", [say_advice("gamer", "top left first then the rest")], ask=["order", "next"],
              why="only the first key named")
    b = fresh("keypad", 462).visible_state()["button_symbols"]
    missing = next(s for s in ("☺", "Ω", "λ", "♣", "¶", "☂") if s not in b.values())
    it.advise(462, [], "not-there", [f"Start with the {SYMBOL_WORDS[missing][0]}."], ask=[SYMBOL_WORDS[missing][0]],
              why="that symbol is not on the keypad")
    return it


# -- LED ------------------------------------------------------------------------------------------------
def led() -> Items:
    it = Items("led")
    order = ["top_left", "top_right", "bottom_left", "bottom_right"]

    def colour(vs: dict) -> str:
        return vs["led_colors_left_to_right"][vs["stage_number"] - 1]

    def facts(vs: dict, k: int) -> list[str]:
        b = vs["button_letters"]
        keys = (f"stage {vs['stage_number']}", f"the LED is {colour(vs)}")
        if k % 2:
            return [*keys, f"top row {b['top_left']} {b['top_right']}", f"bottom row {b['bottom_left']} "
                                                                        f"{b['bottom_right']}"]
        return [*keys, *[f"{POS[p]} letter {b[p]}" for p in order]]

    def fix(vs: dict) -> tuple[int, str, str]:
        wrong = "green" if colour(vs) != "green" else "red"
        return 1, f"the LED is {wrong}", f"Correction: the LED is {colour(vs)}, not {wrong}. Sorry!"

    standard(it, "led", facts, correct=fix)

    def colour_matters(p: Any) -> bool:
        from comma_env.puzzles.led import correct_buttons
        v = p.visible_state()
        c = v["led_colors_left_to_right"][0]
        other = {"red": "orange", "orange": "red"}.get(c)
        return other is not None and not set(correct_buttons(v["button_letters"], c)) & set(
            correct_buttons(v["button_letters"], other))
    s = seeds("led", colour_matters, 1, 20)[0]
    b = fresh("led", s).visible_state()["button_letters"]
    it.describe(s, "hedged-colour", [f"stage 1, LED is red... or orange? honestly can't tell. letters {b['top_left']} "
                                     f"{b['top_right']} / {b['bottom_left']} {b['bottom_right']}"],
                ask=["colour", "red", "orange"], why="red and orange lead to different buttons")
    vs = fresh("led", 430).visible_state()
    b = vs["button_letters"]
    it.describe(430, "no-colour", [teacher(["we are at stage 1"] + [f"the {POS[p]} letter is {b[p]}" for p in order])],
                ask=["colour", "LED"], why="the LED colour is not given")
    vs = fresh("led", 431).visible_state()
    b = vs["button_letters"]
    it.describe(431, "letters-no-positions", [gamer(["stage 1", f"led {colour(vs)}",
                                                     "letters " + " ".join(sorted(b.values()))])],
                ask=["positions", "where"], why="letters without positions")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("led", s)
        b = pz.visible_state()["button_letters"]
        a = advice(pz)[0]
        p = a[len("press_"):]
        refs = [f"Press the letter {b[p]}", f"Press the {POS[p]} one", f"Hit {b[p]}, the {POS[p]} button",
                f"Press the {p.split('_')[1]} button in the {p.split('_')[0]} row"]
        if k < 8:
            by_voice(it, s, k, refs[k % 4], [a])
        else:
            wrong = next(x for x in order if x != p)
            it.advise(s, [], "correction", [f"Press {b[wrong]}.", f"No wait, I read it wrong. Press {b[p]} instead."],
                      [a])
    b = fresh("led", 460).visible_state()["button_letters"]
    missing = next(x for x in "QXZJKV" if x not in b.values())
    it.advise(460, [], "not-there", [f"Press the {missing}."], ask=[missing, "not there"], why="no button shows it")
    it.advise(461, [], "row-only", [say_advice("teacher", "Press the top button")], ask=["left or right"],
              why="two buttons in the top row")
    it.advise(462, [], "unsure-pair", ["I think it's the bottom left, or possibly the bottom right. Not 100% sure."],
              ask=["which"], why="two buttons offered")
    return it


# -- Memory ---------------------------------------------------------------------------------------------
def memory() -> Items:
    it = Items("memory")

    def facts(vs: dict, k: int) -> list[str]:
        labels = vs["button_labels_left_to_right"]
        d = vs["display_number"]
        if k % 3 == 0:
            return [f"display shows {d}", "buttons left to right " + " ".join(map(str, labels))]
        if k % 3 == 1:
            return [f"the big number is {NUM[d]}", "from right to left the buttons read "
                    + ", ".join(NUM[x] for x in reversed(labels))]
        return [f"screen: {d}", *[f"position {i + 1} has label {x}" for i, x in enumerate(labels)]]

    def fix(vs: dict) -> tuple[int, str, str]:
        d = vs["display_number"]
        wrong = d % 4 + 1
        return 0, f"display shows {wrong}", f"sorry, typo: the display shows {d}, not {wrong}"

    standard(it, "memory", facts, correct=fix)
    vs = fresh("memory", 420).visible_state()
    it.describe(420, "no-display", [gamer(["buttons " + " ".join(map(str, vs["button_labels_left_to_right"]))])],
                ask=["display"], why="the display number is not given")
    vs = fresh("memory", 421).visible_state()
    it.describe(421, "hedged-display", [model(["display: 2 or maybe 3 (a bit blurry)",
                                               "buttons: " + ", ".join(map(str, vs["button_labels_left_to_right"]))])],
                ask=["display"], why="two display readings")
    vs = fresh("memory", 422).visible_state()
    it.describe(422, "partial-enough", [nonnative([f"display {vs['display_number']}",
                                                   "buttons " + " ".join(map(str, vs["button_labels_left_to_right"][:3]))
                                                   + " and one more I cannot see"])],
                advice(fresh("memory", 422)), why="a label is missing, but stage 1 goes by position")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("memory", s)
        labels = pz.visible_state()["button_labels_left_to_right"]
        a = advice(pz)[0]
        j = int(a.rsplit("_", 1)[1])
        refs = [f"Press the button in position {NUM[j]}", f"Press the button labelled {labels[j - 1]}",
                f"Press the {ORD[4 - j]} button from the right", f"Press the {ORD[j - 1]} one from the left"]
        if k < 8:
            by_voice(it, s, k, refs[k % 4], [a])
        else:
            w = j % 4 + 1
            it.advise(s, [], "correction", [f"Press position {w}.", f"Sorry, I meant position {j}, not {w}."], [a])
    s = next(s for s in range(460, 499) if fresh("memory", s).visible_state()["button_labels_left_to_right"][0] != 1)
    it.advise(s, [], "label-or-position", ["Press 1."], ask=["label or position"],
              why="the label 1 is not in position 1")
    it.advise(461, [], "no-target", [say_advice("teacher", "Press the correct button, you know the one")], ask=["which"],
              why="no button named")
    it.advise(462, [], "not-there", ["Press the fifth button."], ask=["only four", "which"], why="there are four")
    return it


# -- Password -------------------------------------------------------------------------------------------
def password() -> Items:
    it = Items("password")

    def facts(vs: dict, k: int) -> list[str]:
        letters = vs["letters_shown_left_to_right"]
        if k % 2:
            return [f"window {i + 1} shows {x}" for i, x in enumerate(letters)]
        return ["letters left to right: " + " ".join(letters)]

    standard(it, "password", facts, correct=lambda vs: (
        0, "letters left to right: " + " ".join(["X", *vs["letters_shown_left_to_right"][1:]]),
        f"sorry, the first window is {vs['letters_shown_left_to_right'][0]}, not X"))
    it.describe(420, "four-windows", [gamer(["letters " + " ".join(fresh("password", 420).visible_state()[
        "letters_shown_left_to_right"][:4])])], ask=["fifth", "window 5"], why="only four of five windows given")
    letters = fresh("password", 421).visible_state()["letters_shown_left_to_right"]
    it.describe(421, "hedged-letter", [model([f"window {i + 1}: {x}" for i, x in enumerate(letters[:2])]
                                             + [f"window 3: {letters[2]} or maybe O, hard to tell"]
                                             + [f"window {i + 4}: {x}" for i, x in enumerate(letters[3:])])],
                advice(fresh("password", 421)), why="a hedged letter, but the manual says to cycle all windows anyway")
    it.describe(422, "no-letters", [teacher(["there are five little windows with letters and arrows above and "
                                             "below them", "there is a submit button"])],
                ask=["letters"], why="no letters given")
    it.describe(423, "greeting", ["hey, what's up? ready when you are"], ask=["letters", "what you see"],
                why="nothing described")
    for k, s in enumerate(range(450, 460)):
        w1, w2 = k % 5 + 1, (k + 2) % 5 + 1
        texts = [(f"Cycle window {NUM[w1]} up twice, then window {NUM[w2]} down once",
                  [f"cycle_up_{w1}"] * 2 + [f"cycle_down_{w2}"]),
                 (f"Press the down arrow on the {ORD[w1 - 1]} window three times", [f"cycle_down_{w1}"] * 3),
                 ("Press up on every window once", [f"cycle_up_{i}" for i in range(1, 6)]),
                 (f"Press the up arrow above the last window, then the down arrow under the {ORD[w2 - 1]} one",
                  ["cycle_up_5", f"cycle_down_{w2}"])]
        text, actions = texts[k % 4]
        if k < 8:
            by_voice(it, s, k, text, actions)
        else:
            it.advise(s, [], "correction", [f"Cycle window {w1} up once.",
                                            f"Sorry, I meant window {w2}, not {w1}: cycle window {w2} up once."],
                      [f"cycle_up_{w2}"])
    it.advise(460, [], "no-window", ["Press up twice."], ask=["which window"], why="no window named")
    it.advise(461, [], "no-direction", [say_advice("gamer", "cycle window 3 a couple of times")],
              ask=["up or down", "how many"], why="no direction; count vague")
    it.advise(462, [], "not-there", ["Press up on the seventh window."], ask=["which window", "five"],
              why="there are five windows")
    return it


# -- Maze -----------------------------------------------------------------------------------------------
def route_words(actions: list[str]) -> list[tuple[str, list[str]]]:
    """The actions in runs, each with its words."""
    runs: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(actions):
        a = actions[i]
        n = 1
        while i + n < len(actions) and actions[i + n] == a and a.startswith("move"):
            n += 1
        words = {"turn_left": "turn left", "turn_right": "turn right", "press_button": "press the button",
                 "move_forward": f"go forward {NUM[n]} square{'s' * (n > 1)}",
                 "move_backward": f"back up {NUM[n]} square{'s' * (n > 1)}"}[a]
        runs.append((words, [a] * n))
        i += n
    return runs


def maze() -> Items:
    it = Items("maze")

    def facts(vs: dict, k: int) -> list[str]:
        rows = vs["maze_rows_top_to_bottom"]
        if k % 2:
            grid = [f"row {i + 1}: " + row.replace("#", "X").replace(".", "o") for i, row in enumerate(rows)]
            grid = ["grid (X is wall, o is floor)"] + grid
        else:
            grid = ["walls (# wall, . floor) row by row from the top: " + " / ".join(rows)]
        m = vs["mouse_row_column"]
        sph = vs["sphere_row_column_by_color"]
        return [*grid, f"the mouse is at row {m[0]}, column {m[1]}, facing {vs['mouse_facing']}",
                "spheres: " + ", ".join(f"{c} at row {p[0]} col {p[1]}" for c, p in sph.items()),
                f"the torus is {vs['torus_color']}"]

    standard(it, "maze", facts, correct=lambda vs: (
        -1, "the torus is " + ("red" if vs["torus_color"] != "red" else "green"),
        f"oops, I misspoke: the torus is {vs['torus_color']}"))
    vs = fresh("maze", 420).visible_state()
    f = facts(vs, 0)
    it.describe(420, "no-torus", [model(f[:-1])], ask=["torus"], why="the torus colour picks the goal")
    vs = fresh("maze", 421).visible_state()
    f = facts(vs, 1)
    f[-3] = f"the mouse is at row {vs['mouse_row_column'][0]}, column {vs['mouse_row_column'][1]}"
    it.describe(421, "no-facing", [teacher(f)], ask=["facing", "direction"], why="which way the mouse faces")
    vs = fresh("maze", 422).visible_state()
    f = facts(vs, 0)
    it.describe(422, "no-layout", [gamer(f[1:])], ask=["walls", "layout"], why="no walls given")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("maze", s)
        a = advice(pz)
        runs = route_words(a)
        if k < 8:
            text = ", then ".join(w for w, _ in runs)
            by_voice(it, s, k, text[0].upper() + text[1:], a)
        else:
            first, rest = runs[0], runs[1:]
            it.advise(s, [], "two-part", [f"First {first[0]}.",
                                          "Then " + ", ".join(w for w, _ in rest) + "."], a)
    it.advise(460, [], "no-count", ["Go forward a few squares."], ask=["how many"], why="count not given")
    it.advise(461, [], "no-turn-direction", [say_advice("gamer", "turn around the corner then go 2")],
              ask=["left or right"], why="which way to turn")
    it.advise(462, [], "unsure", ["Turn left, or maybe right, then go forward three."], ask=["left or right"],
              why="two turns offered")
    return it


# -- Color ----------------------------------------------------------------------------------------------
def color() -> Items:
    it = Items("color")
    short = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "magenta": "M", "white": "W"}

    def facts(vs: dict, k: int) -> list[str]:
        g = vs["square_colors_by_row"]
        if k % 3 == 0:
            return ["grid rows top to bottom: " + " / ".join(" ".join(short[c] for c in row) for row in g)
                    + " (R red, B blue, G green, Y yellow, M magenta)"]
        if k % 3 == 1:
            return [f"the {ORD[i]} row is {', '.join(row)}" for i, row in enumerate(g)]
        return [f"column {j + 1} from top to bottom: {', '.join(g[i][j] for i in range(4))}" for j in range(4)]

    def fix(vs: dict) -> tuple[int, str, str]:
        g = vs["square_colors_by_row"]
        return (0, facts(vs, 1)[0].rsplit(",", 1)[0] + ", white", f"sorry, the last square of the first row is "
                f"{g[0][3]}, not white")

    for k, s in enumerate(range(400, 410)):
        pz = fresh("color", s)
        vs = pz.visible_state()
        voice = list(VOICES)[k % 4]
        if k < 8:
            it.describe(s, voice, [VOICES[voice](facts(vs, k))], advice(pz))
        else:
            f = facts(vs, 1)
            it.describe(s, "correction", correction_pair(voice, f, 0, fix(vs)[1], fix(vs)[2]), advice(pz))
    g = fresh("color", 420).visible_state()["square_colors_by_row"]
    it.describe(420, "three-rows", [gamer([" ".join(row) for row in g[:3]])], ask=["row 4", "bottom row"],
                why="the bottom row is missing")
    g = fresh("color", 421).visible_state()["square_colors_by_row"]
    f = facts({"square_colors_by_row": g}, 1)
    f[1] = f[1].replace(g[1][1], f"{g[1][1]} (or {'blue' if g[1][1] != 'blue' else 'green'}? hard to say)", 1)
    it.describe(421, "hedged-square", [model(f)], ask=["row 2", "colour"], why="one square hedged")
    it.describe(422, "colours-only", [teacher(["I see sixteen coloured squares: four red, four blue, four green "
                                               "and four yellow"])], ask=["which", "where", "rows"],
                why="counts without positions")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("color", s)
        a = advice(pz)
        cells = [tuple(map(int, x.split("_")[1:])) for x in a]
        if k % 3 == 0:
            text = "Press " + ", ".join(f"row {NUM[r]} column {NUM[c]}" for r, c in cells)
        elif k % 3 == 1:
            text = "Press the squares at " + " and ".join(f"({r},{c})" for r, c in cells) + " (row, column)"
        else:
            text = "Tap " + ", ".join(f"the {ORD[c - 1]} square of the {ORD[r - 1]} row" for r, c in cells)
        if k < 8:
            by_voice(it, s, k, text, a)
        else:
            it.advise(s, [], "two-part", [f"Press row {cells[0][0]} column {cells[0][1]}.",
                                          "Then also " + ", ".join(f"row {r} column {c}" for r, c in cells[1:]) + "."]
                      if len(cells) > 1 else [f"Press row {cells[0][0]} column {cells[0][1]}."], a)
    g = fresh("color", 460).visible_state()["square_colors_by_row"]
    dup = next(c for c in ("green", "red", "blue", "yellow", "magenta") if sum(r.count(c) for r in g) > 1)
    it.advise(460, [], "two-candidates", [f"Press the {dup} square."], ask=[dup, "which"], why=f"several {dup}")
    it.advise(461, [], "not-there", [say_advice("teacher", "Press row 5, column 2")], ask=["row", "four"],
              why="there are four rows")
    it.advise(462, [], "half", ["press row 2 and then, uh, the other one"], ask=["which"], why="second square unnamed")
    return it


# -- ATM ------------------------------------------------------------------------------------------------
def atm() -> Items:
    it = Items("atm")
    rule = "If your balance is at least $500, withdraw $300; otherwise deposit $100."
    pin_line = "Enter your PIN on the keypad, then press enter."
    menu = ["the screen says choose a transaction", "there are two buttons, Deposit and Withdraw",
            "I have my card but I won't read the PIN out"]

    def login(seed: int, which: str = "withdraw") -> list[str]:
        pin = fresh("atm", seed).visible_state()["pin_on_card"]
        return [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]

    for k, s in enumerate(range(400, 404)):
        pz = fresh("atm", s)
        a = advice(pz)
        voice = list(VOICES)[k % 4]
        other = ["select_deposit" if a[0] == "select_withdraw" else "select_withdraw", *a[1:]]
        it.describe(s, voice, [VOICES[voice](menu)], a, alternatives=[other])
    for k, s in enumerate(range(404, 408)):
        prefix = login(s, "withdraw" if k % 2 else "deposit")
        pz = fresh("atm", s, prefix)
        bal = float(pz.visible_state()["balance"].strip("$").replace(",", ""))
        voice = list(VOICES)[k % 4]
        side = "more than five hundred dollars" if bal >= 500 else "less than 500 dollars"
        it.describe(s, voice, ["\n".join(prefix), VOICES[voice](
            ["it shows the available balance now", f"the balance is {side} (not saying the exact amount)",
             "buttons Continue and Back"])], expand(pz, rule))
    for s in range(408, 410):
        prefix = login(s)
        it.describe(s, "no-comparison", ["\n".join(prefix), nonnative(["the machine accept my PIN",
                                                                        "now it show my balance",
                                                                        "buttons Continue and Back"])], [rule])
    for s in range(410, 412):
        it.describe(s, "correction", ["select_withdraw", "it wants a PIN, I typed nothing yet... actually wait, "
                                      "sorry, let me restate: the screen says enter your PIN, no digits typed"],
                    [pin_line, rule])
    it.describe(420, "vague-balance", ["\n".join(login(420)), "ok the balance is up, looks like plenty of money "
                                       "in there for whatever we need, continue?"], ask=["500"],
                why="no comparison with $500")
    it.describe(421, "vague-balance", ["\n".join(login(421, "deposit")), gamer(["balance screen", "got some cash"])],
                ask=["500"], why="no comparison with $500")
    it.describe(422, "unclear-screen", [teacher(["the screen is showing something but I can't quite read it"])],
                ask=["screen"], why="nothing usable described")
    for k, s in enumerate(range(450, 460)):
        pin = fresh("atm", s).visible_state()["pin_on_card"]
        which = ("withdraw", "deposit")[k % 2]
        acts = [f"select_{which}", *[f"press_{d}" for d in pin], "press_enter"]
        texts = [f"Choose {which.capitalize()}, then key in your PIN and press Enter",
                 f"Select {which}, type the PIN from your card, hit enter",
                 f"Tap the {which} button. After that enter the four-digit PIN and confirm with Enter",
                 f"Pick {which}, then put in your PIN and press the enter key"]
        if k < 8:
            by_voice(it, s, k, texts[k % 4], acts)
        else:
            it.advise(s, [], "correction", ["Select deposit.", f"Sorry, I meant {which}: select {which}, then enter "
                                            "your PIN and press enter."] if which == "withdraw" else
                      ["Select withdraw.", "Scratch that, select deposit instead, then enter your PIN and press enter."],
                      acts)
    it.advise(460, [], "no-transaction", ["Pick a transaction."], ask=["deposit or withdraw"],
              why="which transaction")
    it.advise(461, [], "either", [say_advice("gamer", "withdraw or deposit idk")], ask=["deposit or withdraw"],
              why="both offered")
    it.advise(462, [], "amount-only", ["Do the usual thing."], ask=["deposit or withdraw"], why="no transaction named")
    return it


# -- Telehealth -----------------------------------------------------------------------------------------
DIAGNOSES = {"bcc": "basal cell carcinoma", "scc": "squamous cell carcinoma", "ack": "actinic keratosis",
             "sek": "seborrheic keratosis", "mel": "melanoma", "nev": "benign nevus (a mole)"}
TREATMENTS = {"surgery": "surgery", "cryotherapy": "cryotherapy (freezing)", "none": "no treatment"}


def telehealth() -> Items:
    it = Items("telehealth")

    def facts(vs: dict, k: int, drop: str = "") -> list[str]:
        yn = {"yes": "yes", "no": "no"}
        out = {"colours": f"colours {', '.join(vs['lesion_colors'])}", "shape": f"shape {vs['lesion_shape']}",
               "border": f"border {vs['lesion_border']}", "surface": f"surface {vs['lesion_surface']}",
               "vessels": "visible blood vessels" if vs["visible_blood_vessels"] else "no visible blood vessels",
               "age": f"patient age {vs['age']}", "type": f"skin type {vs['skin_type']}",
               "site": f"on the {vs['body_region']}", "size": f"diameter {vs['diameter_mm']} mm",
               "itch": f"itching {yn[vs['itch']]}", "bleed": f"bleeding {yn[vs['bleed']]}",
               "grew": f"grown recently {yn[vs['grew']]}", "changed": f"changed recently {yn[vs['changed']]}",
               "raised": f"raised {yn[vs['elevation']]}"}
        keys = list(out)
        if k % 2:
            keys = keys[5:] + keys[:5]
        return [out[x] for x in keys if x != drop]

    standard(it, "telehealth", facts, correct=lambda vs: (
        "patient age", "patient age 12", f"sorry, typo on the age: the patient is {vs['age']}"))

    def needs(p: Any, key: str, values: list[Any]) -> bool:
        v = p.visible_state()
        return len({tuple(type(p).expert_advice(dict(v, **{key: x}), {})) for x in values}) > 1
    s = seeds("telehealth", lambda p: needs(p, "lesion_surface", ["pearly, translucent", "waxy, stuck-on",
                                                                   "dry, rough scales", "smooth"]), 1, 20)[0]
    it.describe(s, "no-surface", [model(facts(fresh("telehealth", s).visible_state(), 0, drop="surface"))],
                ask=["surface"], why="the surface decides the diagnosis here")
    s = seeds("telehealth", lambda p: needs(p, "diameter_mm", [3.0, 12.0]), 1, 30)[0]
    it.describe(s, "no-size", [gamer(facts(fresh("telehealth", s).visible_state(), 0, drop="size"))],
                ask=["diameter", "size"], why="the diameter decides the treatment here")
    s = seeds("telehealth", lambda p: needs(p, "lesion_surface", ["pearly, translucent", "waxy, stuck-on",
                                                                   "dry, rough scales", "smooth"]), 1, 40)[0]
    f = facts(fresh("telehealth", s).visible_state(), 1)
    f = [x if not x.startswith("surface") else "surface either waxy or maybe pearly, the photo is blurry" for x in f]
    it.describe(s, "partial-enough", [teacher(f)], advice(fresh("telehealth", s)),
                why="two surfaces offered, but only a pearly surface comes with a raised pearly rim")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("telehealth", s)
        a = advice(pz)
        d, t = a[0].split("_", 1)[1], a[1].split("_", 1)[1]
        texts = [f"Record {DIAGNOSES[d]}, then give {TREATMENTS[t]}",
                 f"Diagnosis: {d.upper()}. Treatment: {TREATMENTS[t]}",
                 f"It's {DIAGNOSES[d]}; log that and then choose {TREATMENTS[t]}",
                 f"Choose the diagnosis {DIAGNOSES[d]} and after that the treatment {TREATMENTS[t]}"]
        if k < 8:
            by_voice(it, s, k, texts[k % 4], a)
        else:
            wrong = "ack" if d != "ack" else "sek"
            it.advise(s, [], "correction", [f"Diagnose {DIAGNOSES[wrong]}.",
                                            f"Sorry, not {DIAGNOSES[wrong]}: record {DIAGNOSES[d]} instead, then "
                                            f"{TREATMENTS[t]}."], a)
    it.advise(460, [], "no-diagnosis", ["Record the diagnosis, then treat it."], ask=["which diagnosis"],
              why="no diagnosis named")
    it.advise(461, [], "two-diagnoses", [say_advice("model-markdown", "Record melanoma or maybe a benign nevus")],
              ask=["which"], why="two diagnoses offered")
    it.advise(462, [], "treatment-vague", ["It's a keratosis, treat it."], ask=["actinic or seborrheic", "which"],
              why="two keratoses")
    return it


# -- Button ---------------------------------------------------------------------------------------------
def button() -> Items:
    it = Items("button")

    def facts(vs: dict, k: int) -> list[str]:
        return [f"a {vs['button_color']} button", f"the label says {vs['button_label']}", f"timer at {vs['timer']}",
                "the strip next to it is dark"]

    standard(it, "button", facts, correct=lambda vs: (
        0, "a " + ("red" if vs["button_color"] != "red" else "blue") + " button",
        f"wait, sorry, under this light it's actually {vs['button_color']}, not "
        + ("red" if vs["button_color"] != "red" else "blue")))
    # after holding: the strip colour decides the digit
    holds = seeds("button", lambda p: advice(p) == ["hold"], 40, 10)
    for k, s in enumerate(holds[:2]):
        pz = fresh("button", s, ["hold"])
        vs = pz.visible_state()
        it.describe(s, "held", ["hold", VOICES[list(VOICES)[k]]([f"holding it now, the strip lit up {vs['strip_color']}",
                                                                  f"timer {vs['timer']}"])], advice(pz))
    vs = fresh("button", 420).visible_state()
    it.describe(420, "no-colour", [gamer([f"label {vs['button_label']}", f"timer {vs['timer']}"])],
                ask=["colour"], why="the colour decides tap or hold")
    vs = fresh("button", 421).visible_state()
    it.describe(421, "no-label", [teacher([f"the button is {vs['button_color']}", "I can't read the word on it"])],
                ask=["label", "word"], why="the label decides tap or hold")
    pz = fresh("button", holds[2], ["hold"])
    it.describe(holds[2], "held-no-strip", ["hold", nonnative(["I hold the button now", "the time is "
                                                          f"{pz.visible_state()['timer']}"])],
                ask=["strip", "colour"], why="the strip colour decides the release digit")
    for k, s in enumerate(range(450, 460)):
        if k % 2 == 1:
            s = holds[3 + k]
        if k % 2 == 0:
            pz = fresh("button", s)
            a = advice(pz)[0]
            text = {"tap": ["Just tap it quickly", "Give it a quick press and let go right away"],
                    "hold": ["Press and keep holding the button", "Hold it down, don't let go yet"]}[a][k // 2 % 2]
            by_voice(it, s, k, text, [a], timer=pz.visible_state()["timer"])
        else:
            pz = fresh("button", s, ["hold"])
            line = advice(pz)[0]
            d = line.rsplit(" ", 1)[1]
            text = [f"Let go when the timer has a {NUM[int(d)]} in any position",
                    f"Release it when there's a {d} anywhere on the clock"][k // 2 % 2]
            if k < 8:
                by_voice(it, s, k, text, expand(pz, line), prefix=["hold"], timer=pz.visible_state()["timer"])
            else:
                it.advise(s, ["hold"], "correction", [f"Release on a {(int(d) + 2) % 10}.",
                                                      f"Sorry, wrong digit: release when the timer shows a {d}."],
                          expand(pz, line), timer=pz.visible_state()["timer"])
    taps = seeds("button", lambda p: advice(p) == ["tap"], 1, 61)
    for s in (holds[30], taps[0]):
        pz = fresh("button", s)
        it.advise(s, [], "correction-act", ["Tap it.", "no wait, hold it instead"] if s == holds[30] else
                  ["Hold it.", "actually no, scratch that, just tap it"], ["hold"] if s == holds[30] else ["tap"],
                  timer=pz.visible_state()["timer"])
    it.advise(462, [], "press-only", ["Press the button."], ask=["tap or hold"], why="tap and hold both press it",
              timer=fresh("button", 462).visible_state()["timer"])
    it.advise(holds[20], ["hold"], "no-digit", [say_advice("gamer", "let go at the right time")],
              ask=["digit", "when"], why="no digit", timer=fresh("button", holds[20], ["hold"]).visible_state()["timer"])
    it.advise(holds[21], ["hold"], "two-digits", ["Release on a 4 or a 5, one of those."], ask=["4 or 5", "which"],
              why="two digits offered", timer=fresh("button", holds[21], ["hold"]).visible_state()["timer"])
    return it


# -- Dog ------------------------------------------------------------------------------------------------
def dog() -> Items:
    it = Items("dog")

    def facts(vs: dict, k: int) -> list[str]:
        dogs = vs["dogs"]
        if not dogs:
            return ["an empty park, no dogs at all", f"the clock reads {vs['timer']}"]
        listed = [f"a {d['coat']} dog {d['pose']}" for d in dogs]
        if k % 2:
            return [f"{NUM[len(dogs)]} dogs in total", *listed, f"timer {vs['timer']}"]
        return [*listed, f"timer {vs['timer']}"]

    standard(it, "dog", facts, correct=lambda vs: (
        -1, "timer 9:99", f"sorry I recounted the dogs: it is {NUM[len(vs['dogs'])]} dogs, and the timer is "
                          f"{vs['timer']}"))
    it.describe(420, "vague-count", [gamer(["a bunch of dogs running around", f"timer "
                                            f"{fresh('dog', 420).visible_state()['timer']}"])],
                ask=["how many"], why="no count")
    it.describe(421, "hedged-count", [model(["three or four dogs, one might be hidden behind a tree",
                                             f"timer {fresh('dog', 421).visible_state()['timer']}"])],
                ask=["how many"], why="two counts")
    it.describe(422, "no-dogs-said", [teacher([f"the timer shows {fresh('dog', 422).visible_state()['timer']}",
                                               "there is a submit button"])], ask=["how many dogs"],
                why="the dogs are not described")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("dog", s)
        line = advice(pz)[0]
        d = line.rsplit(" ", 1)[1]
        texts = [f"Submit when the last digit of the timer is {NUM[int(d)]}",
                 f"Hit submit once the clock ends in a {d}",
                 f"Press the submit button when the seconds end with {d}",
                 f"Wait until the timer's final digit is {d} and then submit"]
        if k < 8:
            by_voice(it, s, k, texts[k % 4], expand(pz, line), timer=pz.visible_state()["timer"])
        else:
            it.advise(s, [], "correction", [f"Submit when it ends in {(int(d) + 1) % 10}.",
                                            f"Oops, I miscounted. Submit when it ends in {d}."], expand(pz, line),
                      timer=pz.visible_state()["timer"])
    it.advise(460, [], "no-digit", ["Submit at the right moment."], ask=["digit", "when"], why="no digit",
              timer=fresh("dog", 460).visible_state()["timer"])
    it.advise(461, [], "two-digits", [say_advice("gamer", "submit on a 2 or 3")], ask=["2 or 3", "which"],
              why="two digits", timer=fresh("dog", 461).visible_state()["timer"])
    it.advise(462, [], "count-yourself-vague", ["Submit when the timer ends in the number of... hmm, not sure, "
                                                "let me think"], ask=["which digit"], why="no digit",
              timer=fresh("dog", 462).visible_state()["timer"])
    return it


# -- Sound ----------------------------------------------------------------------------------------------
PARAPHRASES = {
    "Car engine": ["deep grumbling motor noise that pulses fast, pitch never changes",
                   "sounds like a vehicle idling, a low rumble beating quickly"],
    "Birdsong": ["very high little tweets sweeping up and down with pauses", "high chirping, like a bird outside"],
    "Police siren": ["a loud wail going up and down roughly every second", "like a cop car, the tone rises and falls"],
    "Dripping tap": ["plink... plink... plink, evenly, a few times a second", "water drops falling one at a time"],
    "Ticking clock": ["tick tock, two dry clicks each second, one louder one softer", "a clock ticking"],
    "Heartbeat": ["very deep soft double thumps, lub-dub, just over once a second", "a heart beating"],
    "Telephone": ["a buzzy two-tone ringing for half a second then quiet, over and over", "an old phone ringing"],
    "Doorbell": ["two bell tones, high then low, ding-dong, fading away", "a doorbell chiming"],
    "Rain": ["soft hissing with lots of tiny random taps", "rain falling on a roof"],
    "Whistle": ["a single long very high pure tone that doesn't change", "someone blowing a whistle"],
    "Cow": ["a long low droning mooo that goes up a bit and dies away", "a cow mooing"],
    "Extractor fan": ["a constant dull rush of air with a slight flutter", "a kitchen fan running"],
}
SYMBOL_NAMES = {"press_dollar": ["dollar", "$"], "press_star": ["star", "asterisk"],
                "press_ampersand": ["ampersand", "&"], "press_hash": ["hash", "pound sign"]}


def sound() -> Items:
    from comma_env.audio.synth import SIGNATURES
    it = Items("sound")
    name_of = {s.description: s.name for s in SIGNATURES}

    def facts(vs: dict, k: int) -> list[str]:
        return [PARAPHRASES[name_of[vs["sound_heard"]]][k % 2]]

    standard(it, "sound", facts, correct=lambda vs: (
        0, "a cow mooing" if name_of[vs["sound_heard"]] != "Cow" else "a doorbell chiming",
        f"no wait, listened again, it's {PARAPHRASES[name_of[vs['sound_heard']]][1]}, sorry"))
    it.describe(420, "vague", [gamer(["some kinda beep"])], ask=["describe", "sound"], why="fits nothing")
    it.describe(421, "two-candidates", [model(["a high-pitched sound, maybe a whistle, maybe birds"])],
                ask=["whistle or birdsong", "chirp"], why="two sounds offered")
    it.describe(422, "nothing-heard", [teacher(["I pressed play but I did not hear anything clearly"])],
                ask=["sound", "listen"], why="no sound described")
    for k, s in enumerate(range(450, 460)):
        pz = fresh("sound", s)
        a = advice(pz)
        names = [SYMBOL_NAMES[x][k % 2] for x in a]
        texts = [", ".join(names), "Enter " + " then ".join(names),
                 f"The code is {' '.join(names)}", f"Press {names[0]} first, then {names[1]}, then {names[2]}, "
                                                   f"and {names[3]} last"]
        if k < 8:
            by_voice(it, s, k, texts[k % 4], a)
        else:
            it.advise(s, [], "two-part", [f"Start with {names[0]} and {names[1]}.",
                                          f"Then {names[2]} and finally {names[3]}."], a)
    it.advise(460, [], "no-code", ["Enter the code for that sound."], ask=["code", "which symbols"],
              why="the solver does not know the code")
    it.advise(461, [], "half-code", [say_advice("gamer", "star then dollar then the rest")], ask=["rest", "code"],
              why="only two symbols")
    it.advise(462, [], "either", ["Press star, then hash or ampersand, I'm not sure which."], ask=["which"],
              why="two symbols offered")
    return it


PUZZLES = (wire, who, keypad, led, memory, password, maze, color, atm, telehealth, button, dog, sound)


def main() -> None:
    for build in PUZZLES:
        build().write()


if __name__ == "__main__":
    main()
