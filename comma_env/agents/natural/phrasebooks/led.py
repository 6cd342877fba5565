"""LED in plain English: the current LED's colour (said, or marked in the row of LEDs) and the four
letters by position, row or grid. Advice names the button by letter or position, or gives the rule."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural import grid
from comma_env.agents.natural.colours import Palette, drop_negated
from comma_env.agents.natural.labels import Found
from comma_env.agents.natural.phonetic import spelled
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, fact, meant, one_button, unknown
from comma_env.agents.natural.reading import HEDGES, ORDINAL, number, ordinal, plain, sentences
from comma_env.agents.natural.words import choose, position_words, which_one
from comma_env.puzzles.led import ALPHABET, MULTIPLIERS, POSITIONS, correct_buttons, is_correct

ROWS = ("top", "bottom")
PALETTE = Palette(tuple(MULTIPLIERS))
VOCABULARY = (*grid.VOCABULARY, *MULTIPLIERS, "stage", "letters", "display", "current", "counter")
_LETTER = re.compile(r"(?<![A-Za-z'])([A-Z])(?![A-Za-z'])")
_PRONOUN = {"I": re.compile(r"\s+(?:think|can|cant|can't|see|saw|am|'m|have|'ve|had|'d|will|'ll|would|guess|believe|"
                            r"pressed|hit|typed|press|count|don'?t|didn'?t|do|did|only|just|also|really|was|got|"
                            r"need|want|read|looked|tried|mean|meant|noticed|feel|hope|could|should|must)\b"),
            "A": re.compile(r"\s+(?!top\b|bottom\b|left\b|right\b|upper\b|lower\b|and\b|or\b|in\b|on\b|at\b|is\b)"
                            r"[a-z]")}
"""When a capital "I" or "A" is the word, not the letter."""
_STAGE = re.compile(r"\b(?:stage|s)\s*[:#]?\s*(\d)\b|\b(?:display|counter|disp|indicator|screen)\b"
                    r"[^.\n\d|]{0,25}?(\d)\b|🔢\s*(\d)|\bnow is stage (\d)", re.IGNORECASE)
_DONE = re.compile(r"\s*(?:is\s+|'s\s+)?(?:now\s+)?(?:done|ticked|complete|completed|finished|cleared|over)\b",
                   re.IGNORECASE)
"""After a stage's number: that stage is behind ("stage 1 is ticked"), not the one the message describes."""
_CURRENT = re.compile(r"\b(?:current|active|this stage'?s?|the)\s+(?:led|light|lamp)\b|\b(?:led|light|"
                      r"lamp)\s+for\s+it\b|\blamp of this stage\b|\bthe led\b|\b(?:led|light|lamp)\b(?!s)",
                      re.IGNORECASE)  # "purple light"
_MARK = re.compile(r"\(current\)|👈|<-+|\bcurrent\b|\bactive\b", re.IGNORECASE)
_RING = re.compile(r"\b(?:the\s+)?(first|second|third|fourth|fifth|[1-5](?:st|nd|rd|th)|"
                   r"led\s+[1-5])\b[^.]{0,20}\b(?:ring|highlighted|circled|current|active|glowing)", re.IGNORECASE)
_NTH = re.compile(rf"\b({ORDINAL})(?:\s+(?:one|led|light|lamp))?(?:'s|\s+(?:is|was|one's|shows|glows))?\b", re.I)
"""An LED by its ordinal ("first one's red, second one blue"), the colour after it."""
_LED_K = re.compile(r"\bled\s*(\d)\s*(?:\(|is\b|:|=)", re.IGNORECASE)
_ROW_GAP = re.compile(r"(?:[\s,✓✔*()[\]]|\b(?:and|then|first|lit|led)\b)*(?:\(?current\)?|👈)?[\s,✓✔*()[\]]*",
                      re.IGNORECASE)  # "[blue] [red]" too
_VOWELS = set("AEIOU")
_PRESS = re.compile(r"\b(?:press|push|hit|tap|click|go|choose|pick)\b", re.IGNORECASE)
_LOWER_LETTER = re.compile(r"\b((?:letter|(?:top|bottom|upper|lower)[\s-](?:left|right)(?:\s+(?:is|letter|button|key))?"
                           r"\s*[:=-]?|(?:press|push|hit|tap|click|choose|pick)(?:\s+the)?)\s+)([a-z])\b(?![\w'])"
                           r"(?!\s+(?:button|key|one|letter|\w+ing)\b)", re.IGNORECASE)


