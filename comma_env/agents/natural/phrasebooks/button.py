"""Button in plain English: the button's colour and word, and once held the strip's colour. Advice: tap
or hold, and when to let go ("when the timer shows a 4", "wait 9 seconds", the strip rule)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from comma_env.agents.natural.colours import Palette
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, unknown
from comma_env.agents.natural.reading import HEDGES, plain
from comma_env.agents.natural.timing import ALTERNATIVES, moment
from comma_env.agents.natural.words import choose
from comma_env.protocol.clock import parse_timer, wait_line
from comma_env.puzzles.button import (
    ADVICE,
    BUTTON_COLORS,
    HOLD,
    LABELS,
    RELEASE,
    STRIP_COLORS,
    TAP,
    seconds_until_digit,
)
from comma_env.puzzles.dog import seconds_to_wait

BUTTON_PALETTE = Palette(BUTTON_COLORS)
STRIP_PALETTE = Palette(STRIP_COLORS)
VOCABULARY = ("button", "strip", "timer", "hold", "holding", "release", "press", "says", "label", "yellow", "white",
              "black", "blue", "red", "green", "the")
_STRIP = re.compile(r"\b(?:strip|light|bar)\b", re.IGNORECASE)
_LABEL = re.compile(r"(?<![A-Za-z])(ABORT|DETONATE|HOLD|PRESS)(?![A-Za-z])|"
                    r"\b(?:says|reads|reading|labell?ed|label|word|with|written)\s*[:\"'(]?\s*(?:the\s+word\s+)?"
                    r"[\"']?(abort|detonate|hold|press)\b", re.IGNORECASE)
_HELD = re.compile(r"\b(?:holding|held|keeping it (?:pressed|down)|still pressed)\b", re.IGNORECASE)
_TAP = re.compile(r"\b(?:tap|quick(?:ly)?|brief(?:ly)?|once,? quickly|(?:one |single )?short press|press (?:it )?once|"
                  r"(?:let go|release)(?: it)? (?:right away|at once|immediately|straight away)|"
                  r"(?:immediately|instantly|at once) (?:let go|release))\b", re.IGNORECASE)
_HOLD = re.compile(r"\b(?:hold|holding|keep (?:it |your finger )?(?:pressed|down|held|on it)|press and hold|"
                   r"don'?t let go|keep your finger)\b", re.IGNORECASE)
_NOT_YET = re.compile(r"\b(?:don'?t|do not|never|not yet)\s+(?:let go|release|lift)\b|\b(?:let go|release)"
                      r"\s+(?:right )?(?:later|not yet)\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\bnot|\bnever|\bno|\bwithout|n't)\s+(?:(?:to|it|you|need to)\s+)?(?:hold(?:ing)?|"
                      r"keep(?:ing)?\s+(?:it\s+|your finger\s+)?(?:pressed|down|held|on it))\b",
                      re.IGNORECASE)  # "not keep it pressed"
_WARNED = re.compile(r"\b(?:strike|mistake|wrong|error)\b", re.IGNORECASE)  # "holding would be a strike"
_RELEASE = re.compile(r"\b(?:release|let go|let it go|take your finger off|lift|drop it)\b"
                      r"(?!\s+(?:digit|time|moment|number|rule)s?\b)", re.IGNORECASE)  # not "the release digit"


class ButtonPhrases(Phrasebook):

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = plain(text, VOCABULARY)
        text = re.sub(r"\b(?:not|isn'?t)\s+(?:the\s+word\s+)?[\"']?(?:ABORT|DETONATE|HOLD|PRESS)\b", " ", text)
        label = [m for m in _LABEL.finditer(text) if not re.search(r"\bI\s*$|\bto\s*$", text[:m.start()])]
        if label:
            state["label"] = (label[-1].group(1) or label[-1].group(2)).upper()
        for sentence in re.split(r"(?<=[!?;])\s+|(?<=[^.]\.)\s+|\n", text):
            strip = _STRIP.search(sentence)
            if strip:
                after = sentence[strip.end():]
                colour = STRIP_PALETTE.mentions(after) or STRIP_PALETTE.mentions(sentence[max(0, strip.start() - 12):
                                                                                           strip.start()])
                dark = re.search(r"\b(?:dark|off|not lit|unlit|isn'?t lit|no'? lit)\b", after, re.I) and not colour
                if not dark:
                    state["held"] = state["strip_last"] = True
                    options = tuple(dict.fromkeys(o for m in colour for o in m.options))
                    state["strip"] = options or None
                sentence = sentence[:max(0, strip.start() - 12)]
            colour = BUTTON_PALETTE.mentions(re.sub(r"\bin white\b", " ", sentence))
            named = re.search(r"\bbutton\b|🔵|🔴|🟡|⚪|⚫", sentence, re.IGNORECASE)
            if colour and not named and not strip and state.get("strip_last"):  # "no sorry - it's yellow": the strip
                state["strip"] = tuple(dict.fromkeys(o for m in STRIP_PALETTE.mentions(sentence) for o in m.options))
            elif colour and named or (colour and "button" not in text.lower()):
                options = tuple(dict.fromkeys(o for m in colour for o in m.options))
                unsure = HEDGES.search(sentence) or re.search(r"\bor\b", sentence)
                state["colour"], state["strip_last"] = options if unsure else colour[-1].options, False
            if _HELD.search(sentence):
                state["held"] = True

    def typed(self, actions: list[str], memory: Memory) -> None:
        state = memory["state"]
        if HOLD in actions:
            state["held"] = True
        if RELEASE in actions or TAP in actions:
            state["held"] = RELEASE not in actions and state.get("held", False)

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        colour = said.get("colour")
        held = bool(said.get("held"))
        strip = said.get("strip")
        return {
            "button_color": colour[0] if colour and len(colour) == 1 else unknown(
                f"the colour of the button{' (' + ' or '.join(colour) + ')' if colour else ''}",
                colour or BUTTON_COLORS),
            "button_label": said.get("label") or unknown("the word on the button", LABELS),
            "button_held": held,
            "strip_color": ("off" if not held else strip[0] if strip and len(strip) == 1 else unknown(
                f"the colour of the lit strip{' (' + ' or '.join(strip) + ')' if strip else ''}",
                strip or STRIP_COLORS)),
            "timer": "5:00",
            "module_disarmed": False,
        }

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == TAP:
            return choose(rng, ("Give the button a quick tap and let go right away.", "Just tap it, briefly."))
        if action == HOLD:
            return choose(rng, ("Press the button and keep holding it down.",
                                "Hold the button down and don't let go yet.", "Push it in and keep your finger on it."))
        if action.startswith(ADVICE):
            digit = action.removeprefix(ADVICE)
            return choose(rng, (f"Let go when the timer shows a {digit} anywhere.",
                                f"Keep holding until a {digit} appears anywhere on the timer, then let go.",
                                f"Release it when the timer shows a {digit} in any position."))
        return choose(rng, ("Let go of the button now.", "Release it now."))

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        colour, label, timer = state["button_color"], state["button_label"], state["timer"]
        held = state["button_held"]
        strip = f"I'm holding it, and the strip is lit {state['strip_color']}." if held else \
            "The strip beside it is dark."
        return choose(rng, (f"A {colour} button that says {label}. {strip} The timer shows {timer}.",
                            f"The button is {colour} with the word {label} on it. Timer: {timer}. {strip}",
                            f"{colour.capitalize()} button, label {label}, {timer} left. {strip}"))

    def understand(self, text: str, puzzle: Any) -> Steps:
        state = puzzle.visible_state()
        text = plain(text, VOCABULARY)
        named = rf"(?i:{BUTTON_PALETTE.pattern.pattern}|with|label(?:led)?|says|word)"  # "isn't red HOLD"
        text = re.sub(rf"\b({named}[\s-]+)(?:{'|'.join(LABELS)})\b", r"\1", text)  # a label in reasoning is no step
        text = "".join(_unwarned(part) for part in re.split(r"(?<=[.;!?\n])", _NEGATED.sub(" ", text)))
        if HEDGES.search(text) or re.search(r"\b(?:hold|tap)\b[^.]*\b(?:no wait|i mean|or)\b[^.]*\b(?:tap|hold)\b",
                                            text, re.IGNORECASE):
            return Steps.unclear("Should I tap it or hold it? And when should I let go?")
        held = bool(state["button_held"])
        text = re.sub(r"\b(?:don'?t|do not|never)\s+(?:let go|release)(?: it)?\s+(?:until|till|before)\b",
                      "let go when", text, flags=re.IGNORECASE)  # "don't let go until there's a 4"
        release = _RELEASE.search(_NOT_YET.sub(" ", text))
        hold = _HOLD.search(text)
        actions: list[str] = []
        if not held:
            if _TAP.search(text) and not hold:
                return Steps([TAP])
            if not hold:
                if re.search(r"\b(?:press|push|hit|click)\b", text, re.IGNORECASE):
                    return Steps.unclear("Should I tap the button (press and let go at once) or hold it down?")
                return Steps()
            actions.append(HOLD)
            later = text[release.start():] if release else ""  # "release it on that colour's digit"
            if not release or (hold and release.start() < hold.start()) or (
                    moment(later) is None and re.search(r"\b(?:strip|colou?r)\b", later)):
                return Steps(actions)  # the strip lights only once it is held: the solver cannot see it yet
        elif not release:
            return Steps.unclear("When should I let go?") if re.search(r"\b(?:now|next)\b", text) else Steps()
        after = text[release.start():] if release else text
        when = moment(after) or moment(text)
        if when is None:
            if ALTERNATIVES.search(after):
                return Steps.unclear("Which digit should I let go on?")
            return Steps.unclear("When exactly should I let go (which digit on the timer)?")
        until = seconds_to_wait if when.last else seconds_until_digit  # the last digit, or a digit anywhere
        wait = when.seconds(parse_timer(state["timer"]), until)
        if wait is None:
            return Steps.unclear(f"The timer shows {state['timer']}, past that time. Which digit should I let go on?")
        return Steps([*actions, *([wait_line(wait)] if wait else []), RELEASE])



def _unwarned(sentence: str) -> str:
    """A sentence calling one action a strike or a mistake is no advice to do it ("holding would be a strike");
    of a tap and a hold in it, the one nearer the warning is the one warned against."""
    warned = _WARNED.search(sentence)
    if not warned:
        return sentence
    near = {p: min((abs(m.start() - warned.start()) for m in p.finditer(sentence)), default=len(sentence) + 1)
            for p in (_TAP, _HOLD)}
    pattern = min(near, key=near.__getitem__)
    return pattern.sub(" ", sentence) if near[pattern] <= len(sentence) else sentence
