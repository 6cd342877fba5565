"""A realistic scripted pair: the oracle's perception and reading of the manual without its
foresight, so a stage costs two turns unless the expert can plan ahead."""

from __future__ import annotations

from typing import Any

from comma_env.agents.oracle import ADVICE_HEADER, ASK_AGAIN
from comma_env.protocol.clock import parse_wait
from comma_env.protocol.policy import Player, Policy, Reply, config_extra, last_message
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state, parse_description

PLAN_HEADER = "When you see the new picture, do this:"
ASK_TO_LOOK = "Tell me what you see now."


def _section(message: str, header: str) -> list[str] | None:
    """The non-empty lines after `header` (up to the next known header), or None."""
    if header not in message:
        return None
    body = message.split(header, 1)[1]
    for other in (ADVICE_HEADER, PLAN_HEADER, DESCRIPTION_HEADER):
        if other != header:
            body = body.split(other, 1)[0]
    return [line.strip() for line in body.splitlines() if line.strip()]


class RealisticSolver(Player):
    """Perfect perception of the present image, no foresight of the next one."""

    needs_observation = False  # perceives through visible_state

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self._answered = 0  # expert messages already acted on

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        puzzle = self.env.puzzle
        seen = puzzle.visible_state()
        expert_messages = [e["text"] for e in info.get("dialogue", []) if e["speaker"] == "expert"]
        advice: list[str] | None = None
        plan: list[str] | None = None
        if len(expert_messages) > self._answered:
            newest = expert_messages[-1]
            advice = _section(newest, ADVICE_HEADER)
            plan = _section(newest, PLAN_HEADER)
        self._answered = len(expert_messages)
        typed = self._resolve(advice or plan or [], seen)
        lines = list(typed)
        if not typed or plan:
            # nothing to act on, or a plan resolved against this picture: the expert needs it
            lines += [DESCRIPTION_HEADER, describe_state(type(puzzle).redact(seen))]
        return Reply("\n".join(lines))

    def _resolve(self, advice: list[str], seen: dict[str, Any]) -> list[str]:
        """Action names for the advised lines, read against the present picture only."""
        valid = set(self.env.puzzle.valid_actions())
        typed: list[str] = []
        for line in advice:
            typed += type(self.env.puzzle).expand_advice(line, seen)
        # an action that is not a button now cannot be typed; later ones are typed blind
        # (a real-time puzzle's advice may start with a `wait N`, which is always typeable)
        first_ok = bool(typed) and (typed[0] in valid
                                    or (self.env.puzzle.uses_clock and parse_wait(typed[0]) is not None))
        return typed if first_ok else []


class RealisticExpert(Player):
    """Applies the manual to what it was told; plans ahead only where the manual allows."""

    needs_observation = False

    def __init__(self, puzzle_cls: type[Puzzle], plan_ahead: bool = True) -> None:
        self.puzzle_cls = puzzle_cls
        self.plan_ahead = plan_ahead
        self.notes: dict[str, Any] = {}

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        try:
            return self._answer(last_message(info, "solver"))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            # a description typed by a person or a model, with a value of the wrong type or range
            return Reply(ASK_AGAIN)

    def _answer(self, message: str) -> Reply:
        head, described, body = message.partition(DESCRIPTION_HEADER)
        seen = parse_description(body) if described else {}
        typed = [line.strip() for line in head.splitlines() if line.strip()]
        if typed:
            base = seen or self.notes.get("last_seen")
            plan = self.puzzle_cls.plan_ahead(base, typed, self.notes) if base and self.plan_ahead else []
            if seen:
                self.notes["last_seen"] = seen
            return Reply("\n".join([PLAN_HEADER, *plan]) if plan else ASK_TO_LOOK)
        if not seen:
            return Reply(ASK_AGAIN)
        self.notes["last_seen"] = seen
        return Reply("\n".join([ADVICE_HEADER, *self.puzzle_cls.expert_advice(seen, self.notes)]))


class RealisticPolicy(Policy):
    """`plan_ahead=False` gives the plainest pair: every stage costs a description."""

    name = "realistic"
    replayable = True

    def __init__(self, plan_ahead: bool = True) -> None:
        self.plan_ahead = plan_ahead

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> RealisticPolicy:
        """``extra.plan_ahead`` (default true)."""
        return cls(plan_ahead=bool(config_extra(cfg).get("plan_ahead", True)))

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        if role == "solver":
            return RealisticSolver(env)
        return RealisticExpert(env.unwrapped.puzzle_cls, plan_ahead=self.plan_ahead)
