"""One role of a COMMA puzzle as a Gymnasium environment; the other role is a partner policy
stepped inside ``step`` (a partner that raises truncates the episode: ``partner_error``)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

import comma_env
from comma_env.protocol.core import EXPERT, SOLVER
from comma_env.protocol.policy import Player, Policy
from comma_env.rl.partners import make_partner
from comma_env.rl.registration import ROLES, role_puzzles
from comma_env.rl.sync import LoopRunner

PARTNER_ERROR = "partner_error"

StepResult = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]
ResetResult = tuple[dict[str, Any], dict[str, Any]]


class SingleRoleEnv(gymnasium.Env[dict[str, Any], str]):
    """A `gymnasium.Env` for one role of a COMMA puzzle, with a partner in the other role.

    Args:
        partner: a `Policy`, a model-config name (``"oracle"``, ``"gpt4o"``...) or a `ModelConfig`/dict.
        partner_overrides: fields merged into a named partner's config, e.g. ``{"api_base": ...}``.
        partner_seed: seeds the partner's own randomness (the rollout's ``policy_seed``).
        **env_options: options of the AEC environment (``solver_view``, ``max_turns``, reward options...).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 1}

    def __init__(
        self,
        puzzle: str,
        role: str = SOLVER,
        partner: Any = "oracle",
        *,
        partner_overrides: dict[str, Any] | None = None,
        partner_seed: int = 0,
        render_mode: str | None = None,
        **env_options: Any,
    ) -> None:
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        if puzzle not in role_puzzles():
            raise ValueError(f"{puzzle!r} is not a solver/expert puzzle; choose from {', '.join(role_puzzles())}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.puzzle = puzzle
        self.role = role
        self.partner_role = EXPERT if role == SOLVER else SOLVER
        self.policy: Policy
        self.policy, self.partner_config = make_partner(partner, partner_overrides, seed=partner_seed)
        if (self.partner_role == SOLVER and self.partner_config is not None
                and not self.partner_config.vision and "solver_view" not in env_options):
            env_options["solver_view"] = "text"  # a text-only partner solver reads a description
        self.aec = comma_env.make(puzzle, **env_options)
        self.raw = self.aec.unwrapped
        self.observation_space = self.raw.observation_space(role)
        self.action_space = self.raw.action_space(role)
        self.render_mode = render_mode
        self._runner = LoopRunner()
        self._player: Player | None = None
        self._done = True
        self._pending: tuple[float, bool] | None = None  # reward and "ended" from a partner turn in reset
        self._partner_error: str | None = None
        self._partner_message: str | None = None
        self._partner_understood: dict[str, Any] | None = None
        self._partner_usage = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
        self._sources: dict[str, np.ndarray] = {}  # the AEC arrays behind the last observation

    # -- gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> ResetResult:
        return self._runner.run(self.areset(seed=seed, options=options))

    def step(self, action: Any) -> StepResult:
        return self._runner.run(self.astep(action))

    def render(self) -> np.ndarray | str | None:
        if self.render_mode == "rgb_array":
            return self.raw.image()
        if self.render_mode == "ansi":
            return self.raw.observe(self.role)["text"]
        return None

    def close(self) -> None:
        try:
            self._runner.run(self.policy.aclose())
        finally:
            self._runner.close()
            self.aec.close()

    # -- async API -----------------------------------------------------------------------------
    async def areset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> ResetResult:
        """`reset` as a coroutine: partner calls of many environments overlap in one loop."""
        super().reset(seed=seed)
        instance = seed if seed is not None else int(self.np_random.integers(2**31 - 1))
        self.aec.reset(seed=instance)
        self._done = False
        self._pending = None
        self._partner_error = None
        self._partner_message = None
        self._partner_understood = None
        self._partner_usage = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
        try:
            self._player = self.policy.player(self.partner_role, self.aec, instance)
        except Exception as exc:  # a partner that cannot start is a partner failure
            self._fail_partner(exc)
        if self.partner_role == SOLVER and self._partner_error is None:
            reward = await self._partner_turn()  # the solver speaks first
            self._pending = (reward, self._ended())
        if self._partner_error is not None:
            self._pending = (0.0, True)
        return self._observation(), self._info()

    async def astep(self, action: Any) -> StepResult:
        """`step` as a coroutine."""
        if self._done:
            if self._player is None:
                raise RuntimeError("call reset() before step()")
            info = self._info()
            info["warning"] = "the episode has ended; call reset()"
            return self._observation(), 0.0, self._terminated(), self._truncated(), info
        reward = 0.0
        ended = False
        if self._pending is not None:  # the partner already ended the episode during reset
            reward, ended = self._pending
            self._pending = None
        self._partner_message = None
        self._partner_understood = None
        if not ended:
            self.aec.step(action)
            reward += self._reward()
            if not self._ended():
                reward += await self._partner_turn()
        if self._ended():
            self._done = True
        return self._observation(), float(reward), self._terminated(), self._truncated(), self._info()

    # -- internals -----------------------------------------------------------------------------
    async def _partner_turn(self) -> float:
        """Let the partner write one message; returns the shared reward it earned."""
        assert self._player is not None
        observation, _, _, _, info = self.aec.last(observe=self._player.needs_observation)
        try:
            reply = await self._player.act(observation, info)
        except Exception as exc:  # recorded in info, never raised into the trainer
            self._fail_partner(exc)
            return 0.0
        for key in self._partner_usage:
            self._partner_usage[key] += int(getattr(reply, key, 0) or 0)
        self.aec.step(reply.text)
        self._partner_message = self._last_from_partner()
        self._partner_understood = reply.understood
        return self._reward()

    def _fail_partner(self, exc: BaseException) -> None:
        self._partner_error = f"{self.partner_role}: {type(exc).__name__}: {exc}"
        self.raw.abort(PARTNER_ERROR)

    def _last_from_partner(self) -> str | None:
        dialogue = self.raw.infos.get(self.role, {}).get("dialogue") or []
        for entry in reversed(dialogue):
            if entry["speaker"] == self.partner_role:
                return entry["text"]
            if entry["speaker"] == self.role:
                break
        return None

    def _reward(self) -> float:
        return float(self.raw.rewards.get(self.role, 0.0))

    def _ended(self) -> bool:
        return self.raw.end_reason is not None

    def _terminated(self) -> bool:
        return bool(self.raw.terminations.get(self.role, False))

    def _truncated(self) -> bool:
        return bool(self.raw.truncations.get(self.role, False))

    def _observation(self) -> dict[str, Any]:
        """The role's AEC observation; an array identical to the last call's (an unchanged picture,
        Sound's clip) is copied, since Gymnasium promises new data on every call."""
        observation = dict(self.raw.observe(self.role))
        sources: dict[str, np.ndarray] = {}
        for key, value in observation.items():
            if isinstance(value, np.ndarray):
                if value is self._sources.get(key):
                    observation[key] = copy = value.copy()
                    copy.flags.writeable = False  # read-only like every other observation array
                sources[key] = value
        self._sources = sources
        return observation

    def _info(self) -> dict[str, Any]:
        info = dict(self.raw.infos.get(self.role, {}))
        info["partner_message"] = self._partner_message
        info["partner_understood"] = self._partner_understood
        info["partner_usage"] = dict(self._partner_usage)
        if self._partner_error is not None:
            info["partner_error"] = self._partner_error
            if "episode" in info:
                info["episode"] = dict(info["episode"], error=self._partner_error)
        if "episode" in info:
            # absent, not None (``solved_at_turn`` of an unsolved episode): Gymnasium's vector
            # envs merge infos into typed arrays, where an int then a None cannot be stored
            info["episode"] = {key: value for key, value in info["episode"].items() if value is not None}
        return info

    @property
    def instance_seed(self) -> int | None:
        """The puzzle instance of the current episode."""
        return self.raw.seed_used

    def __repr__(self) -> str:
        partner = getattr(self.policy, "name", self.policy)
        return f"SingleRoleEnv({self.puzzle!r}, role={self.role!r}, partner={partner!r})"

