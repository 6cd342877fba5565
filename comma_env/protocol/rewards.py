"""Reward options of the COMMA protocol and their formulas.

Rewards are shared by both agents; every option is 0 by default, so the return equals the
partial score. With every option the per-step rewards add up to::

    return = progress_final - progress_initial
             + success_bonus * [solved]
             - mistake_penalty * mistakes
             - leak_penalty * leaked_fields
             - leak_unsure_penalty * unsure_fields
             - token_cost * tokens / 1000

``unsure_fields`` counts the fields still unsure at the end (``privacy_unsure``), so each solver
step carries the change of that count. The expert's step carries only its own token term."""

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
