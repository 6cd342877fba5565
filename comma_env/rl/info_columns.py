"""Merged vector-env infos as plain columns, for the pipe between a worker and the main process.

A worker merges its environments' infos the Gymnasium way (one array per key, a ``_key``
mask beside it). Pickling those arrays costs more than the data: numpy object arrays pickle
element by element through the array machinery, about 75 µs for eight Wire infos against
10 µs for the same values as lists. So a worker sends each array as its dtype and a list
(`to_columns`), and the main process builds one array per key for all workers at once
(`from_columns`), which also makes merging the workers' shares a list concatenation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

Column = tuple[str | None, tuple[int, ...], list[Any]]
"""An array as (dtype string, or None for objects; the shape of one row; its rows as a list)."""
Columns = dict[str, Any]
"""Key -> `Column`, or nested `Columns` for an info value that is a dict."""


def to_columns(merged: dict[str, Any]) -> Columns:
    """A worker's merged infos (arrays, nested dicts) as columns."""
    columns: Columns = {}
    for key, value in merged.items():
        if isinstance(value, dict):
            columns[key] = to_columns(value)
        else:
            array = np.asarray(value)
            dtype = None if array.dtype == object else array.dtype.str
            columns[key] = (dtype, array.shape[1:], list(array) if dtype is None else array.tolist())
    return columns


def from_columns(parts: Sequence[Columns], counts: Sequence[int], total: int) -> dict[str, Any]:
    """The infos of consecutive shares (`counts` environments each) as one vector env's:
    each key's array has `total` rows; where a share lacks a key its rows are zeros, or None
    for objects, and its mask False, as Gymnasium fills them; nested dicts merge alike."""
    found: dict[str, list[tuple[int, int, Any]]] = {}
    offset = 0
    for part, count in zip(parts, counts, strict=True):
        for key, column in part.items():
            found.setdefault(key, []).append((offset, count, column))
        offset += count
    merged: dict[str, Any] = {}
    for key, pieces in found.items():
        nested = [isinstance(column, dict) for _, _, column in pieces]
        if all(nested):
            merged[key] = _nested(pieces, counts, total)
        elif any(nested):
            raise ValueError(f"info {key!r} is a dict in some environments and not in others")
        else:
            merged[key] = _array(pieces, total)
    return merged


def _nested(pieces: list[tuple[int, int, Any]], counts: Sequence[int], total: int) -> dict[str, Any]:
    """A dict-valued key: its columns merged with empty ones for the shares that lack it."""
    by_offset = {offset: column for offset, _, column in pieces}
    parts, offset = [], 0
    for count in counts:
        parts.append(by_offset.get(offset, {}))
        offset += count
    return from_columns(parts, counts, total)


def _array(pieces: list[tuple[int, int, Column]], total: int) -> np.ndarray:
    """One key's rows from every share that has it. The first share's dtype wins, as the first
    environment's does in Gymnasium's merge; objects win over numbers."""
    dtype, shape, _ = pieces[0][2]
    objects = dtype is None or any(column[0] is None for _, _, column in pieces)
    target_dtype = None if objects else np.dtype(dtype)
    if sum(count for _, count, _ in pieces) == total:  # every share has the key: one array from all rows
        return _rows(target_dtype, shape, [row for _, _, (_, _, part) in pieces for row in part], total)
    target = np.full(total, None, dtype=object) if objects else np.zeros((total, *shape), dtype=target_dtype)
    for offset, count, (_, _, part) in pieces:
        target[offset:offset + count] = _rows(target_dtype, shape, part, count)
    return target


def _rows(dtype: np.dtype | None, shape: tuple[int, ...], rows: list[Any], count: int) -> np.ndarray:
    """`count` rows as an array: objects (None) by fromiter, so that a row that is a list stays
    one object; numbers in `dtype`, each row of `shape`."""
    if dtype is None:
        return np.fromiter(rows, dtype=object, count=count)
    return np.asarray(rows, dtype=dtype).reshape((count, *shape))
