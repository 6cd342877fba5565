"""The paper's random baseline: the solver types one uniformly chosen valid action per turn,
ignoring the image, the expert and the history; the expert stays silent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from comma_env.protocol.policy import Player, Policy, Reply


class RandomSolver(Player):
    needs_observation = False
    def __init__(self, seed: int | Sequence[int] | None) -> None:
        self.rng = np.random.default_rng(seed)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        return Reply(self.choose(info))

    def choose(self, info: dict[str, Any]) -> str:
        actions = info.get("valid_actions") or []
        return str(actions[int(self.rng.integers(len(actions)))]) if actions else ""


class SilentExpert(Player):
    needs_observation = False
    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        return Reply("")


class RandomPolicy(Policy):
    """Random solver, silent expert. `seed` offsets the per-episode action RNG."""

    name = "random"
    replayable = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> RandomPolicy:
        return cls(seed=seed)

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        if role == "solver":
            # one RNG stream per (run seed, instance seed): episodes are reproducible in any order
            return RandomSolver(None if seed is None else [self.seed, seed])
        return SilentExpert()
