"""Every rule of manuals/maze.md, with hand-written cases on a fixed maze."""

from __future__ import annotations

import re

import numpy as np
import pytest

from comma_env.protocol.resources import read_manual
from comma_env.puzzles.maze import (
    ACTIONS,
    CENTER,
    MIN_GOAL_DISTANCE,
    TORUS_TO_SPHERE,
    MazePuzzle,
    action_distances,
    shortest_actions,
    turn,
)

# rows 1..9 top to bottom, columns 1..9 left to right ('#' = dark wall, '.' = white floor)
ROWS = [
    ".....#...",
    ".#####.#.",
    ".....#.#.",
    "####.#.#.",
    ".....#.#.",
    ".#####.#.",
    "...#...#.",
    ".#.#####.",
    ".#.......",
]


def _puzzle(mouse: tuple[int, int], facing: str, torus: str = "yellow",
            spheres: dict[str, tuple[int, int]] | None = None) -> MazePuzzle:
    """A hand-built instance on ROWS; cells are 1-based (row, column)."""
    puzzle = MazePuzzle(np.random.default_rng(0))
    puzzle.rows = list(ROWS)
    puzzle.mouse = (mouse[0] - 1, mouse[1] - 1)
    puzzle.facing = facing
    puzzle.torus = torus
    spheres = spheres or {"blue": (5, 3), "red": (9, 5), "green": (3, 3), "yellow": (5, 9)}
    puzzle.spheres = {c: (r - 1, k - 1) for c, (r, k) in spheres.items()}
    puzzle.goal = puzzle.spheres[TORUS_TO_SPHERE[torus]]
    puzzle.reached_goal = puzzle.pressed = False
    return puzzle


def _manual_table() -> dict[str, str]:
    manual = read_manual("maze.md")
    rows = re.findall(r"^\|\s*(Green|Blue|Red|Yellow)\s*\|\s*(\w+)\s*\|$", manual, flags=re.M)
    return {torus.lower(): sphere.lower() for torus, sphere in rows}


def test_manual_torus_table_matches_code() -> None:
    assert _manual_table() == TORUS_TO_SPHERE
    assert TORUS_TO_SPHERE == {"green": "blue", "blue": "red", "red": "green", "yellow": "yellow"}


def test_manual_names_every_action_and_the_grid() -> None:
    manual = read_manual("maze.md")
    for action in ACTIONS:
        assert f"`{action}`" in manual
    assert "9 rows and 9 columns" in manual and "row 5, column 5" in manual
    assert CENTER == (4, 4)


@pytest.mark.parametrize(
    ("facing", "left", "right"),
    [("up", "left", "right"), ("right", "up", "down"), ("down", "right", "left"), ("left", "down", "up")],
)
def test_turns_change_facing_only(facing: str, left: str, right: str) -> None:
    assert turn(facing, -1) == left and turn(facing, 1) == right
    puzzle = _puzzle((7, 7), facing)
    assert puzzle.apply("turn_left") and puzzle.facing == left and puzzle.mouse == (6, 6)
    puzzle = _puzzle((7, 7), facing)
    assert puzzle.apply("turn_right") and puzzle.facing == right and puzzle.mouse == (6, 6)


def test_manual_turn_example() -> None:
    manual = read_manual("maze.md")
    assert "facing up, a left turn makes it face left and a right turn makes it face right" in manual
    assert turn("up", -1) == "left" and turn("up", 1) == "right"


@pytest.mark.parametrize(
    ("start", "facing", "action", "end", "ok"),
    [
        ((7, 7), "up", "move_forward", (6, 7), True),
        ((7, 7), "down", "move_backward", (6, 7), True),   # backward: against the facing
        ((7, 7), "down", "move_forward", (8, 7), False),   # dark square below
        ((7, 7), "up", "move_backward", (8, 7), False),
        ((7, 7), "left", "move_forward", (7, 6), True),
        ((7, 7), "right", "move_forward", (7, 8), False),  # wall to the right
        ((7, 7), "right", "move_backward", (7, 6), True),
        ((1, 1), "up", "move_forward", (0, 1), False),     # off the top edge
        ((1, 1), "down", "move_backward", (0, 1), False),  # off the top edge, backwards
        ((9, 9), "right", "move_forward", (9, 10), False),  # off the right edge
        ((9, 9), "left", "move_backward", (9, 10), False),
        ((5, 1), "left", "move_forward", (5, 0), False),    # off the left edge
        ((9, 3), "down", "move_forward", (10, 3), False),   # off the bottom edge
    ],
)
def test_moves_and_collisions(start, facing, action, end, ok) -> None:
    puzzle = _puzzle(start, facing)
    assert puzzle.apply(action) is ok
    expected = end if ok else start
    assert puzzle.mouse == (expected[0] - 1, expected[1] - 1)
    assert puzzle.facing == facing  # moving never turns the mouse