_SPOKEN = dict(zip("ay bee see dee ee ef gee aitch eye jay kay el em en oh pee cue ar es tee you vee ex why zed"
                   .split(), "ABCDEFGHIJKLMNOPQRSTUVXYZ", strict=True))
"""Letters as dictation writes them ("top left ef top right why"): only read after a button's position."""
_SAID_LETTER = re.compile(r"\b((?:top|bottom|upper|lower)[\s-](?:left|right)(?:\s+(?:is|letter))?\s*[:=-]?\s+)(" +
                          "|".join(_SPOKEN) + r"|double[\s-]?you)\b"
                          r"(?=\s*(?:$|[,.;!\n]|(?:and\s+)?(?:top|bottom|upper|lower)\b))", re.IGNORECASE)
_ORDER = re.compile(r"\(\s*(?:(?:TL|TR|BL|BR)[\s,/]*){4}\)|(?i:(?:\bgoing\b|\bin\s+(?:the\s+)?order\b)?[\s:,]*"
                    r"(?:(?:top|bottom)[\s-](?:left|right)\b(?:[\s,/]|\band\b|\bthen\b)*+){4})")
"""The buttons' order after four letters, as a legend in brackets or in words ("C J W M going top-left, ...")."""
_DIAGONAL = re.compile(r"\b(top|bottom)[\s-](left|right)\s*(?:to|->|-)\s*(top|bottom)[\s-](left|right)\b\W{0,4}"
                       r"([A-Z])\s*(?:and|,|&|/)\s*([A-Z])(?![A-Za-z])", re.IGNORECASE)
"""A diagonal with its two letters in its order ("Diagonal one (top-left to bottom-right): M and I")."""


def _capitals(text: str) -> str:
    """A letter written in lower case where only a letter can stand ("press h", "letter j") in capitals."""
    text = _SAID_LETTER.sub(lambda m: m.group(1) + _SPOKEN.get(m.group(2).lower(), "W"), text)
    return _LOWER_LETTER.sub(lambda m: m.group(1) + m.group(2).upper(), text)


def _letters(text: str) -> list[Found]:
    """Single capital letters that are letters, not the words "I" and "A"."""
    found: list[Found] = []
    for match in _LETTER.finditer(text):
        letter = match.group(1)
        if letter in _PRONOUN and _PRONOUN[letter].match(text, match.end()) or letter == "I" and re.search(
                r"(?:^|[.!?]\s*)$", text[:match.start()]) and re.match(r"\s+(?!and|or|is|on|at|in)[a-z]",
                                                                      text[match.end():]):
            continue  # "I describe ...": a sentence's "I" before a word
        if re.match(r"\s*=\s*\d", text[match.end():]):  # "A=0, B=1": the alphabet's values
            continue
        found.append(Found(letter, match.start(), match.end()))
    pairs = re.finditer(r"(?<![A-Za-z])([A-Z])([A-Z])\s*(?:/|\bover\b|\babove\b)\s*([A-Z])([A-Z])(?![A-Za-z])", text)
    for match in pairs:  # "PV/KF", "PV over KF": top row, bottom row
        found += [Found(match.group(i), match.start(i), match.end(i)) for i in range(1, 5)]
    return sorted(found, key=lambda f: f.start)


