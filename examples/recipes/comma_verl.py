"""verl (0.9.1) agent loop: one COMMA episode per sample, played against `python -m comma_env.openenv`.

Register it with verl through a file passed as
``actor_rollout_ref.rollout.agent.agent_loop_config_path`` (see docs/training.md), e.g.
``- name: comma_agent`` / ``_target_: comma_verl.CommaAgentLoop``, with this file's folder on
``PYTHONPATH``. Each dataset row carries ``agent_name: comma_agent`` and ``extra_info`` with the
server's ``url`` and the instance ``seed``.

The episode's prompt is the rollout's (the server's ``messages``: the system prompt and the
first user message; after each step what the rollout's next request adds, i.e. the
feedback, the partner's reply and the new state: `comma_env.protocol.prompts`); the row's
``raw_prompt`` is not read. The loop keeps verl's token bookkeeping (its Continuous Token
builder): the model's tokens get ``response_mask`` 1; the environment's turns get 0.
``reward_score`` is the episode return the environment computed, the sum of its per-step
rewards. An environment that fails (server gone, session closed, server full) ends the
trajectory with what was played and says why in ``extra_fields["env_error"]``, so a single
lost session never kills a training step.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopMetrics, AgentLoopOutput, register
from verl.utils.profiler import simple_timer

from comma_env.openenv import CommaAction, CommaEnvClient

T = TypeVar("T")


class SessionLost(Exception):
    """The OpenEnv session failed (server gone, session closed, server full)."""


async def session_call(call: Awaitable[T]) -> T:
    """Await an OpenEnv call; its failure ends this trajectory (LLM errors still propagate)."""
    try:
        return await call
    except Exception as error:  # noqa: BLE001 - whatever the transport raised
        raise SessionLost(f"{type(error).__name__}: {error}") from error


@register("comma_agent")
class CommaAgentLoop(AgentLoopBase):
    """A multi-turn COMMA episode: the model's message is the action; the partner answers."""

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        extra = kwargs["extra_info"]
        response_length = self.rollout_config.response_length
        messages: list[dict[str, Any]] = []
        request_id = uuid4().hex  # one id per episode: the LLM server keeps its prefix cache
        token_ids: list[int] = []
        response_mask: list[int] = []
        rewards: list[float] = []
        timing: dict[str, float] = {}
        episode: dict[str, Any] = {}
        env_error = None
        env = CommaEnvClient(base_url=extra["url"])
        try:
            result = await session_call(env.reset(seed=int(extra["seed"])))
            messages += result.observation.messages  # the rollout's prompt: system, first user message
            token_ids = await self.ct_build_initial_tokens(messages)
            while not result.done and len(response_mask) < response_length:
                with simple_timer("generate_sequences", timing):
                    output = await self.server_manager.generate(
                        request_id=request_id, prompt_ids=token_ids, sampling_params=sampling_params)
                merged, response_mask, _ = await self.ct_merge_assistant_token(token_ids, output.token_ids,
                                                                               response_mask)
                token_ids = merged.token_ids
                message = self.tokenizer.decode(output.token_ids, skip_special_tokens=True)
                messages.append({"role": "assistant", "content": message})
                with simple_timer("tool_calls", timing):
                    result = await session_call(env.step(CommaAction(message=message)))
                rewards.append(float(result.reward or 0.0))
                episode = result.observation.info.get("episode") or {}
                if result.done:
                    break
                previous = list(messages)
                messages += result.observation.messages  # what the rollout's next request adds
                merged, response_mask, _ = await self.ct_merge_context_msg(previous, messages, token_ids, response_mask)
                token_ids = merged.token_ids
        except SessionLost as lost:
            env_error = str(lost)
        finally:
            await env.close()  # best effort: frees the server's session slot at once
        if not response_mask:  # nothing was generated: verl still needs a (masked) response token
            token_ids = token_ids or [self.tokenizer.eos_token_id]
            token_ids, response_mask = token_ids + [self.tokenizer.eos_token_id], [0]
        prompt_ids = token_ids[: len(token_ids) - len(response_mask)]
        response_ids = token_ids[len(prompt_ids):]
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids[:response_length],
            response_mask=response_mask[:response_length],
            reward_score=sum(rewards),
            num_turns=sum(m["role"] != "system" for m in messages),
            metrics=AgentLoopMetrics.model_validate(timing),  # the timers that ran; the rest stay unset
            extra_fields={"turn_scores": rewards, "tool_rewards": [], "env_error": env_error,
                          "success": bool(episode.get("success")), "episode_return": episode.get("return")},
        )
