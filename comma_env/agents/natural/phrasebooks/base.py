"""A puzzle's phrasebook, its plain English in both seats: the expert `hear`s descriptions, `decide`s without
guessing and words advice (`say`); the solver `describe`s what it sees and `understand`s advice."""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from comma_env.agents.natural.belief import Decision, Open, render, settle
from comma_env.agents.natural.conditions import settle as settle_conditions
from comma_env.agents.natural.reading import (
    BY_ANALOGY,
    CONDITIONS,
    HEDGES,
    ORDINAL,
    QUALIFIERS,
    RELATIONS,
    UNJUDGED,
    VERBS,
    corrected,
    doubted,
    for_stage,
    instructions_only,
    ordinal,
    said_once,
    undone,
)
from comma_env.agents.natural.retractions import (
    NAMES_NO_KEY,
    NAMES_NOTHING,
    SWAP,
    UNDO,
    after_retraction,
    bare_value,
    retracts,
    same_kind,
    split_at_retractions,
)
from comma_env.agents.natural.words import choose
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.text import DESCRIPTION_HEADER, parse_description, strip_thinking

State = dict[str, Any]
Memory = dict[str, Any]

ACTION_LINE = re.compile(r"(?:[a-z]+(?:_[a-z0-9*]+)+|tap|hold|release|submit|continue|confirm|wait(?:\s+\d{1,9})?)")
"""A line a solver typed into the interface (in the relayed message a PIN digit is ``press_*``)."""

_STEP = VERBS | frozenset("set spell follow find solve do put make input".split())
"""Words a step of advice starts with."""

_ASKED = re.compile(r"(?<=[.!\n])[ \t]*(?![^?\n]{0,60}\d)(?=[A-Za-z])[^.!?:\n|]{1,60}\?\s*$")
"""A short question closing a description ("Tap or hold?", "Which should I cut?"): a request, not a fact (a row of
a grid, "WHAT | WHAT?", is none)."""
_PARTIAL = re.compile(r"\b(?:the rest|the others|the remaining|other ones)\b[^.!?\n]{0,60}?\b(?:hidden|covered|"
                      r"obscured|can'?t see|cannot see|not visible|out of (?:view|sight)|cut off|blocked)\b",
                      re.IGNORECASE)
"""A partial view ("the rest are hidden behind a panel"): what the solver saw is not all there is."""

_EITHER = re.compile(r"\b([a-z]+)\s+(?:or\s+(?:maybe|possibly|perhaps)\s+|\(\s*or\s+(?:maybe\s+)?)([a-z]+)\??\s*\)?",
                     re.IGNORECASE)
"""A value and another it might be instead ("white or maybe red", "white (or red?)")."""
MAX_DOUBTS = 6
"""More hedges than this in one message, and the partner asks about the first without re-reading."""


@dataclass
class Steps:
    """What the solver understood of advice: the actions, or what it asks about."""

    actions: list[str] | None = None
    ask: list[str] = field(default_factory=list)

    @classmethod
    def unclear(cls, *questions: str) -> Steps:
        return cls(None, list(questions))


