"""Run the tool calls of all rollouts of a round at once in TRL's `GRPOTrainer`.

TRL 1.16 executes the tool calls of a generation round rollout by rollout
(`GRPOTrainer._tool_call_loop`), waiting for each, so with an LLM partner behind
`CommaToolEnv.send_message` a round costs the *sum* of the partner latencies. TRL has no
public hook for this: `rollout_func` would replace generation and its tool loop as a whole,
and async tools are gathered only within one rollout. `ConcurrentToolsMixin` therefore wraps
that one method and calls ``super()``:

    from trl import GRPOTrainer
    from comma_env.rl.trl_concurrent import ConcurrentToolsMixin

    class Trainer(ConcurrentToolsMixin, GRPOTrainer): ...   # or ConcurrentGRPOTrainer (below)
    trainer = Trainer(..., environment_factory=tool_env_factory(partner="openai_compat", ...))

How: when TRL asks a rollout for its first tool result of a round, every rollout's newest
assistant message that carries tool calls and has not been played yet is the round; its
calls to *environment methods* are started together, one worker thread per rollout (each
rollout has its own environment, so they share nothing; a rollout's calls run in their
message's order). TRL's loop then receives each result in its own order, a failed call
re-raising its own exception into TRL's per-call error handling, so that rollout alone gets
TRL's error outcome. A round costs about its slowest call. Standalone tools (not methods of
the rollout's environment) and async tools run as TRL runs them.

This relies on how TRL 1.16's loop reads its state (each rollout's tool dict in
``_sync_tool_dicts``, its environment in ``environments``, the triggering assistant message
last in its completion while its calls run); `tests/rl/test_trl_concurrent.py` checks it on the
installed TRL. If a TRL version asks for a call that was not foreseen, the mixin warns,
waits for that rollout's calls in flight and makes the asked call itself: the rollout then
may have played a foreseen message TRL never sent, so pin TRL to a tested version.

`ConcurrentGRPOTrainer` (TRL's trainer with the mixin) is built on first use, so importing
this module needs neither torch nor TRL.

`ToolPhaseClock` (a base of the mixin, also usable alone on the plain trainer) records the
wall-clock intervals of each tool phase (the time in the tool loop outside generation), for
the benchmark and the tests.
"""

from __future__ import annotations

import concurrent.futures
import time
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class ToolPhaseClock:
    """Records ``tool_phases``: one ``(start, end)`` (``time.time()``) per stretch of the
    tool loop between generations, i.e. per round of tool calls."""

    tool_phases: list[tuple[float, float]]
    _phase_start: float | None = None

    def _tool_call_loop(self, *args: Any, **kwargs: Any) -> Any:
        if not hasattr(self, "tool_phases"):
            self.tool_phases = []
        self._phase_start = time.time()
        try:
            return super()._tool_call_loop(*args, **kwargs)  # type: ignore[misc]
        finally:
            self._close_phase()
            self._phase_start = None

    def _generate_single_turn(self, *args: Any, **kwargs: Any) -> Any:
        inside = self._phase_start is not None
        if inside:
            self._close_phase()
        try:
            return super()._generate_single_turn(*args, **kwargs)  # type: ignore[misc]
        finally:
            if inside:
                self._phase_start = time.time()

    def _close_phase(self) -> None:
        if self._phase_start is not None:
            self.tool_phases.append((self._phase_start, time.time()))
            self._phase_start = None


@dataclass
class _Call:
    """One foreseen tool call and its result to come."""

    name: str
    arguments: dict[str, Any]
    function: Callable[..., Any]
    result: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)

    def run(self) -> None:
        try:
            self.result.set_result(self.function(**self.arguments))
        except BaseException as error:  # handed to TRL's loop, which owns the error handling
            self.result.set_exception(error)


