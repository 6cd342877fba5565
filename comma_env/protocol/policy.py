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
    """One message from a player, with the tokens it cost (0 for scripted players) and, when asked
    for and returned, each token's log-probability and the token ids. A scripted partner also says what it
    understood of its partner's last message (`understood`, docs/partners.md)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    logprobs: TokenLogprobs | None = None
    understood: dict[str, Any] | None = None
    token_ids: dict[str, list[int]] | None = None
    """The prompt's and the reply's token ids as the server gave them (``server_ids: true``)."""


class Player(ABC):
    """Plays one role (``solver`` or ``expert``) for one episode."""

    needs_observation: bool = True
    """False for players that act on `info` alone (random, scripted): the runner then skips
    building the observation, which saves drawing the image."""

    @abstractmethod
    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        """The next message, from this agent's own observation and info only."""


class Policy(ABC):
    """A way of playing; makes a fresh `Player` for each episode and role."""

    name: str = "policy"
    replayable: bool = False
    """True for scripted policies: their players' state (random streams included) follows
    from the messages they were shown, so replaying a recorded episode through fresh players
    restores it (the play server does, when it restores a session). A model is not replayed:
    its memory is the dialogue it is shown, and a call costs time and money."""

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> Policy:
        """The policy a model config (a `ModelConfig` or a dict of its fields) describes; `seed` seeds
        its own randomness, `log_dir` keeps a launched server's logs."""
        return cls()

    @abstractmethod
    def player(self, role: str, env: Any, seed: int | None) -> Player:
        """A player for `role` in the episode that `env` (already reset) is about to run."""

    async def aclose(self) -> None:  # noqa: B027 (optional hook: most policies hold nothing)
        """Release servers, sessions or files the policy holds."""


def config_extra(cfg: Any) -> dict[str, Any]:
    """The ``extra`` mapping of a model config (a dataclass, an OmegaConf node or a dict)."""
    extra = cfg.get("extra") if isinstance(cfg, dict) else getattr(cfg, "extra", None)
    return dict(extra or {})


def request_seed(policy_seed: int, instance_seed: int | None, role: str, call: int) -> int:
    """A deterministic 31-bit sampling seed for one call of one player in one episode."""
    digest = hashlib.sha256(f"{policy_seed}:{instance_seed}:{role}:{call}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
