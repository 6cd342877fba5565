"""Dog in plain English: how many dogs there are ("four dogs", "🐕🐕🐕", a list); "several" is asked
about. Advice says when to submit ("when the timer ends in 3", "wait 9 seconds", "now")."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, unknown
from comma_env.agents.natural.reading import ORDINAL, either_way, number, ordinal, plain
from comma_env.agents.natural.tables import tables
from comma_env.agents.natural.timing import ALTERNATIVES, moment
from comma_env.agents.natural.words import choose
from comma_env.protocol.clock import parse_timer, wait_line
from comma_env.puzzles.dog import ADVICE, COATS, MAX_DOGS, SUBMIT, seconds_to_wait

VOCABULARY = ("dogs", "dog", "timer", "submit", "standing", "sitting", "running", "lying", "spotted", "golden", "the",
              "brown", "black", "white", "grey")
_DOG = r"(?:dogs?|dogg(?:y|ie|o)s?|doggies|pups?|pupp(?:y|ies)|hounds?)"
_COUNT = re.compile(rf"\b(\d|no|zero|one|two|a pair of|a couple of)\s+(?:\w+\s+){{0,2}}?{_DOG}\b|"
                    rf"\b{_DOG}\s*[:=(]\s*(\d)\b|\b(\d)\s+(?:in\s+)?total\b|\((\d)\s*{_DOG}\)|"
                    rf"\b(?:that'?s|so|makes|count(?:ed)?)\s+(\d|one|two|none|zero)\b(?!\s*:)|"
                    rf"\bno\s+{_DOG}\b|\b(?:just|only)\s+(?:the\s+)?(one)\b", re.IGNORECASE)
_VAGUE = re.compile(r"(?<!\bno )\b(?:several|some|a few|many|lots of|a bunch of|a couple|more)\b[^.]{0,20}\bdogs?\b"
                    r"(?!\s+(?:are|is)(?:n'?t| not)\b)|"
                    r"\bhaven'?t counted|\bnot sure how many|\bsome more\b", re.IGNORECASE)
_COATS = "|".join([*COATS, "gray", "tan", "cream"])
_ONE_DOG = re.compile(rf"\b(?:an?\s+|another\s+|one\s+)?(?:{_COATS})\s*(?:\w+\s+)?(?:dog|one|pup|puppy)\b|"
                      rf"^\s*(?:[-*]|\d+[.)])\s*(?:an?\s+)?(?:{_COATS})\b|"
                      rf"\b(?:{_COATS})\s*\(?(?:standing|sitting|running|lying)|"
                      rf"^\s*(?:{_COATS})\s*[:,]\s*(?:standing|sitting|running|lying)", re.IGNORECASE | re.MULTILINE)
_GROUP = re.compile(rf"\b(\d|two|a pair of|a couple of)\s+(?:{_COATS})\s+{_DOG}\b", re.IGNORECASE)
"""Dogs counted by coat ("3 white dogs"): with other dogs listed beside them, a part of the whole."""
_ONE_MORE = re.compile(r"\b(?:maybe|perhaps|possibly|might be|could be)\s+(?:an?\s+)?(?:another|one more|extra|other|"
                       r"fourth|fifth|sixth|third)\b|\b(?:dog|one) or (?:a|an|just a)\s+\w+|\bor an?\s+dog\b",
                       re.IGNORECASE)
"""A dog the describer is unsure of ("maybe another one behind the fountain", "a dog or a bag")."""
_EMOJI = re.compile("🐕‍🦺|🐕|🐶|🐩|🦮")
_NUMBERED = re.compile(rf"\b{_DOG}\s*#?\s*(\d)\s*(?:[:=\-]|is\b|(?=(?:an?\s+)?(?:{_COATS})\b))", re.IGNORECASE)


def count_dogs(text: str) -> tuple[int, ...] | None:
    """How many dogs `text` says there are (several readings when unsure), or None."""
    options = re.search(r"\b(\d|one|two|three|four|five)\s+or\s+(\d|two|three|four|five|six)\b(?!\s*(?:s\b|sec|:))"
                        r"(\s+(?:more|others?)\b)?", text, re.IGNORECASE)  # "4 or 5 (dogs)", "a black one, 2 or 3 more"
    if options:
        seen = len(_ONE_DOG.findall(text[:options.start()])) if options.group(3) else 0
        return tuple(seen + (number(options.group(g)) or 0) for g in (1, 2))
    said: list[int] = []
    total: int | None = None
    for match in _COUNT.finditer(text):
        word = next((g for g in match.groups() if g), "no")
        value = {"no": 0, "none": 0, "zero": 0, "a pair of": 2, "a couple of": 2}.get(word.lower(), number(word))
        if value is not None and 0 <= value <= MAX_DOGS:
            said.append(value)
            if re.match(r"[^.;]{0,12}\b(?:in total|total|altogether|in all)\b", text[match.end():], re.IGNORECASE):
                total = value
    grouped = re.findall(r"(?m)^\s*[-*]?\s*[a-z]+\s*:\s*(\d|\?)\s*$", text) if re.search(
        rf"\b{_DOG} by (?:pose|coat|colou?r|breed)\b", text, re.IGNORECASE) else []  # "Dogs by pose:\nrunning: 2"
    if grouped:
        return None if "?" in grouped else (sum(map(int, grouped)),)
    numbered = sorted({int(n) for n in _NUMBERED.findall(text)})  # "dog 1: brown, sitting", "dog 2 is white"
    tally = [int(n) for n in re.findall(r"\((\d)\)", text)]  # counted aloud: "white one sitting (1), brown (2)"
    numbered = tally if tally == list(range(1, len(tally) + 1)) and len(tally) > len(numbered) else numbered
    listed = len(_ONE_DOG.findall(text)) or len(_EMOJI.findall(text))
    if numbered and numbered == list(range(1, len(numbered) + 1)):
        listed = max(listed, len(numbered))
    placed = [ordinal(w) or 0 for w in re.findall(rf"\bthe\s+({ORDINAL})\s+(?:one|dog)\b", text, re.IGNORECASE)]
    listed = max([listed, *placed])  # "the third one is spotted": at least three
    if total is not None:
        return (total,)
    groups = [(2 if len(m.group(1)) > 1 else int(m.group(1)), m.span()) for m in _GROUP.finditer(text)]
    if groups and not [m for m in _COUNT.finditer(text) if not any(s <= m.start() < e for _, (s, e) in groups)]:
        counted = sum(n for n, _ in groups) + len([m for m in _ONE_DOG.finditer(text)
                                                   if not any(s <= m.start() < e for _, (s, e) in groups)])
        return (counted, counted + 1) if _ONE_MORE.search(text) else (counted,)  # "3 white dogs and a brown one"
    if said and (max(said) >= listed or 0 in said):
        return (said[-1] if len(set(said)) == 1 or said[-1] == 0 else max(said),)
    if listed and not _VAGUE.search(text):
        return (listed, listed + 1) if _ONE_MORE.search(text) else (listed,)  # "a lump, a dog or a bag": one more?
    return (0,) if _EMPTY.search(text) else None


_EMPTY = re.compile(r"\b(?:park|picture|field|scene|image|lawn|grass)\s+(?:is|looks)\s+(?:completely\s+|totally\s+)?"
                    r"empty\b|\bempty\s+(?:park|picture|field|scene|lawn)\b", re.IGNORECASE)
"""A park said to be empty, with no dog named anywhere in the message: none."""


def _table_rows(text: str) -> int:
    """The rows of a markdown table of dogs, one a dog ("| # | coat | pose |" and a row per dog), or 0."""
    for table in tables(text):
        if table.ruled and re.search(r"\b(?:coat|colou?r|pose|breed|facing)\b", " ".join(table.header), re.I):
            return sum(1 for row in table.rows if re.search(r"[A-Za-z]", " ".join(row)))
    return 0


class DogPhrases(Phrasebook):
    def read(self, text: str, memory: Memory) -> None:
        rows = _table_rows(text)
        text = either_way(plain(text, VOCABULARY))
        text = re.sub(rf"\bnot\s+(?:\d|one|two)\b(?!\s+{_DOG})|\bno (?:more|other|further)\s+{_DOG}\b", " ", text,
                      flags=re.IGNORECASE)  # "no more dogs" adds none
        counted = count_dogs(text) or ((rows,) if rows else None)
        if counted is not None:
            memory["state"]["dogs"] = counted
        elif _VAGUE.search(text):
            memory["state"]["dogs"] = tuple(range(MAX_DOGS + 1))

    def belief(self, memory: Memory) -> State:
        dogs = memory["state"].get("dogs")
        if dogs and len(dogs) == 1:
            count: Any = [{}] * dogs[0]
        else:
            options = dogs or range(MAX_DOGS + 1)
            about = "exactly how many dogs there are" + (f" ({' or '.join(map(str, dogs))})" if dogs else "")
            count = unknown(about, [[{}] * n for n in options])
        return {"timer": "5:00", "dogs": count, "module_disarmed": False}

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        digit = action.removeprefix(ADVICE)
        return choose(rng, (f"Press submit when the timer ends in {digit}.",
                            f"Wait until the last digit of the timer is a {digit}, then submit.",
                            f"Submit at a moment when the seconds end in {digit}."))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        dogs = state["dogs"]
        timer = state["timer"]
        if not dogs:
            return choose(rng, (f"There are no dogs in the picture. The timer shows {timer}.",
                                f"No dogs at all; timer {timer}."))
        listed = ", ".join(f"a {d['coat']} dog {d['pose']}" for d in dogs)
        word = "dog" if len(dogs) == 1 else "dogs"
        return choose(rng, (f"I see {len(dogs)} {word}: {listed}. The timer shows {timer}.",
                            f"{len(dogs)} {word} in the park ({listed}). Timer: {timer}."))

    def understand(self, text: str, puzzle: Any) -> Steps:
        state = puzzle.visible_state()
        dogs = len(state["dogs"])
        text = plain(text, VOCABULARY)
        if not re.search(r"\b(?:submit|send|enter|press|hit)\b", text, re.IGNORECASE) and (
                "?" in text or not re.search(r"\blast digit\b|\bends? in\b", text, re.IGNORECASE)):
            return Steps()  # "so the last digit has to be 3": the one thing to do then is submit
        if re.search(rf"\b(?:number of|count(?:ing)? (?:the |your |all the |every |each )?|how many|"  # the count
                     rf"same (?:number|count) as (?:the |your )?)\s*{_DOG}\b|\b{_DOG}\s+count\b", text, re.IGNORECASE):
            when = moment(f"ends in {dogs}")
        elif re.search(r"\bnumber of (?!the tim|tim|second)", text, re.IGNORECASE):
            return Steps.unclear("The number of what? I only count dogs here. Which digit should the timer end in?")
        else:
            when = moment(text)
        if when is None:
            return Steps.unclear("Which digit should the timer end in?" if not ALTERNATIVES.search(text)
                                 else "Which digit exactly should the timer end in?")
        if when.digit is not None and not when.last and str(when.digit) in state["timer"][:-1] and re.search(
                rf"\b(?:shows?|showing|see|appears?|has|contains?|reads?)\s+(?:an?\s+|the\s+)?{when.digit}\b", text):
            return Steps.unclear(f"The timer shows {state['timer']}, a {when.digit} already. Submit now, or when its "
                                 f"last digit is {when.digit}?")  # "shows a 4" holds now; "on a 4" is the last digit
        wait = when.seconds(parse_timer(state["timer"]), seconds_to_wait)
        if wait is None:
            return Steps.unclear(f"The timer shows {state['timer']}, past that time. Which digit should it end in?")
        return Steps([*([wait_line(wait)] if wait else []), SUBMIT])