class LedPhrases(Phrasebook):
    stage = "stage_number"

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = plain(spelled(text), VOCABULARY)
        text = re.sub(r"\b(?:not|isn'?t)\s+(?:an?\s+)?[A-Z](?![A-Za-z])", " ", text)
        text = _capitals(drop_negated(text, PALETTE))  # "top left letter j", "top left n"; "green, not red"
        stages = [int(next(g for g in match.groups() if g)) for match in _STAGE.finditer(text)
                  if not _DONE.match(text, match.end())]  # "stage 1 is ticked. now stage 2": 2
        stage = next((value for value in stages if 1 <= value <= 5), None)
        if stage:
            state["stage"] = stage
        self._colours(text, state)
        legend = _ORDER.search(text)  # "S W A G (TL TR BL BR)"; "letters A X R J, same order as before"
        if legend:
            said = re.findall(r"(top|bottom)[\s-](left|right)", legend.group(0), re.I)
            state["order"] = [f"{a}_{b}".lower() for a, b in said] or \
                ["_".join(grid.ABBREVIATIONS[k]) for k in re.findall(r"[TB][LR]", legend.group(0))]
        letters = self._placed(text[:legend.start()] if legend else text)
        if state.get("order") and "loose" in letters and (legend or re.search(r"\bsame order\b", text, re.I)):
            letters = {p: (letter,) for p, letter in zip(state["order"], letters["loose"], strict=True)}
        if letters:
            state.setdefault("letters", {}).update(letters)

    def _colours(self, text: str, state: dict[str, Any]) -> None:
        """The current LED's colour: said of the current LED, or picked from the row of LEDs."""
        colours = state.setdefault("colours", {})
        placed = []  # where a colour said of another stage's LED may stand ("the fourth LED is red" at stage 1)
        for match in _LED_K.finditer(text):
            options = PALETTE.one(text[match.end():match.end() + 20])
            if options:
                colours[number := int(match.group(1))] = options
                if state.get("stage") not in (None, number):
                    placed.append((match.start(), match.end() + 20))
        for match in _NTH.finditer(text) if re.search(r"\b(?:leds?|lights?|lamps?)\b", text, re.IGNORECASE) else ():
            said = {m.options for m in PALETTE.mentions(re.split(r"[,;.!?]|\band\b", text[match.end():][:40])[0])}
            nth = ordinal(match.group(1), 5)
            if len(said) == 1 and nth:  # "the first is violet (purple)"
                colours[nth] = said.pop()
                if state.get("stage") not in (None, nth):
                    placed.append((match.start(), match.end() + 40))
        mentions = PALETTE.mentions(text)
        row = [m for m in mentions if re.search(r"\b(?:leds?|lights?|lamps?)\b", text[max(0, m.start - 60):m.start],
                                                re.IGNORECASE) and not any(a <= m.start < b for a, b in placed)]
        listed = self._listed(text, mentions)
        if len(listed) >= 2 and not re.search(r"\b(?:rest|others|other ones|remaining(?: ones)?)(?: are| were)?\W*$",
                                              text[:listed[0].start], re.IGNORECASE):  # "LED 1 is X (the rest: ...)"
            for k, mention in enumerate(listed, start=1):
                colours[k] = mention.options
            marked = [k for k, m in enumerate(listed, start=1) if _MARK.match(text[m.end:m.end + 12].strip())]
            ring = _RING.search(text)
            if marked:
                state["stage"] = marked[0]
            elif ring:
                word = ring.group(1).lower().removeprefix("led").strip()
                state["stage"] = ordinal(word) or (int(word) if word.isdigit() else None) or state.get("stage")
            return
        for match in _CURRENT.finditer(text):
            if any(a <= match.start() < b for a, b in placed):
                continue
            options = PALETTE.one(text[match.end():match.end() + 80].split(".")[0]) or \
                PALETTE.one(text[max(0, match.start() - 12):match.start()])
            if options:
                state["current"] = options
                if state.get("stage"):
                    colours[state["stage"]] = options
                return
        if len(row) == 1:
            state["current"] = row[0].options

    def _listed(self, text: str, mentions: list[Any]) -> list[Any]:
        """Colours written as the row of LEDs ("blue, blue, green, green", "🔵 🟠👈 🔴")."""
        best: list[Any] = []
        run: list[Any] = []
        for mention in mentions:
            if run and not _ROW_GAP.fullmatch(text[run[-1].end:mention.start]):  # ", ", " LED lit first (then "
                best = max(best, run, key=len)
                run = []
            run.append(mention)
        return max(best, run, key=len)

    def _placed(self, text: str) -> dict[str, Any]:
        diagonals = {f"{m.group(k).lower()}_{m.group(k + 1).lower()}": (m.group(letter),)
                     for m in _DIAGONAL.finditer(text) for k, letter in ((1, 5), (3, 6))}
        if len(diagonals) == len(POSITIONS):
            return diagonals
        letters = _letters(text)
        places = [p for p in grid.places(text, ROWS) if not re.search(r"corner\)?\s*[:*]", text[p.end:p.end + 12])]
        masked = grid.by_lines(text, _letters, ROWS, grid.assign(text, places, letters, ROWS))
        rows = rf"/|\btop\s*/\s*bottom\b|[A-Z]{{2}}\s+(?:over|above)\s+[A-Z]{{2}}|{grid.READING}"  # "PV over KF"
        if not masked and len(letters) == 4 and re.search(rows, text):
            masked = dict(zip(POSITIONS, letters, strict=True))
        placed: dict[str, Any] = {key: (found.word,) for key, found in masked.items()}
        free = [f for f in letters if f not in masked.values()]
        rows_done = {key.split("_")[0] for key in placed}
        if len(placed) == 2 and len(rows_done) == 1 and len(free) == 2:
            other = next(r for r in ROWS if r not in rows_done)
            placed[f"{other}_left"], placed[f"{other}_right"] = (free[0].word,), (free[1].word,)
        for match in re.finditer(r"(?<![A-Za-z])([A-Z])\s+or\s+(?:an?\s+)?([A-Z])(?![A-Za-z])", text):
            pair = (match.group(1), match.group(2))
            for key, options in placed.items():
                if options[0] in pair:
                    placed[key] = pair
        if not placed and len(letters) == 4:
            return {"loose": tuple(f.word for f in letters)}
        return placed

    def typed(self, actions: list[str], memory: Memory) -> None:
        """A right press clears the stage: new letters, the next LED."""
        state = memory["state"]
        if state.get("stage"):
            state["stage"] += 1
        state.pop("letters", None)
        state.pop("current", None)

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        colours = said.get("colours") or {}
        current = said.get("current") or colours.get(said.get("stage"))
        colour = fact(current, "the current LED is", "the colour of the current stage's LED", MULTIPLIERS)
        letters: dict[str, Any] = dict(said.get("letters") or {})
        if "loose" in letters and len(letters) == 1:
            orders = [dict(zip(POSITIONS, p, strict=True)) for p in itertools.permutations(letters["loose"])]
            shown: Any = unknown("which letter is on which button", orders)
        else:
            shown = {p: fact(letters.get(p), f"the {p.replace('_', ' ')} letter is",
                             f"the letter on the {p.replace('_', ' ')} button", ALPHABET) for p in POSITIONS}
        return {"stage_number": 1, "led_colors_left_to_right": [colour], "completed_stages": 0, "button_letters": shown}

    def answers(self, state: State, notes: dict[str, Any]) -> list[list[str]]:
        color = state["led_colors_left_to_right"][0]
        return [[f"press_{p}"] for p in correct_buttons(state["button_letters"], color)]

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        return len(set(state["button_letters"].values())) == len(POSITIONS)

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        position = action.removeprefix("press_")
        letters = seen["button_letters"]
        shown = letters.get(position) if isinstance(letters, dict) else None
        where = position_words(position, rng)
        if not isinstance(shown, str):
            return f"Press the {where} button."
        return choose(rng, (f'Press the button with the letter "{shown}", {where}.', f"Press the {where} button.",
                            f"Press {shown}, the {where} one.", f'The one you want is "{shown}", {where}.'))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        stage = state["stage_number"]
        colours = state["led_colors_left_to_right"]
        letters = state["button_letters"]
        current = colours[stage - 1]
        lights = ", ".join(colours)
        grid_words = ", ".join(f"{p.replace('_', ' ')} {letters[p]}" for p in POSITIONS)
        return choose(rng, (
            f"Stage {stage}. The current LED is {current}. Letters: {grid_words}.",
            f"The display shows {stage}. The LEDs from the left are {lights}; the current one is {current}. "
            f"Buttons: {grid_words}.",
            f"We're on stage {stage} and its LED is {current}. Top row: {letters['top_left']} and "
            f"{letters['top_right']}; bottom row: {letters['bottom_left']} and {letters['bottom_right']}.",
        ))

    def understand(self, text: str, puzzle: Any) -> Steps:
        """The press for this stage; then one for each later stage the advice names by position ("then next stage:
        top left"), or the same press again when it says so ("every stage", "four times")."""
        state = puzzle.visible_state()
        text = spelled(text, least=1)  # "hit whiskey"
        now, *later = _LATER.split(text)
        steps = self._press(now if later else text, puzzle)
        left = len(state["led_colors_left_to_right"]) - state["completed_stages"]
        if not steps.actions or _by_rule(text, state["button_letters"], "red") is not None:
            return steps
        said = plain(text, VOCABULARY)
        if not later and _REPEAT.search(said) and not _letters(_capitals(said)) and "vowel" not in said:  # letters move
            counts = _repeats(said, left)
            if len(counts) > 1 or not 1 <= min(counts) <= left:
                return Steps.unclear(f"How many times should I press it? {left} stages are left.")
            return Steps(steps.actions * counts.pop())
        for part in later[:left - 1]:
            places = [grid.matching(p, ROWS) for p in grid.places(grid.blanked(part, _letters(part)), ROWS)]
            if len(places) != 1 or len(places[0]) != 1:
                break  # a letter of a stage not shown yet: read when it is
            steps.actions.append(f"press_{places[0].pop()}")
        return steps

    def _press(self, text: str, puzzle: Any) -> Steps:
        """The one button advice names on the stage the solver sees."""
        state = puzzle.visible_state()
        letters: dict[str, str] = state["button_letters"]
        colour = state["led_colors_left_to_right"][state["stage_number"] - 1]
        sides = ("left", "right")
        text, problem = grid.landmarks(_capitals(plain(text, VOCABULARY)), {
            (ROWS.index(p.split("_")[0]), sides.index(p.split("_")[1])): rf"(?<![A-Za-z']){letter}(?![A-Za-z'])"
            for p, letter in letters.items()}, lambda rc: f"the {ROWS[rc[0]]} {sides[rc[1]]} one")
        if problem:
            return Steps.unclear(problem)
        chosen, _ = meant(sentences(text), lambda s: _refers_to(s, letters), _PRESS)
        ruled = _by_rule(text, letters, colour)
        if chosen is None or len(chosen) > 1 and ruled and ruled < chosen:  # the rule, and "it's on the top row"
            chosen = ruled
        return one_button(chosen, lambda p: f"press_{p}",
                          "I don't see that on my buttons. Which button do you mean (letter or position)?",
                          lambda ps: which_one("button", ps, letters))


