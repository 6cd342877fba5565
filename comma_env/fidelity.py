"""The paper's numbers that this implementation is checked against."""

from __future__ import annotations

import math

PAPER_RANDOM: dict[str, tuple[float, float]] = {
    "wire": (57.0, 57.0),
    "who": (44.0, 44.0),
    "keypad": (18.0, 1.0),
    "led": (32.0, 14.0),
    "memory": (15.0, 0.0),
    "maze": (0.0, 0.0),
    "password": (0.0, 0.0),
    "color": (6.0, 0.0),
    "atm": (0.0, 0.0),
    "telehealth": (16.0, 3.0),
}
"""Random baseline of the final COMMA paper: (PSR, SR) in percent, Table 1 / Table 3,
100 instances per puzzle."""

PAPER_EPISODES = 100


def binomial_se(rate_percent: float, n: int) -> float:
    """Standard error (in percentage points) of a rate measured on `n` episodes."""
    p = rate_percent / 100.0
    return 100.0 * math.sqrt(max(p * (1 - p), 0.0) / n)


def agrees(ours: float, ours_se: float, paper: float, paper_n: int = PAPER_EPISODES, k: float = 2.0) -> bool:
    """Whether two measured rates differ by at most `k` combined standard errors.

    Both estimates are noisy (the paper's on 100 episodes), so the standard errors are
    combined; a floor of half a point keeps zero-variance rates (0 or 100) comparable.
    """
    combined = math.sqrt(ours_se**2 + binomial_se(paper, paper_n) ** 2)
    return abs(ours - paper) <= k * max(combined, 0.5)


PAPER_V1_RANDOM_PSR: dict[str, float] = {
    "button": 100.0, "dog": 100.0, "wire": 100.0, "who": 100.0, "led": 85.0,
    "memory": 25.0, "keypad": 33.0, "password": 0.0, "color": 1.0, "maze": 15.0,
}
"""Random row of the first COMMA paper (seed 003, Table 1: PSR only; 20 turns, no mistake
limit, ``protocol=v1``). Sound has no row. Only Button and Dog are the same puzzles here;
the other eight changed between the paper's versions."""
