"""Long runs of every character class crash no registered puzzle, as the solver's message or the
expert's, clipped or not (issue 9.1: 4,301 digits crashed the ATM privacy check)."""

from __future__ import annotations

import pytest

import comma_env
from tests.support.long_runs import LONG_RUNS
from tests.support.registered import puzzles


@pytest.mark.parametrize("puzzle", puzzles())
def test_long_runs_of_every_character_class_crash_no_environment(puzzle: str) -> None:
    """Every run as the solver's and the expert's message, with the default clip (8,000
    characters, which still holds 4,301 digits) and with clipping off."""
    for limit in (8000, 200_000):
        env = comma_env.make(puzzle, max_message_chars=limit, max_turns=len(LONG_RUNS) + 1,
                             max_mistakes=len(LONG_RUNS) + 1)
        env.reset(seed=0)
        for name, run in LONG_RUNS:
            for _ in range(2):  # as the solver's message, then as the expert's
                if not env.agents:
                    env.reset(seed=0)
                _, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else run)
            info = env.infos.get("solver") or {}
            assert isinstance(info.get("privacy_leaks", []), list), name
