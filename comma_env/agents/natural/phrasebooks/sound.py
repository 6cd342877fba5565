"""Sound in plain English: the clip in the describer's words, matched to the manual's sounds by their
telling features (asking about the feature that separates them). Advice: the code as symbols, names or keys."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, leftover, unknown
from comma_env.agents.natural.reading import HEDGES, ORDINAL, clean, either_way, ordinal, plain, sentences
from comma_env.agents.natural.words import choose
from comma_env.audio.synth import SIGNATURES
from comma_env.puzzles.sound import CODE_LENGTH, SYMBOL_ACTIONS

FEATURES: dict[str, dict[str, int]] = {
    "Car engine": {r"engine|motor|idling|car\b": 5, r"rumbl": 3, r"\bhum": 2, r"throb|puls": 2, r"\blow": 1,
                   r"steady|same pitch|doesn'?t (?:go up|change)|stays the same": 1},
    "Birdsong": {r"\bbird|tweet|chirp": 5, r"swoop": 2, r"very high|really high|high|piercing|shrill": 1,
                 r"quick|fast": 1, r"gaps": 1, r"up (?:and|n) down": 1},
    "Police siren": {r"siren|police|ambulance|wail|whoop": 5, r"loud": 2, r"slides?|sliding|glides?": 2,
                     r"up (?:and|&) down|rises and fall": 1, r"once a second|roughly once|about once": 2, r"\btone": 1},
    "Dripping tap": {r"drip|faucet|\btap\b(?! it)|plinks?|plonk|drops?\b|droplet": 5, r"evenly spaced|regular": 1,
                     r"a few (?:a|per) second|few per sec": 2, r"short|single": 1},
    "Ticking clock": {r"tick|tock|clock": 5, r"clicks?": 3,
                      r"two per second|2 per second|twice a second|two a second": 3,
                      r"louder and softer|loud,? soft|alternat": 2, r"\bdry": 1},
    "Heartbeat": {r"heart|lub|dub|thump": 5, r"pairs?|double": 2, r"very low|low": 1, r"soft": 1,
                  r"(?:a bit|a little) (?:more|faster) than once|over 1 per sec|just over once": 2},
    "Telephone": {r"\b(?:tele)?phone|brr+ing|\bring(?:ing)?\b": 5, r"buzz": 3, r"two-tone|two tones": 3,
                  r"silence|pause": 1, r"half a second": 1},
    "Doorbell": {r"doorbell|ding|dong|chime|bell": 5, r"two (?:clear )?(?:bell )?notes": 2, r"second (?:one )?lower": 3,
                 r"fad": 1},
    "Rain": {r"\brain": 5, r"hiss": 3, r"random|patter": 2, r"tiny taps|taps|crackl": 2, r"soft": 1},
    "Whistle": {r"whistl": 5, r"pure|clean": 2, r"very high|really high|high|piercing|shrill": 1,
                r"one long|single long|long": 1,
                r"steady|doesn'?t change|constant": 1, r"\bnote|\btone": 1},
    "Cow": {r"\bcow|\bmoo": 5, r"dron": 3, r"rises a little|goes up a little|rises": 2, r"\blow": 1, r"long": 1,
            r"fad": 1},
    "Extractor fan": {r"\bfan|ventilat|extractor|air ?con": 5, r"whoosh|air": 3, r"flutter": 3, r"dull": 2,
                      r"steady": 1},
}
"""Each listed sound's telling words (regex) and how much each counts; a sound's name counts most."""

QUESTIONS: dict[frozenset[str], str] = {
    frozenset({"Rain", "Extractor fan"}): "whether the hiss has many tiny random taps in it, or a faint flutter",
    frozenset({"Birdsong", "Whistle"}): "whether it is one steady pure note, or quick chirps that swoop up and down",
    frozenset({"Dripping tap", "Ticking clock"}):
        "whether they are dry clicks that alternate louder and softer, or plinks",
    frozenset({"Police siren", "Birdsong"}): "whether it is one loud tone sliding up and down, or quick chirps",
    frozenset({"Car engine", "Heartbeat"}): "whether it is a steady hum, or soft thumps in pairs",
}
"""How to ask between two sounds that share their first impression."""

LOOKS = {s.name: s.description for s in SIGNATURES}
SYMBOL_WORDS = {"$": r"\bdollars?(?: sign)?\b|\b(?:money|cash|currency) (?:sign|symbol)\b|\$|"
                     r"\bs with an? (?:line|stroke|bar)(?: through it)?",
                "*": r"\b(?:stars?|asterisks?|snowflake|splat)\b|\*",
                "&": r"\b(?:ampersands?|and[- ](?:sign|symbol|mark)|amp|pretzel(?:-shaped)?(?: one)?)\b|&|"
                     r"(?:(?<=\bthe )|(?<=, )|^)and(?=\s*[,;.]|\s*$|\s+(?:one|key|button|symbol)\b)|"
                     r"(?<=['\"])and(?=['\"])",
                "#": r"\b(?:hash(?:tag)?|number sign|pound(?: sign)?|sharp|octothorpe|tic-?tac-?toe(?: grid)?)\b|#"}
"""Each key's words: the glyph, its names and its look ("the S with a line through it", "the pretzel-shaped one");
"and" alone as a list item, quoted or after "the" ("pound, star, and, dollar", "the and key") is the & key."""
_SYMBOL = re.compile("|".join(f"(?P<s{i}>{pattern})" for i, pattern in enumerate(SYMBOL_WORDS.values())), re.IGNORECASE)
_KEYS = list(SYMBOL_WORDS)
_GLOSS = r"[\w\s]{0,12}?(?:key|sign|symbol|button)?[\s(\"']*(?:(?:the|a|an|little|one)\s+)*[\"']?"
_NAMES = {"$": "dollar", "*": "star", "&": "ampersand", "#": "hash"}
_RUN = re.compile(r"(?<![\w$*&#])[$*&#](?:\s*[$*&#]){1,3}(?![\w$*&#])")
VOCABULARY = ("dollar", "star", "ampersand", "hash", "then", "and", "the", "press", "type", "enter", "code")


def scores(text: str) -> dict[str, int]:
    low = text.lower()
    return {name: sum(weight for pattern, weight in features.items() if re.search(pattern, low))
            for name, features in FEATURES.items()}


def identify(text: str) -> list[str]:
    """The listed sounds `text` could describe, best first: one only when its telling words clearly win."""
    ranked = sorted(scores(text).items(), key=lambda item: -item[1])
    best, second = ranked[0][1], ranked[1][1]
    if best >= 4 and best - second >= 3:  # its name, or three telling features beyond the rest
        return [ranked[0][0]]
    close = [name for name, score in ranked if score and score >= best - 2]
    return close[:3] if len(close) > 1 else [name for name, _ in ranked[:2]]


_EITHER = re.compile(r"\b(?:could|might|may) be\s+([^,.;!?\n]{1,40}?)\s+or\s+([^,.;!?\n]{1,40})", re.IGNORECASE)


def alternatives(text: str) -> list[str]:
    """The sounds of "could be A, could be B" when A and B name different ones ("could be air blowing or could be
    rain"): the describer leaves it open between them, so no one of them is read as heard."""
    named: list[str] = []
    for match in _EITHER.finditer(either_way(text)):
        for side in match.groups():
            if sum(scores(side).values()):
                named += [name for name in identify(side)[:1] if name not in named]
    return named if len(named) > 1 else []


class SoundPhrases(Phrasebook):
    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = clean(text)
        display = re.search(r"\b(?:display|screen)\b[^.\n]*?\b(?:shows?|reads?|says?|:)\s*([$*&#](?:\s*[$*&#_\-]){0,"
                            r"4})", text, re.IGNORECASE)
        if display:
            state["entered"] = re.sub(r"[^$*&#]", "", display.group(1))
        described = re.sub(r"\b(?:display|screen)\b[^\n.]*", " ", text)
        if re.search(r"[a-z]{3}", described, re.IGNORECASE) and \
                not re.fullmatch(r"[\W\d]*(?:what'?s left|last one)?\W*", described, re.IGNORECASE):
            found = alternatives(described) or identify(described)
            if len(found) == 1 or not state.get("sounds") or re.search(r"sorry|correction|again|actually", text, re.I):
                if sum(scores(described).values()):
                    state["sounds"] = found

    def typed(self, actions: list[str], memory: Memory) -> None:
        state = memory["state"]
        for action in actions:
            symbol = next((s for s, a in SYMBOL_ACTIONS.items() if a == action), None)
            if symbol:
                state["entered"] = state.get("entered", "") + symbol

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        sounds = said.get("sounds")
        if sounds and len(sounds) == 1:
            heard: Any = LOOKS[sounds[0]]
        else:
            options = sounds or list(LOOKS)
            about = QUESTIONS.get(frozenset(options)) if len(options) == 2 else None
            heard = unknown(about or "what the sound is like (pitch, rhythm, whether it moves up or down)",
                            [LOOKS[name] for name in options])
        return {"sound_heard": heard, "code_entered": said.get("entered", ""), "module_disarmed": False}

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        symbol = next(s for s, a in SYMBOL_ACTIONS.items() if a == action)
        name = _NAMES[symbol]
        return choose(rng, (f"Press the {name} key ({symbol}).", f'Key in "{symbol}".', f"Hit the {name} sign."))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        heard, entered = state["sound_heard"], state["code_entered"]
        typed = f" The display shows {' '.join(entered)} so far." if entered else ""
        return choose(rng, (f"The clip sounds like this: {heard}.", f"I hear {heard}.",
                            f"It's {heard}, as far as I can tell.")) + typed

    def understand(self, text: str, puzzle: Any) -> Steps:
        entered = str(puzzle.visible_state()["code_entered"])
        if _RUN.fullmatch(text.strip(" \t\n.!")):  # "# * & $": the code's glyphs, not a heading and a bullet
            text = " ".join(_NAMES[glyph] for glyph in re.sub(r"[^$*&#]", "", text))
        text = plain(text, VOCABULARY)
        if HEDGES.search(text) or re.search(r"\bor was it\b|\bno wait\b|\bthe other one\b|\bsomewhere\b|"
                                         r"\b(?:in )?(?:some|any|whatever|no particular) order\b", text, re.IGNORECASE):
            return Steps.unclear("Which symbols exactly, in which order?")
        said = re.sub(r"\byou(?: have|'ve)\b[^.;]*?\balready\b|\b(?:already|so far)\b[^.]*", " ", text,
                      flags=re.IGNORECASE)
        symbols: list[str] = []
        for sentence in sentences(said):
            found = _symbols(sentence)
            anded = _symbols(re.sub(r"(?<=[\w$*#])\s+and\s+(?=[\w$*#])", " ampersand ", sentence))
            if len(entered) + len(found) < CODE_LENGTH == len(entered) + len(anded):
                if "," in sentence:  # "hash, dollar and star": a list's "and", or the & key?
                    return Steps.unclear('Is "and" the & key, or is a symbol missing? Which four, in order?')
                found = anded  # "hash dollar and star": four keys, so "and" is the & key
            if found and re.search(r"\bbefore (?:that|it)\b", sentence, re.IGNORECASE):
                found = _backwards(sentence, found)
                if not found:
                    return Steps.unclear("In which order should I press the symbols, first to last?")
            named = re.finditer(rf"{_SYMBOL.pattern}|\b{ORDINAL}\s+(?:key|button)", sentence, re.IGNORECASE)
            unread = leftover(sentence, [m.start() for m in named])
            if found and unread:
                return Steps.unclear(f'Which symbol do you mean by "{unread}"?')
            if found:
                symbols = found if len(found) >= CODE_LENGTH else symbols + found
        if re.search(r"\b(?:the )?last one\b|\bthe rest\b|\bits code\b|\bthe code\b(?!\s*:)|\bfrom the row\b", said,
                     re.I) and len(entered) + len(symbols) < CODE_LENGTH:
            return Steps.unclear("Which symbols should I press, in which order?")
        if not symbols:
            return Steps.unclear("Which symbols should I press?") if re.search(
                r"\b(?:press|type|enter|key in|code|symbol)\b", said, re.IGNORECASE) else Steps()
        if len(symbols) == CODE_LENGTH and entered and symbols[:len(entered)] == list(entered):
            symbols = symbols[len(entered):]
        return Steps([SYMBOL_ACTIONS[s] for s in symbols])


def _symbols(sentence: str) -> list[str]:
    """The symbols of one sentence in order: glyphs, names, or keys by position ("the 4th key")."""
    found: list[tuple[int, int, str]] = []
    for match in _SYMBOL.finditer(sentence):
        group = next(name for name, value in match.groupdict().items() if value)
        found.append((match.start(), match.end(), _KEYS[int(group[1:])]))
    for match in re.finditer(rf"\b({ORDINAL})\s+(?:key|button)\b(?!\s*\()", sentence, re.IGNORECASE):
        index = ordinal(match.group(1), len(_KEYS))
        if index and 1 <= index <= len(_KEYS):
            found.append((match.start(), match.end(), _KEYS[index - 1]))
    found.sort()
    merged: list[str] = []
    last = -1
    for start, end, symbol in found:
        if merged and merged[-1] == symbol and re.fullmatch(_GLOSS, sentence[last:start]):
            continue  # "the dollar key ($)", "and-sign (&)", 'ampersand (the "and" sign)': one key
        merged.append(symbol)
        last = end
    return merged


def _backwards(sentence: str, found: list[str]) -> list[str]:
    """`found` first to last when each symbol is said before the one ahead of it ("last is $, before that *, ...");
    empty when "before that" leaves the order open (it joins some symbols only)."""
    starts = list(_SYMBOL.finditer(sentence))
    gaps = [sentence[a.end():b.start()] for a, b in itertools.pairwise(starts)]
    if len(starts) != len(found) or not all(re.search(r"\bbefore (?:that|it)\b|\bfirst\b", gap, re.I) for gap in gaps):
        return []
    return found[::-1]