class Phrasebook:
    """One puzzle's plain English: subclasses implement `read`, `instruction`, `describe` and `understand`."""

    relations: str = RELATIONS
    """Relations the solver's reader does not resolve (checked like a hedge, `understand_surely`)."""
    conditions: bool = False
    """Whether the solver's reader evaluates conditions in advice itself (if not, `settle_conditions` does, and those
    it cannot settle are checked like a hedge); either way one on a fact the solver lacks is asked about."""
    stage: str | None = None
    """The key of the solver's stage in its picture, when advice may come stage by stage (`for_stage`)."""

    def __init__(self, puzzle_cls: type[Puzzle]) -> None:
        self.puzzle_cls = puzzle_cls

    # -- the expert's side ---------------------------------------------------------------------
    def start(self) -> Memory:
        """A fresh memory for one episode: what the solver said (``state``) and the expert's notes."""
        return {"state": {}, "notes": {}}

    def hear(self, text: str, memory: Memory) -> None:
        """One solver message in its order: what it says before its first action line is about the picture before
        them ("grid: ... pressing them"), then the actions it typed, then what it says after; each said part an
        ``I see:`` block exactly or plain English. A sentence that opens by taking back what came before ("...
        Scratch that. Six wires: ...") is heard as a later message."""
        parts = split_at_retractions(text)
        for part in parts[:-1]:
            self.hear(part, memory)
        lines = parts[-1].splitlines()
        acted = [k for k, line in enumerate(lines) if ACTION_LINE.fullmatch(line.strip())]
        first, typed = (acted[0] if acted else 0), set(acted)
        before = "\n".join(lines[:first])
        after = "\n".join(line for k, line in enumerate(lines) if k >= first and k not in typed)
        if before.strip():
            self._said(before, memory)
        if acted:
            self.typed([lines[k].strip() for k in acted], memory)
        if after.strip() or not before.strip():
            self._said(after, memory)

    def _said(self, said: str, memory: Memory) -> None:
        """A solver's words: an ``I see:`` block exactly or plain English."""
        said = _ASKED.sub(lambda m: m.group(0) if HEDGES.search(m.group(0)) else "", corrected(said))
        head, header, body = said.partition(DESCRIPTION_HEADER)
        exact = parse_description(body) if header else {}
        memory["exact"] = None
        if exact:
            self.exact(exact, memory)
        elif said.strip() and not self.restart(said := UNJUDGED.sub(self._unjudged, said), memory) and \
                not self.swap(said, memory):
            trials = self.substituted(said, memory)  # "no wait, four": in place of the one value it changes
            if len(trials) == 1:
                memory.update(trials[0])
            else:
                self.read(said, memory)
        memory["said"] = said if said.strip() else memory.get("said", "")

    def _unjudged(self, clause: re.Match[str]) -> str:
        """A clause saying the speaker cannot judge X ("can't tell if the strip is blue") without its guess, and
        without X when it names a fact for sure, which stays open; one that names none ("can't make out window 2")
        or its options ("can't tell if it's white or yellow") is left to the puzzle's reader."""
        said = clause.group(0)[:clause.start("guess") - clause.start()] if clause.group("guess") else clause.group(0)
        before = self.facts(trial := self.start())  # what a fresh memory already holds
        self.read(said, trial)
        sure = any(trial["state"].values()) and not any("?" in f for f in self.facts(trial) if f not in before)
        return " " if sure else said

    def substituted(self, text: str, memory: Memory) -> list[Memory]:
        """For a correction that is a bare value ("no wait, four", "sorry, I meant black"), the memories it gives in
        place of each value of its kind in the message before (``memory["said"]``), one per belief that differs."""
        bare = bare_value(text) if retracts(text) else None
        if bare is None:
            return []
        (value, was), earlier, facts, options = bare, memory.get("said", ""), self.facts(memory), {}
        for match in same_kind(value, earlier):
            if was and match.group(0).lower() != was.lower():
                continue  # "it's 4, not 5": only a 5 was the slip
            trial = copy.deepcopy(memory)
            self.read(earlier[:match.start()] + value + earlier[match.end():], trial)
            options.update({str(self.facts(trial)): trial} if self.facts(trial) != facts else {})
        return list(options.values())

    def restart(self, text: str, memory: Memory) -> bool:
        """A message that takes back what was said and, read alone, says every kind of fact said before and is a
        picture the manual decides on ("Scratch that: six wires, ..."): it replaces what was said (True)."""
        if not retracts(text) or not any(memory["state"].values()):
            return False
        fresh = self.start()
        self.read(text, fresh)
        said = {k for k, v in fresh["state"].items() if v}
        if not {k for k, v in memory["state"].items() if v} <= said or not self.decide(fresh).advice:
            return False
        memory["state"], memory["notes"] = fresh["state"], {**memory["notes"], **fresh["notes"]}
        return True

    def swap(self, text: str, memory: Memory) -> bool:
        """A correction of one value ("sorry, it's blue, not red"): when exactly one fact held the old value (of a
        list, the one at the ordinal the message names: "the third one is black, not white"; of several facts, the
        one it names: "itching is no, not yes"), it takes the new one (True); otherwise the message is read as
        usual."""
        pairs = [(m.group("new") or m.group("but"), m.group("old") or m.group("was")) for m in SWAP.finditer(text)]
        if len(pairs) != 1 or not retracts(text) or pairs[0][0].lower() == pairs[0][1].lower():
            return False
        new, old = pairs[0]
        named = re.search(rf"\b({ORDINAL})\b", text, re.IGNORECASE)
        if named and re.search(r"\b(?:rows?|columns?|col|line)\b", text, re.IGNORECASE):
            return False  # "the first square of row 2": the ordinal counts within a row, not the whole list
        found: list[int] = []

        def replace(value: Any, place: str | None, at: tuple[int, int] = (0, 0)) -> Any:
            if isinstance(value, str) and value.lower() == old.lower():
                if place is not None and ordinal(place, at[1]) != at[0]:
                    return value
                found.append(1)
                return new.upper() if value.isupper() else new.lower()
            if isinstance(value, dict):  # Wire's colours by number
                return {k: replace(v, place, (k, len(value)) if isinstance(k, int) else at) for k, v in value.items()}
            if isinstance(value, list):
                return [replace(v, place, (k, len(value))) for k, v in enumerate(value, start=1)]
            return tuple(replace(v, place, at) for v in value) if isinstance(value, tuple) else value

        for place in (None, named.group(1)) if named else (None,):
            found.clear()
            state = replace(memory["state"], place)
            if len(found) == 1:
                memory["state"] = state
                return True
        # "itching is no, not yes": of several facts holding "yes", the one it names ("itching": itch)
        keys = [k for k, v in memory["state"].items() if isinstance(v, str) and re.search(rf"\b{k[:4]}", text, re.I)]
        if len(keys) == 1 and memory["state"][keys[0]].lower() == old.lower():
            memory["state"][keys[0]] = replace(memory["state"][keys[0]], None)
            return True
        return False

    def typed(self, actions: list[str], memory: Memory) -> None:  # noqa: B027 (optional hook)
        """What typed actions tell the expert (by default nothing: a press that did not end the episode was a
        strike, and the module is as it was)."""

    def unsure(self, message: str, before: Memory, decision: Decision) -> Decision:
        """Never guess: when leaving out a hedged sentence of `message` ("2 or maybe 3") changes the
        advice, ask about that sentence instead."""
        partial = _PARTIAL.search(message) if decision.advice else None
        if partial:
            return Decision(ask=[f'what you can\'t see yet ("{partial.group(0).strip()}")'])
        if decision.advice and self.unplaced(message, before):
            return Decision(ask=[f'the fact you corrected ("{" ".join(message.split())[:80]}")'])
        parts = doubted(message) if decision.advice else []
        for sentence in parts[:1] if len(parts) > MAX_DOUBTS else parts:
            memory = copy.deepcopy(before)
            self.hear(_without(message, sentence), memory)
            if len(parts) > MAX_DOUBTS or self.decide(memory).advice != decision.advice and not self._either(
                    message, sentence, before, decision):
                return Decision(ask=[f'which it is ("{" ".join(sentence.split())}")'])
        return decision

    def _either(self, message: str, sentence: str, before: Memory, decision: Decision) -> bool:
        """Whether a hedged clause offering two values ("white or maybe red", "white (or red?)") leaves the advice as
        it is whichever of them holds: read with each in its place, the message gives the same advice."""
        clause = sentence.split("\n")[-1].strip()
        at = message.find(clause)
        either = _EITHER.search(message, max(0, at - 40)) if at >= 0 else None
        if either is None or either.start() > at + len(clause):
            return False
        for reading in (message[:either.start()] + either.group(k) + message[either.end():] for k in (1, 2)):
            memory = copy.deepcopy(before)
            self.hear(reading, memory)
            if self.decide(memory).advice != decision.advice:
                return False
        return True

    def unplaced(self, message: str, before: Memory) -> bool:
        """Whether `message` takes back something said before without the reader finding what it replaces: the belief
        is as it was, and the message says nothing else ("no wait, scratch that") or names a value as wrong that is
        still held ("black, not white" with several white wires)."""
        if not retracts(message) or not any(before["state"].values()):
            return False
        after = copy.deepcopy(before)
        self.hear(message, after)
        if self.facts(after) != self.facts(before):
            return False
        if bare_value(message):  # "sorry, it's 3": placed nowhere, or in several places that change the advice
            return any(self.decide(trial).advice != self.decide(after).advice for trial in
                       self.substituted(message, before))
        said = set(re.findall(r"[\w']+", UNDO.sub(" ", message.lower()))) - NAMES_NO_KEY - NAMES_NOTHING
        held = " ".join(self.facts(after))
        return not said or any(
            re.search(rf"\b{m.group('old') or m.group('was')}\b", held, re.I) for m in SWAP.finditer(message))

    def exact(self, seen: State, memory: Memory) -> None:
        """A complete ``I see:`` description: the manual applies to it as it is."""
        memory["exact"] = dict(seen)

    def read(self, text: str, memory: Memory) -> None:
        """Merge the facts a plain-English description states into ``memory["state"]`` (here: none)."""

    def belief(self, memory: Memory) -> State:
        """The state to apply the manual to, with `Open` facts (default: what was said)."""
        return dict(memory["state"])

    def decide(self, memory: Memory) -> Decision:
        """The advice for what the solver said in plain English."""
        return settle(self.belief(memory), memory["notes"], self.answers, self.possible)

    def decide_exact(self, memory: Memory) -> Decision:
        """The manual applied to an ``I see:`` block as it is, with notes of its own kept across the episode."""
        try:
            notes = memory.setdefault("exact_notes", {})
            return Decision(advice=self.puzzle_cls.expert_advice(memory["exact"], notes))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            return Decision(ask=["what you see"])  # a value of the wrong type or range

    def answers(self, state: State, notes: dict[str, Any]) -> list[list[str]]:
        """Every advice the manual accepts for a complete state (the notes are a copy the manual may write to)."""
        return [self.puzzle_cls.expert_advice(state, notes)]

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        """Whether a filling-in of the open facts is a state the puzzle can show."""
        return True

    def advised(self, advice: list[str], memory: Memory) -> None:  # noqa: B027 (optional hook)
        """The expert gave `advice`: remember what the manual needs later (most puzzles: nothing)."""

    def facts(self, memory: Memory) -> list[str]:
        """The belief in words, for ``partner_understood``."""
        return [f"{key.replace('_', ' ')}: {render(value)}" for key, value in self.belief(memory).items()]

    def question(self, about: list[str], rng: np.random.Generator) -> str:
        """A question for exactly the facts in `about`."""
        about = list(dict.fromkeys(about))
        wanted = about[0] if len(about) == 1 else ", ".join(about[:-1]) + " and " + about[-1]
        return choose(rng, (f"Before I can tell you, what is {wanted}?", f"Could you tell me {wanted}?",
                            f"I still need {wanted}: what do you see?", f"What about {wanted}?"))

    # -- wording advice ------------------------------------------------------------------------
    def say(self, advice: list[str], seen: State, rng: np.random.Generator) -> list[str]:
        """One sentence per instruction; a run of one countable action is one sentence ("go forward three squares")."""
        sentences: list[str] = []
        for action, run in itertools.groupby(advice):
            count = len(list(run))
            counts = [count] if self.countable(action) else [1] * count
            sentences += [self.instruction(action, n, seen, rng) for n in counts]
        return sentences

    def countable(self, action: str) -> bool:
        return False

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        raise NotImplementedError

    # -- the solver's side -----------------------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        """What the solver sees, in plain English (private facts are already left out)."""
        raise NotImplementedError

    def understand(self, text: str, puzzle: Puzzle) -> Steps:
        """The actions `text` asks for on what the solver sees in `puzzle`, or what it must ask; `Steps()`
        when it asks for nothing (a greeting, a request to describe)."""
        raise NotImplementedError

    def understand_surely(self, text: str, puzzle: Puzzle) -> Steps:
        """`understand`, but a sentence that hedges or leaves a count or target open ("a few squares")
        and changes the actions when left out is asked about instead."""
        steps = self.understand(text, puzzle)
        analogy = BY_ANALOGY.search(text) if steps.actions else None
        if analogy:
            return Steps.unclear(f'What exactly should I do for "{analogy.group(0)}"?')
        unread = self.unread_step(text, puzzle, steps.actions) if steps.actions else None
        if unread:
            return Steps.unclear(f'What exactly do you mean by "{unread}"?')
        also = "|".join(p for p in (self.relations, QUALIFIERS, "" if self.conditions else CONDITIONS) if p)
        parts = doubted(text, vague=True, also=also) if steps.actions else []
        for sentence in parts[:1] if len(parts) > MAX_DOUBTS else parts:
            if len(parts) > MAX_DOUBTS or \
                    self.understand(_without(text, sentence), copy.deepcopy(puzzle)).actions != steps.actions:
                return Steps.unclear(f'What exactly do you mean by "{" ".join(sentence.split())}"?')
        return steps

    def unread_step(self, text: str, puzzle: Puzzle, actions: list[str]) -> str | None:
        """A step said before the last one that the reader finds nothing in, not even a question ("Set the password,
        then submit", "Spell it and submit"): carrying out the last alone would do the advice in part."""
        clauses = [c.strip(" ,:") for c in re.split(r"[.;!?\n]|,?\s*\b(?:and then|then|and)\b", text) if c.strip(" ,:")]
        if len(clauses) < 2 or self.understand(clauses[-1], copy.deepcopy(puzzle)).actions != actions:
            return None
        running = copy.deepcopy(puzzle)  # each clause read on what the ones before it did ("type the PIN, hit enter")
        for clause in clauses[:-1]:
            alone = self.understand(clause, copy.deepcopy(running))
            if clause.split()[0].lower() in _STEP and not re.match(r"let(?:'s| me| us)\b", clause, re.IGNORECASE) \
                    and not alone.actions and not alone.ask:
                return clause
            for action in alone.actions or []:
                if action in running.valid_actions():
                    running.apply(action)
        return None

    def understand_dialogue(self, messages: list[str], puzzle: Puzzle) -> Steps:
        """Advice over several messages: a later one that takes the earlier back ("Sorry, I meant ...", "hold on,
        don't - it's the D") replaces them when it (or what follows its colon) asks for actions on its own;
        otherwise the solver asks, never carrying out what was taken back."""
        said = [part for message in messages for part in split_at_retractions(strip_thinking(message))]
        messages = [undone(instructions_only(corrected(after_retraction(message)))) for message in said]
        for number, message in enumerate(messages):
            settled, question = settle_conditions(message, puzzle.visible_state())
            if question:
                return Steps.unclear(question)
            messages[number] = said_once(message if self.conditions else settled)
        if self.stage:
            stage = int(puzzle.visible_state()[self.stage])
            staged = [for_stage(message, stage) for message in messages]
            if None in staged:
                return Steps.unclear(f"That is for another stage: I'm at stage {stage}. What should I press now?")
            messages = [m for m in staged if m is not None]
        for start in range(len(messages) - 1, 0, -1):
            if retracts(said[start]):
                later = "\n".join(messages[start:])
                _, colon, rest = later.partition(":")  # "Sorry, not 4: cycle window 1 up once."
                earlier = self.understand_surely(messages[start - 1], copy.deepcopy(puzzle)).actions
                asked: list[str] = []
                for text in (later, rest if colon else "", corrected(" ".join(messages[start - 1:start + 1])),
                             "\n".join(messages[start - 1:])):  # "No wait, make that 3!"; "the rest as I said"
                    steps = self.understand_surely(text, copy.deepcopy(puzzle)) if text.strip() else Steps()
                    if steps.actions and (text in (later, rest) or not earlier or
                                          steps.actions[:len(earlier)] != earlier):  # never the step taken back
                        return steps
                    asked += steps.ask
                back = start - 1
                while back and retracts(said[back]):  # "Cut wire 2. Hold on, don't - ... Ignore that."
                    back -= 1
                taken_back = " ".join(messages[back].split())[:80]
                return Steps.unclear(*asked[:1] or [f'You took back "{taken_back}": what should I do instead?'])
        return self.understand_surely("\n".join(messages), puzzle)


