"""A supervised warm start for the TRL tool protocol of `comma_env.rl.trl_env`.

A small model that has never seen the `send_message` tool rarely calls it with anything the
puzzle accepts, so every rollout of a GRPO group gets the same (zero) return and there is no
gradient. The scripted natural-language solver (``oracle_nl``) shows it how the game goes:
`oracle_conversations` plays it as the learner of `CommaToolEnv`, against the same partner
and in the same chat format GRPO trains in (the rollout's system prompt and first user
message, one ``send_message`` tool call per turn, the tool's reply), and keeps the episodes it solved.
`sft_warmstart` fine-tunes on them, loss on the assistant turns only.

    from sft import oracle_conversations, sft_warmstart   # examples/recipes/ on sys.path
    rows = oracle_conversations(["wire", "who"], seeds=range(1000, 1200), partner="oracle_nl", solver_view="text")
    sft_warmstart(model, tokenizer, rows, steps=200, batch=8, lr=5e-5)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from comma_env.protocol.prompts import system_prompt
from comma_env.rl.trl_env import CommaToolEnv

TOOL_NAME = "send_message"


def _tool_call(message: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": TOOL_NAME, "arguments": {"message": message}}}


def _play_oracle(env: CommaToolEnv, puzzle: str, seed: int, oracle_seed: int,
                 max_turns: int) -> list[dict[str, Any]] | None:
    """One episode of the natural-language oracle solver through `env`'s tool; the chat turns
    after the system message, or None when the oracle did not solve it within `max_turns`."""
    from comma_env.agents.oracle import OraclePolicy

    first = env.reset(puzzle=puzzle, seed=seed)
    player = OraclePolicy(style="natural", seed=oracle_seed).player("solver", env.env.aec, seed)
    turns: list[dict[str, Any]] = [{"role": "user", "content": first}]
    for _ in range(max_turns):
        message = asyncio.run(player.act({}, env.info)).text
        reply = env.send_message(message)
        turns += [{"role": "assistant", "content": "", "tool_calls": [_tool_call(message)]},
                  {"role": "tool", "name": TOOL_NAME, "content": reply}]
        if env.done:
            break
    solved = bool((env.info.get("episode") or {}).get("success"))
    return turns if solved else None


def oracle_conversations(puzzles: Sequence[str], seeds: Iterable[int], max_turns: int = 3, oracle_seed: int = 0,
                         instruction: str | None = None, **settings: Any) -> list[dict[str, Any]]:
    """SFT rows ``{"messages", "tools", "puzzle", "seed"}`` from the oracle_nl solver's solved
    episodes, one per (puzzle, seed). `settings` are `CommaToolEnv` options (partner,
    solver_view...), as in training; `max_turns` is the tool-call budget of an episode."""
    schema = _tool_schema()
    rows: list[dict[str, Any]] = []
    env = CommaToolEnv(**settings)
    system = {"role": "system", "content": instruction or system_prompt(env.role)}
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


def tokenize_conversation(tokenizer: Any, row: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Token ids of one conversation and its labels: the ids on the assistant turns (the tool
    calls and their end token), -100 elsewhere. The assistant spans come from TRL's training
    variant of the chat template (``{% generation %}`` markers), which renders the same text."""
    from trl.chat_template_utils import get_training_chat_template

    template = get_training_chat_template(tokenizer)
    if template is None:  # without {% generation %} markers no token would be learnt from
        raise ValueError("TRL has no training variant of this tokenizer's chat template")
    encoded = tokenizer.apply_chat_template(row["messages"], tools=json.loads(row["tools"]), tokenize=True,
                                            chat_template=template, return_dict=True, return_assistant_tokens_mask=True)
    ids = list(encoded["input_ids"])
    return ids, [t if m else -100 for t, m in zip(ids, encoded["assistant_masks"], strict=True)]


def sft_warmstart(model: Any, tokenizer: Any, rows: Sequence[dict[str, Any]], steps: int, batch: int = 8,
                  lr: float = 5e-5, seed: int = 0, out: str | Path | None = None,
                  on_step: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Fine-tune `model`'s trainable weights in place on `rows` (from `oracle_conversations`)
    for `steps` AdamW steps of `batch` conversations (cycling through them in a seeded order),
    loss on the assistant tokens only; returns the log (one row per step), also written to
    ``out/log.json`` when `out` is given. `on_step` is called with each step's log row (a
    warm start takes tens of minutes on a CPU: report progress).

    A plain float32 loop rather than TRL's `SFTTrainer`, whose defaults (bf16 autocast, which
    a CPU without bf16 units emulates, and a chunked log-prob kernel) make a CPU step many
    times slower."""
    import torch

    if not rows:
        raise ValueError("no conversations to learn from")
    generator = torch.Generator().manual_seed(seed)
    encoded = [tokenize_conversation(tokenizer, row) for row in rows]
    parameters = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(parameters, lr=lr, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda k: 1.0 - k / max(steps, 1))  # linear decay
    order: list[int] = []
    log: list[dict[str, Any]] = []
    pad = tokenizer.pad_token_id
    model.train()
    for step in range(1, steps + 1):
        chosen: list[tuple[list[int], list[int]]] = []
        while len(chosen) < min(batch, len(encoded)):
            if not order:
                order = torch.randperm(len(encoded), generator=generator).tolist()
            chosen.append(encoded[order.pop()])
        width = max(len(ids) for ids, _ in chosen)
        input_ids = torch.tensor([ids + [pad] * (width - len(ids)) for ids, _ in chosen])  # right padding
        labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in chosen])
        attention = torch.tensor([[1] * len(ids) + [0] * (width - len(ids)) for ids, _ in chosen])
        loss = model(input_ids=input_ids, attention_mask=attention, labels=labels).loss
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(parameters, 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad(set_to_none=True)
        log.append({"step": step, "loss": float(loss.detach()), "grad_norm": float(grad_norm),
                    "learning_rate": schedule.get_last_lr()[0]})
        if on_step is not None:
            on_step(log[-1])
    model.eval()
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "log.json").write_text(json.dumps(log, indent=1))
    return log
