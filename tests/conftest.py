"""Shared fixtures: every test module can iterate over the ten puzzles."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import comma_env  # noqa: E402
from comma_env.registry import COMMA_PUZZLES  # noqa: E402


@pytest.fixture(params=COMMA_PUZZLES)
def puzzle_name(request: pytest.FixtureRequest) -> str:
    return request.param


def make_env(puzzle: str, **kwargs):
    return comma_env.make(puzzle, **kwargs)
