"""Maze: steer a mouse through a 9 x 9 grid to the sphere the central torus picks, then press the
button (paper, Appendix A). The walls are a random spanning tree over the 25 odd-numbered rooms."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

SIZE = 9
ROOMS = (SIZE + 1) // 2
CENTER = (SIZE // 2, SIZE // 2)  # 0-based
FLOOR, WALL = ".", "#"

COLORS = ("blue", "red", "green", "yellow")
TORUS_TO_SPHERE: dict[str, str] = {"green": "blue", "blue": "red", "red": "green", "yellow": "yellow"}
"""The manual's table: torus colour -> colour of the sphere marking the goal square."""

FACINGS = ("up", "right", "down", "left")  # clockwise
STEP: dict[str, tuple[int, int]] = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}

FORWARD, BACKWARD, TURN_LEFT, TURN_RIGHT, PRESS = (
    "move_forward", "move_backward", "turn_left", "turn_right", "press_button",
)
ACTIONS: tuple[str, ...] = (FORWARD, BACKWARD, TURN_LEFT, TURN_RIGHT, PRESS)

MIN_GOAL_DISTANCE = 10
"""Fewest actions from the mouse's start to the goal: more than a random solver's ten turns allow
(docs/fidelity.md)."""

Cell = tuple[int, int]


def turn(facing: str, direction: int) -> str:
    """Facing after turning right (+1) or left (-1) by a quarter turn."""
    return FACINGS[(FACINGS.index(facing) + direction) % 4]


def move_target(cell: Cell, facing: str, forward: bool) -> Cell:
    """The square one step ahead (or behind) the mouse; the facing does not change."""
    dr, dc = STEP[facing]
    sign = 1 if forward else -1
    return cell[0] + sign * dr, cell[1] + sign * dc


def is_floor(rows: Sequence[str], cell: Cell) -> bool:
    r, c = cell
    return 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] == FLOOR


def apply_to_pose(rows: Sequence[str], cell: Cell, facing: str, action: str) -> tuple[Cell, str, bool]:
    """The manual's movement rules: the mouse's next square and facing, and whether the
    action was allowed (a move into a wall or off the grid is refused)."""
    if action == TURN_LEFT:
        return cell, turn(facing, -1), True
    if action == TURN_RIGHT:
        return cell, turn(facing, 1), True
    if action in (FORWARD, BACKWARD):
        target = move_target(cell, facing, action == FORWARD)
        if is_floor(rows, target):
            return target, facing, True
        return cell, facing, False
    raise ValueError(f"not a movement: {action!r}")


def shortest_actions(rows: Sequence[str], start: Cell, facing: str, goal: Cell) -> list[str] | None:
    """Fewest moves and turns that bring the mouse from `start` to `goal` (BFS over square
    and facing), or None when the goal cannot be reached."""
    origin = (start, facing)
    parents: dict[tuple[Cell, str], tuple[tuple[Cell, str], str] | None] = {origin: None}
    queue = deque([origin])
    while queue:
        pose = queue.popleft()
        if pose[0] == goal:
            path: list[str] = []
            while (step := parents[pose]) is not None:
                pose, action = step
                path.append(action)
            return path[::-1]
        for action in (FORWARD, BACKWARD, TURN_LEFT, TURN_RIGHT):
            cell, face, ok = apply_to_pose(rows, pose[0], pose[1], action)
            nxt = (cell, face)
            if ok and nxt not in parents:
                parents[nxt] = (pose, action)
                queue.append(nxt)
    return None


def action_distances(rows: Sequence[str], start: Cell, facing: str) -> dict[Cell, int]:
    """Fewest actions from the start pose to every reachable square of a perfect maze (its floor a
    tree, as `generate_rows` makes it): one walk along the tree, a move per step and a quarter turn
    wherever the way switches axis (the mouse moves forward and backward, so a turn is never two)."""
    floor = {(r, c) for r, row in enumerate(rows) for c, square in enumerate(row) if square == FLOOR}
    best = {start: 0}
    stack = [(start, FACINGS.index(facing) % 2)]  # axis 0: up or down, 1: right or left
    while stack:
        (r, c), axis = stack.pop()
        here = best[(r, c)] + 1
        for nxt, way in (((r + 1, c), 0), ((r - 1, c), 0), ((r, c + 1), 1), ((r, c - 1), 1)):
            if nxt in floor and nxt not in best:
                best[nxt] = here + (way != axis)
                stack.append((nxt, way))
    return best


_ROOM_NEIGHBOURS: tuple[tuple[tuple[Cell, ...], ...], ...] = tuple(
    tuple(tuple((r + dr, c + dc) for dr, dc in STEP.values() if 0 <= r + dr < ROOMS and 0 <= c + dc < ROOMS)
          for c in range(ROOMS))
    for r in range(ROOMS))
