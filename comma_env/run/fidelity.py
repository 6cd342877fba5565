"""The paper's numbers that this implementation is checked against, with the paper's own
standard errors (its Table 1 and Table 3 print a ``± σ`` beside every entry)."""

from __future__ import annotations

import math

from comma_env.registry import SPECS

PAPER_RANDOM: dict[str, tuple[float, float]] = {
    name: (spec.paper_random.psr, spec.paper_random.sr) for name, spec in SPECS.items() if spec.paper_random
}
"""Random baseline of the final COMMA paper: (PSR, SR) in percent, Tables 1 and 3, from the specs
(kept as published, though Maze's SR of 3 exceeds its PSR of 0)."""

PAPER_RANDOM_SE: dict[str, tuple[float, float]] = {
    name: (spec.paper_random.psr_se, spec.paper_random.sr_se) for name, spec in SPECS.items() if spec.paper_random
}
"""The standard errors the paper prints beside `PAPER_RANDOM` (PSR SE, SR SE)."""

PAPER_HUMAN_GPT4O: dict[str, float] = {
    name: spec.paper_human_gpt4o for name, spec in SPECS.items() if spec.paper_human_gpt4o is not None
}
"""The paper's best pair, a human solver with a GPT-4o expert (Table 1 PSR, 10 runs per puzzle)."""

PAPER_EPISODES = 100

SE_FLOOR = 0.5
"""A zero-variance rate (0 ± 0.0) still has rounding behind it: half a point keeps it
comparable."""


def gap_in_se(ours: float, ours_se: float, paper: float, paper_se: float) -> float:
    """How many standard errors of the difference (floored at `SE_FLOOR`) separate our rate from the paper's."""
    return abs(ours - paper) / max(math.sqrt(ours_se**2 + paper_se**2), SE_FLOOR)


PAPER_V1_RANDOM: dict[str, dict[str, float]] = {
    name: {"psr": row.psr, "mistakes": row.mistakes, "turns": row.turns}
    for name, spec in SPECS.items() if (row := spec.paper_v1_random) is not None
}
"""Random row of the first COMMA paper (``protocol=v1``: PSR, mistakes, conversation length; no
standard errors). docs/fidelity.md lists where our random solver misses it."""

PAPER_V1_RANDOM_PSR: dict[str, float] = {puzzle: row["psr"] for puzzle, row in PAPER_V1_RANDOM.items()}
"""PSR column of `PAPER_V1_RANDOM` (the number the results tables print beside a v1 run)."""
