"""Reading a rollout's logged request bodies back per role: which requests one agent of one
episode sent, and which messages it wrote (tests that compare an adapter's prompts with them)."""

from __future__ import annotations

from typing import Any

import comma_env
from comma_env.protocol import prompts


def requests(bodies: list[dict[str, Any]], role: str, record: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The messages of `role`'s requests in `record`'s episode, in the order they were sent."""
    raw = comma_env.make(record["puzzle"]).unwrapped
    system = prompts.system_prompt(role)
    marker = raw.puzzle_cls.task_prompt if role == "solver" else raw.manual
    mine = [b["messages"] for b in bodies
            if b["messages"][0]["content"] == system and marker in prompts.as_text(b["messages"][1:2])]
    return sorted(mine, key=lambda messages: sum(m["role"] == "assistant" for m in messages))


def sent(record: dict[str, Any], role: str) -> list[str]:
    """The messages `role` sent in `record`, as the model wrote them."""
    return [t.get(f"{role}_raw", t[role]) for t in record["transcript"] if t.get(role) is not None]
