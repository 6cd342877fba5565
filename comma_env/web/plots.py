"""The paper's figures as PNG files, one point or line per run folder (matplotlib, Agg): success
by turn limit, leak rate against success, PSR against tokens, PSR by skill, error taxonomy."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from comma_env.protocol.metrics import TAXONOMY
from comma_env.protocol.spec import SKILLS
from comma_env.run.results import title
from comma_env.web.runs import Run

PRIVATE = ("atm", "telehealth")
MARKERS = {"atm": "o", "telehealth": "s"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    _pyplot().close(fig)
    return path


def success_vs_turn_limit(runs: Sequence[Run], path: Path) -> Path | None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for run in runs:
        curve = run.results.get("success_vs_turn_limit") or {}
        limits, rates = curve.get("turn_limit") or [], curve.get("overall") or []
        if limits and len(limits) == len(rates) and all(v is not None for v in rates):  # none finished: no line
            ax.plot(curve["turn_limit"], curve["overall"], marker="o", markersize=3, label=run.label)
    if not ax.get_legend_handles_labels()[0]:  # no run finished an episode: no figure
        plt.close(fig)
        return None
    ax.set(xlabel="turn limit", ylabel="success rate (%)", title="Success rate by turn limit", ylim=(0, 100))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)


def leak_vs_success(runs: Sequence[Run], path: Path) -> Path | None:
    points = [(run, p, run.results["puzzles"][p]) for run in runs for p in PRIVATE
              if run.results.get("puzzles", {}).get(p, {}).get("sr") is not None]  # null: every episode failed
    if not points:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    colors = {run.slug: f"C{i % 10}" for i, run in enumerate(runs)}
    for run, puzzle, m in points:
        ax.scatter(m["sr"], m.get("leak_rate") or 0.0, color=colors[run.slug], marker=MARKERS[puzzle], s=50,
                   label=f"{run.label}, {title(puzzle)}")
    ax.set(xlabel="success rate (%)", ylabel="leak rate (%)", title="Privacy: leaks against success",
           xlim=(-5, 105), ylim=(-5, 105))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _save(fig, path)


def psr_vs_tokens(runs: Sequence[Run], path: Path) -> Path | None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, run in enumerate(runs):
        overall = run.results["overall"]
        if overall.get("psr") is None:  # no finished episode: nothing to place
            continue
        tokens = max(float(overall.get("tokens") or 0.0), 1.0)  # scripted players generate no tokens
        ax.scatter(tokens, overall["psr"], s=60, color=f"C{i % 10}",
                   label=f"{run.label} (efficiency {overall.get('efficiency') or 0.0:.2f})")
    if not ax.get_legend_handles_labels()[0]:  # no run finished an episode: no figure
        plt.close(fig)
        return None
    ax.set_xscale("log")
    ax.set(xlabel="tokens per episode (log)", ylabel="partial success rate (%)", title="Partial success and tokens",
           ylim=(0, 100))
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return _save(fig, path)


def _grouped_bars(runs: Sequence[Run], groups: Sequence[str], value: Callable[[Run, str], float],
                  ylabel: str, heading: str, path: Path) -> Path | None:
    if not groups:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4))
    width = 0.8 / max(len(runs), 1)
    for i, run in enumerate(runs):
        xs = [g + (i - (len(runs) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [value(run, g) for g in groups], width=width, label=run.label, color=f"C{i % 10}")
    ax.set_xticks(range(len(groups)), groups)
    ax.set(ylabel=ylabel, title=heading)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    return _save(fig, path)


def psr_by_skill(runs: Sequence[Run], path: Path) -> Path | None:
    skills = [s for s in SKILLS if any(s in (r.results.get("skills") or {}) for r in runs)]
    return _grouped_bars(runs, skills, lambda run, s: (run.results.get("skills") or {}).get(s, {}).get("psr") or 0.0,
                         "partial success rate (%)", "PSR by skill category", path)


def error_taxonomy(runs: Sequence[Run], path: Path) -> Path | None:
    def share(run: Run, category: str) -> float:
        overall = (run.results.get("error_taxonomy") or {}).get("overall") or {}
        failed = overall.get("failed") or 0
        return 100.0 * overall.get("counts", {}).get(category, 0) / failed if failed else 0.0

    return _grouped_bars(runs, list(TAXONOMY), share, "% of failed episodes", "Error taxonomy", path)


PLOTS: dict[str, tuple[Callable[[Sequence[Run], Path], Path | None], str]] = {
    "success_vs_turn_limit": (success_vs_turn_limit, "Success rate by turn limit (Figure 4, left)"),
    "leak_vs_success": (leak_vs_success, "Leak rate against success, ATM and Telehealth (Figure 4, right)"),
    "psr_vs_tokens": (psr_vs_tokens, "Partial success against tokens per episode (Figure 5)"),
    "psr_by_skill": (psr_by_skill, "Partial success by skill category"),
    "error_taxonomy": (error_taxonomy, "Error taxonomy of failed episodes"),
}
"""File stem -> the figure function (None when no run has the data) and its title in the report."""


def write_plots(runs: Sequence[Run], folder: str | Path, warn: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Every figure the runs have data for, as ``folder/<stem>.png`` (one that cannot be drawn is left
    out with a warning; a symlink where a figure goes is replaced, not followed)."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for stem, (make, _) in PLOTS.items():
        path = out / f"{stem}.png"
        if path.is_symlink():
            path.unlink()
        try:
            made = make(runs, path)
        except Exception as error:  # noqa: BLE001 - one odd run must not cost the whole report
            (warn or (lambda t: print(t, file=sys.stderr)))(
                f"comma_env.report: figure {stem} left out: {type(error).__name__}: {error}")
            continue
        if made is not None:
            written[stem] = made
    return written
