"""Greedy held-out play of a model in the TRL training's tool protocol (`comma_env.rl.trl_env`),
used by examples/train_grpo_trl.py to evaluate between GRPO steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from comma_env.rl.trl_env import CommaToolEnv, episode_dataset


def evaluate(model: Any, tokenizer: Any, puzzles: Sequence[str], seeds: Sequence[int], max_turns: int = 4,
             max_new_tokens: int = 96, instruction: str | None = None, **settings: Any) -> dict[str, Any]:
    """Play each (puzzle, seed) greedily in the training's tool protocol (a reply without a tool
    call ends the episode), batching generation across running episodes; returns success rate
    and mean return per puzzle and overall, and the episodes."""
    import torch

    rows = list(episode_dataset(puzzles, seeds, instruction))
    envs = [CommaToolEnv(**settings) for _ in rows]
    chats: list[list[dict[str, Any]]] = []
    for row, env in zip(rows, envs, strict=True):
        first = env.reset(**row)
        chats.append([row["prompt"][0], {"role": "user", "content": first}])
    active = list(range(len(rows)))
    model.eval()
    for _ in range(max_turns):
        if not active:
            break
        prompts = [tokenizer.apply_chat_template(chats[i], tools=[envs[i].send_message], add_generation_prompt=True,
                                                 tokenize=False) for i in active]
        batch = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.no_grad():
            out = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False)
        still = []
        for k, i in enumerate(active):
            parsed = parse_reply(tokenizer, out[k, batch["input_ids"].shape[1]:].tolist(),
                                  batch["input_ids"][k][batch["attention_mask"][k].bool()].tolist(), envs[i])
            calls = [c for c in parsed.get("tool_calls") or [] if c.get("function", {}).get("name") == "send_message"]
            chats[i].append({"role": "assistant", "content": parsed.get("content") or "", "tool_calls": calls or None})
            if not calls:  # a plain answer ends the episode unplayed, as in training
                continue
            arguments = calls[0]["function"].get("arguments") or {}
            message = arguments.get("message", "") if isinstance(arguments, dict) else str(arguments)
            chats[i].append({"role": "tool", "name": "send_message", "content": envs[i].send_message(message)})
            if not envs[i].done:
                still.append(i)
        active = still
    episodes = []
    for row, env in zip(rows, envs, strict=True):
        episodes.append({"puzzle": row["puzzle"], "seed": row["seed"], "return": env.episode_return,
                         "success": bool((env.info.get("episode") or {}).get("success")), "messages": env.messages})
        env._close()
    return summarize(episodes)


def parse_reply(tokenizer: Any, ids: list[int], prompt_ids: list[int], env: CommaToolEnv) -> dict[str, Any]:
    """The assistant message in `ids` (generated after `prompt_ids`), parsed as in training by
    TRL's `parse_response`: a malformed or truncated tool call falls back to plain text."""
    from trl.chat_template_utils import parse_response

    stop = {tokenizer.eos_token_id, tokenizer.pad_token_id}
    end = next((n + 1 for n, t in enumerate(ids) if t in stop), len(ids))  # up to the first end token
    return parse_response(tokenizer, ids[:end], prefix=prompt_ids, tools=[env.send_message])


def summarize(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Success rate and mean return, overall and per puzzle."""
    def stats(group: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        n = max(len(group), 1)
        return {"episodes": len(group), "success_rate": sum(e["success"] for e in group) / n,
                "mean_return": sum(float(e["return"]) for e in group) / n}

    result: dict[str, Any] = {"all": stats(episodes), "episodes": list(episodes)}
    for puzzle in sorted({e["puzzle"] for e in episodes}):
        result[puzzle] = stats([e for e in episodes if e["puzzle"] == puzzle])
    return result
