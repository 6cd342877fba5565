"""`CommaEnvironment`: one single-role COMMA episode per OpenEnv session, its partner inside;
the server calls the async methods, so LLM partners of many sessions overlap in its loop."""

from __future__ import annotations

import base64
import logging
import uuid
from collections.abc import Mapping
from typing import Any

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from comma_env.drawing.common import png_bytes
from comma_env.openenv.models import CommaAction, CommaObservation, CommaState
from comma_env.protocol import prompts

log = logging.getLogger(__name__)

NO_EPISODE = "no episode is running: send reset first"
PARTNER_FAILED = "the partner could not answer; the episode ended (details are in the server's log)"
ENVIRONMENT_FAILED = "the environment failed; the episode ended (details are in the server's log)"
EPISODE_OVER = "the episode is over: send reset to play another"


class CommaEnvironment(Environment[CommaAction, CommaObservation, CommaState]):
    """A `comma_env.rl.SingleRoleEnv` behind OpenEnv's `reset` / `step` / `state`."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        puzzle: str = "wire",
        role: str = "solver",
        partner: Any = "oracle",
        partner_overrides: Mapping[str, Any] | None = None,
        env_options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        from comma_env.rl import SingleRoleEnv  # the gymnasium env (rl extra not needed)

        kwargs = dict(env_options or {})
        if partner_overrides:
            kwargs["partner_overrides"] = dict(partner_overrides)
        self.env = SingleRoleEnv(puzzle, role=role, partner=partner, **kwargs)
        self._state = CommaState(puzzle=puzzle, role=role)
        self._last: CommaObservation | None = None
        self._running = False

    # -- OpenEnv API -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> CommaObservation:
        obs, info = self.env.reset(seed=seed)
        return self._started(obs, info, seed, episode_id)

    async def reset_async(self, seed: int | None = None, episode_id: str | None = None,
                          **kwargs: Any) -> CommaObservation:
        obs, info = await self.env.areset(seed=seed)
        return self._started(obs, info, seed, episode_id)

    def step(self, action: CommaAction, timeout_s: float | None = None, **kwargs: Any) -> CommaObservation:
        if (refusal := self._refusal()) is not None:
            return refusal
        try:
            return self._stepped(*self.env.step(action.message))
        except Exception as exc:  # a bug must not kill the session: end the episode, say why
            return self._failed(exc)

    async def step_async(self, action: CommaAction, timeout_s: float | None = None, **kwargs: Any) -> CommaObservation:
        if (refusal := self._refusal()) is not None:
            return refusal
        try:
            return self._stepped(*await self.env.astep(action.message))
        except Exception as exc:
            return self._failed(exc)

    @property
    def state(self) -> CommaState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name=f"comma-{self._state.puzzle}-{self._state.role}",
            description=(f"COMMA {self._state.puzzle}: you play the {self._state.role}; your partner answers. "
                         "The action is a message; action names go on lines of their own."),
            version="0",
        )

    def close(self) -> None:
        self.env.close()

    # -- helpers ---------------------------------------------------------------------------
    def _started(self, obs: Mapping[str, Any], info: Mapping[str, Any], seed: int | None,
                 episode_id: str | None) -> CommaObservation:
        self._state = CommaState(puzzle=self._state.puzzle, role=self._state.role, seed=seed,
                                 episode_id=episode_id or uuid.uuid4().hex)
        self._running = True
        self._last = self._observation(obs, 0.0, False, self._private(info), start=True)
        self._last.reward = None
        return self._last

    def _stepped(self, obs: Mapping[str, Any], reward: float, terminated: bool, truncated: bool,
                 info: Mapping[str, Any]) -> CommaObservation:
        done = bool(terminated or truncated)
        info = self._private(info)
        self._state.step_count += 1
        self._state.episode_return += float(reward)
        if done:
            self._running = False
            self._state.done = True
            self._state.episode = info.get("episode")  # plain JSON, as every info
        self._last = self._observation(obs, float(reward), done, info)
        return self._last

    def _private(self, info: Mapping[str, Any]) -> dict[str, Any]:
        """The role's info without what could cross over: a partner's error text is logged and replaced
        by a generic line, and the expert never learns the seed."""
        info = dict(info)
        if info.get("partner_error"):
            log.warning("episode %s: partner failed: %s", self._state.episode_id, info["partner_error"])
            info["partner_error"] = PARTNER_FAILED
        episode = info.get("episode")
        if isinstance(episode, Mapping):
            episode = dict(episode)
            if episode.get("error"):
                episode["error"] = PARTNER_FAILED
            if self._state.role != "solver":
                episode.pop("seed", None)
            info["episode"] = episode
        return info

    def _refusal(self) -> CommaObservation | None:
        if self._running:
            return None
        if self._last is None:
            return CommaObservation(done=True, reward=0.0, error=NO_EPISODE)
        return self._last.model_copy(update={"reward": 0.0, "done": True, "error": EPISODE_OVER,
                                             "partner_message": None, "messages": []})

    def _failed(self, exc: Exception) -> CommaObservation:
        log.exception("episode %s ended by an environment error", self._state.episode_id)
        self._running = False
        self._state.done = True
        text = self._last.text if self._last is not None else ""
        self._last = CommaObservation(text=text, done=True, reward=0.0, error=ENVIRONMENT_FAILED)
        return self._last

    def _observation(self, obs: Mapping[str, Any], reward: float, done: bool, info: Mapping[str, Any],
                     start: bool = False) -> CommaObservation:
        image = obs.get("image")
        png = base64.b64encode(png_bytes(image)).decode("ascii") if image is not None else None
        partner = info.get("partner_message")
        role = self._state.role
        if done and not start:
            messages = [{"role": "user", "content": prompts.closing_message(info, role)}]
        else:
            url = None if png is None else "data:image/png;base64," + png
            messages = self.env.raw.messages(role, obs, info, url)
            messages = messages if start else prompts.after_own_message(messages)
        return CommaObservation(
            text=str(obs.get("text", "")),
            messages=messages,
            image_png=png,
            partner_message=None if partner is None else str(partner),
            info=dict(info),
            reward=reward,
            done=done,
        )
