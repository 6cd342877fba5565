"""The simulated clock of the real-time puzzles (Button, Dog), in whole seconds so episodes do not
depend on a server's speed: ``wait N`` lets N seconds pass, and every message costs `message_seconds`."""

from __future__ import annotations

import re
from typing import Protocol

SECONDS_PER_MESSAGE = 1
CHARACTERS_PER_SECOND = 10
WAIT_PATTERN = re.compile(r"wait(?:[ _]+(\d+))?(?:[ _]*(?:s|sec|secs|seconds?))?", re.IGNORECASE)
"""``wait`` (one second), ``wait 5``, ``wait_5``, ``wait 5 seconds`` (or s, sec, secs); nothing else."""
MAX_WAIT_DIGITS = 9  # longer numbers (an LLM may emit endless digits) mean "longer than any timer"
FOREVER = 10**MAX_WAIT_DIGITS


def message_seconds(text: str) -> int:
    """Seconds a message of this length costs on the simulated clock."""
    return SECONDS_PER_MESSAGE + -(-len(text) // CHARACTERS_PER_SECOND)


def parse_wait(line: str) -> int | None:
    """Seconds a ``wait`` line asks for (already stripped), or None when it is no wait."""
    if not line[:4].lower() == "wait":
        return None
    match = WAIT_PATTERN.fullmatch(line)
    if match is None:
        return None
    digits = match.group(1)
    if digits is None:
        return 1
    digits = digits.lstrip("0") or "0"
    return FOREVER if len(digits) > MAX_WAIT_DIGITS else int(digits)


def wait_line(seconds: int) -> str:
    """The canonical way to write a wait."""
    return f"wait {seconds}"


def format_timer(seconds: int) -> str:
    """A countdown as the module shows it: ``M:SS``."""
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def parse_timer(shown: str) -> int:
    """Seconds left from a ``M:SS`` reading."""
    minutes, _, secs = str(shown).partition(":")
    return int(minutes) * 60 + int(secs)


class _Clocked(Protocol):

    time_left: int

    @property
    def solved(self) -> bool: ...

    def _changed(self) -> None: ...


class Countdown:
    """Mixin for a `Puzzle` with a timer: `time_left` counts down until solved; at zero the module explodes."""

    time_left: int

    def elapse(self: _Clocked, seconds: int) -> None:
        if seconds > 0 and not self.solved:
            self.time_left = max(self.time_left - int(seconds), 0)
            self._changed()

    @property
    def time_up(self: _Clocked) -> bool:
        return self.time_left <= 0 and not self.solved
