"""Every rule of manuals/color.md, one hand-written case per branch, plus the table read
back from the manual file and the planner's guarantees over many seeds."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from comma_env.protocol.resources import read_manual
from comma_env.puzzles.color import (
    CELLS,
    MAX_STAGES,
    NEXT_GROUP,
    WHITE_BUCKETS,
    ColorPuzzle,
    action_name,
    fewest_color,
    group_cells,
    next_group,
    plan_stages,
    stage_group,
)

R, B, G, Y, M, W = "red", "blue", "green", "yellow", "magenta", "white"


def grid(*rows: str) -> list[str]:
    """Grid from four 4-letter strings: r b g y m w."""
    names = {"r": R, "b": B, "g": G, "y": Y, "m": M, "w": W}
    assert len(rows) == 4 and all(len(row) == 4 for row in rows)
    return [names[ch] for row in rows for ch in row]


# -- stage 1: fewest colour and its tie-break ------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "expected", "rule"),
    [
        (("rrrb", "bbgg", "gyyy", "ymmr"), M, "clear minimum: magenta has 2"),
        (("rrbb", "gggg", "yyyy", "mmmm"), R, "tie red/blue at 2 -> red"),
        (("rrrr", "bbgg", "yyyy", "mmmm"), B, "tie blue/green at 2 -> blue"),
        (("rrrr", "bbbb", "ggyy", "mmmm"), G, "tie green/yellow at 2 -> green"),
        (("rrrr", "bbbb", "gggg", "yymm"), Y, "tie yellow/magenta at 2 -> yellow"),
        (("rrmm", "bbbb", "gggg", "yyyy"), R, "tie red/magenta at 2 -> red"),
        (("rrrb", "bbgg", "gyyy", "ymmm"), R, "four-way tie at 3 (red, blue, green, magenta) -> red"),
        (("rrrr", "bbbb", "gggy", "yymm"), M, "magenta 2 beats yellow 3 despite the order"),
        (("rrrr", "rbbb", "bggg", "gggg"), B, "absent colours do not count: blue 4 < red 5"),
    ],
)
def test_stage_one_fewest_colour(rows: tuple[str, ...], expected: str, rule: str) -> None:
    cells = grid(*rows)
    assert fewest_color(cells) == expected, rule
    assert stage_group(cells, None) == expected
    assert stage_group(cells, "row") == expected, "no white square means stage 1 whatever came before"


# -- the table, one case per row (and the bucket edges) ---------------------------------------
@pytest.mark.parametrize(
    ("previous", "whites", "expected"),
    [
        (R, 2, B), (R, 5, "row"), (R, 8, G), (R, 11, "column"), (R, 14, M),
        (B, 1, "column"), (B, 4, Y), (B, 9, R), (B, 12, "row"), (B, 13, G),
        (G, 3, Y), (G, 6, M), (G, 7, "column"), (G, 10, B), (G, 15, "row"),
        (Y, 3, "row"), (Y, 4, R), (Y, 9, M), (Y, 10, G), (Y, 13, "column"),
        (M, 1, G), (M, 6, "column"), (M, 7, B), (M, 12, R), (M, 15, Y),
        ("row", 2, M), ("row", 5, B), ("row", 8, Y), ("row", 11, "column"), ("row", 14, R),
        ("column", 1, R), ("column", 4, G), ("column", 7, "row"), ("column", 12, Y), ("column", 15, B),
    ],
)
def test_table_entry(previous: str, whites: int, expected: str) -> None:
    assert next_group(previous, whites) == expected


def test_table_rows_through_expert_advice() -> None:
    # 4 white squares in the top row; previous group Green -> Magenta (4-6 white).
    cells = grid("wwww", "rmbg", "ymmr", "bgyr")
    notes = {"previous_group": G}
    assert ColorPuzzle.expert_advice({"square_colors_by_row": [cells[i:i + 4] for i in range(0, 16, 4)]}, notes) == [
        "press_2_2", "press_3_2", "press_3_3"]
    assert notes["previous_group"] == M
    # same picture, previous group Blue -> Yellow
    notes = {"previous_group": B}
    assert ColorPuzzle.expert_advice({"square_colors_by_row": [cells[i:i + 4] for i in range(0, 16, 4)]}, notes) == [
        "press_3_1", "press_4_3"]


# -- Row and Column groups --------------------------------------------------------------------
def test_row_group_is_topmost_row_with_colour() -> None:
    cells = grid("wwww", "wrwb", "gggg", "yyyy")
    assert group_cells(cells, "row") == [5, 7]
    assert group_cells(grid("rgby", "wwww", "wwww", "wwww"), "row") == [0, 1, 2, 3]
    assert group_cells(grid("wwww", "wwww", "wwww", "wwwm"), "row") == [15]


def test_column_group_is_leftmost_column_with_colour() -> None:
    cells = grid("wwrr", "wbgg", "wwyy", "wmmm")
    assert group_cells(cells, "column") == [5, 13]
    assert group_cells(grid("rwww", "wwww", "bwww", "wwww"), "column") == [0, 8]
    assert group_cells(grid("wwww", "wwww", "wwwg", "wwww"), "column") == [11]


def test_colour_group_is_every_square_of_it() -> None:
    assert group_cells(grid("rbrb", "gwgw", "rrrr", "ymym"), R) == [0, 2, 8, 9, 10, 11]


# -- play on a real instance: stages, white squares, reset, progress ---------------------------
def _stage_actions(puzzle: ColorPuzzle) -> list[str]:
    return sorted(action_name(i) for i in puzzle.stages[puzzle.stage].cells)


def _wrong_coloured(puzzle: ColorPuzzle) -> str:
    stage = puzzle.stages[puzzle.stage]
    cell = next(i for i, c in enumerate(puzzle.grid()) if c != W and i not in stage.cells)
    return action_name(cell)


def test_pressed_squares_turn_white_and_stay_white() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(11))
    first = set(puzzle.stages[0].cells)
    for action in _stage_actions(puzzle):
        assert puzzle.apply(action)
    assert puzzle.stage == 1
    shown = puzzle.grid()
    assert all(shown[i] == W for i in first)
    assert sum(c == W for c in shown) == len(first)
    for action in _stage_actions(puzzle):
        assert puzzle.apply(action)
    assert all(puzzle.grid()[i] == W for i in first)


def test_pressing_current_white_square_again_is_harmless() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(5))
    first = _stage_actions(puzzle)
    assert len(first) >= 2
    assert puzzle.apply(first[0]) and puzzle.apply(first[0])
    assert puzzle.stage == 0 and len(puzzle.pressed) == 1


def test_wrong_press_resets_to_initial_colours() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(3))
    initial = puzzle.grid()
    for action in _stage_actions(puzzle):
        puzzle.apply(action)
    whites = puzzle.grid().count(W)
    assert not puzzle.apply(_wrong_coloured(puzzle))
    assert puzzle.stage == 0 and puzzle.grid() == initial and W not in puzzle.grid()
    assert puzzle.progress == whites / CELLS, "best progress survives the reset"


def test_keep_whites_strike_changes_nothing_on_the_grid() -> None:
    """strike="keep_whites": the other reading of the paper's manual; the strike is counted
    and the grid, the stage and the squares pressed in it stay as they were."""
    puzzle = ColorPuzzle(np.random.default_rng(3), strike="keep_whites")
    for action in _stage_actions(puzzle):
        puzzle.apply(action)
    current = _stage_actions(puzzle)
    puzzle.apply(current[0])
    stage, shown, pressed = puzzle.stage, puzzle.grid(), set(puzzle.pressed)
    assert not puzzle.apply(_wrong_coloured(puzzle))
    assert (puzzle.stage, puzzle.grid(), puzzle.pressed) == (stage, shown, pressed)
    for action in current[1:]:
        assert puzzle.apply(action), "the same group finishes the stage after the strike"
    assert puzzle.stage == stage + 1


def test_unknown_strike_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="strike must be one of"):
        ColorPuzzle(np.random.default_rng(0), strike="keep")


@pytest.mark.parametrize(("strike", "says"), [("reset", "every square gets its starting colour back"),
                                               ("keep_whites", "white squares stay white, and you go on")])
def test_expert_manual_states_the_strike_rule_in_force(strike: str, says: str) -> None:
    import comma_env

    manual = comma_env.make("color", puzzle_options={"strike": strike}).unwrapped.manual
    assert says in " ".join(manual.split())
    other = {"reset": "white squares stay white, and you go on", "keep_whites": "starting colour back"}[strike]
    assert other not in " ".join(manual.split())


def test_pressing_any_white_square_does_nothing() -> None:
    """Manual: a white square is harmless whichever stage whitened it (the image shows no
    difference between the two)."""
    puzzle = ColorPuzzle(np.random.default_rng(8))
    earlier = _stage_actions(puzzle)
    for action in earlier:
        puzzle.apply(action)
    stage, shown, version = puzzle.stage, puzzle.grid(), puzzle.version
    assert puzzle.apply(earlier[0]), "a square whitened in an earlier stage is not a mistake"
    assert (puzzle.stage, puzzle.grid(), puzzle.version) == (stage, shown, version)
    current = _stage_actions(puzzle)
    puzzle.apply(current[0])
    stage, pressed = puzzle.stage, set(puzzle.pressed)
    assert puzzle.apply(current[0]) and (puzzle.stage, puzzle.pressed) == (stage, pressed)


def test_progress_is_best_white_fraction() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(21))
    assert puzzle.progress == 0.0
    first = _stage_actions(puzzle)
    puzzle.apply(first[0])
    assert puzzle.progress == 1 / CELLS
    for action in first[1:]:
        puzzle.apply(action)
    reached = len(first) / CELLS
    assert puzzle.progress == reached
    puzzle.apply(_wrong_coloured(puzzle))
    puzzle.apply(_stage_actions(puzzle)[0])
    assert puzzle.progress == reached, "a lower count after a reset does not lower progress"


def test_following_the_plan_solves() -> None:
    puzzle = ColorPuzzle(np.random.default_rng(0))
    while not puzzle.solved:
        for action in _stage_actions(puzzle):
            assert puzzle.apply(action)
    assert puzzle.grid() == [W] * CELLS and puzzle.progress == 1.0


# -- planner guarantees over many seeds ---------------------------------------------------------
def test_table_never_names_an_empty_group_and_stages_fit() -> None:
    for seed in range(2000):
        stages = plan_stages(np.random.default_rng(seed))
        assert 2 <= len(stages) <= MAX_STAGES, seed
        previous = None
        for stage in stages:
            group = stage_group(list(stage.grid), previous)
            cells = group_cells(list(stage.grid), group)
            assert cells, (seed, group)
            assert group == stage.group and frozenset(cells) == stage.cells, seed
            previous = group
        assert list(stages[0].grid).count(W) == 0
        assert len(set(stages[0].grid)) in (4, 5)


def test_whites_only_grow_along_the_plan() -> None:
    for seed in range(200):
        stages = plan_stages(np.random.default_rng(seed))
        for before, after in itertools.pairwise(stages):
            whites_before = {i for i, c in enumerate(before.grid) if c == W} | before.cells
            assert whites_before == {i for i, c in enumerate(after.grid) if c == W}


# -- the manual file ----------------------------------------------------------------------------
def _manual_table() -> tuple[list[tuple[int, int]], dict[str, tuple[str, ...]]]:
    lines = [line for line in read_manual("color.md").splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    buckets = []
    for cell in header[1:]:
        low, high = re.fullmatch(r"(\d+)-(\d+) white", cell).groups()
        buckets.append((int(low), int(high)))
    table = {}
    for line in lines[2:]:
        cells = [cell.strip().lower() for cell in line.strip("|").split("|")]
        table[cells[0]] = tuple(cells[1:])
    return buckets, table


def test_manual_table_matches_code() -> None:
    buckets, table = _manual_table()
    assert buckets == list(WHITE_BUCKETS)
    assert table == NEXT_GROUP


def test_manual_states_tie_order_and_action() -> None:
    manual = read_manual("color.md").lower()
    assert "red, blue, green, yellow, magenta" in manual
    for word in ("press_r_c", "press_2_3", "fewest", "white", "top-most row", "row 1 is the top", "left-most column",
                 "restarts", "already white does nothing"):
        assert word in manual


def test_rollout_refuses_a_misspelt_strike_before_running() -> None:
    from comma_env.run.checks import ConfigError, check_puzzle_options

    check_puzzle_options("color", {"strike": "keep_whites"}, seed=0)
    with pytest.raises(ConfigError, match="strike must be one of"):
        check_puzzle_options("color", {"strike": "keep"}, seed=0)
