"""``python -m comma_env.report OUT_DIR ...``: ``report.html`` (tables, figures, an index of episodes)
and a page per episode, images redrawn by replay; a record's contents are escaped."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from comma_env.run.console import is_random_run, is_v1_protocol, pm, v1_random_row
from comma_env.run.results import ordered, title, write_atomic
from comma_env.web.plots import PLOTS, write_plots
from comma_env.web.render import message_html
from comma_env.web.replay import Replayed, replay_all
from comma_env.web.runs import Run, load_runs, slug

HERE = Path(__file__).parent
STATIC_PAGE_LIMIT = 300
"""``--pages auto`` writes episode pages and images up to this many episodes (about 20 MB);
above it, pages are served on demand (``--serve``)."""
PAGE_MODES = ("auto", "all", "none")


class UnsafeFolder(ValueError):
    """The report folder (or a folder inside it) is a symlink, or not a folder."""


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
    pages: bool = True  # episode pages and images written (False: served on demand)
    skipped: int = 0  # lines of the episode files that were not usable records
    runs: list[Run] = field(default_factory=list, repr=False)  # what was reported (the server reuses it)

    def describe(self) -> str:
        mb = 1024 * 1024
        return (f"{self.path}: {self.episodes} episodes, report.html {self.index_bytes / mb:.2f} MB, "
                f"episode pages {self.episode_page_bytes / mb:.1f} MB, {self.images} images "
                f"{self.image_bytes / mb:.1f} MB, {self.seconds:.1f} s"
                + (f"; {self.mismatches} episode(s) did not replay as recorded" if self.mismatches else "")
                + (f"; {self.skipped} unusable line(s) skipped" if self.skipped else "")
                + ("" if self.pages else "; episode pages on demand: add --serve"))


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["title"] = title
    env.filters["message"] = lambda text, actions=(), outcomes=(): message_html(str(text or ""), actions, outcomes)
    env.filters["rate_cell"] = rate_cell
    return env


def rate_cell(text: str) -> Markup:
    """A table cell; a rate's ``± SE`` may go to a second line of its own (narrow tables)."""
    value, sep, se = str(text).partition(" ± ")
    if not sep:
        return escape(text)
    return escape(value) + Markup(' <span class="se">') + escape("± " + se) + Markup("</span>")


def _num(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def comparison(runs: Sequence[Run], key: str, paper_index: int | None) -> dict[str, Any]:
    """A Table 1-style table: a row per run, a column per puzzle and Overall, then, greyed, the
    paper's published rows for the same setting (``published`` counts them)."""
    from comma_env.run.published import comparable, published_table, run_memory

    puzzles = ordered(p for run in runs for p in run.puzzles)
    rows = []
    for run in runs:
        per = run.results["puzzles"]
        cells = [pm(per[p][key], per[p][f"{key}_se"]) if p in per else "-" for p in puzzles]
        overall = run.results["overall"]
        rows.append([run.label, *cells, pm(overall.get(key), overall.get(f"{key}_se"), 2)])
    published: list[list[str]] = []
    paper = [r for r in runs if comparable(r.results)]
    if paper:
        published = published_table(puzzles, key, run_memory(paper[0].results))
    if paper_index is not None and any(is_random_run(r.results) and is_v1_protocol(r.results) for r in runs):
        published.append(v1_random_row(puzzles, paper_index))
    return {"header": ["Model (solver / expert)", *(title(p) for p in puzzles), "Overall"],
            "rows": rows + published, "published": len(published)}


def run_table(run: Run) -> dict[str, Any]:
    """Per-puzzle metrics of one run (the rows of results.md, transposed)."""
    per = run.results["puzzles"]
    header = ["Puzzle", "n", "PSR", "SR", "mistakes", "turns (paper: 10 if unsolved)", "tokens", "efficiency",
              "leak rate", "unsure", "errors"]
    rows = []
    for name, m in [*per.items(), ("overall", run.results["overall"])]:
        rows.append([title(name) if name != "overall" else "Overall", str(m["n"]), pm(m["psr"], m["psr_se"], 1),
                     pm(m["sr"], m["sr_se"], 1), _num(m["mistakes"], 2), _num(m["turns"], 2), _num(m["tokens"], 0),
                     _num(m["efficiency"], 3), pm(m["leak_rate"], m["leak_rate_se"], 1) if "leak_rate" in m else "",
                     _num(m["unsure_rate"], 1) if "unsure_rate" in m else "", str(m["errors"])])
    return {"header": header, "rows": rows}


def outcome(record: dict[str, Any]) -> str:
    if record.get("error"):
        return "error"
    return "success" if record.get("success") else "failure"


def episode_href(run: Run, record: dict[str, Any]) -> str:
    return f"episodes/{run.slug}/{slug(str(record.get('puzzle')))}-{int(record.get('seed') or 0)}.html"


def index_entry(run_index: int, run: Run, record: dict[str, Any], replayed: Replayed | None) -> dict[str, Any]:
    """One row of the embedded episode index (short keys: 10,000 rows stay small)."""
    played = record.get("turns_played", record.get("turns"))
    return {"r": run_index, "p": record.get("puzzle"), "s": int(record.get("seed") or 0), "o": outcome(record),
            "g": round(float(record.get("progress") or 0.0), 3), "m": int(record.get("mistakes") or 0),
            "t": played if played is not None else "", "e": record.get("end_reason") or "",
            "l": list(record.get("privacy_leaks") or []), "k": int(record.get("tokens") or 0),
            "x": 1 if replayed is not None and replayed.mismatch else 0, "h": episode_href(run, record)}


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
            "actions": list(zip(executed, outcomes, strict=False)),
            "executed": executed,
            "outcomes": outcomes,
            "mistake": not all(outcomes),
            "leaks": list(turn.get("leaks") or []),
            "expert": turn.get("expert_raw") or turn.get("expert"),
            "expert_tokens": turn.get("expert_tokens"),
            "progress": turn.get("progress"),
        })
    return out


