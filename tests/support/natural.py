"""The natural-language oracle (``oracle_nl``) played through, and the action names a text
contains: what the natural-oracle tests read."""

from __future__ import annotations

import re

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.runner import play


def state_of(puzzle: str, seed: int):
    """The puzzle class and its state after ``reset(seed)``: what a phrasebook reads against."""
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    return env.unwrapped.puzzle_cls, env.unwrapped.puzzle


def play_natural(puzzle: str, seed: int, policy_seed: int = 0):
    """One oracle_nl episode; also returns every action name valid at some point."""
    policy = OraclePolicy("natural", seed=policy_seed)
    env = comma_env.make(puzzle, solver_view="text")
    env.reset(seed=seed)
    vocabulary: set[str] = set(env.unwrapped.puzzle.valid_actions())

    class Recording:
        def __init__(self, player):
            self.player, self.needs_observation = player, player.needs_observation

        async def act(self, observation, info):
            vocabulary.update(env.unwrapped.puzzle.valid_actions())
            return await self.player.act(observation, info)

    result = play(env, Recording(policy.player("solver", env, seed)), policy.player("expert", env, seed))
    return result, vocabulary


def names_action(text: str, names: set[str]) -> list[str]:
    """The action tokens in `names` (``cut_wire_3``, not the plain words "tap" or "submit", which
    are how a person says them too) that `text` contains as whole words (any case)."""
    tokens = [n for n in names if not n.isalpha()]
    return [n for n in tokens if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", text, re.IGNORECASE)]
