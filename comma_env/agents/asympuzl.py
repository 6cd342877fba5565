"""Scripted AsymPuzl pairs for ``alice`` and ``bob``: ``share_all`` (every clue at once, like the
paper's strong models) and ``one_piece`` (one random clue per message, like its weak ones)."""

from __future__ import annotations

import random
import re
from typing import Any

from comma_env.protocol.policy import Player, Policy, Reply, config_extra, last_message

STRATEGIES = ("share_all", "one_piece")
_POSITION = re.compile(r"^position (\d{1,4}): (\w+)$")
_PAIR = re.compile(r"^(\w+) is (\w+)$")


def _lines(text: str) -> list[str]:
    return [line.strip().lower() for line in text.splitlines() if line.strip()]


class _Scripted(Player):
    needs_observation = False  # acts on info: clues, hypothesis, dialogue

    def __init__(self, strategy: str, rng: random.Random) -> None:
        self.strategy = strategy
        self.rng = rng
        self.known: dict[Any, str] = {}  # alice: shape -> colour; bob: position -> shape

    @staticmethod
    def _sets(info: dict[str, Any], wanted: dict[int, tuple[str, str]]) -> list[str]:
        """Update lines for the positions whose hypothesis differs from `wanted`."""
        current = [tuple(slot) for slot in info["hypothesis"]]
        return [f"set {p} {s} {c}" for p, (s, c) in sorted(wanted.items())
                if 1 <= p <= len(current) and current[p - 1] != (s, c)]


class ScriptedAlice(_Scripted):
    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        shapes: list[str] = list(info["clues"])
        for line in _lines(last_message(info, "bob")):
            if match := _PAIR.match(line):
                self.known[match.group(1)] = match.group(2)
        if self.strategy == "share_all":
            message = ["My shapes, in order:", *(f"position {i}: {s}" for i, s in enumerate(shapes, start=1))]
            true_shapes = [s for s in shapes if s in self.known]
            wanted = ({p: (s, self.known[s]) for p, s in enumerate(true_shapes, start=1)}
                      if len(true_shapes) == info["n"] else {})
        else:
            index = self.rng.randrange(len(shapes))
            message = [f"position {index + 1}: {shapes[index]}"]
            wanted = {p: (s, self.known[s]) for p, s in enumerate(shapes, start=1) if s in self.known}
        return Reply("\n".join(message + self._sets(info, wanted)))


class ScriptedBob(_Scripted):
    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        pairs = {shape: colour for shape, colour in info["clues"]}
        listed: list[str] = []
        for line in _lines(last_message(info, "alice")):
            if match := _POSITION.match(line):
                self.known[int(match.group(1))] = match.group(2)
                listed.append(match.group(2))
        if self.strategy == "share_all":
            message = ["My pairs:", *(f"{s} is {c}" for s, c in info["clues"])]
            true_shapes = [s for s in listed if s in pairs]
            wanted = ({p: (s, pairs[s]) for p, s in enumerate(true_shapes, start=1)}
                      if len(true_shapes) == info["n"] else {})
        else:
            shape, colour = info["clues"][self.rng.randrange(len(info["clues"]))]
            message = [f"{shape} is {colour}"]
            wanted = {p: (s, pairs[s]) for p, s in self.known.items() if s in pairs}
        return Reply("\n".join(message + self._sets(info, wanted)))


class AsymPuzlPairPolicy(Policy):
    """A scripted strategy for both AsymPuzl agents (the rollout's solver plays Alice, its expert Bob)."""

    def __init__(self, strategy: str = "share_all", seed: int = 0) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
        self.strategy = strategy
        self.seed = int(seed)
        self.name = f"asympuzl_{strategy}"

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> AsymPuzlPairPolicy:
        """``extra.strategy``: ``share_all`` (default) or ``one_piece``."""
        return cls(str(config_extra(cfg).get("strategy", "share_all")), seed=seed)

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        rng = random.Random(f"{self.seed}/{seed}/{role}")
        if role == "alice":
            return ScriptedAlice(self.strategy, rng)
        if role == "bob":
            return ScriptedBob(self.strategy, rng)
        raise ValueError(f"the scripted AsymPuzl pair plays alice and bob, not {role!r}")
