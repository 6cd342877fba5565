"""OpenRLHF (0.11.2) agent: one COMMA episode per sample, played against `python -m comma_env.openenv`.

``python -m openrlhf.cli.train_ppo_ray --train.agent_func_path comma_openrlhf.py ...`` (see
docs/training.md): OpenRLHF loads this file, builds ``AgentExecutor()`` and, per sample, an
``AgentInstance()``. A sample's label is a JSON string ``{"url": ..., "seed": ...}``; its
prompt is not read: the episode's prompt is the rollout's (the server's ``messages``:
system prompt and first user message, then after each step what the rollout's next request
adds; `comma_env.protocol.prompts`). No ``--data.apply_chat_template``: the instance writes
the chat turns itself, in ChatML as Qwen and SmolLM2 use (change `chatml` for other models).

OpenRLHF masks everything but the model's tokens (only its ``action_ranges`` carry loss) and
trains on the sum of the per-step ``rewards``: the episode return the environment computed.
``scores`` is the return so far, so the last one is the episode's. An environment that fails
(server gone, session closed, server full) ends the episode at that step with reward 0 and
``extra_logs["env_error"] = 1``, instead of killing the rollout.
"""

from __future__ import annotations

import json
from typing import Any

import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from comma_env.openenv import CommaAction, CommaEnvClient

ASSISTANT = "<|im_start|>assistant\n"  # the model's turn ends with its EOS token, <|im_end|>


def chatml(messages: list[dict[str, Any]]) -> str:
    """Chat messages in ChatML (each message's text; a text-only model reads no image part)."""
    def text(content: Any) -> str:
        return content if isinstance(content, str) else "\n\n".join(p["text"] for p in content if p["type"] == "text")

    return "".join(f"<|im_start|>{m['role']}\n{text(m['content'])}<|im_end|>\n" for m in messages)


class AgentInstance(AgentInstanceBase):
    """One episode in one OpenEnv session."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.env: CommaEnvClient | None = None
        self.episode_return = 0.0
        self.error: str | None = None

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        task = json.loads(states["label"])
        first: list[dict[str, Any]] = [{"role": "user", "content": ""}]
        try:
            self.env = CommaEnvClient(base_url=task["url"])
            await self.env.connect()
            first = (await self.env.reset(seed=int(task["seed"]))).observation.messages
        except Exception as error:  # noqa: BLE001 - reported by the first step
            self.error = f"{type(error).__name__}: {error}"
        return {"observation": chatml(first) + ASSISTANT}

    async def step(self, states: dict, **kwargs: Any) -> dict:
        reward, done, text, success = 0.0, True, "", 0.0
        if self.error is None:
            try:
                if self.env is None:  # never connected, or closed at the end of the episode
                    raise RuntimeError("no open session: the episode has ended")
                result = await self.env.step(CommaAction(message=states["action_text"]))
                reward, done = float(result.reward or 0.0), bool(result.done)
                text = chatml(result.observation.messages)
                success = float(bool((result.observation.info.get("episode") or {}).get("success")))
            except Exception as error:  # noqa: BLE001 - a lost session ends this episode, not the rollout
                self.error = f"{type(error).__name__}: {error}"
        if self.error is not None:
            text = chatml([{"role": "user", "content": f"Environment: {self.error}"}])
        self.episode_return += reward
        if done:
            await self.close()
        return {
            "rewards": torch.tensor(reward),
            "scores": torch.tensor(self.episode_return),
            "environment_feedback": "\n" + text + ("" if done else ASSISTANT),
            "done": done,
            "sampling_params": states.get("sampling_params"),
            "extra_logs": {"success": success, "env_error": float(self.error is not None)},
        }

    async def close(self) -> None:
        if self.env is not None:
            env, self.env = self.env, None
            try:
                await env.close()
            except Exception:  # noqa: BLE001 - the session is gone either way
                pass


class AgentExecutor(MultiTurnAgentExecutor):
    """What ``--train.agent_func_path`` loads: the multi-turn executor over `AgentInstance`."""

    def __init__(self) -> None:
        super().__init__(AgentInstance)
