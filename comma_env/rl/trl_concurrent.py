"""Run the tool calls of all rollouts of a round at once in TRL's `GRPOTrainer`, which runs them one
rollout after another; wraps TRL 1.16's internal `_tool_call_loop` (tests/rl/test_trl_concurrent.py)."""

from __future__ import annotations

import concurrent.futures
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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


class ConcurrentToolsMixin:
    """Put before `GRPOTrainer` in the bases: the environment tools of all rollouts of a
    round run at once. ``tool_workers`` caps the threads (default: one per rollout)."""

    tool_workers: int | None = None

    def _tool_call_loop(self, prompts: Any, prompt_ids: Any, completion_ids: Any, completions: Any,
                        *args: Any, **kwargs: Any) -> Any:
        loop = super()._tool_call_loop  # type: ignore[misc]
        environments = getattr(self, "environments", None)
        tool_dicts = getattr(self, "_sync_tool_dicts", None)
        if not environments:  # standalone tools only: nothing of ours to overlap
            return loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        if not tool_dicts or not len(tool_dicts) == len(environments) == len(completions):
            if not getattr(self, "_warned_lock_step", False):
                warnings.warn("this TRL version does not expose per-rollout environment tools as TRL 1.16 does; "
                              "tool calls run one rollout after the other", RuntimeWarning, stacklevel=2)
                self._warned_lock_step = True
            return loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        dispatcher = _RoundDispatcher(completions, tool_dicts, environments, self.tool_workers)
        dispatcher.install()
        try:
            return loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        finally:
            dispatcher.uninstall()


def __getattr__(name: str) -> Any:
    if name == "ConcurrentGRPOTrainer":  # built once, on first use: importing trl is slow
        from trl import GRPOTrainer

        class ConcurrentGRPOTrainer(ConcurrentToolsMixin, GRPOTrainer):
            """TRL's `GRPOTrainer` whose environment tools run concurrently across rollouts."""

        globals()[name] = ConcurrentGRPOTrainer
        return ConcurrentGRPOTrainer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
