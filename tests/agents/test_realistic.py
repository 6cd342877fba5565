"""The realistic scripted pair: no foresight, so it shows what 10 turns allow (that it solves
every registered puzzle: tests/registry/test_players.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import comma_env
from comma_env.agents.oracle import ADVICE_HEADER
from comma_env.agents.realistic import PLAN_HEADER, RealisticPolicy
from comma_env.agents.runner import play
from comma_env.protocol.text import DESCRIPTION_HEADER
from comma_env.puzzles.color import GROUP_ADVICE, ColorPuzzle, action_name, group_cells

SEEDS = range(40)


def _episode(puzzle: str, seed: int, plan_ahead: bool = True, max_turns: int = 10):
    env = comma_env.make(puzzle, max_turns=max_turns)
    env.reset(seed=seed)
    policy = RealisticPolicy(plan_ahead=plan_ahead)
    return play(env, policy.player("solver", env, seed), policy.player("expert", env, seed))


def test_memory_needs_all_ten_turns() -> None:
    """Five stages, each a new display: describe, then press, five times over."""
    assert {_episode("memory", seed).summary["solved_at_turn"] for seed in SEEDS} == {10}


def test_solver_never_describes_what_it_has_not_seen() -> None:
    """A message that types the expert's advice carries no description: the solver has not
    seen the result yet. Only a resolved plan comes with the (current) picture."""
    for seed in range(10):
        result = _episode("color", seed)
        for turn in result.transcript:
            if turn["actions"] and DESCRIPTION_HEADER in turn["solver"]:
                previous = result.transcript[turn["turn"] - 2]["expert"]
                assert PLAN_HEADER in previous, "a description after typing advice needs foresight"


def test_color_without_planning_ahead_runs_out_of_turns() -> None:
    """Color's later stages need the new colours: two turns per stage do not fit in 10."""
    plain = [_episode("color", seed, plan_ahead=False).summary for seed in SEEDS]
    assert sum(s["success"] for s in plain) < len(plain) / 2
    uncapped = [_episode("color", seed, plan_ahead=False, max_turns=40).summary for seed in SEEDS]
    assert all(s["success"] for s in uncapped) and max(s["solved_at_turn"] for s in uncapped) > 10


def test_color_plan_names_the_table_group_and_the_solver_finds_it() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(4))
    seen = puzzle.visible_state()
    notes: dict = {}
    first = ColorPuzzle.expert_advice(seen, notes)
    plan = ColorPuzzle.plan_ahead(seen, first, notes)
    for action in first:
        assert puzzle.apply(action)
    assert plan == [f"{GROUP_ADVICE}{puzzle.stages[1].group}"]
    after = puzzle.visible_state()  # the new colours, seen only now
    assert sorted(ColorPuzzle.expand_advice(plan[0], after)) == sorted(action_name(i) for i in puzzle.stages[1].cells)


def test_color_group_advice_resolves_row_and_rejects_garbage() -> None:
    grid = [["white", "white", "red", "blue"], ["green"] * 4, ["red"] * 4, ["blue"] * 4]
    state = {"square_colors_by_row": grid}
    flat = [c for row in grid for c in row]
    assert ColorPuzzle.expand_advice(f"{GROUP_ADVICE}row", state) == [action_name(i) for i in group_cells(flat, "row")]
    assert ColorPuzzle.expand_advice(f"{GROUP_ADVICE}purple", state) == []
    assert ColorPuzzle.expand_advice("press_1_3", state) == ["press_1_3"]
    assert ColorPuzzle.plan_ahead(state, ["press_9_9"], {"previous_group": "red"}) == []


def test_expert_asks_to_look_when_the_manual_needs_the_next_picture() -> None:
    result = _episode("memory", 0)
    replies = [t["expert"] for t in result.transcript if t["expert"]]
    assert replies[0].startswith(ADVICE_HEADER)
    assert all(PLAN_HEADER not in r for r in replies)


@pytest.mark.parametrize(("plan_ahead", "color_sr"), [("true", 100.0), ("false", 0.0)])
def test_rollout_runs_the_realistic_pair(tmp_path, plan_ahead: str, color_sr: float) -> None:
    out = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "comma_env.rollout", "model=realistic",
                    f"model.extra.plan_ahead={plan_ahead}",
                    "puzzles=[memory,color]", "episodes=3", "seed=1", f"out_dir={out}", "progress_bar=false"],
                   check=True, capture_output=True, timeout=120)
    results = json.loads((out / "results.json").read_text())
    assert results["puzzles"]["memory"]["sr"] == 100.0 and results["puzzles"]["memory"]["turns"] == 10
    assert results["puzzles"]["color"]["sr"] == color_sr
