"""The leaderboard's numbers: the paper's metrics, paired sign-flip permutation tests on shared episodes
(Holm-corrected), and ranks shared by entries whose 95% intervals overlap."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from comma_env.protocol.metrics import summarize
from comma_env.registry import SPECS
from comma_env.run.results import ordered

ALPHA = 0.05
Z95 = 1.959963984540054
EXACT_UP_TO = 16
RESAMPLES = 10_000
METRICS = {"psr": "progress", "sr": "success"}
"""Compared metric -> the record field it averages (in percent)."""


def scores(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The paper's metrics of `records` (every episode counts, an error one by what it earned)."""
    puzzles = ordered(str(r.get("puzzle")) for r in records)
    skills = {p: SPECS[p].skills if p in SPECS else () for p in puzzles}
    return summarize(records, order=puzzles, skills=skills)


def interval(value: float, se: float) -> tuple[float, float]:
    return value - Z95 * se, value + Z95 * se


def shared_ranks(intervals: Sequence[tuple[float, float]]) -> list[int]:
    """1 + the number of intervals wholly above each one (overlapping intervals share a rank)."""
    return [1 + sum(1 for low, _ in intervals if low > high) for _, high in intervals]


def _binomial_p(positive: int, count: int) -> float:
    """Two-sided p of `positive` of `count` equal-sized differences being positive."""
    extreme = max(positive, count - positive)
    log_total = count * math.log(2.0)  # in logarithms: 2**count overflows a float past 1,023 episodes
    tail = math.fsum(math.exp(math.lgamma(count + 1) - math.lgamma(k + 1) - math.lgamma(count - k + 1) - log_total)
                     for k in range(extreme, count + 1))
    return min(1.0, 2.0 * tail)


def sign_flip_p(differences: Sequence[float], weights: Sequence[float] | None = None, seed: int = 0) -> float:
    """Two-sided p-value of a paired sign-flip permutation test that ``sum(w * d)`` is 0."""
    values = np.asarray(differences, dtype=float) * (np.asarray(weights, dtype=float) if weights is not None else 1.0)
    values = values[values != 0]
    if values.size == 0:
        return 1.0
    observed = abs(values.sum()) * (1 - 1e-12)  # a draw equal to the observed sum counts as extreme
    if np.allclose(np.abs(values), abs(values[0])):  # equal sizes: the sum's law is binomial
        return _binomial_p(int((values > 0).sum()), int(values.size))
    if values.size <= EXACT_UP_TO:
        signs = ((np.arange(2 ** values.size)[:, None] >> np.arange(values.size)) & 1) * 2 - 1
        return float(np.mean(np.abs(signs @ values) >= observed))
    rng = np.random.default_rng(seed)
    extreme, batch = 0, max(1, 2_000_000 // values.size)  # sign draws at a time: about 16 MB
    for start in range(0, RESAMPLES, batch):
        signs = rng.integers(0, 2, size=(min(batch, RESAMPLES - start), values.size), dtype=np.int8) * 2 - 1
        extreme += int(np.count_nonzero(np.abs(signs @ values) >= observed))
    return (extreme + 1) / (RESAMPLES + 1)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


def _value(record: Mapping[str, Any], metric: str) -> float:
    return float(bool(record.get("success"))) if metric == "sr" else float(record.get("progress") or 0.0)


def paired(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A against B on their shared episodes, per puzzle and overall, for each metric: both means, the
    difference, p and Holm's p, and ``better`` ("a", "b" or None)."""
    mine = {(str(r.get("puzzle")), int(r.get("seed") or 0)): r for r in a}
    theirs = {(str(r.get("puzzle")), int(r.get("seed") or 0)): r for r in b}
    shared = sorted(set(mine) & set(theirs))
    puzzles = ordered(p for p, _ in shared)
    groups = {p: [k for k in shared if k[0] == p] for p in puzzles}
    rows: list[dict[str, Any]] = []
    for metric in METRICS:
        for column in [*puzzles, "overall"] if puzzles else []:
            keys = shared if column == "overall" else groups[column]
            weights = [1.0 / (len(puzzles) * len(groups[k[0]])) for k in keys]
            mine_values = [_value(mine[k], metric) for k in keys]
            their_values = [_value(theirs[k], metric) for k in keys]
            diffs = [x - y for x, y in zip(mine_values, their_values, strict=True)]
            scale = 100.0 if column == "overall" else 100.0 * len(puzzles)  # a puzzle's weights sum to 1/P
            a_mean, b_mean = scale * float(np.dot(weights, mine_values)), scale * float(np.dot(weights, their_values))
            rows.append({"puzzle": column, "metric": metric, "a": a_mean, "b": b_mean, "difference": a_mean - b_mean,
                         "episodes": len(keys), "p": sign_flip_p(diffs, weights)})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = adjusted
        row["better"] = None if adjusted >= ALPHA or row["difference"] == 0 else ("a" if row["difference"] > 0 else "b")
    return {"shared": len(shared), "puzzles": puzzles, "rows": rows}
