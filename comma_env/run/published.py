"""The rows the final COMMA paper published (Tables 1-3, value and standard error in percent),
shown beside a run of the same setting with our realistic scripted pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

COLUMNS = ("wire", "telehealth", "who", "led", "memory", "keypad", "password", "color", "maze", "atm")
"""The paper's column order; every row below lists its cells in this order, then Overall."""

Cell = tuple[float, float]


@dataclass(frozen=True)
class PublishedRow:
    """One model's row of a published table."""

    model: str  # as the paper names it
    table: str  # "Table 1", "Table 2", "Table 3"
    metric: str  # "psr" or "sr"
    memory: str  # "full" or "last"
    cells: Mapping[str, Cell]  # puzzle -> (value, standard error)
    overall: Cell
    runs: int  # runs per puzzle behind each cell


def _row(model: str, table: str, metric: str, values: Sequence[Cell], overall: Cell, runs: int = 100,
         memory: str = "full") -> PublishedRow:
    return PublishedRow(model, table, metric, memory, dict(zip(COLUMNS, values, strict=True)), overall, runs)


# Columns: wire, telehealth, who, led, memory, keypad, password, color, maze, atm.
TABLE_1_PSR: tuple[PublishedRow, ...] = (
    _row("Human + GPT-4o", "Table 1", "psr", [(100, 0.0), (65, 15.0), (90, 10.0), (30, 13.3), (50, 16.7), (60, 11.9),
                                              (80, 13.3), (17, 5.7), (70, 15.1), (100, 0.0)], (69.01, 4.2), runs=10),
    _row("o4-mini", "Table 1", "psr", [(99, 1.0), (58, 9.0), (73, 8.2), (64, 8.5), (5, 2.1), (31, 6.3), (60, 9.1),
                                       (18, 3.1), (13, 6.3), (17, 6.9)], (53.98, 2.5), runs=30),
    _row("GPT-4o", "Table 1", "psr", [(98, 1.4), (64, 4.7), (72, 4.5), (32, 3.4), (31, 3.9), (27, 2.5), (2, 1.4),
                                      (10, 1.6), (33, 3.6), (47, 5.0)], (41.74, 1.4)),
    _row("Gemini", "Table 1", "psr", [(85, 3.6), (47, 4.9), (35, 4.8), (60, 3.3), (24, 2.0), (24, 3.3), (4, 2.0),
                                      (11, 1.3), (16, 3.3), (27, 4.5)], (33.37, 1.3)),
    _row("GPT-4V", "Table 1", "psr", [(77, 4.2), (48, 5.0), (39, 4.9), (30, 3.0), (8, 1.4), (32, 2.9), (0, 0.0),
                                      (8, 1.1), (15, 3.5), (19, 3.9)], (27.62, 1.3)),
    _row("LLaMA 3.2", "Table 1", "psr", [(64, 4.8), (13, 2.5), (27, 4.5), (29, 3.5), (27, 3.0), (28, 2.9), (0, 0.0),
                                         (9, 1.4), (24, 3.2), (0, 0.0)], (22.15, 1.1)),
    _row("QwenVL", "Table 1", "psr", [(56, 5.0), (40, 4.9), (26, 4.4), (31, 3.5), (16, 2.3), (25, 2.5), (0, 0.0),
                                      (5, 0.8), (4, 1.3), (0, 0.0)], (20.28, 1.1)),
    _row("InternVL", "Table 1", "psr", [(61, 4.9), (23, 2.5), (28, 4.5), (25, 3.3), (18, 1.4), (24, 2.5), (1, 1.0),
                                        (9, 1.4), (24, 4.7), (0, 0.0)], (19.57, 1.0)),
    _row("Random", "Table 1", "psr", [(57, 5.0), (16, 2.6), (44, 5.0), (32, 3.6), (15, 1.6), (18, 2.1), (0, 0.0),
                                      (6, 1.0), (0, 0.0), (0, 0.0)], (18.70, 1.1)),
    _row("LLaVA 1.6", "Table 1", "psr", [(41, 4.9), (20, 2.6), (25, 4.3), (35, 3.6), (13, 1.5), (16, 2.4), (0, 0.0),
                                         (2, 0.8), (20, 4.2), (0, 0.0)], (17.32, 1.0)),
    _row("R1-OneVision", "Table 1", "psr", [(45, 5.0), (24, 2.8), (17, 3.8), (19, 3.0), (31, 3.1), (19, 3.1),
                                            (0, 0.0), (4, 0.9), (0, 0.0), (0, 0.0)], (16.81, 1.0)),
    _row("LLaVA-CoT", "Table 1", "psr", [(48, 5.0), (7, 1.7), (30, 4.6), (24, 3.2), (26, 2.6), (12, 1.9), (0, 0.0),
                                         (1, 0.6), (2, 1.4), (0, 0.0)], (14.97, 1.0)),
)

