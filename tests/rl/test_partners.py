"""The natural-language oracle solver (``oracle_nl``) types bare action names: an expert
learner that writes ``cut_wire_3`` gets it executed, whether or not its other lines are prose."""

from __future__ import annotations

import pytest

from comma_env.rl import SingleRoleEnv


def _advice(env: SingleRoleEnv) -> list[str]:
    """What the manual says to type now (read from the true state: the test's own oracle)."""
    raw = env.raw
    return type(raw.puzzle).expert_advice(raw.puzzle.visible_state(), {})


@pytest.mark.parametrize("puzzle", ["wire", "who", "keypad"])
def test_an_expert_writing_bare_action_names_solves_with_oracle_nl(puzzle: str) -> None:
    env = SingleRoleEnv(puzzle, role="expert", partner="oracle_nl")
    solved = 0
    for seed in range(20):
        env.reset(seed=seed)
        info: dict = {}
        for _ in range(10):
            _, _, terminated, truncated, info = env.step("\n".join(_advice(env)))
            if terminated or truncated:
                break
        solved += bool(info["episode"]["success"]) and info["episode"]["mistakes"] == 0
    env.close()
    assert solved == 20, (puzzle, solved)


@pytest.mark.parametrize("message",
                         ["cut_wire_{k}", "`cut_wire_{k}`", "- **cut_wire_{k}**", "Okay.\ncut_wire_{k}\nThanks."])
def test_a_bare_name_is_typed_as_written(message: str) -> None:
    env = SingleRoleEnv("wire", role="expert", partner="oracle_nl")
    env.reset(seed=4)
    k = int(_advice(env)[0].rsplit("_", 1)[1])
    env.step(message.format(k=k))
    assert env.raw.transcript[-1]["actions"][:1] == [f"cut_wire_{k}"]
    env.close()


def test_a_name_that_is_not_valid_is_not_typed() -> None:
    env = SingleRoleEnv("wire", role="expert", partner="oracle_nl")
    env.reset(seed=4)
    env.step("cut_wire_9\npress_button_top_left")
    assert env.raw.transcript[-1]["actions"] == []
    assert env.raw.mistakes == 0
    env.close()
