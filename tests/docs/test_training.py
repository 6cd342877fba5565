"""The training pages' and the README's training examples, executed as written (the trainer
recipes have tests of their own: tests/rl/test_trl.py, tests/examples/test_recipes_verl.py,
tests/examples/test_recipes_openrlhf.py, tests/openenv/test_server.py)."""

from __future__ import annotations

import re
from typing import Any

from tests.support.docs_blocks import README, TRAINING_DOCS, python_block

DOCS = "docs/training*.md"  # where the executed blocks come from, for tracebacks


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


def test_the_quick_start_reads_at_page_width():
    """The training quick start is a short page whose code fits the page's column (furo shows
    about 88 monospace characters at 1280 px before a block scrolls), and every training page
    stays a page a reader can follow, in sections of its own."""
    quick_start = TRAINING_DOCS[0].read_text(encoding="utf-8")
    blocks = re.findall(r"^```[a-z]+\n(.*?)^```$", quick_start, re.MULTILINE | re.DOTALL)
    assert blocks and all(len(line) <= 88 for block in blocks for line in block.splitlines())
    assert len(quick_start.splitlines()) <= 120
    for page in TRAINING_DOCS:
        text = page.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 650 and text.count("\n## ") >= 2, page.name


def test_the_learning_loop_numbers_come_from_its_script():
    """Issue 58: the page said "about 40 s" for a run that took a tenth of it; the table and
    its training time are now written by examples/train_linear_solver.py."""
    quick_start = TRAINING_DOCS[0].read_text(encoding="utf-8")
    assert "_generated/linear_solver.md" in quick_start and not re.search(r"about \d+ s\b", quick_start)
    table = (TRAINING_DOCS[0].parent / "_generated" / "linear_solver.md").read_text(encoding="utf-8")
    assert "examples/train_linear_solver.py" in table.splitlines()[0] and "| wire |" in table
