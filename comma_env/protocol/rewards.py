"""Reward options of the COMMA protocol, shared by both agents and 0 by default (the return is then the
partial score); docs/training-rewards.md gives the formula."""

from __future__ import annotations

from dataclasses import dataclass


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
        """The shared reward of one solver message (`unsure_change`: the change of unsure fields)."""
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
