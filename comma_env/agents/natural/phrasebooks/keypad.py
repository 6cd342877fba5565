"""Keypad in plain English: each key's symbol by glyph, name or look, placed by position, row, reading
order or clockwise, and the lit keys. Advice: an order of keys by symbol or position, or a correction."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural import grid
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, leftover, unknown
from comma_env.agents.natural.reading import HEDGES, plain, sentences
from comma_env.agents.natural.symbols import SYMBOL_WORDS, VAGUE, SymbolMention, looks, mentions, phrase
from comma_env.agents.natural.words import choose, position_words, which_one
from comma_env.puzzles.keypad import POSITIONS, SYMBOL_NAMES, matching_columns

ROWS = ("top", "bottom")
VOCABULARY = (*grid.VOCABULARY, "symbols", "keypad", "lit", "glowing", "then", "after", "first", "finally",
              *{w for ws in SYMBOL_WORDS.values() for w in re.split(r"[\s-]", " ".join(ws)) if len(w) > 5})  # "pilcorw"
_LIT = re.compile(r"\b(?:lit|lights? up|lighted|glowing|glows?|illuminated|light(?:ed)? on|with light|turned green|"
                  r"is green|are green|lit up)\b", re.IGNORECASE)
_UNLIT = re.compile(r"\b(?:unlit|none (?:of them )?(?:are|is) lit|not lit|no lights?|nothing (?:is )?lit|all dark|"
                    r"none lit)\b", re.IGNORECASE)
_CLOCKWISE = re.compile(r"\b(counter-?clockwise|anti-?clockwise|clockwise)\b", re.IGNORECASE)
_UNPLACED = re.compile(r"\b(?:which (?:side|one is (?:on the )?(?:left|right)|is which)|didn'?t note|not sure where)\b",
                       re.IGNORECASE)
_INSTRUCTION = re.compile(r"\b(?:press|push|hit|tap|click|start|begin|then|next|first|order|go|keep going|finally)\b",
                          re.IGNORECASE)
_REST = re.compile(r"\b(?:the rest|others?|remaining)\b[^.]{0,25}\b(?:as (?:i said|before|i told you)|same|"
                   r"unchanged)\b", re.IGNORECASE)
_LINE = re.compile(r"\b(?:the\s+)?(?:(left|right)\s+column|(top|bottom)\s+row)\s*,?\s*(?:from\s+|going\s+)?"
                   r"(?:(top to bottom|left to right|down(?:wards?)?)|(bottom to top|right to left|up(?:wards?)?))\b",
                   re.IGNORECASE)
"""A column or row walked in a direction ("the left column top to bottom"): its two keys in that order."""
_READING = re.compile(rf"\b(?:{grid.READING}|row by row|left to right,? (?:then )?top(?: row)? (?:then|first)"
                      r"(?: the)?(?: bottom(?: row)?)?)\b", re.IGNORECASE)
"""All four keys in reading order, said as an order of presses."""
_ORDER_WORDS = re.compile(_READING.pattern + r"|\b(?:left to right,? (?:then|top to bottom)|top row first|"
                          r"(?:top|first) row\s*/\s*bottom row)\b|\s/\s", re.IGNORECASE)
_SWAP = re.compile(r"\bswap(?:ped)?\b[^.]{0,20}\bfirst two\b", re.IGNORECASE)


class KeypadPhrases(Phrasebook):
    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = looks(plain(text, VOCABULARY))
        symbols: dict[str, Any] = state.setdefault("symbols", {})
        for m in mentions(text):  # "top right isn't a club, it's a spade": the club blanked with its "isn't"
            if negation := re.search(r"\b(?:not|isn'?t|instead of)\s+(?:a\s+|an\s+|the\s+)?$", text[:m.start]):
                text = text[:negation.start()] + " " * (m.end - negation.start()) + text[m.end:]
        found = mentions(text)
        places = [p for p in grid.places(text, ROWS)  # not "top left is lit"; "... and nothing is lit" in a run-on
                  if not _LIT.search(sentence := _sentence_of(text, p.start)) or mentions(sentence)]
        ordered = self._ordered(text, found)
        placed = ordered or grid.by_lines(text, mentions, ROWS, grid.assign(text, places, found, ROWS))
        assigned = bool(placed)
        for sentence in sentences(text):
            keys, named = [p.key for p in grid.places(sentence, ROWS) if p.key], mentions(sentence)
            if len(keys) == len(named) == 1 and not assigned:  # "the R at top right is mirrored - a backwards R"
                placed[keys[0]] = named[0]
            if _UNPLACED.search(sentence):
                spots = [p for p in grid.places(sentence, ROWS) if p.row and not p.col]
                options = [m.options for m in mentions(sentence)]
                if spots and len(options) == 2:
                    for key in (f"{spots[0].row}_left", f"{spots[0].row}_right"):
                        placed.pop(key, None)
                        symbols[key] = options[0] | options[1]
                    state["unplaced"] = spots[0].row
        for key, mention in placed.items():
            symbols[key] = mention.options
        if not placed and len(found) == len(POSITIONS):
            state["loose"] = [m.options for m in found]
        lit = self._lit(text)
        if lit is not None:
            state["lit"] = lit

    def _ordered(self, text: str, found: list[SymbolMention]) -> dict[str, SymbolMention]:
        """Four symbols listed in reading order (said so), or clockwise from the top left."""
        if len(found) != len(POSITIONS):
            return {}
        turn = _CLOCKWISE.search(text)
        if turn:
            ring = ("top_left", "top_right", "bottom_right", "bottom_left") if turn.group(1).lower() == "clockwise" \
                else ("top_left", "bottom_left", "bottom_right", "top_right")
            return dict(zip(ring, found, strict=True))
        if _ORDER_WORDS.search(text):
            return dict(zip(POSITIONS, found, strict=True))
        return {}

    def _lit(self, text: str) -> list[str] | None:
        lit: list[str] | None = None
        for sentence in sentences(text):
            if _UNLIT.search(sentence) and not grid.places(sentence, ROWS):
                lit = [] if lit is None else lit
                continue
            if _LIT.search(sentence):
                keys = [p.key for p in grid.places(sentence, ROWS) if p.key]
                if keys and not re.search(r"\b(?:unlit|not lit)\b", sentence):
                    lit = sorted(set(keys), key=POSITIONS.index)
        return lit

    def typed(self, actions: list[str], memory: Memory) -> None:
        """Presses light their keys when right; the solver's next description says."""
        state = memory["state"]
        lit = list(state.get("lit") or [])
        for action in actions:
            position = action.removeprefix("press_")
            if position in POSITIONS and position not in lit:
                lit.append(position)
        state["lit"] = lit

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        symbols: dict[str, Any] = {}
        if said.get("loose") and not said.get("symbols"):
            orders = [dict(zip(POSITIONS, combo, strict=True))
                      for combo in itertools.permutations([sorted(o)[0] for o in said["loose"]])]
            return {"button_symbols": unknown("which symbol is on which key", orders), "lit_buttons": []}
        unplaced = said.get("unplaced")
        for position in POSITIONS:
            options = (said.get("symbols") or {}).get(position)
            where = position.replace("_", " ")
            if options and len(options) == 1:
                symbols[position] = next(iter(options))
            elif unplaced and position.startswith(unplaced):
                symbols[position] = unknown(f"which of the two {unplaced} keys shows which symbol",
                                            sorted(options or ()))
            elif options:
                names = " or ".join(f"{s} ({SYMBOL_NAMES[s]})" for s in sorted(options))
                symbols[position] = unknown(f"whether the {where} key shows {names}", sorted(options))
            else:
                symbols[position] = unknown(f"the symbol on the {where} key", list(SYMBOL_NAMES))
        return {"button_symbols": symbols, "lit_buttons": list(said.get("lit") or [])}

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        shown = state["button_symbols"]
        return len(set(shown.values())) == len(POSITIONS) and len(matching_columns(shown)) == 1

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        position = action.removeprefix("press_")
        symbols = seen["button_symbols"]
        shown = symbols.get(position) if isinstance(symbols, dict) else None
        where = position_words(position, rng)
        if not isinstance(shown, str):
            return choose(rng, (f"Press the {where} key.", f"Press the {where} button."))
        return choose(rng, (f'Press the key with the symbol "{shown}", {where}.', f"Press the {where} key.",
                            f"Press the {SYMBOL_NAMES[shown]} ({shown}), {where}.",
                            f'Go for "{shown}", the {where} one.'))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        symbols = state["button_symbols"]
        lit = state.get("lit_buttons") or []
        parts = [f"{p.replace('_', ' ')}: {symbols[p]} ({SYMBOL_NAMES[symbols[p]]})" for p in POSITIONS]
        body = choose(rng, ("The keypad shows " + "; ".join(parts) + ".", "Symbols: " + ", ".join(parts) + "."))
        shown = ", ".join(p.replace("_", " ") for p in lit)
        lights = f"Lit up: {shown}." if lit else choose(rng, ("None of the keys are lit.", "No key is lit yet."))
        return f"{body}\n{lights}"

    def understand(self, text: str, puzzle: Any) -> Steps:
        state = puzzle.visible_state()
        symbols: dict[str, str] = state["button_symbols"]
        lit = list(state["lit_buttons"])
        text, problem = grid.landmarks(looks(plain(text, VOCABULARY)), _anchors(symbols),  # "the one above the star"
                                       lambda rc: "the " + POSITIONS[2 * rc[0] + rc[1]].replace("_", " ") + " one")
        if problem:
            return Steps.unclear(problem)
        if not mentions(text):  # "it's just reading order. left to right, top row then bottom row."
            text = _READING.sub(" ", _READING.sub("top left, then top right, then bottom left, then bottom right",
                                                  text, count=1))
        text = _LINE.sub(lambda m: ", ".join(f"{m.group(2) or end} {m.group(1) or end}" for end in (
            ("top", "bottom") if m.group(1) else ("left", "right"))[::-1 if m.group(4) else 1]), text)
        wanted = len(POSITIONS) - len(lit)
        order: list[set[str]] = []
        instructed = False
        for sentence in sentences(text):
            refs = _references(sentence, symbols)
            instructed = instructed or bool(_INSTRUCTION.search(sentence))
            if _SWAP.search(sentence) and len(order) >= 2 and not refs:
                order[0], order[1] = order[1], order[0]
                continue
            if not refs:
                continue
            found = mentions(sentence)
            places = grid.places(grid.blanked(sentence, found), ROWS)
            spans: list[Any] = [*found, *places]
            unread = leftover(sentence, [i for t in spans for i in (t.start, t.end - 1)])
            if unread:
                return Steps.unclear(f'Which key do you mean by "{unread}"?')
            if len(refs) >= wanted or not order:
                order = refs
            elif len(order) >= wanted or _REST.search(sentence) or re.search(r"\bfirst\b", sentence):
                order = refs + [r for r in order if r not in refs]
            else:
                order += refs
            if HEDGES.search(sentence):
                return Steps.unclear("I'm not sure which keys you mean. Could you give me the order again?")
        if not order:
            return Steps.unclear("In which order should I press the keys?") if instructed else Steps()
        for ref in order:
            if len(ref) != 1:
                return Steps.unclear(which_one("key", ref, symbols) if ref else
                                     "I don't see that symbol on my keypad. Which key do you mean?")
        keys = [next(iter(ref)) for ref in order]
        if len(keys) >= 4 and keys[:len(keys) // 2] == keys[len(keys) // 2:]:  # "© then ♠ ... so TR TL BR BL"
            keys = keys[:len(keys) // 2]
        if len(set(keys)) < len(keys):  # a key named twice: a slip the reader did not find, or an order it misread
            return Steps.unclear("You named one key twice. In which order should I press the keys?")
        if len(keys) == len(POSITIONS) and set(keys[:len(lit)]) == set(lit):
            keys = keys[len(lit):]
        if len(keys) < wanted and re.search(r"\bthe rest\b", text, re.IGNORECASE):
            return Steps.unclear("And after that, in which order should I press the rest?")
        return Steps([f"press_{k}" for k in keys])


def _anchors(symbols: dict[str, str]) -> dict[tuple[int, int], str]:
    """Each key's (row, column) and how a sentence names it: its symbol's words, a vague word only when one fits."""
    shown = set(symbols.values())
    return {divmod(POSITIONS.index(p), 2): "(?i:" + "|".join([re.escape(s), *map(phrase, SYMBOL_WORDS[s]), *(
        w for w, f in VAGUE.items() if set(f) & shown == {s})]) + r")(?![a-z])" for p, s in symbols.items()}


def _sentence_of(text: str, index: int) -> str:
    start = max(text.rfind(".", 0, index), text.rfind("\n", 0, index)) + 1
    ends = [e for e in (text.find(".", index), text.find("\n", index)) if e != -1]
    return text[start:min(ends) if ends else len(text)]


def _references(sentence: str, symbols: dict[str, str]) -> list[set[str]]:
    """The keys a sentence names, in order; a symbol with its position in brackets or after "(looking) one at" is
    one key ("the bug-looking one at bottom left")."""
    found = mentions(sentence)
    places = grid.places(grid.blanked(sentence, found), ROWS)
    tokens: list[Any] = sorted([*found, *places], key=lambda t: t.start)
    refs: list[set[str]] = []
    previous: Any = None
    for token in tokens:
        if isinstance(token, SymbolMention):
            keys = {p for p, s in symbols.items() if s in token.options}
        else:
            keys = grid.matching(token, ROWS)
        together = previous is not None and type(previous) is not type(token) and \
            re.fullmatch(r"(?:\s+(?:one|key|button))?[\s()\"',:\-]*(?:(?:the|your|my)\s+)?|(?:\s+(?:first|next|last))?"
                         r"[\s()\"',:\-]*(?:looking\s+)?"
                         r"(?:one\s+)?(?:that'?s|it'?s|which is|on|in|at)\s+(?:the\s+)?",
                         sentence[previous.end:token.start], re.IGNORECASE)
        if together and refs:
            refs[-1] = refs[-1] & keys
            previous = None
            continue
        if not (len(keys) == 1 and refs and keys == refs[-1] and (type(previous) is not type(token) or re.fullmatch(
                r"\s*:\s*", sentence[previous.end:token.start]))):  # "star first, bottom left", "from BR: BR, ...": one
            refs.append(keys)
        previous = token
    return refs