def test_press_off_goal_is_a_mistake() -> None:
    puzzle = _puzzle((7, 7), "down")
    assert puzzle.apply("press_button") is False
    assert puzzle.progress == 0.0 and not puzzle.pressed


def test_progress_half_at_goal_then_full_on_press() -> None:
    # torus yellow -> yellow sphere at (5, 9); from (7, 9) facing up: two steps forward
    puzzle = _puzzle((7, 9), "up", torus="yellow")
    assert puzzle.apply("move_forward") and puzzle.progress == 0.0
    assert puzzle.apply("move_forward") and puzzle.progress == 0.5
    assert puzzle.apply("move_forward") and puzzle.progress == 0.5  # left the goal: kept
    assert puzzle.apply("press_button") is False and puzzle.progress == 0.5
    assert puzzle.apply("move_backward") and puzzle.mouse == (4, 8)
    assert puzzle.apply("press_button") is True
    assert puzzle.progress == 1.0 and puzzle.solved


def test_passing_over_another_sphere_is_harmless() -> None:
    # torus green -> blue sphere at (5, 3); walking over the green sphere at (3, 3) is fine
    puzzle = _puzzle((3, 1), "right", torus="green")
    assert puzzle.apply("move_forward") and puzzle.apply("move_forward")
    assert puzzle.mouse == (2, 2) and puzzle.progress == 0.0
    assert puzzle.apply("press_button") is False


def test_shortest_actions_hand_checked() -> None:
    assert shortest_actions(ROWS, (6, 6), "down", (4, 6)) == ["move_backward", "move_backward"]
    path = shortest_actions(ROWS, (6, 6), "down", (6, 4))
    assert path is not None and len(path) == 3 and path[0] in ("turn_left", "turn_right")
    assert shortest_actions(ROWS, (6, 6), "down", (6, 6)) == []
    assert shortest_actions(["..#", "###", "..."], (0, 0), "up", (2, 2)) is None


@pytest.mark.parametrize(("torus", "goal"), [("green", (5, 3)), ("blue", (9, 5)), ("red", (3, 3)), ("yellow", (5, 9))])
def test_expert_advice_follows_each_torus_colour(torus: str, goal: tuple[int, int]) -> None:
    puzzle = _puzzle((7, 7), "down", torus=torus)
    advice = MazePuzzle.expert_advice(puzzle.visible_state(), {})
    assert advice[-1] == "press_button"
    for action in advice:
        assert puzzle.apply(action), action
    assert puzzle.mouse == (goal[0] - 1, goal[1] - 1) and puzzle.solved


def test_visible_state_describes_everything_drawn() -> None:
    state = _puzzle((7, 7), "down", torus="red").visible_state()
    assert state["maze_rows_top_to_bottom"] == ROWS
    assert state["mouse_row_column"] == [7, 7] and state["mouse_facing"] == "down"
    assert state["sphere_row_column_by_color"]["green"] == [3, 3]
    assert state["torus_color"] == "red" and state["torus_row_column"] == [5, 5]


def test_generation_over_many_seeds() -> None:
    for seed in range(300):
        puzzle = MazePuzzle(np.random.default_rng(seed))
        rows = puzzle.rows
        assert len(rows) == 9 and all(len(r) == 9 for r in rows)
        rooms = [(r, c) for r in range(0, 9, 2) for c in range(0, 9, 2)]
        assert all(rows[r][c] == "." for r, c in rooms)
        floor = [(r, c) for r in range(9) for c in range(9) if rows[r][c] == "."]
        assert len(floor) == 25 + 24  # a spanning tree over 25 rooms opens 24 walls
        reach = action_distances(rows, puzzle.mouse, puzzle.facing)
        assert set(reach) == set(floor)  # every floor square is reachable
        cells = list(puzzle.spheres.values())
        assert len(set(cells)) == 4 and CENTER not in cells and puzzle.mouse not in cells
        assert puzzle.spheres[TORUS_TO_SPHERE[puzzle.torus]] == puzzle.goal
        assert reach[puzzle.goal] >= MIN_GOAL_DISTANCE