def phrasebook(puzzle_cls: type[Puzzle]) -> Phrasebook:
    """The phrasebook of a puzzle class, named by its spec (``PuzzleSpec.phrasebook``)."""
    spec = getattr(puzzle_cls, "spec", None)
    if spec is None:
        raise KeyError(f"{puzzle_cls.__name__} has no PuzzleSpec, so no natural-language phrasebook")
    book: type[Phrasebook] = spec.load_phrasebook()
    return book(puzzle_cls)


def _without(text: str, clauses: str) -> str:
    """`text` with each clause of `clauses` (one a line, from `doubted`) blanked where it stands."""
    for clause in clauses.splitlines():
        text = text.replace(clause, " ", 1)
    return text


def meant(sentences: list[str], refers_to: Any, verb: re.Pattern[str] | None = None) -> tuple[Any, str]:
    """What advice names (`refers_to(sentence)`, None for nothing) and the sentence naming it: the last such, except
    that with `verb` one that says it ("press ...", or a later "press it") outranks later ones that do not."""
    chosen = None
    said = ""
    pressed = False
    for sentence in sentences:
        found = refers_to(sentence)
        says = bool(verb and verb.search(sentence))
        if found is None:
            if says and chosen is not None and re.search(r"\b(?:that|it|this)\b", sentence):
                pressed = True
        elif says or not pressed:
            chosen, said, pressed = found, sentence, says
    return chosen, said


