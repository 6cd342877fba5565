"""The scripted oracle pair, proof that every instance is solvable from the image plus the manual:
the solver describes and foresees, the expert reads via the phrasebook and never guesses."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np

from comma_env.agents.natural.belief import render
from comma_env.agents.natural.phrasebooks.base import Phrasebook, Steps, phrasebook
from comma_env.agents.natural.reading import VERBS, sentences
from comma_env.agents.natural.retractions import after_retraction, retracts
from comma_env.agents.natural.words import choose, with_connector
from comma_env.protocol.clock import parse_wait
from comma_env.protocol.policy import Player, Policy, Reply, config_extra, last_message
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state, strip_thinking, strip_wrappers

ADVICE_HEADER = "Type these actions:"
STYLES = ("actions", "natural")

ASK_TO_DESCRIBE = (
    "Please describe exactly what you see.",
    "Could you tell me what the puzzle looks like?",
    "I need a description first: what is on the module?",
    "Describe the puzzle for me, every detail you can see.",
)
OPENERS = ("", "", "Thanks, that helps.", "Okay, according to the manual:", "Got it.", "Right.")
CLOSERS = ("", "", "Tell me what you see after that.", "Let me know how it goes.")
ASK_AGAIN = ASK_TO_DESCRIBE[0]


def _since_last(info: dict[str, Any], speaker: str, own: str) -> list[str]:
    """The messages `speaker` sent after the player's own (`own`) last one, in order."""
    messages: list[str] = []
    for entry in reversed(info.get("dialogue", [])):
        if entry["speaker"] == own:
            break
        if entry["speaker"] == speaker:
            messages.append(entry["text"])
    return messages[::-1]


def understood(facts: list[str] | None = None, advice: list[str] | None = None,
               actions: list[str] | None = None, ask: list[str] | None = None) -> dict[str, Any]:
    """A partner's ``understood`` record (docs/partners.md): always four keys, so vector envs batch it."""
    return {"facts": facts, "advice": advice, "actions": actions, "ask": list(dict.fromkeys(ask)) if ask else None}


class OracleSolver(Player):
    needs_observation = False  # reads the true state instead

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        puzzle = self.env.puzzle
        simulated = copy.deepcopy(puzzle)
        typed = self.follow(self.advice_lines(last_message(info, "expert")), simulated)
        lines = list(typed)
        if not simulated.solved:
            lines.append(self.describe(type(puzzle).redact(simulated.visible_state())))
        return Reply("\n".join(lines))

    def advice_lines(self, advice: str) -> list[str]:
        _, has_advice, body = advice.partition(ADVICE_HEADER)
        return [line.strip() for line in body.splitlines() if line.strip()] if has_advice else []

    def describe(self, state: dict[str, Any]) -> str:
        return f"{DESCRIPTION_HEADER}\n{describe_state(state)}"

    def follow(self, lines: list[str], simulated: Any) -> list[str]:
        """Type the actions `lines` ask for on `simulated`, each expanded against the state the lines
        before it left (a PIN is typed once the PIN screen shows)."""
        typed: list[str] = []
        for line in lines:
            typed += type_out(type(simulated).expand_advice(line, simulated.visible_state()), simulated)
            if simulated.solved:
                break
        return typed


def type_out(actions: list[str], simulated: Any) -> list[str]:
    """Type `actions` on `simulated` as the protocol will (an invalid action, a mistake or solving ends it)."""
    typed: list[str] = []
    for action in actions:
        wait = parse_wait(action) if simulated.uses_clock else None
        if wait is not None:
            simulated.elapse(wait)
            typed.append(action)
            continue
        if action not in simulated.valid_actions():
            break
        typed.append(action)
        if not simulated.apply(action) or simulated.solved:
            break
    return typed


_STEPS = VERBS - {"let", "go"}


def _unread_step(messages: list[str]) -> str | None:
    """The last sentence naming a step ("press the correct button") when the reader found no action and no question:
    the solver asks about it instead of going on silently."""
    said = [s for m in messages for s in sentences(strip_thinking(m)) if _STEPS & set(re.findall(r"[a-z]+", s.lower()))]
    return " ".join(said[-1].split())[:120] if said else None


