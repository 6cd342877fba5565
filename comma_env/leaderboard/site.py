"""The leaderboard's static site: plain HTML pages and ``leaderboard.json``, no server, no script.
Submitted text is escaped, file names are slugs, and a symlink in the site is replaced, not followed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

import comma_env
from comma_env.leaderboard.board import Board, Entry, unique_slugs
from comma_env.leaderboard.stats import Z95
from comma_env.leaderboard.verify import Check
from comma_env.protocol.metrics import PRIVACY_PUZZLES
from comma_env.protocol.spec import SKILLS
from comma_env.registry import paper_order, puzzle_title
from comma_env.run.published import rows_for
from comma_env.web.report import prepare_target, safe_dir, write_file

HERE = Path(__file__).parent
SHOWN_DIFFERENCES = 20  # transcripts written of the episodes that differ
SHOWN_PROBLEMS = 200  # lines listed on an entry page
MESSAGE_CHARS = 20_000  # of one message on a transcript page
PAGE_FOLDERS = ("entries", "compare", "transcripts")  # rewritten from scratch by every build


def templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["title"] = lambda p: puzzle_title(p) if p != "overall" else "Overall"
    env.globals["version"] = comma_env.__version__
    env.filters["clip"] = lambda text: str(text or "")[:MESSAGE_CHARS] + (
        " [... cut]" if len(str(text or "")) > MESSAGE_CHARS else "")
    env.filters["pvalue"] = lambda p: "< 0.0001" if p < 1e-4 else f"{p:.4f}"
    return env


def cell(value: float | None, se: float | None) -> dict[str, float] | None:
    """A table cell: value ± se, and its bar and 95% whisker clamped to 0..100 for the CSS."""
    if value is None:
        return None
    se = float(se or 0.0)
    low, high = max(0.0, value - Z95 * se), min(100.0, value + Z95 * se)
    return {"value": value, "se": se, "fill": max(0.0, min(100.0, value)), "low": low, "width": max(0.0, high - low)}


def main_rows(board: Board, metric: str, puzzles: Sequence[str]) -> list[dict[str, Any]]:
    """The ranked entries, then the paper's published rows (the human one marked) and our
    realistic scripted pair, greyed."""
    from comma_env.run.reference_rows import REALISTIC_PAIR

    rows = [{"kind": "entry", "rank": e.rank, "name": e.name, "models": e.models, "href": f"entries/{e.slug}.html",
             "cells": [cell(e.results["puzzles"][p][metric], e.results["puzzles"][p][f"{metric}_se"])
                       if p in e.results["puzzles"] else None for p in puzzles],
             "overall": cell(*_overall(e, metric))}
            for e in board.with_status("ranked")]
    for row in rows_for(metric, "full"):
        runs = "" if row.runs == 100 else f", {row.runs} runs"
        human = row.model.startswith("Human")
        rows.append({"kind": "human" if human else "published", "name": row.model,
                     "models": f"{'a person as solver; ' if human else ''}published, {row.table}{runs}",
                     "cells": [cell(*row.cells[p]) if p in row.cells else None for p in puzzles],
                     "overall": cell(*row.overall)})
    pair: Mapping[str, Any] = REALISTIC_PAIR
    rows.append({"kind": "reference", "name": "Realistic scripted pair", "models": "ours, measured",
                 "cells": [cell(*pair[metric][p]) if p in pair[metric] else None for p in puzzles],
                 "overall": cell(*pair["overall"][metric])})
    return rows


def _overall(entry: Entry, metric: str) -> tuple[float | None, float | None]:
    result = entry.results["overall"]
    return (result.get(metric), result.get(f"{metric}_se")) if result.get("n") else (None, None)


def setting_differences(a: Entry, b: Entry) -> list[str]:
    """The settings (besides the models) in which two entries differ, as ``key: A against B``."""
    mine, theirs = a.protocol.settings, b.protocol.settings
    return [f"{key}: {mine.get(key)} against {theirs.get(key)}" for key in dict.fromkeys([*mine, *theirs])
            if key not in ("solver_model", "expert_model") and mine.get(key) != theirs.get(key)]


def pair_href(a: Entry, b: Entry) -> str:
    return f"compare/{a.slug}/{b.slug}.html"


def comparison(board: Board, a: Entry, b: Entry) -> tuple[str, dict[str, Any]] | None:
    """The page and result of A against B (stored once per pair, in board order), or None."""
    if (a.slug, b.slug) in board.comparisons:
        return pair_href(a, b), board.comparisons[(a.slug, b.slug)]
    if (b.slug, a.slug) in board.comparisons:
        return pair_href(b, a), board.comparisons[(b.slug, a.slug)]
    return None


def matrix(board: Board) -> list[dict[str, Any]]:
    """Rows of the pairwise table: each verified entry against each other, the overall
    partial-success verdict from the row's side ("better", "worse", "same") and its page."""
    rows = []
    for a in board.compared:
        cells: list[dict[str, str] | None] = []
        for b in board.compared:
            found = None if a is b else comparison(board, a, b)
            if found is None:
                cells.append(None)
                continue
            href, result = found
            overall = next(r for r in result["rows"] if r["puzzle"] == "overall" and r["metric"] == "psr")
            row_side = "a" if href == pair_href(a, b) else "b"
            verdict = "same" if overall["better"] is None else ("better" if overall["better"] == row_side else "worse")
            cells.append({"verdict": verdict, "href": href})
        rows.append({"entry": a, "cells": cells})
    return rows