_LATER = re.compile(r"\b(?:(?:on|for|in|at)\s+)?(?:the\s+)?(?:next|following)\s+(?:stage|round|led|light|lamp)\b|"
                    r"\bstage\s+(?:[2-5]|two|three|four|five)\s+(?:will|comes?|is next)\b", re.IGNORECASE)
"""Where advice turns to a later stage ("then next stage: top left")."""
_REPEAT = re.compile(r"\b(?:every|each|all(?:\s+the)?)\s+(?:(?P<stages>\d)\s+|single\s+)?stages?\b|"
                     r"\b(?P<times>twice|\d+(?=\s*times\b))", re.IGNORECASE)
"""A press said to be the same for several stages ("every stage on this one", "four times")."""


def _repeats(said: str, left: int) -> set[int]:
    """The counts of presses advice says ("four times"; "every stage" is each stage `left`, "all 3 stages" 3 too)."""
    counts: set[int] = set()
    for match in _REPEAT.finditer(said):
        times = match.group("times")
        counts |= {number(times) or 0} if times else {left, int(match.group("stages") or left)}
    return counts


def _refers_to(sentence: str, letters: dict[str, str]) -> set[str] | None:
    """The buttons one sentence names (letters, positions, "the vowel"), or None."""
    by_letter = {letter: position for position, letter in letters.items()}
    found = _letters(sentence)
    verb = _PRESS.search(sentence)
    if verb and len(found) > 1:
        found = [f for f in found if f.start > verb.end()][:1] or found[:1]
    constraints = [{by_letter[f.word]} if f.word in by_letter else set() for f in found]
    constraints += [grid.matching(p, ROWS) for p in grid.places(grid.blanked(sentence, found), ROWS)]
    if re.search(r"\bvowels?\b", sentence, re.IGNORECASE):
        constraints.append({p for p, letter in letters.items() if letter in _VOWELS})
    if not constraints:
        return None
    chosen = set.intersection(*constraints)
    return set.union(*constraints) if HEDGES.search(sentence) and len(chosen) == 1 else chosen


def _by_rule(text: str, letters: dict[str, str], colour: str) -> set[str] | None:
    """Advice that states the rule (and maybe the multiplier) instead of a button."""
    if not re.search(r"\b(?:diagonal|multipl|mod(?:ulo)?\b|remainder)", text, re.IGNORECASE):
        return None
    multiplier = re.search(r"\bmultiplier\s+(?:is\s+)?(\d)\b|(?:[x×*]|\btimes)\s*(\d)\b", text, re.IGNORECASE)
    said = [m.options[0] for m in PALETTE.mentions(text) if len(m.options) == 1]
    if multiplier:
        factor = int(next(g for g in multiplier.groups() if g))
        colour = next((c for c, m in MULTIPLIERS.items() if m == factor), colour)
    elif said:
        colour = said[0]
    return {p for p in POSITIONS if is_correct(letters, p, colour)}
