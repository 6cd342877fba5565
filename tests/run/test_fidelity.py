"""The random baseline reproduces the paper's Random row (Table 1 PSR, Table 3 SR).

1,000 episodes per puzzle, compared with the paper's own published standard errors (not a
binomial guess at them): agreement within two combined standard errors. A deviation that is
understood is listed in `DOCUMENTED` with the value we measure instead, and the test checks
that value, so docs/fidelity.md's explanation goes stale loudly if the numbers move.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import comma_env
from comma_env.agents.random_policy import RandomSolver
from comma_env.protocol.metrics import mean, standard_error
from comma_env.run.fidelity import PAPER_RANDOM, PAPER_RANDOM_SE, gap_in_se
from tests.support.registered import puzzles


def agrees(ours: float, ours_se: float, paper: float, paper_se: float, k: float = 2.0) -> bool:
    """Whether two measured rates differ by at most `k` combined standard errors."""
    return gap_in_se(ours, ours_se, paper, paper_se) <= k


def binomial_se(rate_percent: float, n: int) -> float:
    """Standard error (in percentage points) of a 0/100 rate measured on `n` episodes."""
    p = rate_percent / 100.0
    return 100.0 * math.sqrt(max(p * (1 - p), 0.0) / n)

EPISODES = 1000

DOCUMENTED: dict[str, tuple[float, float]] = {
    # Color PSR: ours 3.0 ± 0.1 against the paper's 6 ± 1.0, about 3 combined SE. A press
    # whitens one square (as the paper's manual says), so a random press moves progress by
    # 1/16 and the per-episode SD is about 3.9; the paper's SE of 1.0 on 100 episodes means a
    # per-episode SD of about 10, which needs progress to come in whole groups. See the
    # docs/fidelity.md. Value checked: our PSR lies in this range.
    "color": (2.5, 3.5),
}

COLOR_STRIKE_DOCUMENTED: dict[str, tuple[float, float]] = {"reset": (2.5, 3.5), "keep_whites": (2.8, 3.8)}
"""Color's random PSR under each reading of a strike (docs/fidelity.md, color_random.md):
both stay more than 2 SE below the paper's 6 ± 1.0."""


def random_rates(puzzle: str, episodes: int = EPISODES, **env_options: Any) -> tuple[float, float, float, float]:
    env = comma_env.make(puzzle, **env_options)
    progress, success = [], []
    for seed in range(episodes):
        env.reset(seed=seed)
        solver = RandomSolver([0, seed])
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last(observe=False)  # the random solver ignores the image
            if terminated or truncated:
                env.step(None)
            else:
                env.step(solver.choose(info) if agent == "solver" else "")
        progress.append(env.unwrapped.best_progress)
        success.append(float(env.unwrapped.puzzle.solved))
    return 100 * mean(progress), 100 * standard_error(progress), 100 * mean(success), 100 * standard_error(success)


@pytest.mark.parametrize("puzzle", puzzles(lambda spec: spec.paper_random))
def test_random_baseline_matches_paper(puzzle: str) -> None:
    psr, psr_se, sr, sr_se = random_rates(puzzle)
    paper_psr, paper_sr = PAPER_RANDOM[puzzle]
    paper_psr_se, paper_sr_se = PAPER_RANDOM_SE[puzzle]
    assert agrees(sr, sr_se, paper_sr, paper_sr_se), (
        f"SR {sr:.1f}±{sr_se:.1f} vs paper {paper_sr}±{paper_sr_se}")
    if puzzle in DOCUMENTED:
        low, high = DOCUMENTED[puzzle]
        assert low <= psr <= high, f"documented PSR {low}-{high} moved to {psr:.2f}: update docs/fidelity.md"
        assert not agrees(psr, psr_se, paper_psr, paper_psr_se), (
            f"PSR {psr:.1f} now agrees with the paper: drop the documented deviation")
        return
    assert agrees(psr, psr_se, paper_psr, paper_psr_se), (
        f"PSR {psr:.1f}±{psr_se:.1f} vs paper {paper_psr}±{paper_psr_se} "
        f"({gap_in_se(psr, psr_se, paper_psr, paper_psr_se):.1f} SE)")


@pytest.mark.parametrize("strike", sorted(COLOR_STRIKE_DOCUMENTED))
def test_color_random_baseline_under_each_strike_reading(strike: str) -> None:
    psr, psr_se, sr, _ = random_rates("color", puzzle_options={"strike": strike})
    low, high = COLOR_STRIKE_DOCUMENTED[strike]
    assert low <= psr <= high, \
        f"strike={strike}: documented PSR {low}-{high} moved to {psr:.2f}: update docs/fidelity.md"
    paper, paper_se = PAPER_RANDOM["color"][0], PAPER_RANDOM_SE["color"][0]
    assert not agrees(psr, psr_se, paper, paper_se), f"strike={strike} now agrees with the paper: update the docs"
    assert sr == 0.0


@pytest.mark.parametrize(("ours", "ours_se", "paper", "paper_se", "expected"), [
    (3.0, 0.12, 6.0, 1.0, False),   # Color: 2.98 combined SE away
    (17.7, 0.5, 15.0, 1.6, True),   # Memory: inside the paper's own, wider, error
    (0.0, 0.0, 0.0, 0.0, True),     # both zero: the floor keeps them comparable
    (1.2, 0.0, 0.0, 0.0, False),    # 0 ± 0.0 is not a licence for any small number
])
def test_agreement_uses_the_published_error(ours: float, ours_se: float, paper: float,
                                            paper_se: float, expected: bool) -> None:
    assert agrees(ours, ours_se, paper, paper_se) is expected


def test_published_errors_are_the_tables_values() -> None:
    """Spot-check the transcription against Table 1 and Table 3 of the paper."""
    assert PAPER_RANDOM_SE["color"] == (1.0, 0.0)
    assert PAPER_RANDOM_SE["telehealth"] == (2.6, 1.7)
    assert PAPER_RANDOM_SE["led"] == (3.6, 3.5)
    assert set(PAPER_RANDOM_SE) == set(PAPER_RANDOM)
