"""Color: turn a 4x4 grid of coloured squares white, one group per stage (paper, Appendix A; the
next-group table is ours). The path is planned at generation so no named group is ever empty. A
strike resets the module (``strike="reset"``) or keeps the whites (``"keep_whites"``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

SIZE = 4
CELLS = SIZE * SIZE
COLORS = ("red", "blue", "green", "yellow", "magenta")
"""The square colours, in the manual's tie-break order."""
WHITE = "white"
ROW, COLUMN = "row", "column"
GROUPS = (*COLORS, ROW, COLUMN)
"""Every group the table can name (and every possible 'previous group')."""

WHITE_BUCKETS: tuple[tuple[int, int], ...] = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 15))
"""Columns of the table: inclusive ranges of the number of white squares."""

NEXT_GROUP: dict[str, tuple[str, ...]] = {
    "red": ("blue", ROW, "green", COLUMN, "magenta"),
    "blue": (COLUMN, "yellow", "red", ROW, "green"),
    "green": ("yellow", "magenta", COLUMN, "blue", ROW),
    "yellow": (ROW, "red", "magenta", "green", COLUMN),
    "magenta": ("green", COLUMN, "blue", "red", "yellow"),
    ROW: ("magenta", "blue", "yellow", COLUMN, "red"),
    COLUMN: ("red", "green", ROW, "yellow", "blue"),
}
"""The manual's table: previous group -> next group for each white-count bucket. No group
follows itself, so every stage asks for something new."""

GROUP_ADVICE = "press group "
"""Advice naming a group rather than squares (the realistic expert planning a stage ahead)."""

STRIKE_MODES = ("reset", "keep_whites")
"""What a wrong press does beyond the strike (see the module docstring)."""

RESET_RULE = (
    "A mistake restarts the\nmodule: every square gets its starting colour back, nothing is white, "
    "and you begin again at\nstage 1."
)
KEEP_WHITES_RULE = (
    "A mistake changes nothing\non the grid: white squares stay white, "
    "and you go on with the same stage and the same group."
)
"""The manual's sentence on what a mistake does, under each `STRIKE_MODES` setting."""

MAX_STAGES = 9
"""One turn to describe plus one turn per stage must fit in the paper's 10 turns."""

Grid = list[str]
"""16 colour names, row by row from the top left."""


def bucket(white_count: int) -> int:
    """Index of the table column holding `white_count` (1..15 white squares)."""
    for index, (low, high) in enumerate(WHITE_BUCKETS):
        if low <= white_count <= high:
            return index
    raise ValueError(f"the table covers 1 to 15 white squares, not {white_count}")


def next_group(previous: str, white_count: int) -> str:
    """The manual's table lookup."""
    return NEXT_GROUP[previous][bucket(white_count)]


def fewest_color(grid: Sequence[str]) -> str:
    """Stage 1: the colour with the fewest squares on the grid (colours that are absent do
    not count); ties go to the earliest colour of `COLORS`."""
    counts = [(grid.count(color), order, color) for order, color in enumerate(COLORS) if color in grid]
    if not counts:
        raise ValueError("no coloured square left")
    return min(counts)[2]


def group_cells(grid: Sequence[str], group: str) -> list[int]:
    """0-based cells of `group`: a colour's squares, or the non-white squares of the topmost
    row (Row) or leftmost column (Column) that still has one."""
    if group in COLORS:
        return [i for i, color in enumerate(grid) if color == group]
    lines = ([r * SIZE + c for c in range(SIZE)] for r in range(SIZE)) if group == ROW else \
        ([r * SIZE + c for r in range(SIZE)] for c in range(SIZE))
    for line in lines:
        cells = [i for i in line if grid[i] != WHITE]
        if cells:
            return cells
    return []


def stage_group(grid: Sequence[str], previous: str | None) -> str:
    """The group to press now: the fewest colour when nothing is white (stage 1, also after
    a reset), else the table entry for the previous group and the white count."""
    whites = sum(1 for color in grid if color == WHITE)
    if whites == 0 or previous is None:
        return fewest_color(grid)
    return next_group(previous, whites)


