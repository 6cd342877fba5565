"""The policy interface shared by every way of playing a role: a `Policy` per run hands out an
async `Player` per role and episode, so that model calls of many episodes overlap."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from comma_env.protocol.logprobs import TokenLogprobs


@dataclass
class Reply:
    """One message from a player, with the tokens it cost, optional logprobs and token ids, and
    what a scripted partner understood (docs/partners.md)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    logprobs: TokenLogprobs | None = None
    understood: dict[str, Any] | None = None
    token_ids: dict[str, list[int]] | None = None


class Player(ABC):
    """Plays one role (``solver`` or ``expert``) for one episode."""

    needs_observation: bool = True
    """False for players that act on `info` alone: the runner then skips the observation."""

    @abstractmethod
    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        """The next message, from this agent's own observation and info only."""


class Policy(ABC):
    """A way of playing; makes a fresh `Player` for each episode and role."""

    name: str = "policy"
    replayable: bool = False
    """True for scripted policies, whose players' state follows from the messages they were shown:
    the play server replays a recorded episode through fresh players to restore a session."""

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> Policy:
        """The policy a model config describes (`log_dir` keeps a launched server's logs)."""
        return cls()

    @abstractmethod
    def player(self, role: str, env: Any, seed: int | None) -> Player:
        """A player for `role` in the episode that `env` (already reset) is about to run."""

    async def aclose(self) -> None:  # noqa: B027 (optional hook: most policies hold nothing)
        """Release servers, sessions or files the policy holds."""


def last_message(info: dict[str, Any], speaker: str) -> str:
    """The newest message of `speaker` in an agent's dialogue ("" before it spoke)."""
    return next((entry["text"] for entry in reversed(info.get("dialogue", [])) if entry["speaker"] == speaker), "")


def config_extra(cfg: Any) -> dict[str, Any]:
    """The ``extra`` mapping of a model config (a dataclass, an OmegaConf node or a dict)."""
    extra = cfg.get("extra") if isinstance(cfg, dict) else getattr(cfg, "extra", None)
    return dict(extra or {})


def request_seed(policy_seed: int, instance_seed: int | None, role: str, call: int) -> int:
    """A deterministic 31-bit sampling seed for one call of one player in one episode."""
    digest = hashlib.sha256(f"{policy_seed}:{instance_seed}:{role}:{call}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
