"""Maze generation was made faster without changing which maze a seed gives: the reference
below is the original generator (generic BFS over poses, bounds-checked neighbour lists),
kept verbatim in behaviour, and every seed 0-299 must give the same visible state."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from comma_env.puzzles.maze import (
    CENTER,
    COLORS,
    FACINGS,
    FLOOR,
    MIN_GOAL_DISTANCE,
    ROOMS,
    SIZE,
    STEP,
    WALL,
    MazePuzzle,
    action_distances,
    apply_to_pose,
    generate_rows,
    goal_color,
)


def _reference_distances(rows, start, facing):
    dist = {(start, facing): 0}
    queue = deque([(start, facing)])
    best = {start: 0}
    while queue:
        pose = queue.popleft()
        for action in ("move_forward", "move_backward", "turn_left", "turn_right"):
            cell, face, ok = apply_to_pose(rows, pose[0], pose[1], action)
            if ok and (cell, face) not in dist:
                dist[(cell, face)] = dist[pose] + 1
                best.setdefault(cell, dist[pose] + 1)
                queue.append((cell, face))
    return best


def _reference_rows(rng):
    grid = [[WALL] * SIZE for _ in range(SIZE)]
    start = (int(rng.integers(ROOMS)), int(rng.integers(ROOMS)))
    seen = {start}
    stack = [start]
    grid[2 * start[0]][2 * start[1]] = FLOOR
    while stack:
        r, c = stack[-1]
        options = [(r + dr, c + dc) for dr, dc in STEP.values()
                   if 0 <= r + dr < ROOMS and 0 <= c + dc < ROOMS and (r + dr, c + dc) not in seen]
        if not options:
            stack.pop()
            continue
        nr, nc = options[int(rng.integers(len(options)))]
        grid[r + nr][c + nc] = FLOOR
        grid[2 * nr][2 * nc] = FLOOR
        seen.add((nr, nc))
        stack.append((nr, nc))
    return ["".join(row) for row in grid]


def _reference_state(seed: int) -> dict:
    rng = np.random.default_rng(seed)
    rooms = [(2 * r, 2 * c) for r in range(ROOMS) for c in range(ROOMS) if (2 * r, 2 * c) != CENTER]
    torus = COLORS[int(rng.integers(len(COLORS)))]
    while True:
        rows = _reference_rows(rng)
        mouse = rooms[int(rng.integers(len(rooms)))]
        facing = FACINGS[int(rng.integers(4))]
        distances = _reference_distances(rows, mouse, facing)
        far = [cell for cell in rooms if distances.get(cell, 0) >= MIN_GOAL_DISTANCE]
        if far:
            break
    goal = far[int(rng.integers(len(far)))]
    others = [cell for cell in rooms if cell not in (mouse, goal)]
    picks = rng.choice(len(others), size=len(COLORS) - 1, replace=False)
    rest = iter(others[int(i)] for i in picks)
    spheres = {color: (goal if color == goal_color(torus) else next(rest)) for color in COLORS}
    return {"rows": rows, "mouse": mouse, "facing": facing, "torus": torus, "spheres": spheres}


@pytest.mark.parametrize("block", range(3))
def test_seeds_give_the_same_maze_as_the_reference_generator(block: int) -> None:
    for seed in range(100 * block, 100 * block + 100):
        puzzle = MazePuzzle(np.random.default_rng(seed))
        expected = _reference_state(seed)
        assert puzzle.rows == expected["rows"], seed
        assert (puzzle.mouse, puzzle.facing, puzzle.torus) == (expected["mouse"], expected["facing"],
                                                               expected["torus"]), seed
        assert puzzle.spheres == expected["spheres"], seed


def test_distances_equal_the_reference_bfs() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        rows = generate_rows(rng)
        floor = [(r, c) for r in range(SIZE) for c in range(SIZE) if rows[r][c] == FLOOR]
        start = floor[int(rng.integers(len(floor)))]
        facing = FACINGS[int(rng.integers(4))]
        expected = _reference_distances(rows, start, facing)
        assert action_distances(rows, start, facing) == expected


def test_generator_matches_the_reference_rng_stream() -> None:
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    for _ in range(50):
        assert generate_rows(a) == _reference_rows(b)
    assert a.integers(10**9) == b.integers(10**9)  # the same number of draws