class _RoundDispatcher:
    """Swaps each rollout's environment-method tools for stand-ins that start the whole
    round's calls together, then hand TRL its results one by one."""

    def __init__(self, completions: Sequence[list[Any]], tool_dicts: Sequence[dict[str, Callable[..., Any]]],
                 environments: Sequence[Any], max_workers: int | None) -> None:
        self.completions = completions
        self.tool_dicts = tool_dicts
        self.originals: list[dict[str, Callable[..., Any]]] = [
            {name: tool for name, tool in tools.items() if getattr(tool, "__self__", None) is env}
            for tools, env in zip(tool_dicts, environments, strict=True)]
        self.queues: list[deque[_Call]] = [deque() for _ in tool_dicts]
        self.played: dict[int, Any] = {}  # id -> assistant message whose calls were started (kept alive)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers or max(len(tool_dicts), 1),
                                                          thread_name_prefix="comma-env-tools")
        self.warned = False

    def install(self) -> None:
        for rollout, (tools, originals) in enumerate(zip(self.tool_dicts, self.originals, strict=True)):
            for name in originals:
                tools[name] = self._stand_in(rollout, name)

    def uninstall(self) -> None:
        for tools, originals in zip(self.tool_dicts, self.originals, strict=True):
            tools.update(originals)
        self.pool.shutdown(wait=True)

    def _stand_in(self, rollout: int, name: str) -> Callable[..., Any]:
        def call(**arguments: Any) -> Any:
            return self.result(rollout, name, arguments)

        call.__name__ = name
        return call

    def result(self, rollout: int, name: str, arguments: dict[str, Any]) -> Any:
        queue = self.queues[rollout]
        if not queue:
            self._start_round()
        if queue and queue[0].name == name and queue[0].arguments == arguments:
            return queue.popleft().result.result()
        # not foreseen: finish what this rollout has in flight (its environment's order), then call
        if not self.warned:
            warnings.warn("TRL asked for a tool call the concurrent dispatcher did not foresee (an untested TRL "
                          "version?); running it directly after the rollout's calls in flight", RuntimeWarning,
                          stacklevel=3)
            self.warned = True
        while queue:
            queue.popleft().result.exception()
        return self.originals[rollout][name](**arguments)

    def _start_round(self) -> None:
        """Start, per rollout, the calls of its newest assistant message not yet played."""
        for rollout, messages in enumerate(self.completions):
            last = messages[-1] if messages else None
            if not isinstance(last, dict) or last.get("role") != "assistant" or not last.get("tool_calls"):
                continue
            if id(last) in self.played:
                continue  # already played (TRL may roll back an over-long round's tool replies)
            self.played[id(last)] = last
            calls = []
            for tool_call in last["tool_calls"]:
                function = tool_call.get("function") if isinstance(tool_call, Mapping) else None
                if tool_call.get("type") != "function" or not isinstance(function, Mapping):
                    continue  # TRL answers these with an error itself
                name, arguments = function.get("name"), function.get("arguments")
                if name in self.originals[rollout] and isinstance(arguments, Mapping):
                    calls.append(_Call(str(name), dict(arguments), self.originals[rollout][str(name)]))
            if calls:
                self.queues[rollout].extend(calls)
                self.pool.submit(_run_in_order, calls)


def _run_in_order(calls: Sequence[_Call]) -> None:
    for call in calls:
        call.run()


class ConcurrentToolsMixin(ToolPhaseClock):
    """Put before `GRPOTrainer` in the bases: the environment tools of all rollouts of a
    round run at once. ``tool_workers`` caps the threads (default: one per rollout)."""

    tool_workers: int | None = None

    def _tool_call_loop(self, prompts: Any, prompt_ids: Any, completion_ids: Any, completions: Any,
                        *args: Any, **kwargs: Any) -> Any:
        environments = getattr(self, "environments", None)
        tool_dicts = getattr(self, "_sync_tool_dicts", None)
        if not environments:  # standalone tools only: nothing of ours to overlap
            return super()._tool_call_loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        if not tool_dicts or not len(tool_dicts) == len(environments) == len(completions):
            if not getattr(self, "_warned_lock_step", False):
                warnings.warn("this TRL version does not expose per-rollout environment tools as TRL 1.16 does; "
                              "tool calls run one rollout after the other", RuntimeWarning, stacklevel=2)
                self._warned_lock_step = True
            return super()._tool_call_loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        dispatcher = _RoundDispatcher(completions, tool_dicts, environments, self.tool_workers)
        dispatcher.install()
        try:
            return super()._tool_call_loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        finally:
            dispatcher.uninstall()


def _concurrent_grpo_trainer() -> type:
    from trl import GRPOTrainer

    class ConcurrentGRPOTrainer(ConcurrentToolsMixin, GRPOTrainer):
        """TRL's `GRPOTrainer` whose environment tools run concurrently across rollouts."""

    return ConcurrentGRPOTrainer


def _timed_grpo_trainer() -> type:
    from trl import GRPOTrainer

    class TimedGRPOTrainer(ToolPhaseClock, GRPOTrainer):
        """TRL's own `GRPOTrainer` (lock-step tools) that records its tool phases."""

    return TimedGRPOTrainer


_BUILT: dict[str, type] = {}
_BUILDERS = {"ConcurrentGRPOTrainer": _concurrent_grpo_trainer, "TimedGRPOTrainer": _timed_grpo_trainer}


def __getattr__(name: str) -> Any:
    if name in _BUILDERS:
        if name not in _BUILT:
            _BUILT[name] = _BUILDERS[name]()
        return _BUILT[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