def action_name(cell: int) -> str:
    """`press_r_c`, 1-based row then column."""
    return f"press_{cell // SIZE + 1}_{cell % SIZE + 1}"


def cell_of(action: str) -> int:
    _, row, column = action.split("_")
    return (int(row) - 1) * SIZE + int(column) - 1


@dataclass(frozen=True)
class Stage:
    grid: tuple[str, ...]
    """Colours shown when the stage starts."""
    group: str
    cells: frozenset[int]


def _initial_grid(rng: np.random.Generator) -> Grid:
    """Half the instances use all five colours on 2-4 squares each, the other half four colours on
    3-5 squares; the first group is never a single square."""
    if rng.random() < 0.5:
        colors, low, high = list(COLORS), 2, 4
    else:
        missing = int(rng.integers(len(COLORS)))
        colors, low, high = [c for i, c in enumerate(COLORS) if i != missing], 3, 5
    while True:
        counts = rng.integers(low, high + 1, size=len(colors))
        if counts.sum() == CELLS:
            break
    grid = [color for color, count in zip(colors, counts, strict=True) for _ in range(int(count))]
    return [grid[i] for i in rng.permutation(CELLS)]


def _recolor(rng: np.random.Generator, grid: Grid, target: str) -> Grid:
    """New colours for the non-white squares. When the table names a colour, 2 to 4 of them
    (all, if fewer remain) get that colour and the rest get one of the other four."""
    remaining = [i for i, color in enumerate(grid) if color != WHITE]
    new = list(grid)
    # one array draw gives the same numbers as that many scalar draws (tests/registry/test_instances.py)
    if target in COLORS:
        size = min(len(remaining), int(rng.integers(2, 5)))
        chosen = set(rng.choice(remaining, size=size, replace=False).tolist())
        others = [c for c in COLORS if c != target]
        rest = [i for i in remaining if i not in chosen]
        for i in chosen:
            new[i] = target
        for i, pick in zip(rest, rng.integers(len(others), size=len(rest)).tolist(), strict=True):
            new[i] = others[pick]
    else:
        for i, pick in zip(remaining, rng.integers(len(COLORS), size=len(remaining)).tolist(), strict=True):
            new[i] = COLORS[pick]
    return new


def plan_stages(rng: np.random.Generator) -> list[Stage]:
    """The unique correct path, as the colours shown at the start of every stage. Plans
    longer than `MAX_STAGES` are drawn again (deterministically, from the same rng)."""
    while True:
        grid = _initial_grid(rng)
        stages: list[Stage] = []
        previous: str | None = None
        while True:
            group = stage_group(grid, previous)
            cells = group_cells(grid, group)
            stages.append(Stage(tuple(grid), group, frozenset(cells)))
            after = [WHITE if i in cells else color for i, color in enumerate(grid)]
            whites = after.count(WHITE)
            if whites == CELLS:
                break
            previous = group
            grid = _recolor(rng, after, next_group(group, whites))
        if len(stages) <= MAX_STAGES:
            return stages


