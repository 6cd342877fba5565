"""Every rule of manuals/dog.md (the count-to-digit table parsed from the manual), the
picture's guarantees (0-5 dogs, none hiding another, varied looks) and submitting on the
simulated clock."""

from __future__ import annotations

import numpy as np
import pytest

import comma_env
from comma_env.drawing.dog import PICTURE, cell_box
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.dog import COATS, GRID, MAX_DOGS, POSES, DogPuzzle, seconds_to_wait


def test_manual_table_matches_rule() -> None:
    manual = read_manual("dog.md")
    rows = [line.strip("|").split("|") for line in manual.splitlines() if line.startswith("| ") and line[2].isdigit()]
    table = {int(a): int(b) for a, b in rows}
    assert table == {n: n for n in range(MAX_DOGS + 1)}
    for count, digit in table.items():
        puzzle = _puzzle(count, 300 + digit)
        assert puzzle.apply("submit") and puzzle.solved


def _puzzle(count: int, seconds: int) -> DogPuzzle:
    for seed in range(500):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        if puzzle.count == count:
            puzzle.time_left = seconds
            return puzzle
    raise AssertionError(count)


@pytest.mark.parametrize("count", range(MAX_DOGS + 1))
def test_submit_on_other_digit_is_a_strike(count: int) -> None:
    puzzle = _puzzle(count, 300 + (count + 1) % 10)
    assert not puzzle.apply("submit") and not puzzle.solved and puzzle.valid_actions() == ["submit"]
    puzzle.elapse(1)
    assert puzzle.apply("submit") and puzzle.progress == 1.0


def test_no_dogs_means_zero() -> None:
    puzzle = _puzzle(0, 250)
    assert puzzle.apply("submit")


def test_seconds_to_wait() -> None:
    for seconds in range(10, 100):
        for digit in range(6):
            wait = seconds_to_wait(seconds, digit)
            assert 0 <= wait < 10 and (seconds - wait) % 10 == digit


def test_every_count_coat_and_pose_occurs() -> None:
    counts, coats, poses = set(), set(), set()
    for seed in range(200):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        counts.add(puzzle.count)
        coats |= {d["coat"] for d in puzzle.dogs}
        poses |= {d["pose"] for d in puzzle.dogs}
    assert counts == set(range(MAX_DOGS + 1)) and coats == set(COATS) and poses == set(POSES)


def test_dogs_never_overlap_and_stay_in_the_picture() -> None:
    x0, y0, x1, y1 = PICTURE
    for seed in range(300):
        boxes = [cell_box(*p) for p in DogPuzzle(np.random.default_rng(seed)).places]
        for i, a in enumerate(boxes):
            assert x0 <= a[0] and a[2] <= x1 and y0 <= a[1] and a[3] <= y1
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (seed, a, b)


def test_each_dog_is_drawn_as_one_visible_silhouette() -> None:
    """Every dog's box holds a sizeable patch of non-background pixels."""
    env = comma_env.make("dog", render_mode="rgb_array")
    for seed in range(20):
        env.reset(seed=seed)
        image = env.render().astype(int)
        for place in env.unwrapped.puzzle.places:
            a, b, c, d = (int(v) for v in cell_box(*place))
            patch = image[b:d, a:c]
            background = (np.abs(patch - [150, 200, 120]).sum(-1) > 40) & (np.abs(patch - [205, 228, 245]).sum(-1) > 40)
            assert background.mean() > 0.15, (seed, place)


def test_written_description_lists_the_dogs() -> None:
    env = comma_env.make("dog", solver_view="text")
    env.reset(seed=2)
    description = env.unwrapped.describe()
    assert "dogs:" in description and "timer:" in description and "dog places" not in description


def test_every_dog_lies_inside_its_cell() -> None:
    """A dog's pixels never reach a neighbouring cell."""
    from comma_env.drawing import dog as drawing

    left, top, width, height = drawing.PICTURE[0] + 8, drawing._GRID_TOP, drawing._CELL_WIDTH, drawing._CELL_HEIGHT
    cells = [(round(left + width * column), round(top + height * row),  # x1/y1 exclusive, side by side
              round(left + width * (column + 1)), round(top + height * (row + 1)))
             for row in range(GRID[1]) for column in range(GRID[0])]
    for seed in range(2000):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        for dog, (cell, dx, dy, size) in zip(puzzle.dogs, puzzle.places, strict=True):
            where = drawing.placement(dog["coat"], dog["pose"], dog["facing"], cell, dx, dy, size)
            x0, y0, x1, y1 = cells[cell]
            assert x0 <= where.x and where.x + where.width <= x1 and y0 <= where.y and where.y + where.height <= y1, \
                (seed, cell)
