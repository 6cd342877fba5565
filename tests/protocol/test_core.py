"""The turn protocol, checked on the Wire puzzle (one implementation serves all puzzles)."""

from __future__ import annotations

import numpy as np
import pytest

import comma_env
from comma_env.protocol.text import FEEDBACK_MISTAKE, FEEDBACK_OK


def wire_env(seed: int = 1, **kwargs):
    env = comma_env.make("wire", **kwargs)
    env.reset(seed=seed)
    return env


def answer(env) -> str:
    return f"cut_wire_{env.unwrapped.puzzle.answer}"


def wrong(env) -> str:
    return f"cut_wire_{1 if env.unwrapped.puzzle.answer != 1 else 2}"


def test_solver_moves_first_then_expert() -> None:
    env = wire_env()
    assert env.agent_selection == "solver"
    env.step("hello, I see four wires")
    assert env.agent_selection == "expert"
    env.step("tell me the colours")
    assert env.agent_selection == "solver"
    assert env.unwrapped.turn == 1


def test_actions_execute_in_order_and_stop_at_first_mistake() -> None:
    env = wire_env()
    env.step(f"I will try\n  {wrong(env)}  \n{answer(env)}")
    info = env.infos["solver"]
    assert info["executed"] == [{"action": wrong(env), "ok": False}]
    assert info["feedback"] == [FEEDBACK_MISTAKE]
    assert info["mistakes"] == 1 and not info["success"]


def test_correct_action_solves_and_terminates_with_shared_reward() -> None:
    env = wire_env()
    env.step(answer(env))
    assert all(env.terminations.values())
    assert env.rewards == {"solver": 1.0, "expert": 1.0}
    episode = env.infos["solver"]["episode"]
    assert episode["success"] and episode["progress"] == 1.0 and episode["turns"] == 1
    assert env.infos["expert"]["episode"] == episode
    # both agents then take their dead step
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_exact_matching_ignores_markdown_but_lenient_accepts_it() -> None:
    env = wire_env()
    env.step(f"**{answer(env)}**")
    assert env.infos["solver"]["executed"] == []
    env = wire_env(action_matching="lenient")
    env.step(f"- `{answer(env)}`.")
    assert env.infos["solver"]["success"]


def test_think_blocks_are_neither_executed_nor_relayed() -> None:
    env = wire_env()
    env.step(f"<think>maybe\n{answer(env)}\n</think>What colour is first?")
    assert env.infos["solver"]["executed"] == []
    relayed = env.infos["expert"]["dialogue"][-1]["text"]
    assert "think" not in relayed and answer(env) not in relayed
    assert relayed == "What colour is first?"


def test_unterminated_think_block_is_dropped() -> None:
    env = wire_env()
    env.step(f"<think>{answer(env)}")
    assert env.infos["solver"]["executed"] == []


def test_three_mistakes_terminate_as_failed() -> None:
    env = wire_env()
    for _ in range(3):
        assert env.agent_selection == "solver"
        env.step(wrong(env))
        if env.agent_selection == "expert" and not env.terminations["expert"]:
            env.step("hm")
    assert all(env.terminations.values())
    episode = env.infos["solver"]["episode"]
    assert episode["mistakes"] == 3 and not episode["success"] and episode["turns"] == 10
    assert episode["end_reason"] == "mistakes"
    # the first wrong cut changes the image, so the same state-action pair repeats once
    assert episode["repetition_loop"] and episode["repeated_mistakes"] == 1


def test_turn_limit_truncates_after_last_solver_message() -> None:
    env = wire_env(max_turns=2)
    env.step("hi")
    env.step("hello")
    env.step("still thinking")
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos["solver"]["episode"]["end_reason"] == "turn_limit"
    assert env.infos["solver"]["episode"]["turns"] == 2


def test_feedback_reaches_only_the_solver() -> None:
    env = wire_env()
    env.step(wrong(env) + "\nwhat now?")
    env.step("describe the wires")
    solver_obs = env.observe("solver")
    expert_obs = env.observe("expert")
    assert FEEDBACK_MISTAKE in solver_obs["text"]
    assert FEEDBACK_MISTAKE not in expert_obs["text"] and FEEDBACK_OK not in expert_obs["text"]
    assert set(expert_obs) == {"text"}
    for entry in env.infos["expert"]["dialogue"]:
        assert entry["speaker"] in ("solver", "expert")
    assert "feedback" not in env.infos["expert"] and "valid_actions" not in env.infos["expert"]


def test_expert_info_mid_episode_holds_only_what_the_expert_may_know() -> None:
    """A wrong action the expert could not see must not reach it through its info (issue 9.9)."""
    env = wire_env()
    env.step(wrong(env) + "\nwhat now?")
    assert env.infos["solver"]["mistakes"] == 1
    assert set(env.infos["expert"]) == {"turn", "dialogue", "manual"}
    env.step("cut the other one")
    env.step(answer(env))
    assert set(env.infos["expert"]) == {"turn", "dialogue", "manual", "episode"}
    assert env.infos["expert"]["episode"]["mistakes"] == 1 and env.infos["expert"]["episode"]["success"]


