"""CPU time for the tests that assert how fast some work is (linear, not quadratic).

The suite runs on two pytest-xdist workers on a two-core machine, often beside other
jobs. A test can then wait for a core while another process has it: that waiting adds
wall time, not CPU time. So these tests time the work with `time.process_time` (this
process's CPU time, all its threads, not its children). What interference remains
(shared caches, memory bandwidth) only ever adds time, so a test that compares takes the
least of a few repeats. Tests that time waiting (sleeps overlapped, deadlines, a server's
latency) cannot use CPU time; they are marked `alone` (see conftest.py) instead."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def cpu_seconds(call: Callable[..., Any], *args: Any) -> float:
    """The CPU time this process spent in `call(*args)`."""
    started = time.process_time()
    call(*args)
    return time.process_time() - started


def least_cpu_seconds(call: Callable[..., Any], *args: Any, repeats: int = 3) -> float:
    """The least CPU time of `repeats` calls of `call(*args)`."""
    return min(cpu_seconds(call, *args) for _ in range(repeats))