class ColorPuzzle(Puzzle):
    single_step = False
    task_prompt = (
        "Turn every square of the 4x4 grid white by pressing the right group of squares at "
        "each stage; a pressed square turns white. Rows are numbered 1-4 from the top and "
        "columns 1-4 from the left: type press_r_c to press the square in row r, column c. "
        "The other squares may change colour between stages."
    )

    @classmethod
    def manual_for(cls, manual: str, options: dict[str, Any]) -> str:
        if options.get("strike", "reset") == "keep_whites":
            return manual.replace(RESET_RULE, KEEP_WHITES_RULE)
        return manual

    def __init__(self, rng: np.random.Generator, strike: str = "reset") -> None:
        if strike not in STRIKE_MODES:
            raise ValueError(f"strike must be one of {STRIKE_MODES}, got {strike!r}")
        super().__init__(rng)
        self.strike = strike
        self.stages = plan_stages(rng)
        self.stage = 0
        self.pressed: set[int] = set()
        self.best_whites = 0
        self._actions = [action_name(i) for i in range(CELLS)]

    # -- state -------------------------------------------------------------------------------
    def grid(self) -> Grid:
        """Colours shown right now."""
        shown = list(self.stages[self.stage].grid)
        for i in self.pressed:
            shown[i] = WHITE
        return shown

    def valid_actions(self) -> list[str]:
        return self._actions  # white squares are still buttons

    def apply(self, action: str) -> bool:
        cell = cell_of(action)
        stage = self.stages[self.stage]
        if self.grid()[cell] == WHITE:
            # Harmless whenever it turned white: the image cannot tell a square whitened in
            # this stage from one whitened earlier, so the rule must not depend on it.
            return True
        if cell not in stage.cells:
            if self.strike == "reset" and (self.stage or self.pressed):
                self.stage, self.pressed = 0, set()
                self._changed()
            return False
        self.pressed.add(cell)
        whites = stage.grid.count(WHITE) + len(self.pressed)
        self.best_whites = max(self.best_whites, whites)
        if self.pressed == stage.cells and whites < CELLS:
            self.stage += 1
            self.pressed = set()
        self._changed()
        return True

    @property
    def progress(self) -> float:
        return self.best_whites / CELLS

    def visible_state(self) -> dict[str, Any]:
        grid = self.grid()
        return {"square_colors_by_row": [grid[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]}

    @classmethod
    def plan_ahead(cls, seen: dict[str, Any], typed: list[str], notes: dict[str, Any]) -> list[str]:
        """The next group follows from the table once the expert knows which squares are
        white after `typed`; the squares' new colours are the solver's to see."""
        rows = seen.get("square_colors_by_row") or []
        grid = [str(color).lower() for row in rows for color in row]
        previous = notes.get("previous_group")
        if len(grid) != CELLS or previous is None:
            return []
        for action in typed:
            try:
                grid[cell_of(action)] = WHITE
            except (ValueError, IndexError):
                return []
        whites = grid.count(WHITE)
        if whites == CELLS:
            return []
        group = next_group(previous, whites)
        notes["previous_group"] = group
        return [f"{GROUP_ADVICE}{group}"]

    @classmethod
    def expand_advice(cls, line: str, state: dict[str, Any]) -> list[str]:
        """``press group <name>`` (a colour, row or column) means that group's squares in the
        picture the solver sees; anything else is taken as an action name."""
        if not line.startswith(GROUP_ADVICE):
            return [line]
        group = line[len(GROUP_ADVICE):].strip().lower()
        rows = state.get("square_colors_by_row") or []
        grid = [str(color).lower() for row in rows for color in row]
        if group not in GROUPS or len(grid) != CELLS:
            return []
        return [action_name(i) for i in group_cells(grid, group)]

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        rows = seen.get("square_colors_by_row") or []
        grid = [str(color).lower() for row in rows for color in row]
        if len(grid) != CELLS or all(color == WHITE for color in grid):
            return []
        group = stage_group(grid, notes.get("previous_group"))
        notes["previous_group"] = group
        return [action_name(i) for i in group_cells(grid, group)]


SPEC = PuzzleSpec(
    name="color",
    title="Color",
    skills=("MR", "MSR"),
    rules=ColorPuzzle,
    drawing="comma_env.drawing.color:draw_color",
    manual="color.md",
    suite="comma",
    order=7,
    paper_column=7,
    paper_random=PaperRandom(psr=6.0, sr=0.0, psr_se=1.0, sr_se=0.0),
    paper_human_gpt4o=17.0,
    paper_v1_random=PaperV1Random(psr=1.0, mistakes=0.00, turns=20.00),
    phrasebook="comma_env.agents.natural.phrasebooks.color:ColorPhrases",
)
