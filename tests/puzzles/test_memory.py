"""Every rule of manuals/memory.md: each display value of each stage with a hand-worked
answer, the manual's tables parsed back and compared with the code's, and the stage/reset
mechanics the manual describes."""

from __future__ import annotations

import re

import numpy as np
import pytest

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.runner import play
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.memory import RULES, MemoryPuzzle, Pressed, Rule, action_name, position_to_press

# Current labels, left to right: label 2 in position 1, 4 in 2, 1 in 3, 3 in 4.
LABELS = [2, 4, 1, 3]
# What was pressed in stages 1-4 of the run, chosen so that rules that differ give
# different answers wherever the labels allow it.
HISTORY = [Pressed(position=3, label=2), Pressed(position=4, label=3), Pressed(position=2, label=1),
           Pressed(position=1, label=4)]

CASES = [
    # stage 1: positions only
    (1, 1, 2, "position 2"), (1, 2, 2, "position 2"), (1, 3, 3, "position 3"), (1, 4, 4, "position 4"),
    # stage 2
    (2, 1, 2, "label 4 sits in position 2"),
    (2, 2, 3, "same position as stage 1 (3)"),
    (2, 3, 1, "position 1"),
    (2, 4, 3, "same position as stage 1 (3)"),
    # stage 3
    (3, 1, 4, "same label as stage 2 (3), now in position 4"),
    (3, 2, 1, "same label as stage 1 (2), now in position 1"),
    (3, 3, 3, "position 3"),
    (3, 4, 2, "label 4 sits in position 2"),
    # stage 4
    (4, 1, 3, "same position as stage 1 (3)"),
    (4, 2, 1, "position 1"),
    (4, 3, 4, "same position as stage 2 (4)"),
    (4, 4, 4, "same position as stage 2 (4)"),
    # stage 5: labels of earlier stages
    (5, 1, 1, "label of stage 1 (2) in position 1"),
    (5, 2, 4, "label of stage 2 (3) in position 4"),
    (5, 3, 2, "label of stage 4 (4) in position 2"),
    (5, 4, 3, "label of stage 3 (1) in position 3"),
]


@pytest.mark.parametrize(("stage", "display", "expected", "why"), CASES)
def test_memory_rule(stage: int, display: int, expected: int, why: str) -> None:
    assert position_to_press(stage, display, LABELS, HISTORY[: stage - 1]) == expected, why


def test_cases_cover_every_stage_and_display() -> None:
    assert {(s, d) for s, d, _, _ in CASES} == {(s, d) for s in range(1, 6) for d in range(1, 5)}


# -- the manual file says the same thing as the code ------------------------------------
_PHRASES = [
    (re.compile(r"^the button in position (\d)$"), "position"),
    (re.compile(r"^the button labelled (\d)$"), "label"),
    (re.compile(r"^the button in the same position as in stage (\d)$"), "position_of_stage"),
    (re.compile(r"^the button with the same label as in stage (\d)$"), "label_of_stage"),
]


def _manual_rules() -> dict[int, dict[int, Rule]]:
    manual = read_manual("memory.md")
    rules: dict[int, dict[int, Rule]] = {}
    for section in re.split(r"^## Stage ", manual, flags=re.MULTILINE)[1:]:
        stage = int(section.split("\n", 1)[0])
        rows = re.findall(r"^\| (\d) \| ([^|]+?) \|$", section, flags=re.MULTILINE)
        rules[stage] = {}
        for display, text in rows:
            kinds = [(kind, int(m.group(1))) for pattern, kind in _PHRASES if (m := pattern.match(text))]
            assert len(kinds) == 1, f"stage {stage}, display {display}: unreadable {text!r}"
            rules[stage][int(display)] = Rule(*kinds[0])
    return rules


def test_manual_tables_match_code() -> None:
    assert _manual_rules() == RULES


def test_manual_names_actions_and_reset() -> None:
    manual = read_manual("memory.md")
    assert "`press_position_k`" in manual and "`press_position_4`" in manual
    assert "back to stage 1" in manual and "from the left" in manual


def test_rules_only_refer_to_completed_stages() -> None:
    for stage, table in RULES.items():
        for rule in table.values():
            if rule.kind.endswith("_of_stage"):
                assert 1 <= rule.value < stage


