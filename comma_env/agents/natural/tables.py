"""Markdown tables in a message: each run of lines that start with `|`, as a header, rows and whether a rule line
(`|---|`) stands under the header. Readers decide what the columns mean."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import NamedTuple


class Table(NamedTuple):
    """A markdown table: its header's cells, its rows' (rule lines left out), a rule line under the header or not."""

    header: list[str]
    rows: list[list[str]]
    ruled: bool
    lines: slice  # the lines it takes in `text.splitlines()`


def tables(text: str) -> Iterator[Table]:
    """Each run of lines starting with `|` as a Table; cells stripped, a row's outer pipes left out (none needed)."""
    runs = itertools.groupby(enumerate(text.splitlines()), lambda line: line[1].lstrip().startswith("|"))
    for run in (list(run) for piped, run in runs if piped):
        rules = [not line.strip(" \t|:-") and "-" in line for _, line in run]  # "|---|:--:|"
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for _, line in run]
        yield Table(rows[0], [r for r, rule in zip(rows[1:], rules[1:], strict=True) if not rule], True in rules[1:2],
                    slice(run[0][0], run[-1][0] + 1))
