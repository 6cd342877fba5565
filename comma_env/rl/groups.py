"""Batched single-role episodes with autoreset and group seeding (GRPO-style trainers).

    batch = GroupedEpisodes("wire", seeds=range(100), group_size=8, batch_size=32,
                            partner="oracle_nl", solver_view="text")
    observations, infos = batch.reset()
    while not batch.finished:
        actions = [my_policy(o, i) if i["active"] else "" for o, i in zip(observations, infos)]
        observations, rewards, terminated, truncated, infos = batch.step(actions)

The episodes to play form a *schedule*: every seed of `seeds`, in order, repeated
`group_size` times in a row (a group: G episodes on the same instance). Each of the
`batch_size` slots plays the next scheduled episode when its previous one has ended, so a
seed is never dropped or reordered and the schedule is deterministic for a seed list.
Autoreset follows Gymnasium's ``NEXT_STEP`` mode: the step that ends an episode returns its
last observation; on the next step that slot's action is ignored and it returns the first
observation of its next episode (reward 0, ``info["reset"] = True``). A slot with nothing
left to play is inactive (``info["active"] = False``) and ignores its actions.

Every slot's partner is called concurrently (`astep`), so LLM partners of the whole batch
overlap in one event loop. Every info carries ``slot``, ``seed``, ``group``, ``member`` (index
within the group) and ``episode_index`` (position in the schedule); finished episodes are
also collected in `episodes` (their ``info["episode"]`` plus those keys), in schedule order.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from comma_env.rl.partners import make_partner
from comma_env.rl.single_role import SingleRoleEnv
from comma_env.rl.sync import LoopRunner


@dataclass(frozen=True)
class ScheduledEpisode:
    """One entry of the schedule."""

    index: int
    seed: int
    group: int
    member: int


def group_schedule(seeds: Iterable[int], group_size: int = 1) -> list[ScheduledEpisode]:
    """Every seed, in order, `group_size` times in a row."""
    if group_size < 1:
        raise ValueError("group_size must be at least 1")
    schedule: list[ScheduledEpisode] = []
    for group, seed in enumerate(seeds):
        for member in range(group_size):
            schedule.append(ScheduledEpisode(len(schedule), int(seed), group, member))
    return schedule


class GroupedEpisodes:
    """`batch_size` `SingleRoleEnv` slots stepped together over a group schedule.

    Args:
        puzzle, role, partner, partner_overrides, partner_seed, **env_options: as for
            `SingleRoleEnv`; one partner policy is shared by every slot (one LLM client).
        seeds: instance seeds, in the order their groups are played.
        group_size: episodes per seed (G of GRPO); members of a group play the same
            instance against the same partner, so their returns differ only by the learner.
        batch_size: slots stepped together (default: one group, `group_size`).
        autoreset: False plays one batch of episodes: ended slots stay ended until `reset`,
            which then starts the next scheduled episodes.
    """

    def __init__(
        self,
        puzzle: str,
        seeds: Iterable[int],
        group_size: int = 1,
        batch_size: int | None = None,
        role: str = "solver",
        partner: Any = "oracle",
        *,
        autoreset: bool = True,
        partner_overrides: dict[str, Any] | None = None,
        partner_seed: int = 0,
        **env_options: Any,
    ) -> None:
        self.schedule = group_schedule(seeds, group_size)
        self.group_size = group_size
        self.batch_size = int(batch_size or group_size)
        if self.batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.autoreset = autoreset
        policy, config = make_partner(partner, partner_overrides, seed=partner_seed)
        if role == "expert" and config is not None and not config.vision:
            env_options.setdefault("solver_view", "text")
        self.policy = policy
        self._synchronous = bool(getattr(policy, "synchronous", False))
        self.envs = [SingleRoleEnv(puzzle, role=role, partner=policy, **env_options) for _ in range(self.batch_size)]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self._next = 0
        self._current: list[ScheduledEpisode | None] = [None] * self.batch_size
        self._ended = [False] * self.batch_size
        self._last: list[tuple[dict[str, Any], dict[str, Any]]] = [({}, {}) for _ in range(self.batch_size)]
        self._finished: dict[int, dict[str, Any]] = {}
        self._runner = LoopRunner()

    # -- sync forms ------------------------------------------------------------------------------
    def reset(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if self._synchronous:
            self._check_reset()
            return self._collect_starts([self._runner.run_inline(self._start(slot)) for slot in range(self.batch_size)])
        return self._runner.run(self.areset())

    def step(self, actions: Sequence[Any]) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._synchronous:  # scripted partners never await: step the slots one by one, no loop
            self._check_actions(actions)
            return self._collect_steps([self._runner.run_inline(self._step_slot(slot, action))
                                        for slot, action in enumerate(actions)])
        return self._runner.run(self.astep(actions))

    def close(self) -> None:
        try:
            self._runner.run(self.policy.aclose())
        finally:
            self._runner.close()
            for env in self.envs:
                env._runner.close()

    # -- async forms -----------------------------------------------------------------------------
    async def areset(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Start the next scheduled episode in every slot (slots beyond the schedule are
        inactive). Refused while an episode is running: that would drop its seed."""
        self._check_reset()
        return self._collect_starts(await asyncio.gather(*(self._start(slot) for slot in range(self.batch_size))))

    async def astep(self, actions: Sequence[Any]) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self._check_actions(actions)
        return self._collect_steps(await asyncio.gather(*(self._step_slot(slot, action) for slot, action in enumerate(actions))))

    def _check_reset(self) -> None:
        running = [slot for slot in range(self.batch_size) if self._current[slot] is not None and not self._ended[slot]]
        if running:
            raise RuntimeError(f"slots {running} are still playing; step them to the end before reset()")

    def _check_actions(self, actions: Sequence[Any]) -> None:
        if len(actions) != self.batch_size:
            raise ValueError(f"expected {self.batch_size} actions, got {len(actions)}")

    @staticmethod
    def _collect_starts(results: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return [obs for obs, _ in results], [info for _, info in results]

    @staticmethod
    def _collect_steps(results: Sequence[tuple[dict[str, Any], float, bool, bool, dict[str, Any]]]) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        observations = [r[0] for r in results]
        rewards = np.array([r[1] for r in results], dtype=np.float64)
        terminated = np.array([r[2] for r in results], dtype=bool)
        truncated = np.array([r[3] for r in results], dtype=bool)
        infos = [r[4] for r in results]
        return observations, rewards, terminated, truncated, infos

    # -- state -----------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """True when every scheduled episode has ended."""
        return len(self._finished) == len(self.schedule)

    @property
    def episodes(self) -> list[dict[str, Any]]:
        """Summaries of the ended episodes, in schedule order."""
        return [self._finished[i] for i in sorted(self._finished)]

    # -- internals --------------------------------------------------------------------------------
    async def _start(self, slot: int) -> tuple[dict[str, Any], dict[str, Any]]:
        if self._next >= len(self.schedule):
            self._current[slot] = None
            self._ended[slot] = True
            observation, info = self._last[slot]
            return observation, self._tag(slot, dict(info), active=False)
        entry = self.schedule[self._next]
        self._next += 1
        self._current[slot] = entry
        self._ended[slot] = False
        observation, info = await self.envs[slot].areset(seed=entry.seed)
        self._last[slot] = (observation, info)
        return observation, self._tag(slot, info, reset=True)

    async def _step_slot(self, slot: int, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._ended[slot]:
            if self.autoreset and self._current[slot] is not None:
                observation, info = await self._start(slot)
                return observation, 0.0, False, False, info
            observation, info = self._last[slot]
            return observation, 0.0, False, False, self._tag(slot, dict(info), active=False)
        observation, reward, terminated, truncated, info = await self.envs[slot].astep(action)
        self._last[slot] = (observation, info)
        info = self._tag(slot, info)
        if terminated or truncated:
            self._ended[slot] = True
            entry = self._current[slot]
            assert entry is not None
            self._finished[entry.index] = dict(info.get("episode") or {}, seed=entry.seed, group=entry.group,
                                               member=entry.member, episode_index=entry.index,
                                               partner_error=info.get("partner_error"))
        return observation, reward, terminated, truncated, info

    def _tag(self, slot: int, info: dict[str, Any], active: bool = True, reset: bool = False) -> dict[str, Any]:
        entry = self._current[slot]
        info.update(slot=slot, active=active and entry is not None, reset=reset)
        if entry is not None:
            info.update(seed=entry.seed, group=entry.group, member=entry.member, episode_index=entry.index)
        return info