class NaturalSolver(OracleSolver):
    """Describes in plain English and carries out plain-English advice, asking back when it is
    ambiguous; a bare action name is typed as it is."""

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        super().__init__(env)
        self.rng = rng
        self.book = phrasebook(self.env.puzzle_cls)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        puzzle = self.env.puzzle
        simulated = copy.deepcopy(puzzle)
        messages = _since_last(info, "expert", "solver")
        advice = "\n".join(messages)
        since = max((n for n, message in enumerate(messages) if n and retracts(message)), default=0)
        said = "\n".join(map(after_retraction, messages[since:])).splitlines()  # not "confirm" before "wait, no"
        bare = [line for line in map(strip_wrappers, map(str.strip, said)) if line in simulated.valid_actions()]
        if bare and len(bare) < sum(1 for line in said if line.strip()):  # "1) continue\n2) $300\n3) confirm"
            read = self.book.understand_dialogue(messages, copy.deepcopy(simulated)).actions
            rest = iter(read or [])  # the bare names in order among what the reader found ("wait 9" before "submit")
            bare = read if read and all(line in rest for line in bare) else bare
        steps = Steps(bare) if bare else \
            self.book.understand_dialogue(messages, simulated) if advice.strip() else Steps()
        if not steps.actions and not steps.ask:
            unread = _unread_step(messages)
            steps = Steps.unclear(f'What exactly should I do for "{unread}"?') if unread else steps
        if steps.ask:
            description = self.describe(type(puzzle).redact(simulated.visible_state()))
            return Reply(f"{steps.ask[0]}\n{description}", understood=understood(ask=steps.ask))
        typed = type_out(steps.actions or [], simulated)
        lines = list(typed)
        if not simulated.solved:
            lines.append(self.describe(type(puzzle).redact(simulated.visible_state())))
        return Reply("\n".join(lines), understood=understood(actions=typed))

    def describe(self, state: dict[str, Any]) -> str:
        hidden = type(self.env.puzzle).drawing_only_keys
        return self.book.describe({k: v for k, v in state.items() if k not in hidden}, self.rng)


class OracleExpert(Player):
    """Reads what the solver writes (`Phrasebook.hear`), applies the manual without guessing, and
    answers ``Type these actions:`` or asks for exactly what it is missing."""

    needs_observation = False  # its dialogue is in info

    def __init__(self, puzzle_cls: type[Puzzle], rng: np.random.Generator | None = None) -> None:
        self.puzzle_cls = puzzle_cls
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.book = self.reader(puzzle_cls)
        self.memory = self.book.start()

    @staticmethod
    def reader(puzzle_cls: type[Puzzle]) -> Phrasebook:
        """The puzzle's phrasebook (a puzzle without one is read from the ``I see:`` block only)."""
        try:
            return phrasebook(puzzle_cls)
        except KeyError:
            return Phrasebook(puzzle_cls)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        before, message = self.memory, ""
        for message in _since_last(info, "solver", "expert"):
            before = copy.deepcopy(self.memory)
            self.book.hear(message, self.memory)
        exact = self.memory.get("exact")
        decision = self.book.decide_exact(self.memory) if exact else \
            self.book.unsure(message, before, self.book.decide(self.memory))
        facts = [f"{key.replace('_', ' ')}: {render(value)}" for key, value in exact.items()] if exact else \
            self.book.facts(self.memory)
        if decision.advice:
            self.book.advised(decision.advice, self.memory)
            text = self.advise(decision.advice, self.memory.get("exact") or self.book.belief(self.memory))
            return Reply(text, understood=understood(facts=facts, advice=decision.advice))
        told = any(value not in (None, {}, []) for value in self.memory["state"].values())
        text = self.ask(decision.ask if told else [])
        return Reply(text, understood=understood(facts=facts, ask=decision.ask if told else ["what you see"]))

    def ask(self, about: list[str]) -> str:
        return self.book.question(about, self.rng) if about else ASK_AGAIN

    def advise(self, actions: list[str], seen: dict[str, Any]) -> str:
        return "\n".join([ADVICE_HEADER, *actions])


class NaturalExpert(OracleExpert):
    """Words the manual's advice without action names, in seeded, varied prose."""

    @staticmethod
    def reader(puzzle_cls: type[Puzzle]) -> Phrasebook:
        return phrasebook(puzzle_cls)

    def ask(self, about: list[str]) -> str:
        return self.book.question(about, self.rng) if about else choose(self.rng, ASK_TO_DESCRIBE)

    def advise(self, actions: list[str], seen: dict[str, Any]) -> str:
        sentences = self.book.say(actions, seen, self.rng)
        lines = [with_connector(s, i, len(sentences), self.rng) for i, s in enumerate(sentences)]
        return "\n".join(line for line in [choose(self.rng, OPENERS), *lines, choose(self.rng, CLOSERS)] if line)


class OraclePolicy(Policy):
    """The scripted pair, `style` "actions" or "natural" (`seed` varies the wording, reproducibly)."""

    replayable = True
    synchronous = True  # its players never await: comma_env.rl steps them without an event loop

    def __init__(self, style: str = "actions", seed: int = 0) -> None:
        if style not in STYLES:
            raise ValueError(f"oracle style must be one of {STYLES}, got {style!r}")
        self.style = style
        self.seed = seed
        self.name = "oracle" if style == "actions" else "oracle_nl"

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> OraclePolicy:
        """``extra.style``: ``actions`` (``conf/model/oracle.yaml``) or ``natural`` (``oracle_nl``)."""
        return cls(style=str(config_extra(cfg).get("style", "actions")), seed=seed)

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        rng = np.random.default_rng([self.seed, 0 if seed is None else seed, 0 if role == "solver" else 1])
        if self.style == "natural":
            if role == "solver":
                return NaturalSolver(env, rng)
            return NaturalExpert(env.unwrapped.puzzle_cls, rng)
        if role == "solver":
            return OracleSolver(env)
        return OracleExpert(env.unwrapped.puzzle_cls, rng)
