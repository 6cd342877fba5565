"""The static HTML report of one or more rollout folders.

    python -m comma_env.report OUT_DIR [OUT_DIR ...] [--out REPORT_DIR]

Writes ``report.html`` with the result tables (one Table 1-style comparison across the
folders), the figures, and an index of every episode that filters by run, puzzle, outcome,
end reason and leak; each episode has a page of its own (``episodes/<run>/<puzzle>-<seed>.html``)
with the dialogue as chat bubbles, the image the solver saw on each turn, the executed
actions and their outcomes, mistakes and leaks highlighted, reasoning folded away and tokens
per message. Images are redrawn by replaying each episode (`comma_env.web.replay`) and
written once per distinct state into ``images/``; pages load them lazily. Nothing is
fetched from the network: the folder opens from the file system.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from jinja2 import Environment, FileSystemLoader, select_autoescape

from comma_env.run.fidelity import PAPER_RANDOM
from comma_env.run.results import is_v1_protocol, ordered, paper_random_row, title
from comma_env.web.render import message_html
from comma_env.web.replay import Replayed, replay_all
from comma_env.web.runs import Run, load_runs, slug

HERE = Path(__file__).parent
PLOT_TITLES = {
    "success_vs_turn_limit": "Success rate by turn limit (Figure 4, left)",
    "leak_vs_success": "Leak rate against success, ATM and Telehealth (Figure 4, right)",
    "psr_vs_tokens": "Partial success against tokens per episode (Figure 5)",
    "psr_by_skill": "Partial success by skill category",
    "error_taxonomy": "Error taxonomy of failed episodes",
}


@dataclass
class ReportStats:
    """What a report cost: counts, bytes and seconds (printed and returned)."""

    path: Path
    episodes: int
    images: int
    image_bytes: int
    index_bytes: int
    episode_page_bytes: int
    seconds: float
    mismatches: int

    def describe(self) -> str:
        mb = 1024 * 1024
        return (f"{self.path}: {self.episodes} episodes, report.html {self.index_bytes / mb:.2f} MB, "
                f"episode pages {self.episode_page_bytes / mb:.1f} MB, {self.images} images "
                f"{self.image_bytes / mb:.1f} MB, {self.seconds:.1f} s"
                + (f"; {self.mismatches} episode(s) did not replay as recorded" if self.mismatches else ""))


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["title"] = title
    env.filters["message"] = lambda text, actions=(), outcomes=(): message_html(str(text or ""), actions, outcomes)
    return env


def _pm(value: float | None, se: float | None, digits: int = 0) -> str:
    """`value ± se`; a rate over no finished episode (every one an error) is null: "–"."""
    if value is None:
        return "–"
    return f"{value:.{digits}f} ± {se or 0.0:.1f}"


def _num(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def comparison(runs: Sequence[Run], key: str, paper_index: int | None) -> dict[str, Any]:
    """A Table 1-style table: rows = runs (solver / expert), columns = puzzles + Overall."""
    puzzles = ordered(p for run in runs for p in run.puzzles)
    rows = []
    for run in runs:
        per = run.results["puzzles"]
        cells = [_pm(per[p][key], per[p][f"{key}_se"]) if p in per else "-" for p in puzzles]
        overall = run.results["overall"]
        rows.append([run.label, *cells, _pm(overall[key], overall[f"{key}_se"], 2)])
    random_runs = [r for r in runs if r.results.get("models", {}).get("solver") == ["random"]]
    if paper_index is not None and random_runs and any(p in PAPER_RANDOM for p in puzzles):
        rows.append(paper_random_row(puzzles, paper_index))  # the final paper's
        if any(is_v1_protocol(r.results) for r in random_runs):
            rows.append(paper_random_row(puzzles, paper_index, v1=True))
    return {"header": ["Model (solver / expert)", *(title(p) for p in puzzles), "Overall"], "rows": rows}


def run_table(run: Run) -> dict[str, Any]:
    """Per-puzzle metrics of one run (the rows of results.md, transposed)."""
    per = run.results["puzzles"]
    header = ["Puzzle", "n", "PSR", "SR", "mistakes", "turns", "tokens", "efficiency", "leak rate", "errors"]
    rows = []
    for name, m in [*per.items(), ("overall", run.results["overall"])]:
        rows.append([title(name) if name != "overall" else "Overall", str(m["n"]), _pm(m["psr"], m["psr_se"], 1),
                     _pm(m["sr"], m["sr_se"], 1), _num(m["mistakes"], 2), _num(m["turns"], 2), _num(m["tokens"], 0),
                     _num(m["efficiency"], 3), _pm(m["leak_rate"], m["leak_rate_se"], 1) if "leak_rate" in m else "",
                     str(m["errors"])])
    return {"header": header, "rows": rows}


def outcome(record: dict[str, Any]) -> str:
    if record.get("error"):
        return "error"
    return "success" if record.get("success") else "failure"


def episode_href(run: Run, record: dict[str, Any]) -> str:
    return f"episodes/{run.slug}/{slug(str(record.get('puzzle')))}-{int(record.get('seed') or 0)}.html"


def index_entry(run_index: int, run: Run, record: dict[str, Any], replayed: Replayed) -> dict[str, Any]:
    """One row of the embedded episode index (short keys: 10,000 rows stay small)."""
    return {"r": run_index, "p": record.get("puzzle"), "s": int(record.get("seed") or 0), "o": outcome(record),
            "g": round(float(record.get("progress") or 0.0), 3), "m": int(record.get("mistakes") or 0),
            "t": record.get("turns_played", record.get("turns")), "e": record.get("end_reason") or "",
            "l": list(record.get("privacy_leaks") or []), "k": int(record.get("tokens") or 0),
            "x": 1 if replayed.mismatch else 0, "h": episode_href(run, record)}


def turns_view(record: dict[str, Any], replayed: Replayed) -> list[dict[str, Any]]:
    """The transcript with the image of each turn and the reasoning-bearing raw text."""
    out = []
    for i, turn in enumerate(record.get("transcript") or []):
        executed = list(turn.get("actions") or [])
        outcomes = [bool(x) for x in turn.get("outcomes") or []]
        out.append({
            "turn": turn.get("turn", i + 1),
            "image": replayed.turn_images[i] if i < len(replayed.turn_images) else None,
            "solver": turn.get("solver_raw") or turn.get("solver") or "",
            "solver_tokens": turn.get("solver_tokens"),
            "actions": list(zip(executed, outcomes)),
            "executed": executed,
            "outcomes": outcomes,
            "mistake": not all(outcomes),
            "leaks": list(turn.get("leaks") or []),
            "expert": turn.get("expert_raw") or turn.get("expert"),
            "expert_tokens": turn.get("expert_tokens"),
            "progress": turn.get("progress"),
        })
    return out


def write_report(folders: Sequence[str | Path], out: str | Path | None = None, workers: int | None = None,
                 quiet: bool = False) -> ReportStats:
    """Build the report of `folders` into `out` (default: ``<folder>/report`` for one folder,
    ``report`` beside the first folder for several) and return its statistics."""
    started = time.perf_counter()
    runs = load_runs(list(folders))
    target = Path(out) if out else (runs[0].folder / "report" if len(runs) == 1 else runs[0].folder.parent / "report")
    target.mkdir(parents=True, exist_ok=True)
    assets = target / "assets"
    assets.mkdir(exist_ok=True)
    for name in ("report.css", "report.js"):
        shutil.copyfile(HERE / "static" / name, assets / name)

    from comma_env.web.plots import write_plots

    plots = write_plots(runs, target / "plots")
    templates = _templates()
    page = templates.get_template("episode.html")
    index: list[dict[str, Any]] = []
    mismatches = 0
    page_bytes = 0
    for run_index, run in enumerate(runs):
        replays = replay_all(run.records, target / "images", workers=workers)
        folder = target / "episodes" / run.slug
        folder.mkdir(parents=True, exist_ok=True)
        entries = [index_entry(run_index, run, r, x) for r, x in zip(run.records, replays)]
        for i, (record, replayed) in enumerate(zip(run.records, replays)):
            mismatches += 1 if replayed.mismatch else 0
            html = page.render(run=run, record=record, replayed=replayed, turns=turns_view(record, replayed),
                               outcome=outcome(record),
                               previous=entries[i - 1]["h"] if i else None,
                               next=entries[i + 1]["h"] if i + 1 < len(entries) else None)
            path = target / entries[i]["h"]
            path.write_text(html, encoding="utf-8")
            page_bytes += len(html.encode("utf-8"))
        index += entries
    data = json.dumps({"runs": [r.label for r in runs], "episodes": index}, ensure_ascii=False, separators=(",", ":"))
    html = templates.get_template("report.html").render(
        runs=runs, psr=comparison(runs, "psr", 0), sr=comparison(runs, "sr", 1),
        tables=[(run, run_table(run)) for run in runs],
        plots=[(f"plots/{p.name}", PLOT_TITLES[stem]) for stem, p in plots.items()],
        data=data.replace("</", "<\\/"), episodes=len(index),
        puzzles=ordered(e["p"] for e in index), end_reasons=sorted({e["e"] for e in index if e["e"]}))
    report = target / "report.html"
    report.write_text(html, encoding="utf-8")
    images = [p for p in (target / "images").glob("*.png")]
    stats = ReportStats(path=report, episodes=len(index), images=len(images),
                        image_bytes=sum(p.stat().st_size for p in images), index_bytes=report.stat().st_size,
                        episode_page_bytes=page_bytes, seconds=time.perf_counter() - started, mismatches=mismatches)
    if not quiet:
        print(stats.describe())
    return stats
