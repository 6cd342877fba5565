"""The scripted oracle pair: proof that every instance is solvable from the image plus the manual.

Both players talk only through the text protocol. The solver writes a description of what
its image shows (from ``env.unwrapped.visible_state``, with private facts left out); the
expert reads that description back and applies the manual (`Puzzle.expert_advice`), then
tells the solver what to do. To save turns, the solver describes the state that its typed
actions will lead to, by replaying them on a copy of the puzzle: a perfect solver that can
foresee its next image. One described stage per turn therefore needs one turn.

Two styles (``OraclePolicy(style=...)``, model configs ``oracle`` and ``oracle_nl``):

- ``"actions"`` (the rollout's default): the solver writes ``key: value`` lines under
  ``I see:``, the expert answers ``Type these actions:`` and the action names;
- ``"natural"``: the solver describes in varied prose (`comma_env.agents.natural.prose`) and the
  expert gives varied, seeded directions that never contain an action name ("cut the third
  wire", "press the button that says "FIRST", top right"); the solver resolves them against
  what it sees (`comma_env.agents.natural.phrasebooks`). The rules followed are the same manual's.
  The natural solver also types a line that is a bare action name (``cut_wire_3``), so it
  partners an expert learner whatever wording that learner settles on.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from comma_env.agents.natural import prose
from comma_env.agents.natural.phrasebooks import phrasebook
from comma_env.agents.natural.words import choose, strip_connector, with_connector
from comma_env.protocol.clock import parse_wait
from comma_env.protocol.policy import Player, Policy, Reply, config_extra
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state, parse_description, strip_wrappers

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


def _last_message(info: dict[str, Any], speaker: str) -> str | None:
    for entry in reversed(info.get("dialogue", [])):
        if entry["speaker"] == speaker:
            return entry["text"]
    return None


class OracleSolver(Player):
    needs_observation = False  # reads the true state instead

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        puzzle = self.env.puzzle
        simulated = copy.deepcopy(puzzle)
        typed = self.follow(self.advice_lines(_last_message(info, "expert") or ""), simulated)
        lines = list(typed)
        if not simulated.solved:
            lines.append(self.describe(type(puzzle).redact(simulated.visible_state())))
        return Reply("\n".join(lines))

    def advice_lines(self, advice: str) -> list[str]:
        _, has_advice, body = advice.partition(ADVICE_HEADER)
        return [line.strip() for line in body.splitlines() if line.strip()] if has_advice else []

    def understand(self, line: str, simulated: Any) -> list[str]:
        return type(simulated).expand_advice(line, simulated.visible_state())

    def describe(self, state: dict[str, Any]) -> str:
        return f"{DESCRIPTION_HEADER}\n{describe_state(state)}"

    def follow(self, lines: list[str], simulated: Any) -> list[str]:
        """Type the actions `lines` ask for, replaying them on `simulated` (stop at a mistake
        within a line, or when solved)."""
        typed: list[str] = []
        for line in lines:
            for action in self.understand(line, simulated):
                wait = parse_wait(action) if simulated.uses_clock else None
                if wait is not None:  # real-time puzzles: let the clock run to the right moment
                    simulated.elapse(wait)
                    typed.append(action)
                    continue
                if action not in simulated.valid_actions():
                    break
                typed.append(action)
                if not simulated.apply(action) or simulated.solved:
                    break
            if simulated.solved:
                break
        return typed


class NaturalSolver(OracleSolver):
    """Describes in varied prose; resolves natural-language directions against what it sees."""

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        super().__init__(env)
        self.rng = rng
        self.book = phrasebook(self.env.puzzle_cls)

    def advice_lines(self, advice: str) -> list[str]:
        return [strip_connector(line.strip()) for line in advice.splitlines() if line.strip()]

    def understand(self, line: str, simulated: Any) -> list[str]:
        """A bare action name (``cut_wire_3``, also in markdown) is typed as it is, so an
        expert learner that writes action names is understood; anything else is resolved as
        a direction against what the solver sees."""
        bare = strip_wrappers(line.strip())
        if bare in simulated.valid_actions():
            return [bare]
        return self.book.understand(line, simulated.visible_state())

    def describe(self, state: dict[str, Any]) -> str:
        return prose.describe(state, self.rng)


class OracleExpert(Player):
    needs_observation = False  # its dialogue is in info

    def __init__(self, puzzle_cls: type[Puzzle]) -> None:
        self.puzzle_cls = puzzle_cls
        self.notes: dict[str, Any] = {}

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        seen = self.read(_last_message(info, "solver") or "")
        if not seen:
            return Reply(self.ask())
        try:
            actions = self.puzzle_cls.expert_advice(seen, self.notes)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            # a description typed by a person or a model, with a value of the wrong type or range
            return Reply(self.ask())
        return Reply(self.advise(actions, seen))

    def read(self, message: str) -> dict[str, Any]:
        _, described, body = message.partition(DESCRIPTION_HEADER)
        return parse_description(body) if described else {}

    def ask(self) -> str:
        return ASK_TO_DESCRIBE[0]

    def advise(self, actions: list[str], seen: dict[str, Any]) -> str:
        return "\n".join([ADVICE_HEADER, *actions])


class NaturalExpert(OracleExpert):
    """Reads prose (or ``I see:`` lines); words the manual's advice without action names."""

    def __init__(self, puzzle_cls: type[Puzzle], rng: np.random.Generator) -> None:
        super().__init__(puzzle_cls)
        self.rng = rng
        self.book = phrasebook(puzzle_cls)

    def read(self, message: str) -> dict[str, Any]:
        return prose.read(message) or super().read(message)

    def ask(self) -> str:
        return choose(self.rng, ASK_TO_DESCRIBE)

    def advise(self, actions: list[str], seen: dict[str, Any]) -> str:
        if not actions:
            return self.ask()
        sentences = self.book.say(actions, seen, self.rng)
        lines = [with_connector(s, i, len(sentences), self.rng) for i, s in enumerate(sentences)]
        return "\n".join(line for line in [choose(self.rng, OPENERS), *lines, choose(self.rng, CLOSERS)] if line)


class OraclePolicy(Policy):
    """The scripted pair; `style` "actions" (default) or "natural"; `seed` varies the
    natural wording (with the instance seed, so an episode's wording is reproducible)."""

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
        if self.style == "natural":
            rng = np.random.default_rng([self.seed, 0 if seed is None else seed, 0 if role == "solver" else 1])
            if role == "solver":
                return NaturalSolver(env, rng)
            return NaturalExpert(env.unwrapped.puzzle_cls, rng)
        if role == "solver":
            return OracleSolver(env)
        return OracleExpert(env.unwrapped.puzzle_cls)
