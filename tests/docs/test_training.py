"""docs/training.md's and the README's training examples, executed as written (the trainer
recipes have tests of their own: test_trl.py, test_recipes_verl.py, test_recipes_openrlhf.py,
test_openenv.py)."""

from __future__ import annotations

from typing import Any

from tests.support.docs_blocks import README, python_block
from tests.support.docs_blocks import TRAINING_DOCS as DOCS


def test_the_readme_training_example_runs():
    namespace: dict[str, Any] = {}
    exec(compile(python_block('gymnasium.make("comma/Wire-solver-v0"', README), str(README), "exec"), namespace)
    returns = namespace["returns"]
    assert len(returns) == 20 and all(0.0 <= r <= 1.0 for r in returns)
    assert 0 < sum(returns) < 20  # a random solver solves some instances and fails others


def test_the_single_role_example_runs():
    namespace: dict[str, Any] = {}
    exec(compile(python_block("env = SingleRoleEnv("), str(DOCS), "exec"), namespace)
    env, info = namespace["env"], namespace["info"]
    assert info["partner_message"] and info["partner_message"] in namespace["obs"]["text"]
    assert not namespace["terminated"] and isinstance(namespace["reward"], float)
    env.close()


def test_the_group_rollout_example_runs_every_scheduled_episode():
    played: list[tuple[int, int]] = []

    def policy(observation: dict[str, Any], info: dict[str, Any]) -> str:  # cut wires in order
        played.append((info["slot"], info["seed"]))
        return f"cut_wire_{info['turn'] + 1}" if "turn" in info else "cut_wire_1"

    source = python_block("GroupedEpisodes(").replace("range(100)", "range(3)")  # 24 episodes, not 800
    namespace: dict[str, Any] = {"policy": policy}
    exec(compile(source, str(DOCS), "exec"), namespace)
    episodes = namespace["batch"].episodes
    assert [(e["seed"], e["member"]) for e in episodes] == [(s, m) for s in range(3) for m in range(8)]
    assert played and all(e["turns_played"] >= 1 for e in episodes)


def test_the_vector_env_example_runs():
    namespace: dict[str, Any] = {}
    exec(compile(python_block('make_vec("comma/Wire-solver-v0"'), str(DOCS), "exec"), namespace)
    assert namespace["rewards"].shape == (2,) and len(namespace["observations"]["text"]) == 2


def test_the_asynchronous_group_example_keeps_the_schedule():
    namespace: dict[str, Any] = {}
    exec(compile(python_block("episodes = batch.run(act)"), str(DOCS), "exec"), namespace)
    assert [e["episode_index"] for e in namespace["episodes"]] == list(range(8))
