"""Under the v1 preset (20 turns, no mistake limit) the random solver reproduces the first
COMMA paper's Random row for Button and Dog (PSR 100 and 100, Table 1 of seed 003), and the
preset composes through Hydra as documented."""

from __future__ import annotations

import pytest

from comma_env.run import rollout
from comma_env.run.fidelity import PAPER_EPISODES, PAPER_V1_RANDOM_PSR, agrees, binomial_se
from test_fidelity import random_rates
from test_rollout import compose_cfg

V1 = {"max_turns": 20, "max_mistakes": 21}


@pytest.mark.parametrize("puzzle", ["button", "dog"])
def test_random_matches_v1_paper(puzzle: str) -> None:
    psr, psr_se, sr, _ = random_rates(puzzle, episodes=1000, **V1)
    paper = PAPER_V1_RANDOM_PSR[puzzle]
    # v1's Table 1 prints no standard errors: that of a rate on 100 episodes (0 at 100)
    assert agrees(psr, psr_se, paper, binomial_se(paper, PAPER_EPISODES)), f"PSR {psr:.1f}±{psr_se:.1f}"
    assert psr == sr == 100.0


@pytest.mark.parametrize(("choice", "turns", "mistakes"), [(None, 10, 3), ("v1", 20, 21), ("default", 10, 3)])
def test_protocol_preset_composes(choice: str | None, turns: int, mistakes: int) -> None:
    overrides = [f"protocol={choice}"] if choice else []
    cfg = rollout.to_config(compose_cfg(*overrides))
    assert (cfg.max_turns, cfg.max_mistakes) == (turns, mistakes)
    assert rollout.to_config(compose_cfg(*overrides, "max_turns=7")).max_turns == 7  # explicit overrides win