TABLE_3_SR: tuple[PublishedRow, ...] = (
    _row("Human + GPT-4o", "Table 3", "sr", [(100, 0.0), (60, 15.5), (90, 9.5), (20, 12.7), (50, 15.8), (40, 15.5),
                                             (80, 12.7), (0, 0.0), (80, 12.7), (100, 0.0)], (65.14, 4.6), runs=10),
    _row("o4-mini", "Table 3", "sr", [(99, 1.0), (57, 9.1), (73, 8.1), (60, 8.9), (0, 0.0), (19, 7.1), (60, 8.9),
                                      (0, 0.0), (13, 6.2), (17, 6.8)], (50.94, 2.6), runs=30),
    _row("GPT-4o", "Table 3", "sr", [(98, 1.4), (61, 4.9), (72, 4.5), (12, 3.2), (22, 4.1), (7, 2.5), (2, 1.4),
                                     (0, 0.0), (4, 2.0), (47, 5.0)], (32.50, 1.5)),
    _row("Gemini", "Table 3", "sr", [(85, 3.6), (44, 5.0), (35, 4.8), (29, 4.5), (1, 1.0), (12, 3.2), (4, 2.0),
                                     (0, 0.0), (7, 2.5), (27, 4.4)], (24.40, 1.4)),
    _row("GPT-4V", "Table 3", "sr", [(77, 4.2), (47, 5.0), (39, 4.9), (7, 2.5), (0, 0.0), (9, 2.9), (0, 0.0),
                                     (0, 0.0), (5, 2.2), (19, 3.9)], (20.30, 1.3)),
    _row("QwenVL", "Table 3", "sr", [(56, 5.0), (40, 4.9), (26, 4.4), (12, 3.2), (3, 1.7), (6, 2.4), (0, 0.0),
                                     (0, 0.0), (1, 1.0), (0, 0.0)], (14.40, 1.1)),
    _row("LLaMA 3.2", "Table 3", "sr", [(64, 4.8), (3, 1.7), (27, 4.4), (11, 3.1), (11, 3.1), (10, 3.0), (0, 0.0),
                                        (0, 0.0), (2, 1.4), (0, 0.0)], (12.80, 1.1)),
    _row("Random", "Table 3", "sr", [(57, 5.0), (3, 1.7), (44, 5.0), (14, 3.5), (0, 0.0), (1, 1.0), (0, 0.0),
                                     (0, 0.0), (3, 1.7), (0, 0.0)], (12.20, 1.0)),
    _row("InternVL", "Table 3", "sr", [(61, 4.9), (0, 0.0), (28, 4.5), (9, 2.9), (1, 1.0), (6, 2.4), (1, 1.0),
                                       (0, 0.0), (0, 0.0), (0, 0.0)], (9.72, 0.9)),
    _row("LLaVA 1.6", "Table 3", "sr", [(41, 4.9), (1, 1.0), (25, 4.3), (16, 3.7), (1, 1.0), (4, 2.0), (0, 0.0),
                                        (0, 0.0), (0, 0.0), (0, 0.0)], (8.80, 0.9)),
    _row("R1-OneVision", "Table 3", "sr", [(45, 5.0), (3, 1.7), (17, 3.8), (7, 2.5), (15, 3.6), (10, 3.0), (0, 0.0),
                                           (0, 0.0), (0, 0.0), (0, 0.0)], (9.70, 0.9)),
    _row("LLaVA-CoT", "Table 3", "sr", [(48, 5.0), (0, 0.0), (30, 4.6), (9, 2.9), (8, 2.7), (2, 1.4), (0, 0.0),
                                        (0, 0.0), (2, 1.4), (0, 0.0)], (9.90, 0.9)),
)

