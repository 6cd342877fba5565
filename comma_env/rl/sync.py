"""Run an environment's coroutines from synchronous code on its own event loop: in the calling
thread, or on a helper thread when the caller already runs a loop (Jupyter, async trainers)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopRunner:
    """Runs coroutines to completion on one private event loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The private loop (created on first use); tasks made on it run during `run`."""
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
            weakref.finalize(self, _close_quietly, self._loop)  # an env dropped without close()
        return self._loop

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        self.loop  # noqa: B018 (creates it)
        assert self._loop is not None
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop in this thread: run ours here
            return self._loop.run_until_complete(coroutine)
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="comma-env-loop")
        return self._thread.submit(self._loop.run_until_complete, coroutine).result()

    def close(self) -> None:
        """Cancel what still runs on the loop (client background tasks), then close it."""
        if self._loop is not None and not self._loop.is_closed():
            self.run(_cancel_pending())
            self.run(self._loop.shutdown_asyncgens())
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        if self._loop is not None and not self._loop.is_closed():
            self._loop.close()
        self._loop = None


def _close_quietly(loop: asyncio.AbstractEventLoop) -> None:
    if not loop.is_closed() and not loop.is_running():
        loop.close()


async def _cancel_pending() -> None:
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
