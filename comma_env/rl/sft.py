"""A supervised warm start for the TRL tool protocol of `comma_env.rl.trl_env`.

A small model that has never seen the `send_message` tool rarely calls it with anything the
puzzle accepts, so every rollout of a GRPO group gets the same (zero) return and there is no
gradient. The scripted natural-language solver (``oracle_nl``) shows it how the game goes:
`oracle_conversations` plays it as the learner of `CommaToolEnv`, against the same partner
and in the same chat format GRPO trains in (system instruction, observation, one
``send_message`` tool call per turn, the tool's reply), and keeps the episodes it solved.
`sft_warmstart` fine-tunes on them with TRL's `SFTTrainer`, loss on the assistant turns only.

    from comma_env.rl.sft import oracle_conversations, sft_warmstart
    rows = oracle_conversations(["wire", "who"], seeds=range(1000, 1200), partner="oracle_nl", solver_view="text")
    sft_warmstart(model, tokenizer, rows, steps=200, out="runs/sft")
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from comma_env.rl.trl_env import SOLVER_INSTRUCTION, CommaToolEnv

TOOL_NAME = "send_message"


def _tool_call(message: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": TOOL_NAME, "arguments": {"message": message}}}


def _play_oracle(env: CommaToolEnv, puzzle: str, seed: int, oracle_seed: int, max_turns: int) -> Optional[list[dict[str, Any]]]:
    """One episode of the natural-language oracle solver through `env`'s tool; the chat turns
    after the system message, or None when the oracle did not solve it within `max_turns`."""
    from agents.oracle import OraclePolicy

    first = env.reset(puzzle=puzzle, seed=seed)
    player = OraclePolicy(style="natural", seed=oracle_seed).player("solver", env.env.aec, seed)
    turns: list[dict[str, Any]] = [{"role": "user", "content": first}]
    for _ in range(max_turns):
        # the oracle's players never await (OraclePolicy.synchronous): drive the coroutine by hand
        coroutine = player.act({}, env.info)
        try:
            coroutine.send(None)
        except StopIteration as stop:
            message = stop.value.text
        else:  # pragma: no cover (a scripted player that awaited)
            coroutine.close()
            raise RuntimeError("the oracle solver awaited; it must be synchronous")
        reply = env.send_message(message)
        turns += [{"role": "assistant", "content": "", "tool_calls": [_tool_call(message)]},
                  {"role": "tool", "name": TOOL_NAME, "content": reply}]
        if env.done:
            break
    solved = bool((env.info.get("episode") or {}).get("success"))
    return turns if solved else None


def oracle_conversations(puzzles: Sequence[str], seeds: Iterable[int], max_turns: int = 3, oracle_seed: int = 0,
                         instruction: Optional[str] = None, **settings: Any) -> list[dict[str, Any]]:
    """SFT rows ``{"messages", "tools", "puzzle", "seed"}`` from the oracle_nl solver's solved
    episodes, one per (puzzle, seed). `settings` are `CommaToolEnv` options (partner,
    solver_view...), as in training; `max_turns` is the tool-call budget of an episode."""
    schema = _tool_schema()
    system = {"role": "system", "content": instruction or SOLVER_INSTRUCTION}
    rows: list[dict[str, Any]] = []
    env = CommaToolEnv(**settings)
    try:
        for seed in seeds:
            for puzzle in puzzles:
                turns = _play_oracle(env, puzzle, int(seed), oracle_seed, max_turns)
                if turns is not None:
                    rows.append({"messages": [system, *turns], "tools": json.dumps([schema]),
                                 "puzzle": puzzle, "seed": int(seed)})
    finally:
        env._close()
    if not rows:
        raise ValueError(f"the oracle solved none of the episodes within {max_turns} messages; allow more turns")
    return rows


def _tool_schema() -> dict[str, Any]:
    """The JSON schema of `CommaToolEnv.send_message`, exactly as GRPO presents it."""
    from transformers.utils import get_json_schema

    return get_json_schema(CommaToolEnv(partner="oracle_nl").send_message)


def sft_warmstart(model: Any, tokenizer: Any, rows: Sequence[dict[str, Any]], steps: int, out: str | Path,
                  batch: int = 8, lr: float = 5e-5, seed: int = 0) -> list[dict[str, Any]]:
    """Fine-tune `model` in place on `rows` (from `oracle_conversations`) for `steps` optimizer
    steps, loss on the assistant tokens only; returns TRL's log history."""
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    template = tokenizer.chat_template  # SFTTrainer swaps in a training template for the loss mask
    config = SFTConfig(output_dir=str(out), max_steps=steps, per_device_train_batch_size=batch, learning_rate=lr,
                       assistant_only_loss=True, use_cpu=True, report_to="none", logging_steps=max(1, steps // 20),
                       save_strategy="no", seed=seed, lr_scheduler_type="cosine", warmup_steps=max(1, steps // 10),
                       gradient_checkpointing=False)
    dataset = Dataset.from_list([{"messages": r["messages"], "tools": r["tools"]} for r in rows])
    trainer = SFTTrainer(model=model, processing_class=tokenizer, args=config, train_dataset=dataset)
    trainer.train()
    tokenizer.chat_template = template
    model.eval()
    return list(trainer.state.log_history)