def test_expert_never_sees_puzzle_state() -> None:
    env = wire_env(seed=5)
    state = env.unwrapped.visible_state
    env.step("hello")
    expert_text = env.observe("expert")["text"]
    assert state["serial_number"] not in expert_text
    assert not any(isinstance(v, np.ndarray) for v in env.observe("expert").values())
    assert "description" not in env.infos["expert"]


def test_memory_last_keeps_only_latest_message() -> None:
    env = wire_env(memory="last")
    env.step("first message from solver")
    env.step("first reply")
    env.step("second message from solver")
    assert [e["text"] for e in env.infos["expert"]["dialogue"]] == ["second message from solver"]
    env.step("second reply")
    assert [e["text"] for e in env.infos["solver"]["dialogue"]] == ["second reply"]
    assert "first message" not in env.observe("solver")["text"]
    full = wire_env(memory="full")
    for message in ("a", "b", "c"):
        full.step(message)
    assert [e["text"] for e in full.infos["expert"]["dialogue"]] == ["a", "b", "c"]


def test_infos_carry_the_spec_keys() -> None:
    env = wire_env()
    for key in ("progress", "success", "mistakes", "turn", "privacy_leaks", "valid_actions", "executed",
                "feedback", "dialogue"):
        assert key in env.infos["solver"]
    assert set(env.infos["expert"]) == {"turn", "dialogue", "manual"}  # SPEC: only what the expert may know
    assert env.infos["solver"]["valid_actions"] == [f"cut_wire_{i + 1}"
                                                    for i in range(len(env.unwrapped.puzzle.colors))]


def test_text_view_describes_the_image() -> None:
    env = wire_env(solver_view="text")
    observation = env.observe("solver")
    assert set(observation) == {"text"} and set(env.observation_space("solver")) == {"text"}
    text = observation["text"]
    assert env.unwrapped.visible_state["serial_number"] in text
    assert env.infos["solver"]["description"] == env.unwrapped.describe()


@pytest.mark.parametrize("garbage",
                         [None, b"\xff\xfe cut", 12345, "", "\ud800 lone surrogate", "x" * 100_000, "🙂" * 5000])
def test_garbage_messages_have_defined_outcomes(garbage) -> None:
    env = wire_env()
    env.step(garbage)
    env.step(garbage)
    assert env.unwrapped.turn == 1
    assert len(env.infos["expert"]["dialogue"][-1]["text"]) < 9000
    env.observe("solver")
    env.observe("expert")


def test_penalties_are_optional() -> None:
    env = wire_env(mistake_penalty=0.25)
    env.step(wrong(env))
    assert env.rewards["solver"] == pytest.approx(-0.25)


def test_dead_agent_action_is_ignored() -> None:
    env = wire_env()
    env.step(answer(env))
    env.step("talking after the end")
    env.step("more")
    assert env.agents == []


def test_bad_options_fail_clearly() -> None:
    with pytest.raises(ValueError, match="memory"):
        comma_env.make("wire", memory="some")
    with pytest.raises(ValueError, match="solver_view"):
        comma_env.make("wire", solver_view="audio")


def test_text_view_passes_api_test() -> None:
    import warnings

    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(comma_env.make("wire", solver_view="text"), num_cycles=100)


def test_option_errors_are_raised_at_construction() -> None:
    with pytest.raises(ValueError, match="max_message_chars"):
        comma_env.make("wire", max_message_chars=0)
    with pytest.raises(TypeError, match="puzzle_options"):
        comma_env.make("telehealth", puzzle_options={"lesion_sorce": "padufes"})


def test_nul_characters_are_dropped() -> None:
    env = wire_env()
    env.step("a\x00b")
    assert env.infos["expert"]["dialogue"][-1]["text"] == "ab"


def test_descriptions_leave_out_drawing_only_keys() -> None:
    env = comma_env.make("telehealth", solver_view="text")
    env.reset(seed=1)
    assert "lesion_pattern_id" in env.unwrapped.visible_state
    assert "pattern" not in env.unwrapped.describe()


def test_a_drawing_may_return_an_array() -> None:
    """A puzzle's drawing returns a PIL image or an RGB array; the environment hands out a
    read-only array either way."""
    from comma_env.drawing.wire import draw_wire

    class ArrayDrawing(comma_env.wire_v0.raw_env):
        draw = staticmethod(lambda state: np.array(draw_wire(state)))

    env = ArrayDrawing()
    env.reset(seed=5)
    image = env.image()
    assert image.flags.c_contiguous and not image.flags.writeable and image.dtype == np.uint8
    assert np.array_equal(image, np.asarray(draw_wire(env.visible_state)))