def episode_page(templates: Environment, run: Run, record: dict[str, Any], replayed: Replayed,
                 previous: str | None, following: str | None) -> str:
    """The HTML of one episode page (image names relative to ``images/``)."""
    return templates.get_template("episode.html").render(
        run=run, record=record, replayed=replayed, turns=turns_view(record, replayed), outcome=outcome(record),
        previous=previous, next=following)


def safe_dir(root: Path, *parts: str) -> Path:
    """``root/parts...`` as a real folder inside `root`: a symlink found on the way is
    removed (it is inside the report folder) and replaced by a folder, never followed."""
    path = root
    for part in parts:
        path = path / part
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
        path.mkdir(exist_ok=True)
    return path


def prepare_target(target: Path) -> None:
    """Create the report folder; refuse one that is a symlink or a file."""
    if target.is_symlink():
        raise UnsafeFolder(f"report folder {target} is a symlink; name a real folder with --out")
    if target.exists() and not target.is_dir():
        raise UnsafeFolder(f"report folder {target} exists and is not a folder")
    target.mkdir(parents=True, exist_ok=True)


def write_file(path: Path, data: str | bytes) -> int:
    """Write atomically (a symlink at `path` is replaced, not followed); bytes written."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    write_atomic(path, raw)
    return len(raw)


def script_json(value: Any) -> str:
    """JSON that can sit inside ``<script>``: no ``<``, ``>`` or ``&`` survives, so no text a
    record holds (``<!--<script>``, ``</script>``) can end or reshape the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def report_page(templates: Environment, runs: Sequence[Run], index: list[dict[str, Any]],
                plots: Mapping[str, Path], pages: bool, folders: Sequence[str]) -> str:
    """The HTML of ``report.html``."""
    data = script_json({"runs": [r.label for r in runs], "episodes": index, "pages": pages})
    return templates.get_template("report.html").render(
        runs=runs, psr=comparison(runs, "psr", 0), sr=comparison(runs, "sr", 1),
        tables=[(run, run_table(run)) for run in runs],
        plots=[(f"plots/{p.name}", PLOTS[stem][1]) for stem, p in plots.items()],
        data=data, episodes=len(index), pages=pages, page_limit=STATIC_PAGE_LIMIT,
        serve_command=" ".join(["python -m comma_env.report", *map(shlex.quote, folders), "--serve"]),
        puzzles=ordered(str(e["p"]) for e in index), end_reasons=sorted({str(e["e"]) for e in index if e["e"]}))


def write_report(folders: Sequence[str | Path], out: str | Path | None = None, workers: int | None = None,
                 quiet: bool = False, pages: str = "auto", data_roots: Mapping[str, str] | None = None,
                 warn: Callable[[str], None] | None = None) -> ReportStats:
    """Build the report of `folders` into `out` (default ``<folder>/report``); `pages` is ``all``,
    ``none`` (served on demand) or ``auto`` (up to `STATIC_PAGE_LIMIT` episodes)."""
    if pages not in PAGE_MODES:
        raise ValueError(f"pages must be one of {', '.join(PAGE_MODES)}, got {pages!r}")
    started = time.perf_counter()
    warnings: list[str] = []

    def note(text: str) -> None:
        warnings.append(text)
        (warn or (lambda t: print(t, file=sys.stderr)))(text)

    runs = load_runs(list(folders), warn=note)
    target = Path(out) if out else runs[0].folder / "report" if len(runs) == 1 else runs[0].folder.parent / "report"
    prepare_target(target)
    assets = safe_dir(target, "assets")
    for name in ("report.css", "report.js"):
        write_file(assets / name, (HERE / "static" / name).read_bytes())
    plots = write_plots(runs, safe_dir(target, "plots"), warn=note)
    total = sum(len(r.records) for r in runs)
    write_pages = pages == "all" or (pages == "auto" and total <= STATIC_PAGE_LIMIT)
    templates = _templates()
    index: list[dict[str, Any]] = []
    mismatches = 0
    page_bytes = 0
    for run_index, run in enumerate(runs):
        if not write_pages:
            index += [index_entry(run_index, run, r, None) for r in run.records]
            continue
        replays = replay_all(run.records, safe_dir(target, "images"), workers=workers, data_roots=data_roots)
        folder = safe_dir(target, "episodes", run.slug)
        entries = [index_entry(run_index, run, r, x) for r, x in zip(run.records, replays, strict=True)]
        for i, (record, replayed) in enumerate(zip(run.records, replays, strict=True)):
            mismatches += 1 if replayed.mismatch else 0
            html = episode_page(templates, run, record, replayed, entries[i - 1]["h"] if i else None,
                                entries[i + 1]["h"] if i + 1 < len(entries) else None)
            page_bytes += write_file(folder / os.path.basename(entries[i]["h"]), html)
        index += entries
    html = report_page(templates, runs, index, plots, write_pages, [str(f) for f in folders])
    report = target / "report.html"
    write_file(report, html)
    image_dir = target / "images"
    images = [p for p in image_dir.glob("*.png")] if write_pages and image_dir.is_dir() else []
    stats = ReportStats(path=report, episodes=len(index), images=len(images),
                        image_bytes=sum(p.stat().st_size for p in images), index_bytes=report.stat().st_size,
                        episode_page_bytes=page_bytes, seconds=time.perf_counter() - started, mismatches=mismatches,
                        pages=write_pages, skipped=sum(1 for w in warnings if "skipping" in w), runs=runs)
    if not quiet:
        print(stats.describe())
    return stats
