"""Wire in plain English: the wires listed, placed, lettered or counted, and the serial number (or its
parity). Advice names a wire by number, ordinal from either end, colour or neighbour."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural.colours import Palette, drop_negated, sounds_like
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, fact, meant, unknown
from comma_env.agents.natural.reading import (
    ASIDE,
    HEDGES,
    NUMBER_VOCABULARY,
    ORDINAL,
    ROMAN,
    clean,
    fix_typos,
    grouped,
    number,
    ordinal,
    plain,
    sentences,
    spelled_numbers,
)
from comma_env.agents.natural.words import choose, say_number, say_ordinal
from comma_env.puzzles.wire import COLORS, SERIAL_LENGTH

PALETTE = Palette(COLORS)
VOCABULARY = (*COLORS, "wire", "wires", "serial", "number", "bottom", "first", "second", "third", "fourth", "fifth",
              "sixth", "last", "colors", "colours", "cut", "snip", "above", "below", "middle", "from", "counting")
_SERIAL_WORD = re.compile(r"\b(?:serial(?:\s*(?:number|no|nr|#))?|s/n|sn|label|plate|sticker)\b", re.IGNORECASE)
_SERIAL = re.compile(r"(?<![A-Za-z0-9])([A-Za-z0-9]{4,6}[0-9?])(?![A-Za-z0-9])")
_PARITY = re.compile(r"\b(?:serial|last (?:digit|character|char|number)|ends?|ending)\b[^.\n]{0,30}?\b(odd|even)\b",
                     re.IGNORECASE)
_LAST_DIGIT = re.compile(r"\b(?:last (?:digit|character|char)|ends? (?:in|with))\s*(?:is\s*)?(?:an?\s+)?(\d)\b",
                         re.IGNORECASE)
_NO_SERIAL = re.compile(r"\b(?:no|without|missing|haven'?t found|can'?t (?:find|see|read)|didn'?t (?:see|get|read))"
                        r"\b[^.\n]{0,25}\bserial", re.IGNORECASE)
_TOP_GROUP = re.compile(rf"\b(?:the\s+)?(?:top|first|last|bottom)\s+(two|three|four|[2-4])\s+(?:ones\s+)?"
                        rf"(?:are|r)\s+(?:all\s+|both\s+)?({PALETTE.pattern.pattern})\b")
"""Wires said as one group where the list reaches them ("the top three are all red", "then the last two are both
white"), read as that many of the colour."""
_ORDINALS = ("top", "second", "third", "fourth", "fifth")
_UNDER_IT = re.compile(r"\b(top|second|third|fourth|fifth)\s+(?:one|wire)\s+(?:and|,)\s+(?:the\s+)?(?:one|wire)\s+"
                       r"(?:right\s+|just\s+|directly\s+)?(?:under|below|beneath|underneath|after)\s+"
                       r"(?:it|that(?: one)?)\b")
"""Two wires placed one after the other ("the top one and the one under it are both blue": top and second)."""
_SHARED = re.compile(rf"\b({ORDINAL}|\d|top|bottom)\s+(?:and|&)\s+(?:the\s+)?({ORDINAL}|\d|top|bottom)\s+"
                     rf"(?:wires?\s+|ones?\s+)?(?:(?:are|is|r)\s+(?:both\s+)?|both\s+)({PALETTE.pattern.pattern})\b")
_MIDDLE = re.compile(rf"\bthe\s+(?:(two|three|[23])\s+in\s+(?:the\s+)?middle|middle\s+(two|three|[23]))\s+(?:ones\s+)?"
                     rf"(?:are|r)\s+(?:both\s+|all\s+)?({PALETTE.pattern.pattern})\b")
"""The wires between the ends said as one group ("the two in middle are red"), placed once the count is known."""
"""Two wires said to share a colour ("the fourth and fifth are both black"): each of them that colour."""
_COUNT = re.compile(r"\b(\d|[ivx]{1,3})\s+(?:\w+\s+)?wires?\b|\bwires?\s*\(\s*(\d)\s*(?:total|in total|of them)?|"
                    r"\b(?:wire count|number of wires|count)\s*[:=-]?\s*(\d)\b", re.IGNORECASE)
_TOTAL = re.compile(r"\b(\d)\s+(?:in\s+)?total\b", re.IGNORECASE)
_LEGEND = re.compile(r"\b([A-Za-z])\s*(?:=|:)\s*([a-z]+)", re.IGNORECASE)
_NOT_A_WIRE = re.compile(r"^\s*(?:plate|label|sticker|background|panel|text|letters|box|square|lettering)\b")
_TO = r"\s*(?:to|2|till|thru|through|-*>|→|up to|down to)\s*(?:the\s+)?"  # "top to bottom", "top 2 bottom"
_BOTTOM_UP = re.compile(rf"\b(?:from (?:the )?bottom|bottom{_TO}top|bottom (?:up|-up)|bottom-up|bottom upwards?|"
                        r"going up|upwards|listed from the bottom|starting (?:at|from) the bottom)\b")
_TOP_DOWN = re.compile(rf"\b(?:top{_TO}bottom|from (?:the )?top|top down|top-down|topmost first|"
                       r"numbered from the top)\b")


def _serial_and_rest(text: str, state: dict[str, Any]) -> str:
    """Read the serial number (or its parity) into `state`; return `text` without it."""
    for keyword in _SERIAL_WORD.finditer(text):
        window = text[keyword.end():keyword.end() + 45]
        found = _SERIAL.search(window)
        if found and any(ch.isdigit() or ch == "?" for ch in found.group(1)):
            serial = found.group(1).upper()
            state["serial"] = serial if len(serial) == SERIAL_LENGTH else "?"  # a character missing or extra
            start = keyword.end() + found.start()
            text = text[:start] + " " * len(found.group(1)) + text[start + len(found.group(1)):]
    parity = _PARITY.search(text)
    if parity:
        state["serial"] = "0000" + ("1" if parity.group(1).lower() == "odd" else "0")
    digit = _LAST_DIGIT.search(text)
    if digit:
        state["serial"] = "0000" + digit.group(1)
    if _NO_SERIAL.search(text) and "serial" not in state:
        state["serial"] = "?"
    return text


def _legend(text: str) -> str:
    """Letters defined in a legend ("R=red W=white") written out as colours; not Roman numerals ("V = red")."""
    letters = {m.group(1).upper(): PALETTE.words[m.group(2).lower()][0] for m in _LEGEND.finditer(text)
               if m.group(2).lower() in PALETTE.words}
    if len(letters) < 2 or re.search(r"(?<![A-Za-z])(?:II|III|IV|VI)\s*[=:]", text):  # "V = red, ..., IV = red"
        return text
    text = _LEGEND.sub(" ", text)
    return re.sub(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", lambda m: letters.get(m.group(1), m.group(1)), text)


def _at(where: str, colour: str) -> str:
    """One wire's place and colour in the words `_placed` reads ("fourth black", "wire 4 black")."""
    if where in ("top", "bottom"):
        return f"{where} wire {colour}"
    return f"wire {where} {colour}" if where.isdigit() else f"{where} {colour}"


def _middle(match: re.Match[str], count: int) -> str:
    """"the two in the middle are red" of four wires as "wire 2 red, wire 3 red"."""
    k = number(match.group(1) or match.group(2)) or 2
    first = (count - k) // 2 + 1
    places = range(first, first + k)
    return match.group(0) if (count - k) % 2 else ", ".join(f"wire {i} {match.group(3)}" for i in places)


def _times(low: str, mention: Any) -> int:
    """How many wires one colour in a list stands for ("black, then two blue ones": two), not "wire 2 red"."""
    said = re.search(r"(?<!wire )(?<!number )(?<!#)\b(two|three|[23])\s+(?:more\s+)?$", low[:mention.start])
    plural = re.match(r"\s+(?:ones|wires|more)\b", low[mention.end:]) or low[mention.start:mention.end].endswith("s")
    return number(said.group(1)) or 1 if said and plural else 1


def _runs(low: str, colours: list[Any]) -> list[list[Any]]:
    """The colours in runs of a list ("red, white, black and yellow"), each run in order."""
    runs: list[list[Any]] = []
    for mention in colours:
        if runs and re.fullmatch(r"\s*(?:,|and|then|->|/)?\s*(?:and\s+|then\s+)?", low[runs[-1][-1].end:mention.start]):
            runs[-1].append(mention)
        else:
            runs.append([mention])
    return runs


class WirePhrases(Phrasebook):
    # -- the expert reads a description -----------------------------------------------------------
    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = _serial_and_rest(ASIDE.sub(" ", sounds_like(clean(text))), state)
        text = drop_negated(spelled_numbers(fix_typos(_legend(text), (*VOCABULARY, *NUMBER_VOCABULARY))), PALETTE)
        low = _UNDER_IT.sub(lambda m: f"{m.group(1)} and {say_ordinal(_ORDINALS.index(m.group(1)) + 2)}", text.lower())
        low = _TOP_GROUP.sub(lambda m: ", ".join([m.group(2)] * (number(m.group(1)) or 1)), low)
        low = _SHARED.sub(lambda m: ", ".join(_at(m.group(k), m.group(3)) for k in (1, 2)), low)
        count = self._count(low)
        if count:
            state["count"] = count
            low = _MIDDLE.sub(lambda m: _middle(m, count), low)
        by_value = {k: PALETTE.one(v) for k, v in grouped(low).items()}
        if len(by_value) >= 3 and all(by_value.values()) and sorted(by_value) == list(range(1, len(by_value) + 1)):
            state["colours"] = dict(sorted(by_value.items()))  # "red: 1, 3 / black: 2"
            return
        colours = [m for m in PALETTE.mentions(low) if not _NOT_A_WIRE.match(low[m.end:])]
        spans = self._placed(low, count or 0)[1]
        listed = [m for m in colours if not any(s <= m.start < e for s, e in spans)]
        if count and len(colours) != count and len(listed) == count:
            colours = listed  # a list, then a wire put right: "..., white, the last one is yellow, not red"
        known = count or state.get("count")
        runs = [run for run in _runs(low, colours) if len(run) == known]
        if known and len(colours) != known and runs:
            colours = runs[-1]  # a wire put right, then the whole list again: "it's black. so red, white, black"
        counted = [m for m in colours if re.search(r"(?<!#)\b(?:\d|one|two|a|an)\s*$", low[:m.start])]
        if colours and len(counted) == len(colours) and not re.search(r"\b(?:top|bottom|first|wire \d)\b", low):
            self._counts_only(low, colours, state)
            return
        order = [m.options for m in colours for _ in range(_times(low, m))]
        if _BOTTOM_UP.search(low) and not _TOP_DOWN.search(low) or (
                colours and re.search(r"\bbottom\b[^,.]{0,20}$", low[:colours[0].start]) and not _TOP_DOWN.search(low)):
            order.reverse()
        if len(order) >= 3 or (count and len(order) == count):
            state["colours"] = dict(enumerate(order, start=1))
            state.pop("counts", None)
            # "six wires: yellow, red, black, black, black": the count and the list disagree
            state["mismatch"] = len(order) if count and count > len(order) and not HEDGES.search(text) else 0
        for index, options in self._placed(low, state.get("count") or len(order))[0].items():
            state.setdefault("colours", {})[index] = options

    def _count(self, low: str) -> int | None:
        for match in _COUNT.finditer(low):
            token = match.group(1) or match.group(2) or match.group(3)
            value = number(token) if token.isdigit() else ROMAN.get(token)
            if value and 3 <= value <= 6:
                return value
        total = _TOTAL.search(low)
        return int(total.group(1)) if total and 3 <= int(total.group(1)) <= 6 else None

    def _counts_only(self, low: str, colours: list[Any], state: dict[str, Any]) -> None:
        counts: dict[str, int] = {}
        for mention in colours:
            word = re.search(r"(\d|one|two|a|an)\s*$", low[:mention.start])
            said = (number(word.group(1)) or 1) if word else 1
            counts[mention.options[0]] = counts.get(mention.options[0], 0) + said
        state["counts"] = counts
        state.pop("colours", None)
        state.setdefault("count", sum(counts.values()))

    def _placed(self, low: str, count: int) -> tuple[dict[int, tuple[str, ...]], list[tuple[int, int]]]:
        """Colours said to be at a position ("wire 3 is red", "third red", "IV white"), and the spans saying so."""
        placed: dict[int, tuple[str, ...]] = {}
        spans: list[tuple[int, int]] = []
        colour = PALETTE.pattern.pattern
        patterns = (
            (rf"(?:wire|position|pos|number|no|#)\s*#?\s*(\d)\b(?:\s*\([^)]*\))?\s*(?:is|=|:|-)?\s*(?:actually\s+)?"
             rf"(?:an?\s+)?((?:{colour})(?:\s*(?:or|/)\s*(?:{colour}))*)", "n"),
            (rf"(?m)^\s*(\d)\s*[.):-]\s*((?:{colour})(?:\s*(?:or|/)\s*(?:{colour}))*)", "n"),
            (rf"(?<!\ba )(?<!\ban )\b({ORDINAL})(?:\s+(?:wire|one))?(?:\s+(?:from|counting from) the (?:top|bottom))?"
             rf"\s*(?:is|=|:|-)?\s*(?:actually\s+)?(?:an?\s+)?((?:{colour})(?:\s*(?:or|/)\s*(?:{colour}))*)", "o"),
            (rf"\b(i{{1,3}}|iv|vi?)\s*(?:[=:]\s*|\s(?:is\s+)?)((?:{colour}))", "r"),
            (rf"\b(top|bottom)(?:most)?\s+(?:one|wire)\s+(?:is\s+)?(?:actually\s+)?((?:{colour}))", "e"),
            (rf"((?:{colour}))\s+at the (?:very\s+)?(top|bottom)\b", "e2"),
        )
        for pattern, kind in patterns:
            for match in re.finditer(pattern, low):
                where, what = (match.group(2), match.group(1)) if kind == "e2" else (match.group(1), match.group(2))
                if kind == "n":
                    index = number(where)
                elif kind == "o":
                    index = ordinal(where, count or None)
                    if index and count and re.search(r"from the bottom", match.group(0)):
                        index = count + 1 - index
                elif kind == "r":
                    index = ROMAN.get(where)
                else:
                    index = 1 if where == "top" else (count or None)
                options = tuple(o for m in PALETTE.mentions(what) for o in m.options)
                if index and 1 <= index <= 6 and options:
                    placed[index] = options
                    spans.append(match.span())
        return placed, spans

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        colours: dict[int, tuple[str, ...]] = said.get("colours") or {}
        count = said.get("count") or (max(colours) if colours else None)
        if "counts" in said:
            pool = [c for c, n in said["counts"].items() for _ in range(n)]
            orders = sorted(set(itertools.permutations(pool)))
            wires: Any = unknown("the order of the wires from the top", [list(o) for o in orders])
        elif said.get("mismatch"):  # the colours in the list, before any placed apart ("black at the bottom")
            wires = unknown(f"how many wires there are (you said {count}, but listed {said['mismatch']} colours)", [])
        elif count:
            wires = []
            for k in range(1, count + 1):
                name = "the last wire" if k == count else f"wire {k}"
                wires.append(fact(colours.get(k), f"{name} is", f"the colour of {name}", COLORS))
        else:
            wires = unknown("how many wires there are and their colours from the top", [])
        serial = said.get("serial")
        if not serial or serial.endswith("?"):
            serial = unknown("the serial number (its last digit)", ["00000", "00001"])
        return {"wire_colors_top_to_bottom": wires, "serial_number": serial, "cut_wires": []}

    # -- the expert's words -----------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        k = int(action.rsplit("_", 1)[1])
        options = [
            f"Cut the {say_ordinal(k, rng)} wire.",
            f"The one you want is wire {say_number(k, rng)}.",
            f"Snip the {say_ordinal(k, rng)} wire from the top.",
            f"Go for wire number {say_number(k, rng)}.",
        ]
        colors = seen["wire_colors_top_to_bottom"]
        if isinstance(colors, list) and all(isinstance(c, str) for c in colors):  # nothing left open
            color = colors[k - 1]
            options.insert(3, f"Cut the {color} wire, the {say_ordinal(k, rng)} one from the top.")
            if k == len(colors):
                options.append(choose(rng, ("Cut the last wire.", "Cut the bottom wire, the last one.")))
            if colors.count(color) == 1:
                options.append(choose(rng, (f"Cut the {color} wire.", f"Cut the only {color} wire.")))
        return choose(rng, options)

    # -- the solver describes and reads advice ----------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        colors = list(state["wire_colors_top_to_bottom"])
        serial = state["serial_number"]
        n = say_number(len(colors), rng)
        listed = ", ".join(colors[:-1]) + " and " + colors[-1]
        return choose(rng, (
            f"I see {n} wires. From the top they are {listed}. The serial number is {serial}.",
            f"{n.capitalize()} wires, top to bottom: {', '.join(colors)}. Serial: {serial}.",
            " ".join(f"Wire {k} is {c}." for k, c in enumerate(colors, 1)) + f" The serial number reads {serial}.",
            f"Serial number {serial}. Going up from the bottom wire: {', '.join(reversed(colors))}.",
            f"There are {n} wires; reading from the top: {listed}. The serial number printed on it is {serial}.",
        ))

    def understand(self, text: str, puzzle: Any) -> Steps:
        colors = list(puzzle.visible_state()["wire_colors_top_to_bottom"])
        low = plain(text, VOCABULARY).lower()
        said = [re.sub(rf"\bnot (?:the )?(?:{ORDINAL}|wire \d|\d)\b(?: (?:one|wire))?", " ", drop_negated(s, PALETTE))
                for s in sentences(low)]  # "there is no red wire, so ...": no red wire is meant
        for k in range(1, len(said)):  # "find the black wire. the one directly underneath it ..."
            before = sorted({o for m in PALETTE.mentions(said[k - 1]) for o in m.options})
            said[k] = _NEXT_TO_IT.sub(rf"\1 the {before[0]} one", said[k]) if len(before) == 1 else said[k]
        ruled: set[int] = set()  # "not the top blue either", "skip the first blue": each one wire ruled out
        for k, part in enumerate(said):
            for match in reversed(list(_RULED.finditer(part))):
                out = _refers_to(match.group(1), colors)
                ruled |= out if out and len(out) == 1 else set()
                said[k] = part = part[:match.start()] + " " + part[match.end():]
        chosen, sentence = meant(said, lambda s: _refers_to(s, colors))
        if chosen is None:
            return Steps()
        if len(chosen) > 1 and chosen - ruled:  # "the other blue"
            chosen -= ruled
        if len(chosen) == 1 and not HEDGES.search(sentence) and not re.search(r"\bone of\b", sentence):
            return Steps([f"cut_wire_{min(chosen)}"])
        if not chosen:
            return Steps.unclear("I don't see that wire here. Which wire do you mean, counting from the top?")
        named = " or the ".join(say_ordinal(k) for k in sorted(chosen))
        return Steps.unclear(f"Which wire do you mean: the {named} from the top?")


_RULED = re.compile(r"\b(?:not|skip|except(?: for)?|other than|ignore)\s+(the\s+[a-z0-9 ]{1,30}?)(?:\s+(?:either|too))?"
                    r"(?=\s*(?:[.,;!:]|\s-|$))")
"""A wire ruled out by a reference ("not the top blue either", "skip the first blue,")."""
_NEXT_TO_IT = re.compile(r"\b(below|under|beneath|underneath|after|above|before|over)\s+(?:it|th(?:at|is)(?: one)?)\b")
"""A wire placed by one named in the sentence before ("... underneath it")."""


def _refers_to(sentence: str, colors: list[str]) -> set[int] | None:
    """The wires (1-based) a sentence of advice could mean (several: ambiguous; none: no such wire), or None."""
    count = len(colors)
    wires: set[int] | None = None

    def narrow(candidates: set[int]) -> None:
        nonlocal wires
        wires = set(candidates) if wires is None else wires & candidates

    def of_colour(colour: str) -> list[int]:
        return [k for k, c in enumerate(colors, start=1) if c == colour]

    numbered = re.search(r"\b(?:wire|number|no|#)\s*#?\s*(\d)\b|#(\d)\b|\bcut_wire_(\d)\b", sentence)
    if numbered:
        k = int(next(g for g in numbered.groups() if g))
        narrow({count + 1 - k if re.search(r"\bfrom the bottom\b", sentence) else k})  # "wire 3, from the bottom"
    colour = [m.options[0] for m in PALETTE.mentions(sentence) if len(m.options) == 1]
    anchor = re.search(r"\b(below|under|beneath|underneath|after|above|before|over)\s+the\s+"
                       r"(?:(top|upper|bottom|lower)(?:most)?\s+)?(\w+)\s+(?:one|wire)", sentence)
    if anchor and anchor.group(3) in COLORS:  # "under the top blue one": the top one of the blue wires
        step = 1 if anchor.group(1) in ("below", "under", "beneath", "underneath", "after") else -1
        same = of_colour(anchor.group(3))
        same = same[:1] if anchor.group(2) in ("top", "upper") else same[-1:] if anchor.group(2) else same
        narrow({k + step for k in same if 1 <= k + step <= count})
        colour = [c for c in colour if c != anchor.group(3)]
    between = re.search(r"\bbetween\s+(?:the\s+)?(?:two\s+)?(\w+)\s+(?:wires|ones)\b|"
                        r"\bbetween\s+the\s+(\w+)(?:\s+(?:wire|one))?\s+and\s+the\s+(\w+)\b", sentence)
    ends = [k for g in (between.groups() if between else ()) if g in COLORS for k in of_colour(g)]
    if between:  # "between the two yellow wires", "between the red and the blue one"
        narrow(set(range(min(ends) + 1, max(ends))) if len(ends) == 2 else set())
        colour = [c for c in colour if c not in between.groups()]
    nth = re.search(rf"\b(second to last|{ORDINAL})\s+(\w+)\s+(?:wire|one)\b", sentence)
    if nth and nth.group(2) in COLORS:  # "the second red wire", "the last blue one"
        same = of_colour(nth.group(2))
        position = len(same) - 1 if nth.group(1) == "second to last" else ordinal(nth.group(1), len(same)) or 0
        narrow({same[position - 1]} if 0 < position <= len(same) else set())
        colour = [c for c in colour if c != nth.group(2)]
    ranked = None if nth else re.search(
        rf"\b(second to last|second-last|next to last|{ORDINAL})\b(?:\s+(?:\w+\s+)?(?:wire|one))?"
        rf"(?:\s+(?:from|counting from)\s+the\s+(top|bottom|up|down))?", sentence)
    if ranked:
        word = ranked.group(1)
        if word in ("second to last", "second-last", "next to last"):
            position = count - 1
        else:
            position = ordinal(word, count) or 0
            if ranked.group(2) in ("bottom", "down") and word != "last":
                position = count + 1 - position
        narrow({position} if 1 <= position <= count else set())
    if re.search(r"\b(?:middle|center|centre)\b", sentence):
        narrow({(count + 1) // 2} if count % 2 else {count // 2, count // 2 + 1})
    two = re.search(r"\b(top|bottom|first|last) two\b", sentence)
    if two:
        narrow({1, 2} if two.group(1) in ("top", "first") else {count - 1, count})
    for c in colour[:1]:
        same = of_colour(c)
        if re.search(rf"\b(?:top|upper|high)(?:most|est)?\s+{c}\b", sentence):
            narrow({same[0]} if same else set())
        elif re.search(rf"\b(?:bottom|lower|low)(?:most|est)?\s+{c}\b", sentence):
            narrow({same[-1]} if same else set())
        else:
            narrow(set(same))
    if re.search(r"\b(?:top|topmost|upper|uppermost)\s+(?:wire|one)\b", sentence):
        narrow({1})  # "the top wire (the red one)": the colour only says it again
    if re.search(r"\b(?:bottom|bottommost|lowest)\s+(?:wire|one)\b", sentence):
        narrow({count})
    if wires is None and re.search(r"\b(?:cut|snip|clip)\b", sentence) and re.search(r"\bwire\b", sentence):
        return set(range(1, count + 1))  # "cut the wire": which one?
    return wires
