"""`visible_state` stays the complete, JSON-serialisable truth of the image, and every key
is documented in its module's docstring, so an independent describer or checker can be
written from the docs alone."""

from __future__ import annotations

import json
import re

import comma_env
from comma_env.registry import env_module


def _documented_keys(puzzle: str) -> set[str]:
    doc = env_module(puzzle).__doc__ or ""
    assert "## Visible state" in doc, f"{puzzle}: no 'Visible state' section in the module docstring"
    section = doc.split("## Visible state", 1)[1]
    return set(re.findall(r"^- `([a-z_]+)`:", section, flags=re.MULTILINE))


def test_visible_state_keys_are_documented_and_json(puzzle_name: str) -> None:
    env = comma_env.make(puzzle_name)
    seen: set[str] = set()
    for seed in range(20):
        env.reset(seed=seed)
        state = env.unwrapped.visible_state
        assert json.loads(json.dumps(state)) == state
        seen |= set(state)
    assert seen == _documented_keys(puzzle_name)
