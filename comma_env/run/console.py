"""The end-of-run console table, and the labels it shares with results.md and the report."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from comma_env.registry import puzzle_title as title
from comma_env.run.fidelity import PAPER_RANDOM, PAPER_V1_RANDOM_PSR
from comma_env.run.published import random_overall

NO_RATE = "–"
"""Table cell of a puzzle none of whose episodes finished (all ended in errors)."""


def pm(value: float | None, se: float | None, digits: int = 0) -> str:
    """A rate and its standard error, as the tables print them (`NO_RATE` for none)."""
    return NO_RATE if value is None else f"{value:.{digits}f} ± {se or 0.0:.1f}"


def seed_ranges(records: Iterable[Mapping[str, Any]]) -> str:
    """The seeds of `records` as compact ranges, e.g. ``0..99`` or ``0..4, 10..14``."""
    seeds = sorted({int(r.get("seed") or 0) for r in records})
    runs = [[seed for _, seed in run] for _, run in itertools.groupby(enumerate(seeds), lambda x: x[1] - x[0])]
    return ", ".join(f"{run[0]}..{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def view_label(results: Mapping[str, Any]) -> str:
    """How the solver saw the puzzle (text-view numbers are not comparable with image-view ones)."""
    view = str((results.get("meta") or {}).get("solver_view") or "image")
    if view == "image":
        return "solver view: image"
    return f"solver view: {view} (a written description, not the image: not comparable with image-view results)"


def model_label(results: Mapping[str, Any]) -> str:
    models = results.get("models", {})
    solver = ",".join(models.get("solver") or ["?"])
    expert = ",".join(models.get("expert") or ["?"])
    return solver if solver == expert else f"{solver} / {expert}"


def is_random_run(results: Mapping[str, Any]) -> bool:
    return results.get("models", {}).get("solver") == ["random"]


V1_PROTOCOL = {"max_turns": 20, "max_mistakes": 21}
"""`conf/protocol/v1.yaml`: the first paper's 20 turns and no mistake limit."""


def is_v1_protocol(results: Mapping[str, Any]) -> bool:
    """Whether the run used the first paper's protocol (whose random baseline is another table)."""
    meta = results.get("meta") or {}
    return all(meta.get(key) == value for key, value in V1_PROTOCOL.items())


def v1_random_row(puzzles: Sequence[str], index: int) -> list[str]:
    """The first paper's Random row (index 0: PSR; it gives no SR) for the given puzzles (docs/fidelity.md)."""
    cells = [f"{PAPER_V1_RANDOM_PSR[p]:.0f}" if index == 0 and p in PAPER_V1_RANDOM_PSR else "-" for p in puzzles]
    return ["Random (first paper, protocol=v1)", *cells, "-"]


def render_console(results: Mapping[str, Any]) -> str:
    """The Table 1-style summary printed at the end of a run (plain text)."""
    per: Mapping[str, Mapping[str, Any]] = results["puzzles"]
    overall = results["overall"]
    random_run = is_random_run(results)
    v1 = is_v1_protocol(results)
    header = ["puzzle", "n", "PSR", "SR", "mistakes", "turns", "tokens", "errors"]
    if random_run:
        header += ["first paper PSR/SR" if v1 else "paper PSR/SR"]
    rows = []
    for p, m in [*per.items(), ("overall", overall)]:
        if m["n"]:
            cells = [pm(m["psr"], m["psr_se"], 1), pm(m["sr"], m["sr_se"], 1), f"{m['mistakes']:.2f}",
                     f"{m['turns']:.2f}", f"{m['tokens']:.0f}"]
        else:  # nothing finished: no rates
            cells = [NO_RATE] * 5
        row = [title(p) if p != "overall" else "Overall", str(m["n"]), *cells, str(m["errors"])]
        if random_run and v1:
            row.append(f"{PAPER_V1_RANDOM_PSR[p]:.0f} / -" if p in PAPER_V1_RANDOM_PSR else "-")
        elif random_run:
            if p in PAPER_RANDOM:
                row.append("{:.0f} / {:.0f}".format(*PAPER_RANDOM[p]))
            elif p == "overall":
                row.append(f"{random_overall(list(per), 'psr')} / {random_overall(list(per), 'sr')}")
            else:
                row.append("-")
        rows.append(row)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:  # the first column left-aligned, the numbers right-aligned
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    lines = [f"COMMA results: {model_label(results)}, {view_label(results)} (rates in %, ± SE)", fmt(header),
             fmt(["-" * w for w in widths])]
    lines += [fmt(r) for r in rows[:-1]] + [fmt(["-" * w for w in widths]), fmt(rows[-1])]
    eff = f"efficiency {overall['efficiency']:.2f}"
    if "leak_rate" in overall:
        eff += f", leak rate {overall['leak_rate']:.1f}%"
    lines.append(eff)
    return "\n".join(lines)


def error_note(results: Mapping[str, Any]) -> str | None:
    """A prominent line when episodes ended in errors (None when none did)."""
    errors = int(results["overall"].get("errors") or 0)
    if not errors:
        return None
    total = errors + int(results["overall"].get("n") or 0)
    first = (results.get("meta") or {}).get("first_error")
    text = (f"WARNING: {errors} of {total} episodes ended in an error and are left out of every rate; "
            "rerun the same command to retry them")
    return text + (f" (first error: {first})" if first else "")