TABLE_2_LAST: tuple[PublishedRow, ...] = (
    _row("GPT-4o, latest message only", "Table 2", "psr",
         [(95, 2.2), (56, 4.8), (71, 4.6), (37, 3.9), (24, 3.1), (24, 2.3), (7, 2.6), (8, 1.3), (3, 1.7), (45, 5.0)],
         (36.20, 1.4), memory="last"),
)
"""Table 2 gives PSR only, for GPT-4o; its full-memory row equals GPT-4o's row of Table 1."""

ALL_ROWS = (*TABLE_1_PSR, *TABLE_3_SR, *TABLE_2_LAST)


def rows_for(metric: str, memory: str = "full") -> list[PublishedRow]:
    """The published rows of `metric` ("psr" / "sr") in the `memory` setting, in the paper's order."""
    return [r for r in ALL_ROWS if r.metric == metric and r.memory == memory]


def comparable(results: Mapping[str, Any]) -> bool:
    """Whether a run's setting is the paper's (10 turns, 3 mistakes; COMMA's final puzzles):
    only then do the published rows measure the same thing."""
    meta = results.get("meta") or {}
    turns, mistakes = meta.get("max_turns", 10), meta.get("max_mistakes", 3)
    puzzles = list(results.get("puzzles") or {})
    return turns == 10 and mistakes == 3 and any(p in COLUMNS for p in puzzles)


def run_memory(results: Mapping[str, Any]) -> str:
    return str((results.get("meta") or {}).get("memory") or "full")


def format_cell(cell: Cell | None, digits: int = 0) -> str:
    if cell is None:
        return "-"
    return f"{cell[0]:.{digits}f} ± {cell[1]:.1f}"


def published_table(puzzles: Sequence[str], metric: str, memory: str = "full") -> list[list[str]]:
    """Rows ``[label, cells..., overall]`` for `puzzles` (the paper's overall column only when
    every one of its ten puzzles is shown; otherwise the mean of the shown cells)."""
    out = []
    for row in rows_for(metric, memory):
        runs = "" if row.runs == 100 else f", {row.runs} runs"
        out.append([f"{row.model} (published, {row.table}{runs})", *_cells(row.cells, row.overall, puzzles)])
    if memory == "full":
        out.append(reference_row(puzzles, metric))
    return out


def _cells(cells: Mapping[str, Cell], overall: Cell, puzzles: Sequence[str]) -> list[str]:
    """A row's cells for `puzzles`, then the overall (as printed, or the mean of the cells shown)."""
    if set(COLUMNS) <= set(puzzles):
        total = format_cell(overall, 2)
    else:
        known = [cells[p][0] for p in puzzles if p in cells]
        total = f"{sum(known) / len(known):.2f}" if known else "-"
    return [*(format_cell(cells.get(p)) for p in puzzles), total]


def random_overall(puzzles: Sequence[str], metric: str) -> str:
    """The overall cell of the paper's Random row for `puzzles` (as printed, or the mean of their cells)."""
    row = next(r for r in rows_for(metric) if r.model == "Random")
    return _cells(row.cells, row.overall, puzzles)[-1]


def reference_row(puzzles: Sequence[str], metric: str) -> list[str]:
    """Our realistic scripted pair in the same layout (measured by examples/reference_rows.py, not published)."""
    from comma_env.run.reference_rows import REALISTIC_PAIR

    pair: Mapping[str, Any] = REALISTIC_PAIR  # a count beside tables of cells: mypy would join them to `object`
    return ["Realistic scripted pair (ours, measured)", *_cells(pair[metric], pair["overall"][metric], puzzles)]


def published_rows(all_results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the report shows under the comparison tables: for the runs' puzzles and memory
    setting, the paper's PSR and SR rows (empty when no run is in the paper's setting)."""
    runs = [r for r in all_results if comparable(r)]
    if not runs:
        return {}
    puzzles = [p for p in COLUMNS if any(p in (r.get("puzzles") or {}) for r in runs)]
    memory = run_memory(runs[0])
    return {"puzzles": puzzles, "memory": memory,
            "psr": published_table(puzzles, "psr", memory), "sr": published_table(puzzles, "sr", memory)}
