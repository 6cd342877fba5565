"""A COMMA role as a verifiers multi-turn environment (`verifiers.MultiTurnEnv`).

One dataset row is one instance (``info["seed"]``) of a `SingleRoleEnv`: ``setup_state`` puts
the rollout's first prompt in the row, ``env_response`` steps the model's message and answers
with what the rollout's next request adds (`prompts.after_own_message`), and the reward is the
episode return, with success, progress and mistakes logged as metrics."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import verifiers as vf
from datasets import Dataset
from verifiers.legacy.utils.message_utils import normalize_messages

from comma_env.agents.chat import PngCache
from comma_env.protocol import prompts
from comma_env.protocol.core import EXPERT, SOLVER
from comma_env.rl.partners import make_partner
from comma_env.rl.registration import role_puzzles
from comma_env.rl.single_role import SingleRoleEnv

PLACEHOLDER = "COMMA {puzzle}, {role} role, instance {seed}: the episode's first prompt replaces this when it starts."


def message_text(message: Any) -> str:
    """The text of a chat message (string or list of parts; typed or dict); '' if none."""
    content = message.get("content") if isinstance(message, dict) else getattr(message, "content", None)
    if isinstance(content, str):
        return content
    texts = []
    for part in content or []:
        text = part.get("text") if isinstance(part, dict) else getattr(part, "text", None)
        if isinstance(text, str):
            texts.append(text)
    return "\n".join(texts)


class CommaMultiTurnEnv(vf.MultiTurnEnv):
    """One role of a COMMA puzzle against a partner; see the module docstring."""

    def __init__(
        self,
        puzzle: str,
        role: str = SOLVER,
        partner: Any = "oracle_nl",
        seeds: Iterable[int] = range(100, 1100),
        eval_seeds: Iterable[int] = range(100),
        partner_overrides: dict[str, Any] | None = None,
        partner_seed: int = 0,
        privacy_reminder: bool = True,
        env_options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if puzzle not in role_puzzles():
            raise ValueError(f"{puzzle!r} is not a solver/expert puzzle; choose from {', '.join(role_puzzles())}")
        if role not in (SOLVER, EXPERT):
            raise ValueError(f"role must be 'solver' or 'expert', got {role!r}")
        self.puzzle = puzzle
        self.role = role
        self.env_options = dict(env_options or {})
        self.partner, config = make_partner(partner, partner_overrides, seed=partner_seed)
        if role == EXPERT and config is not None and not config.vision:
            self.env_options.setdefault("solver_view", "text")  # a text-only partner solver reads a description
        self.options = prompts.PromptOptions(privacy_reminder=privacy_reminder)
        self.pngs = PngCache()
        rubric = vf.Rubric(funcs=[self.episode_return], weights=[1.0])
        for metric in (self.success, self.progress, self.mistakes, self.partner_tokens):
            rubric.add_metric(metric)
        super().__init__(dataset=self._rows(seeds), eval_dataset=self._rows(eval_seeds), rubric=rubric,
                         max_turns=-1, **kwargs)

    def _rows(self, seeds: Iterable[int]) -> Dataset:
        def prompt(seed: int) -> list[dict[str, str]]:
            return [{"role": "user", "content": PLACEHOLDER.format(puzzle=self.puzzle, role=self.role, seed=seed)}]

        rows = [{"prompt": prompt(int(s)), "answer": "", "info": {"seed": int(s)}} for s in seeds]
        return Dataset.from_list(rows)

    # -- the episode ---------------------------------------------------------------------------
    async def setup_state(self, state: vf.State, **kwargs: Any) -> vf.State:
        env = SingleRoleEnv(self.puzzle, role=self.role, partner=self.partner, **self.env_options)
        state["comma_env"] = env
        observation, info = await env.areset(seed=int(state["info"]["seed"]))
        state["comma"] = {"done": False, "return": 0.0, "episode": None, "partner_error": info.get("partner_error")}
        state["prompt"] = normalize_messages(self._prompt(env, observation, info), field_name="prompt")
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        env: SingleRoleEnv = state["comma_env"]
        reply = message_text(messages[-1]) if messages else ""
        observation, reward, terminated, truncated, info = await env.astep(reply)
        comma = state["comma"]
        comma["return"] += reward
        new_turn = prompts.after_own_message(self._prompt(env, observation, info))
        if terminated or truncated:
            comma.update(done=True, episode=info.get("episode") or {}, partner_error=info.get("partner_error"),
                         partner_usage=dict(info.get("partner_usage") or {}))
            new_turn = [{"role": "user", "content": prompts.closing_message(info, self.role)}]
            state["final_env_response"] = normalize_messages(new_turn, field_name="final_env_response")
        return normalize_messages(new_turn, field_name="env_response")

    def _prompt(self, env: SingleRoleEnv, observation: dict[str, Any], info: dict[str, Any]) -> list[dict[str, Any]]:
        """The rollout's messages for the learner's role, its image as a PNG data URL."""
        image = observation.get("image")
        url = self.pngs.data_url(image) if image is not None else None
        return env.raw.messages(self.role, observation, info, url, self.options)

    @vf.stop
    async def episode_over(self, state: vf.State) -> bool:
        comma = state.get("comma") or {}
        return bool(comma.get("done"))

    @vf.cleanup
    async def close_episode(self, state: vf.State) -> None:
        env = state.pop("comma_env", None)
        if env is not None:
            env.aec.close()

    @vf.teardown
    async def close_partner(self) -> None:
        await self.partner.aclose()

    # -- reward and metrics --------------------------------------------------------------------
    @staticmethod
    def _summary(state: vf.State) -> dict[str, Any]:
        return (state.get("comma") or {}).get("episode") or {}

    async def episode_return(self, state: vf.State) -> float:
        """The episode's return (the sum of the learner's step rewards)."""
        return float((state.get("comma") or {}).get("return", 0.0))

    async def success(self, state: vf.State) -> float:
        return float(bool(self._summary(state).get("success")))

    async def progress(self, state: vf.State) -> float:
        return float(self._summary(state).get("progress") or 0.0)

    async def mistakes(self, state: vf.State) -> float:
        return float(self._summary(state).get("mistakes") or 0)

    async def partner_tokens(self, state: vf.State) -> float:
        usage = (state.get("comma") or {}).get("partner_usage") or {}
        return float(usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0))