def samples(entry: Entry) -> list[tuple[str, dict[str, Any], Check]]:
    """(page name, record, check) of the transcripts written for an entry: each puzzle's
    first success and first failure, and the first `SHOWN_DIFFERENCES` episodes that differ."""
    first: dict[tuple[str, bool], int] = {}
    for index, record in enumerate(entry.records):
        first.setdefault((str(record.get("puzzle")), bool(record.get("success"))), index)
    differing = [i for i, c in enumerate(entry.checks) if c.differences][:SHOWN_DIFFERENCES]
    indices = sorted({*first.values(), *differing})
    names = unique_slugs([f"{entry.records[i].get('puzzle')}-{entry.records[i].get('seed')}" for i in indices])
    return [(n, entry.records[i], entry.checks[i]) for n, i in zip(names, indices, strict=True)]


def extremes(entry: Entry) -> tuple[list[str], list[str]]:
    """The entry's best and worst three puzzles by partial success."""
    per = entry.results["puzzles"]
    order = sorted(per, key=lambda p: (-per[p]["psr"], -per[p]["sr"]))
    return order[:3], order[::-1][:3]


def entry_json(entry: Entry) -> dict[str, Any]:
    """One entry of ``leaderboard.json``."""
    keep = ("n", "sr", "sr_se", "psr", "psr_se", "mistakes", "mistakes_se", "turns", "turns_se", "tokens",
            "efficiency", "errors", "leak_rate", "leak_rate_se")
    return {"name": entry.name, "slug": entry.slug, "verified": entry.verified, "mismatches": entry.mismatches,
            "unusable_lines": len(entry.submission.problems), "status": entry.status, "rank": entry.rank,
            "models": {"solver": entry.protocol.settings.get("solver_model"),
                       "expert": entry.protocol.settings.get("expert_model")},
            "settings": entry.protocol.settings, "departures": entry.protocol.departures,
            "provenance": entry.submission.provenance, "episodes": len(entry.records),
            "overall": {k: v for k, v in entry.results["overall"].items() if k in keep},
            "puzzles": {p: {k: v for k, v in m.items() if k in keep} for p, m in entry.results["puzzles"].items()},
            "skills": {s: {k: v for k, v in m.items() if k != "puzzles"} for s, m in entry.results["skills"].items()},
            "differences": [{"puzzle": c.puzzle, "seed": c.seed, "differences": c.differences}
                            for _, c in entry.differing[:SHOWN_PROBLEMS]],
            "problems": [str(p) for p in entry.submission.problems[:SHOWN_PROBLEMS]],
            "warnings": [str(p) for p in entry.submission.warnings],
            "page": f"entries/{entry.slug}.html"}


def board_json(board: Board) -> dict[str, Any]:
    """``leaderboard.json``: every entry, the published rows and the pairwise comparisons."""
    published = [{"model": r.model, "table": r.table, "metric": r.metric, "runs": r.runs,
                  "puzzles": {p: list(c) for p, c in r.cells.items()}, "overall": list(r.overall)}
                 for m in ("psr", "sr") for r in rows_for(m, "full")]
    comparisons = [{"a": a, "b": b, **result} for (a, b), result in board.comparisons.items()]
    return {"comma_env": comma_env.__version__, "entries": [entry_json(e) for e in board.entries],
            "published": published, "comparisons": comparisons}


def write_site(board: Board, out: str | Path) -> Path:
    """Write the site of `board` into `out`; returns the path of its ``index.html``."""
    target = Path(out)
    prepare_target(target)
    for folder in PAGE_FOLDERS:  # pages of an earlier build (a withdrawn entry's) must not stay online
        path = target / folder
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)  # removes symlinks inside, never follows them
    env = templates()
    puzzles = list(paper_order())
    skills = [s for s in SKILLS if any(s in e.results["skills"] for e in board.compared)]
    index = env.get_template("index.html").render(
        root="", board=board, puzzles=puzzles, psr=main_rows(board, "psr", puzzles),
        sr=main_rows(board, "sr", puzzles), skills=skills, privacy=list(PRIVACY_PUZZLES), matrix=matrix(board))
    write_file(target / "index.html", index)
    for entry in board.entries:
        shown = samples(entry)
        transcripts = safe_dir(target, "transcripts", entry.slug)
        for name, record, check in shown:
            write_file(transcripts / f"{name}.html", env.get_template("transcript.html").render(
                root="../../", entry=entry, record=record, check=check))
        best, worst = extremes(entry)
        pairs = [(other, found[0]) for other in board.compared if (found := comparison(board, entry, other))]
        write_file(safe_dir(target, "entries") / f"{entry.slug}.html", env.get_template("entry.html").render(
            root="../", entry=entry, best=best, worst=worst, samples=shown, shown=SHOWN_PROBLEMS, pairs=pairs))
    by_slug = {e.slug: e for e in board.entries}
    for (a, b), result in board.comparisons.items():
        write_file(safe_dir(target, "compare", a) / f"{b}.html", env.get_template("pair.html").render(
            root="../../", a=by_slug[a], b=by_slug[b], result=result,
            settings=setting_differences(by_slug[a], by_slug[b])))
    write_file(target / "leaderboard.json", json.dumps(board_json(board), indent=1, ensure_ascii=False) + "\n")
    return target / "index.html"
