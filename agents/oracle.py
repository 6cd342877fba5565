"""The scripted oracle pair: proof that every instance is solvable from the image plus the manual.

Both players talk only through the text protocol. The solver writes a description of what
its image shows (from ``env.unwrapped.visible_state``, with private facts left out); the
expert reads that description back and applies the manual (`Puzzle.expert_advice`), then
names the actions to type. To save turns, the solver describes the state that its typed
actions will lead to, by replaying them on a copy of the puzzle: a perfect solver that can
foresee its next image. One described stage per turn therefore needs one turn.
"""

from __future__ import annotations

import copy
from typing import Any

from agents.base import Player, Policy, Reply
from comma_env.clock import parse_wait
from comma_env.text import DESCRIPTION_HEADER, describe_state, parse_description

ADVICE_HEADER = "Type these actions:"
ASK_AGAIN = "Please describe exactly what you see."


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
        advice = _last_message(info, "expert") or ""
        _, has_advice, body = advice.partition(ADVICE_HEADER)
        simulated = copy.deepcopy(puzzle)
        typed: list[str] = []
        if has_advice:
            for line in (l.strip() for l in body.splitlines()):
                if not line:
                    continue
                for action in type(puzzle).expand_advice(line, simulated.visible_state()):
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
        lines = list(typed)
        if not simulated.solved:
            lines += [DESCRIPTION_HEADER, describe_state(type(puzzle).redact(simulated.visible_state()))]
        return Reply("\n".join(lines))


class OracleExpert(Player):
    needs_observation = False  # its dialogue is in info
    def __init__(self, puzzle_cls: type) -> None:
        self.puzzle_cls = puzzle_cls
        self.notes: dict[str, Any] = {}

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        message = _last_message(info, "solver") or ""
        _, described, body = message.partition(DESCRIPTION_HEADER)
        seen = parse_description(body) if described else {}
        if not seen:
            return Reply(ASK_AGAIN)
        try:
            actions = self.puzzle_cls.expert_advice(seen, self.notes)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            # a description typed by a person or a model, with a value of the wrong type or range
            return Reply(ASK_AGAIN)
        return Reply("\n".join([ADVICE_HEADER, *actions]))


class OraclePolicy(Policy):
    name = "oracle"

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        if role == "solver":
            return OracleSolver(env)
        return OracleExpert(env.unwrapped.puzzle_cls)
