"""Batched single-role episodes with autoreset and group seeding (GRPO-style trainers): each seed is
played `group_size` times in a row; `step`, `run(act)` or `recv` / `send` drive the slots."""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from comma_env.rl.partners import make_partner
from comma_env.rl.single_role import SingleRoleEnv
from comma_env.rl.sync import LoopRunner

StartResult = tuple[dict[str, Any], dict[str, Any]]  # observation, info
StepResult = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]
Batch = tuple[list[dict[str, Any]], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]
ReadyBatch = tuple[list[int], list[dict[str, Any]], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]


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
    plays = [(int(seed), group, member) for group, seed in enumerate(seeds) for member in range(group_size)]
    return [ScheduledEpisode(index, *play) for index, play in enumerate(plays)]


class GroupedEpisodes:
    """`batch_size` `SingleRoleEnv` slots over a schedule of each seed `group_size` times; one partner
    policy serves every slot; without `autoreset` ended slots wait for `reset`."""

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
        self.envs = [SingleRoleEnv(puzzle, role=role, partner=policy, **env_options) for _ in range(self.batch_size)]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self._next = 0
        self._current: list[ScheduledEpisode | None] = [None] * self.batch_size
        self._ended = [False] * self.batch_size
        self._last: list[StartResult] = [({}, {}) for _ in range(self.batch_size)]
        self._finished: dict[int, dict[str, Any]] = {}
        self._runner = LoopRunner()
        self._pending: dict[int, asyncio.Task[Any]] = {}  # slot -> its step or reset in flight (recv/send)
        self._ready: list[tuple[int, StepResult]] = []  # finished steps not yet returned by recv, in order
        self._awaiting: set[int] = set()  # slots whose learner owes an action (recv/send)
        self._errors: list[BaseException] = []  # raised by steps in flight, re-raised by recv

    # -- sync forms ------------------------------------------------------------------------------
    def reset(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return self._runner.run(self.areset())

    def step(self, actions: Sequence[Any]) -> Batch:
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
        starts = await asyncio.gather(*(self._start(slot) for slot in range(self.batch_size)))
        return [observation for observation, _ in starts], [info for _, info in starts]

    async def astep(self, actions: Sequence[Any]) -> Batch:
        if len(actions) != self.batch_size:
            raise ValueError(f"expected {self.batch_size} actions, got {len(actions)}")
        steps = [self._step_slot(slot, action) for slot, action in enumerate(actions)]
        return self._collect_steps(await asyncio.gather(*steps))

    # -- episodes that do not wait for each other -------------------------------------------------
    def run(self, act: Callable[[dict[str, Any], dict[str, Any]], Any]) -> list[dict[str, Any]]:
        """Play every scheduled episode, each slot at its own pace; returns `episodes`.
        ``act(observation, info)`` returns the learner's message, or a coroutine of it."""
        return self._runner.run(self.arun(act))

    async def arun(self, act: Callable[[dict[str, Any], dict[str, Any]], Any]) -> list[dict[str, Any]]:
        self._check_reset()

        async def slot_worker(slot: int) -> None:
            observation, info = await self._start(slot)
            while info["active"]:
                action = act(observation, info)
                if inspect.isawaitable(action):
                    action = await action
                observation, _, terminated, truncated, info = await self._step_slot(slot, action)
                if terminated or truncated:
                    observation, info = await self._start(slot)

        await asyncio.gather(*(slot_worker(slot) for slot in range(self.batch_size)))
        return self.episodes

    def start(self) -> None:
        """Start the next scheduled episode in every slot (their first observations arrive
        through `recv`)."""
        self._check_reset()
        for slot in range(self.batch_size):
            self._launch(slot, self._start_result(slot))

    def send(self, slots: Sequence[int], actions: Sequence[Any]) -> None:
        """Step `slots` (each must have come out of `recv` waiting for an action) with `actions`."""
        if len(slots) != len(actions):
            raise ValueError(f"{len(slots)} slots but {len(actions)} actions")
        for slot in slots:
            if slot not in self._awaiting:
                raise ValueError(f"slot {slot} is not waiting for an action (recv returns the slots that are)")
        for slot, action in zip(slots, actions, strict=True):
            self._awaiting.discard(int(slot))
            self._launch(int(slot), self._step_slot(int(slot), action))

    def recv(self, min_ready: int = 1) -> ReadyBatch:
        """At least `min_ready` ready slots, all returned: ``(slots, observations, rewards, terminated,
        truncated, infos)``; an ended slot comes back with its last step, then its next first observation."""
        return self._runner.run(self.arecv(min_ready))

    async def arecv(self, min_ready: int = 1) -> ReadyBatch:
        while not self._errors and len(self._ready) < min(min_ready, len(self._ready) + len(self._pending)):
            await asyncio.wait(list(self._pending.values()), return_when=asyncio.FIRST_COMPLETED)
            await asyncio.sleep(0)  # let the done-callbacks of finished steps run
        if self._errors:
            error, self._errors = self._errors[0], []
            raise error
        ready, self._ready = self._ready, []
        slots = [slot for slot, _ in ready]
        observations, rewards, terminated, truncated, infos = self._collect_steps([result for _, result in ready])
        return slots, observations, rewards, terminated, truncated, infos

    def _launch(self, slot: int, coroutine: Any) -> None:
        task = self._runner.loop.create_task(coroutine)
        self._pending[slot] = task
        task.add_done_callback(functools.partial(self._landed, slot))

    def _landed(self, slot: int, task: asyncio.Task[StepResult]) -> None:
        del self._pending[slot]
        if task.cancelled() or task.exception() is not None:
            self._errors.append(task.exception() or asyncio.CancelledError(f"slot {slot}"))
            return
        observation, reward, terminated, truncated, info = task.result()
        if not info.get("active", True):
            return  # nothing left for this slot
        self._ready.append((slot, (observation, reward, terminated, truncated, info)))
        if terminated or truncated:
            self._launch(slot, self._start_result(slot))  # its next episode starts at once
        else:
            self._awaiting.add(slot)

    async def _start_result(self, slot: int) -> StepResult:
        observation, info = await self._start(slot)
        return observation, 0.0, False, False, info

    def _check_reset(self) -> None:
        if self._pending:
            raise RuntimeError("steps started with send()/start() are still in flight; recv() them first")
        running = [slot for slot in range(self.batch_size) if self._current[slot] is not None and not self._ended[slot]]
        if running:
            raise RuntimeError(f"slots {running} are still playing; step them to the end before reset()")

    @staticmethod
    def _collect_steps(results: Sequence[StepResult]) -> Batch:
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
    async def _start(self, slot: int) -> StartResult:
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
