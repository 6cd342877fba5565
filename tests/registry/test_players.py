"""The scripted pairs play every registered puzzle, talking only through the text protocol: the
oracle pair solves each of the paper's 100 instances (seeds 0-99) within ten turns, and the
realistic pair, which has no foresight, solves them within ten turns too; neither leaks a
private fact."""

from __future__ import annotations

import pytest

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.realistic import RealisticPolicy
from comma_env.agents.runner import play
from comma_env.protocol.policy import Policy
from tests.support.registered import puzzles

pytestmark = pytest.mark.parametrize("puzzle", puzzles())


def _failures(puzzle: str, policy: Policy, seeds: range) -> list[tuple[int, dict, dict]]:
    failures = []
    env = comma_env.make(puzzle)
    for seed in seeds:
        env.reset(seed=seed)
        result = play(env, policy.player("solver", env, seed), policy.player("expert", env, seed))
        summary = result.summary
        if not summary["success"] or summary["mistakes"] or summary["turns"] > 10 or summary["privacy_leaks"]:
            failures.append((seed, summary, result.transcript[-1]))
    return failures


def test_oracle_solves_seeds_0_to_99(puzzle: str) -> None:
    failures = _failures(puzzle, OraclePolicy(), range(100))
    assert not failures, failures[:3]


def test_realistic_pair_solves_without_foresight_within_ten_turns(puzzle: str) -> None:
    failures = _failures(puzzle, RealisticPolicy(), range(40))
    assert not failures, failures[:3]
