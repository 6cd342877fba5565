"""What the rollout, its results and the chat policies need of a two-agent game: `Game`, which
`CommaEnv` and AsymPuzl's environment both implement, so the run pipeline plays either alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from comma_env.protocol.prompts import Message, PromptOptions


@dataclass(frozen=True)
class RunOptions:
    """The options a rollout plays under; a game takes the ones it has."""

    max_turns: int = 10
    max_mistakes: int = 3
    memory: str = "full"
    solver_view: str = "image"
    action_matching: str = "exact"
    reward: Mapping[str, float] = field(default_factory=dict)
    puzzle_options: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    """A raw two-agent AEC environment the rollout can play (a versioned module's ``raw_env``)."""

    slots: ClassVar[Mapping[str, str]]
    """The agents the rollout's ``solver`` and ``expert`` policies play."""

    @classmethod
    def env_options(cls, options: RunOptions) -> dict[str, Any]:
        """The keyword arguments of the versioned module's ``env()`` under a run's options."""

    @classmethod
    def record_settings(cls, options: RunOptions) -> dict[str, Any]:
        """The settings an episode record carries, as the game runs them."""

    def initial_state(self) -> dict[str, Any]:
        """The instance just after ``reset``, as the episode record keeps it (judges read it)."""

    def episode_summary(self) -> Mapping[str, Any]:
        """The per-episode metrics of what was played so far."""

    @property
    def transcript(self) -> list[Any]:
        """Every turn played so far, as the episode record keeps it."""

    def messages(self, agent: str, observation: Mapping[str, Any], info: Mapping[str, Any],
                 image_url: str | None = None, options: PromptOptions | None = None) -> list[Message]:
        """What `agent` is shown this turn, as the chat messages a model is sent."""

    @classmethod
    def results(cls, records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """The game's own metrics for ``results.json``, or None when the suite's tables say everything."""

    @classmethod
    def results_markdown(cls, metrics: Mapping[str, Any]) -> list[str]:
        """The lines of ``results.md`` that show `metrics` (what `results` returned)."""