# -- stage mechanics ----------------------------------------------------------------------
def _set(puzzle: MemoryPuzzle, display: int, labels: list[int]) -> None:
    puzzle.display, puzzle.labels = display, list(labels)


def test_correct_presses_advance_and_record_history() -> None:
    puzzle = MemoryPuzzle(np.random.default_rng(0))
    _set(puzzle, 3, [4, 1, 2, 3])  # stage 1, display 3 -> position 3 (label 2)
    assert puzzle.apply(action_name(3)) is True
    assert puzzle.stage == 2 and puzzle.history == [Pressed(3, 2)] and puzzle.progress == 0.2
    _set(puzzle, 1, [2, 3, 1, 4])  # stage 2, display 1 -> label 4 in position 4
    assert puzzle.apply(action_name(4)) is True
    _set(puzzle, 2, [1, 2, 4, 3])  # stage 3, display 2 -> label of stage 1 (2): position 2
    assert puzzle.apply(action_name(2)) is True
    _set(puzzle, 3, [3, 4, 2, 1])  # stage 4, display 3 -> position of stage 2: 4
    assert puzzle.apply(action_name(4)) is True
    _set(puzzle, 4, [4, 3, 2, 1])  # stage 5, display 4 -> label of stage 3 (2): position 3
    assert puzzle.visible_state()["stage"] == 5 and puzzle.visible_state()["stages_completed"] == 4
    assert puzzle.apply(action_name(3)) is True
    assert puzzle.solved and puzzle.progress == 1.0 and puzzle.visible_state()["stages_completed"] == 5


def test_wrong_press_resets_to_stage_1_but_keeps_best_progress() -> None:
    puzzle = MemoryPuzzle(np.random.default_rng(0))
    _set(puzzle, 1, [1, 2, 3, 4])
    assert puzzle.apply(action_name(2)) is True
    _set(puzzle, 3, [1, 2, 3, 4])  # stage 2, display 3 -> position 1
    version = puzzle.version
    assert puzzle.apply(action_name(2)) is False
    assert puzzle.stage == 1 and puzzle.history == [] and puzzle.stages_completed == 0
    assert puzzle.progress == 0.2 and puzzle.version > version
    assert sorted(puzzle.labels) == [1, 2, 3, 4] and 1 <= puzzle.display <= 4
    assert puzzle.valid_actions() == [action_name(k) for k in range(1, 5)]


def test_redraws_are_deterministic_from_the_rng() -> None:
    def run(seed: int) -> list[dict]:
        puzzle = MemoryPuzzle(np.random.default_rng(seed))
        states = [puzzle.visible_state()]
        for action in ["press_position_1", "press_position_2", "press_position_3"] * 3:
            puzzle.apply(action)
            states.append(puzzle.visible_state())
        return states

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_expert_tracks_earlier_stages_in_notes() -> None:
    notes: dict = {}
    seen = {"stage": 1, "stages_completed": 0, "display_number": 4, "button_labels_left_to_right": [3, 1, 4, 2]}
    assert MemoryPuzzle.expert_advice(seen, notes) == ["press_position_4"]  # label 2
    seen = {"stage": 2, "stages_completed": 1, "display_number": 2, "button_labels_left_to_right": [2, 4, 3, 1]}
    assert MemoryPuzzle.expert_advice(seen, notes) == ["press_position_4"]  # same position; label 1
    seen = {"stage": 3, "stages_completed": 2, "display_number": 1, "button_labels_left_to_right": [1, 2, 3, 4]}
    assert MemoryPuzzle.expert_advice(seen, notes) == ["press_position_1"]  # label of stage 2 = 1
    assert notes["pressed"] == [[4, 2], [4, 1], [1, 1]]
    # a described stage 1 starts a new run: the old records are forgotten
    seen = {"stage": 1, "stages_completed": 0, "display_number": 3, "button_labels_left_to_right": [1, 2, 3, 4]}
    assert MemoryPuzzle.expert_advice(seen, notes) == ["press_position_3"]
    assert notes["pressed"] == [[3, 3]]


def test_oracle_needs_six_turns() -> None:
    policy = OraclePolicy()
    for seed in range(5):
        env = comma_env.make("memory")
        env.reset(seed=seed)
        summary = play(env, policy.player("solver", env, seed), policy.player("expert", env, seed)).summary
        assert summary["success"] and summary["mistakes"] == 0 and summary["turns"] == 6
