"""A small numpy policy learns through SingleRoleEnv (solver role, natural-language oracle
expert): it must learn to describe first, then act on the expert's answer. Held-out seeds
(10000+) are never trained on. The policy is examples/linear_policy.py; the full run with its
curve: examples/train_linear_solver.py."""

from __future__ import annotations

import pytest

from comma_env.rl import SingleRoleEnv
from tests.support.script_files import import_example

learners = import_example("linear_policy")  # examples/linear_policy.py
DESCRIBE, LinearSolverPolicy, evaluate, train = (learners.DESCRIBE, learners.LinearSolverPolicy, learners.evaluate,
                                                 learners.train)

HELD_OUT = range(10_000, 10_200)
PAPER_RANDOM_SR = {"wire": 0.57, "who": 0.44}


@pytest.mark.parametrize("puzzle", ["wire", "who"])
def test_reinforce_learns_to_describe_then_follow_the_expert(puzzle):
    env = SingleRoleEnv(puzzle, role="solver", partner="oracle_nl", solver_view="text", mistake_penalty=1.0)
    policy = LinearSolverPolicy(learning_rate=0.3, entropy_bonus=0.02, seed=0)
    before = evaluate(env, policy, HELD_OUT, greedy=False)  # untrained: uniform over its choices
    assert before < 0.7
    train(env, policy, range(1000))
    after = evaluate(env, policy, HELD_OUT)
    assert after >= 0.9, (puzzle, before, after)
    assert after - max(before, PAPER_RANDOM_SR[puzzle]) >= 0.25  # a clear gain over random play
    # what it learnt: its first message is the description
    _, info = env.reset(seed=HELD_OUT[0])
    message, _, _ = policy.act(info, greedy=True)
    assert message == policy.message(DESCRIBE, info)
    env.close()