def one_button(chosen: Any, action: Any, missing: str, which: Any) -> Steps:
    """The steps for the buttons advice could mean (`chosen`, a set or None): none named, nothing; one,
    press it; none there, ask `missing`; several, ask `which` of them."""
    if chosen is None:
        return Steps()
    if len(chosen) == 1:
        return Steps([action(next(iter(chosen)))])
    return Steps.unclear(which(sorted(chosen)) if chosen else missing)


_ITEM_BREAK = re.compile(r"[,;]|->|\bthen\b", re.IGNORECASE)
FILLER = NAMES_NO_KEY | frozenset("press push hit click type enter key keys first second third fourth finally code "
                                      "please symbol symbols sign button buttons ones order start end others other "
                                      "remaining way just begin after thanks thank cheers good great nice cool "
                                      "perfect".split())
"""Words an item of a list of keys may have besides what names the key."""


def leftover(sentence: str, starts: list[int]) -> str | None:
    """The first item of a list in `sentence` (split at commas, arrows and "then"), after one where the reader found
    something (a start in `starts`), that has words other than `FILLER` and nothing found: a step it did not read."""
    position = 0
    listing = False
    for end in [*(m.start() for m in _ITEM_BREAK.finditer(sentence)), len(sentence)]:
        item = sentence[position:end]
        if any(position <= s < end for s in starts):
            listing = True
        elif listing and set(re.findall(r"[a-z]+|[^\w\s.!:()'\"-]", item.lower())) - FILLER:
            return item.strip()
        break_ = _ITEM_BREAK.match(sentence, end)
        position = break_.end() if break_ else end
    return None


def unknown(about: str, options: Any) -> Open:
    """An `Open` fact (options as a tuple)."""
    return Open(about, tuple(options))


def fact(options: Any, whether: str, missing: str, every: Any) -> Any:
    """A fact said (its one option), open between the options said (asking "whether `whether` A or B"),
    or, not said, open over `every` (asking `missing`)."""
    if options and len(options) == 1:
        return options[0]
    if options:
        return unknown(f"whether {whether} {' or '.join(map(str, options))}", options)
    return unknown(missing, every)
