"""Cleaning messages, finding action lines, and the written description of a visible state."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

FEEDBACK_OK = "The action was performed successfully."
FEEDBACK_MISTAKE = "That action seems to have been a mistake."

DEFAULT_MAX_MESSAGE_CHARS = 8000
TRUNCATION_MARK = " …[message truncated]"

_THINK_BLOCK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_STRAY_THINK_CLOSE = re.compile(r"^.*?</think>", re.DOTALL | re.IGNORECASE)
# markdown around an action name, stripped by an anchored match plus str.strip (a lazy `(.*?)`
# between starred classes backtracks quadratically on a run of asterisks)
_LIST_MARKER = re.compile(r"(?:[-*+>]\s+|[0-9]{1,9}[.)]\s+)")
_LEADING_WRAPPERS = "*_`'\""
_TRAILING_WRAPPERS = "*_`'\"."


def to_text(message: Any) -> str:
    """Whatever a policy returned as a valid unicode string (lone surrogates become ``?``, NULs go)."""
    if message is None:
        return ""
    if isinstance(message, bytes):
        message = message.decode("utf-8", errors="replace")
    elif not isinstance(message, str):
        message = str(message)
    if not message.isascii():
        message = message.encode("utf-8", errors="replace").decode("utf-8")
    return message.replace("\x00", "")


def strip_thinking(message: str) -> str:
    """Remove a reasoning model's `<think>…</think>` blocks: thoughts are neither executed nor relayed."""
    if "think>" not in message.lower():
        return message
    message = _THINK_BLOCK.sub("", message)
    if "</think>" in message.lower():  # a close tag whose opening was cut off by the server
        message = _STRAY_THINK_CLOSE.sub("", message, count=1)
    return message.strip()


def clip(message: str, limit: int) -> str:
    """Cut a message to `limit` characters, marking the cut."""
    if limit <= 0 or len(message) <= limit:
        return message
    return message[:limit] + TRUNCATION_MARK


def clean_message(message: Any, limit: int = DEFAULT_MAX_MESSAGE_CHARS) -> str:
    """The form of a message that the environment parses and relays."""
    return clip(strip_thinking(to_text(message)), limit)


def candidate_lines(message: str, lenient: bool = False) -> Iterable[str]:
    """Lines of a message that could name an action, trimmed (with `lenient`, markdown too)."""
    for line in message.splitlines():
        line = line.strip()
        if not line:
            continue
        if lenient:
            line = strip_wrappers(line)
        yield line


_TOKEN_PIECES = re.compile(r"[^\W_]{1,6}|[^\w\s]|_", re.UNICODE)


def count_tokens(message: str) -> int:
    """A tokenizer-free estimate of a message's tokens: letter/digit runs in pieces of up to six
    characters, each punctuation mark and underscore one token ("cut_wire_2" is 5)."""
    return len(_TOKEN_PIECES.findall(message))


def strip_wrappers(line: str) -> str:
    """`line` without a leading list marker and the emphasis/code marks around it (linear)."""
    marker = _LIST_MARKER.match(line)
    if marker:
        line = line[marker.end():]
    return line.lstrip(_LEADING_WRAPPERS).rstrip(_TRAILING_WRAPPERS).strip()


# -- written description of the visible state ----------------------------------------------
DESCRIPTION_HEADER = "I see:"
_JSON = json.JSONEncoder(ensure_ascii=False)


def describe_state(state: dict[str, Any]) -> str:
    """A written description of `visible_state()`: one ``key: value`` line per field, values as JSON
    so that the scripted expert reads them back exactly."""
    lines = [f"{key.replace('_', ' ')}: {_JSON.encode(value)}" for key, value in state.items()]
    return "\n".join(lines)


def parse_description(text: str) -> dict[str, Any]:
    """Read back a description written by `describe_state`; unknown lines are ignored."""
    state: dict[str, Any] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(": ")
        if not sep:
            continue
        try:
            state[key.strip().replace(" ", "_")] = json.loads(value)
        except (ValueError, RecursionError):  # bad JSON, a 5,000-digit number, "[[[[...": ignored
            continue
    return state
