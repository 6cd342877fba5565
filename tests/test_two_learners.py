"""Two learners (comma_env/rl/two_learners.py): a learning expert and a learning solver,
trained together from scratch, agree on a code. Held-out seeds (10000+) are never trained
on. The expert reads only its own info (manual and dialogue), never the image or state.
The full run with its curves: examples/train_two_learners.py."""

from __future__ import annotations

import numpy as np
import pytest

from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
from comma_env.rl.two_learners import (
    EXPERT_INFO_KEYS,
    LinearExpertPolicy,
    evaluate_pair,
    make_pair,
    make_pair_env,
    play_pair,
    protocol,
    train_pair,
)

HELD_OUT = range(10_000, 10_200)  # as in examples/train_two_learners.py


@pytest.mark.parametrize(("puzzle", "episodes"), [("wire", 500), ("who", 2000)])
def test_expert_and_solver_learn_a_code_together(puzzle: str, episodes: int) -> None:
    env = make_pair_env(puzzle)
    solver, expert = make_pair(puzzle, seed=0)
    before = evaluate_pair(env, solver, expert, HELD_OUT, greedy=False)  # untrained: uniform choices
    assert before < 0.7
    train_pair(env, solver, expert, range(episodes))
    after = evaluate_pair(env, solver, expert, HELD_OUT)
    assert after >= 0.8, (puzzle, before, after)
    assert after - before >= 0.25
    # the code: most meanings get a symbol of their own, which the solver acts on
    said = protocol(env, solver, expert, HELD_OUT)
    symbols = {meaning: counts.most_common(1)[0][0].split(" -> ")[0]
               for meaning, counts in said.items() if meaning != "none"}
    assert len(set(symbols.values())) >= len(symbols) // 2 + 1, said


def _description_message(env, seed: int) -> str:
    env.reset(seed=seed)
    return f"{DESCRIPTION_HEADER}\n{describe_state(env.puzzle.visible_state())}"


def test_the_expert_is_handed_only_its_own_info() -> None:
    env = make_pair_env("who")
    solver, expert = make_pair("who")
    seen: list[dict] = []
    act = expert.act

    def recording_act(info, greedy=False):
        assert info is env.infos["expert"]  # the expert role's AEC info, nothing else
        seen.append(dict(info))
        return act(info, greedy=greedy)

    expert.act = recording_act  # type: ignore[method-assign]
    for seed in range(20):
        play_pair(env, solver, expert, seed)
    assert seen
    for info in seen:
        assert set(info) <= EXPERT_INFO_KEYS - {"episode"}  # it speaks only while the episode runs
        assert {entry["speaker"] for entry in info["dialogue"]} <= {"solver", "expert"}  # no feedback


def test_the_expert_refuses_anything_but_manual_and_dialogue() -> None:
    env = make_pair_env("wire")
    _, expert = make_pair("wire")
    env.reset(seed=1)
    info = dict(env.infos["expert"])
    for key, value in {"image": np.zeros((2, 2, 3), np.uint8), "valid_actions": ["cut_wire_1"],
                       "description": "x", "progress": 0.0}.items():
        with pytest.raises(ValueError):
            expert.features(dict(info, **{key: value}))


def test_the_expert_follows_what_the_solver_said_not_the_truth() -> None:
    """On instance A, a solver that describes instance B gets the manual's advice for B: the
    expert has no other way to know the state."""
    env = make_pair_env("wire")
    _, expert = make_pair("wire")
    rules = LinearExpertPolicy(manual_rules=env.puzzle_cls.expert_advice)
    differing = 0
    for a, b in [(s, s + 50) for s in range(30)]:
        message_b = _description_message(env, b)
        advice_b = env.puzzle_cls.expert_advice(env.puzzle.visible_state(), {})
        env.reset(seed=a)
        advice_a = env.puzzle_cls.expert_advice(env.puzzle.visible_state(), {})
        env.step(message_b)
        info = env.infos["expert"]
        assert rules.meaning(info) == advice_b[0]
        rows_here = expert.features(info)
        env.reset(seed=b)
        env.step(message_b)
        rows_there = expert.features(env.infos["expert"])  # same dialogue, other instance: same features
        assert all(np.array_equal(x, y) for x, y in zip(rows_here, rows_there, strict=True))
        differing += advice_a != advice_b
    assert differing >= 5  # the pairs of instances did disagree, so the test could tell


def test_the_docs_example_runs() -> None:
    from docs_blocks import python_block

    namespace: dict = {}
    exec(compile(python_block("make_pair_env("), "docs/training.md", "exec"), namespace)
    episode = namespace["episode"]
    assert len(namespace["returns"]) == 60
    assert episode.conversation and episode.conversation[0][0] == "solver"
