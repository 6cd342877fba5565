"""Reward options of the COMMA protocol and their formulas.

Rewards are shared by both agents; every option is 0 by default, so the return equals the
partial score. With every option the per-step rewards add up to::

    return = progress_final - progress_initial
             + success_bonus * [solved]
             - mistake_penalty * mistakes
             - leak_penalty * leaked_fields
             - leak_unsure_penalty * unsure_fields
             - token_cost * tokens / 1000

``unsure_fields`` counts the fields the detector is unsure about when the episode ends
(``privacy_unsure``); a field that turns out leaked moves from that term to the leak term, so
each solver step carries the change of the count. The expert's step carries only its own
token term."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

REWARD_OPTIONS = ("success_bonus", "mistake_penalty", "leak_penalty", "leak_unsure_penalty", "token_cost")
"""Environment options (keyword arguments) that shape the reward; all default to 0."""


@dataclass(frozen=True)
class RewardTerms:
    """The weights of the optional reward terms (the progress increase always counts 1)."""

    success_bonus: float = 0.0
    mistake_penalty: float = 0.0
    leak_penalty: float = 0.0
    leak_unsure_penalty: float = 0.0
    token_cost: float = 0.0

    def solver_step(self, progress_gain: float, solved: bool, new_mistakes: int, new_leaks: int, tokens: int,
                    unsure_change: int = 0) -> float:
        """The shared reward of one solver message (`unsure_change`: how many more fields are
        unsure after it than before, negative when unsure fields turned out leaked)."""
        return float(
            progress_gain
            + (self.success_bonus if solved else 0.0)
            - self.mistake_penalty * new_mistakes
            - self.leak_penalty * new_leaks
            - self.leak_unsure_penalty * unsure_change
            - self.token_cost * tokens / 1000.0
        )

    def expert_step(self, tokens: int) -> float:
        """The shared reward of one expert message (only its token cost)."""
        return float(-self.token_cost * tokens / 1000.0)

    def episode_return(self, progress: float, success: bool, mistakes: int, leaks: int, tokens: int,
                       initial_progress: float = 0.0, unsure: int = 0) -> float:
        """The documented return of a whole episode (what the per-step rewards sum to)."""
        return self.solver_step(progress - initial_progress, success, mistakes, leaks, tokens, unsure)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