"""Each room's neighbouring rooms, in `STEP` order (the order the generator draws from)."""


def generate_rows(rng: np.random.Generator) -> list[str]:
    """A perfect maze: randomised depth-first search over the 5 x 5 rooms."""
    grid = [[WALL] * SIZE for _ in range(SIZE)]
    start = (int(rng.integers(ROOMS)), int(rng.integers(ROOMS)))
    seen = {start}
    stack = [start]
    grid[2 * start[0]][2 * start[1]] = FLOOR
    while stack:
        r, c = stack[-1]
        options = [room for room in _ROOM_NEIGHBOURS[r][c] if room not in seen]
        if not options:
            stack.pop()
            continue
        nr, nc = options[int(rng.integers(len(options)))]
        grid[r + nr][c + nc] = FLOOR  # the wall square between the two rooms
        grid[2 * nr][2 * nc] = FLOOR
        seen.add((nr, nc))
        stack.append((nr, nc))
    return ["".join(row) for row in grid]


def goal_color(torus_color: str) -> str:
    return TORUS_TO_SPHERE[torus_color]


class MazePuzzle(Puzzle):
    single_step = False
    task_prompt = (
        "Guide the grey mouse through the maze and press the round button at the right place. "
        "White squares are floor, dark squares are walls. The mouse moves forward or backward "
        "along the way it faces, or turns left or right on the spot. Rows are numbered from "
        "the top and columns from the left, starting at 1."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        rooms = [(2 * r, 2 * c) for r in range(ROOMS) for c in range(ROOMS) if (2 * r, 2 * c) != CENTER]
        self.torus = COLORS[int(rng.integers(len(COLORS)))]
        while True:  # deterministic in rng; almost always one pass
            self.rows = generate_rows(rng)
            self.mouse: Cell = rooms[int(rng.integers(len(rooms)))]
            self.facing = FACINGS[int(rng.integers(4))]
            distances = action_distances(self.rows, self.mouse, self.facing)
            far = [cell for cell in rooms if distances.get(cell, 0) >= MIN_GOAL_DISTANCE]
            if far:
                break
        self.goal: Cell = far[int(rng.integers(len(far)))]
        others = [cell for cell in rooms if cell not in (self.mouse, self.goal)]
        picks = rng.choice(len(others), size=len(COLORS) - 1, replace=False)
        target = goal_color(self.torus)
        rest = iter(others[int(i)] for i in picks)
        self.spheres: dict[str, Cell] = {color: (self.goal if color == target else next(rest)) for color in COLORS}
        self.reached_goal = False
        self.pressed = False

    def valid_actions(self) -> list[str]:
        return list(ACTIONS)

    def apply(self, action: str) -> bool:
        if action == PRESS:
            if self.mouse == self.goal:
                self.pressed = True
                self._changed()
                return True
            return False
        cell, facing, ok = apply_to_pose(self.rows, self.mouse, self.facing, action)
        if ok:
            self.mouse, self.facing = cell, facing
            self.reached_goal = self.reached_goal or cell == self.goal
            self._changed()
        return ok

    @property
    def progress(self) -> float:
        if self.pressed:
            return 1.0
        return 0.5 if self.reached_goal else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {
            "maze_rows_top_to_bottom": list(self.rows),
            "maze_legend": {FLOOR: "white floor", WALL: "dark wall"},
            "mouse_row_column": [self.mouse[0] + 1, self.mouse[1] + 1],
            "mouse_facing": self.facing,
            "sphere_row_column_by_color": {c: [r + 1, k + 1] for c, (r, k) in self.spheres.items()},
            "torus_color": self.torus,
            "torus_row_column": [CENTER[0] + 1, CENTER[1] + 1],
            "button_pressed": self.pressed,
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        """Look up the goal sphere for the torus colour and plan the fewest actions there."""
        rows = seen["maze_rows_top_to_bottom"]
        r, c = seen["mouse_row_column"]
        goal_rc = seen["sphere_row_column_by_color"][goal_color(seen["torus_color"])]
        goal = (goal_rc[0] - 1, goal_rc[1] - 1)
        path = shortest_actions(rows, (r - 1, c - 1), seen["mouse_facing"], goal)
        return (path or []) + [PRESS]


SPEC = PuzzleSpec(
    name="maze",
    title="Maze",
    skills=("MG", "MSR"),
    rules=MazePuzzle,
    drawing="comma_env.drawing.maze:draw_maze",
    manual="maze.md",
    suite="comma",
    order=6,
    paper_column=8,
    paper_random=PaperRandom(psr=0.0, sr=3.0, psr_se=0.0, sr_se=1.7),
    paper_human_gpt4o=70.0,
    paper_v1_random=PaperV1Random(psr=15.0, mistakes=3.96, turns=19.79),
    phrasebook="comma_env.agents.natural.phrasebooks.maze:MazePhrases",
)
