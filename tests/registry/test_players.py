"""The scripted oracle pair solves every one of the paper's 100 instances of every puzzle,
talking only through the text protocol."""

from __future__ import annotations

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.runner import play


def test_oracle_solves_seeds_0_to_99(puzzle_name: str) -> None:
    policy = OraclePolicy()
    failures = []
    for seed in range(100):
        env = comma_env.make(puzzle_name)
        env.reset(seed=seed)
        result = play(env, policy.player("solver", env, seed), policy.player("expert", env, seed))
        summary = result.summary
        if not summary["success"] or summary["mistakes"] or summary["turns"] > 10 or summary["privacy_leaks"]:
            failures.append((seed, summary, result.transcript[-1]))
    assert not failures, failures[:3]


def test_oracle_text_view_matches_image_view() -> None:
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=4)
    _, _, _, _, info = env.last()
    assert info["description"] == env.unwrapped.describe()
