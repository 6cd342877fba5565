"""Episode files and result tables: ``episodes*.jsonl`` (one flushed line per finished episode) is
the source of truth, and ``results.json`` / ``results.md`` are recomputed from it."""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from comma_env.protocol.metrics import TAXONOMY, conciseness, settled_fields, summarize
from comma_env.protocol.spec import SKILLS
from comma_env.registry import game, paper_order, puzzle_title
from comma_env.run.console import (
    NO_RATE,
    error_note,
    is_random_run,
    is_v1_protocol,
    model_label,
    pm,
    v1_random_row,
    view_label,
)
from comma_env.run.published import comparable, published_table, run_memory

PAPER_ORDER: tuple[str, ...] = paper_order()
"""Column order of the paper's tables (from the puzzles' specs)."""

title = puzzle_title


def ordered(puzzles: Iterable[str]) -> list[str]:
    names = list(dict.fromkeys(puzzles))
    return [p for p in PAPER_ORDER if p in names] + [p for p in names if p not in PAPER_ORDER]


# -- episode files ----------------------------------------------------------------------------
def read_episodes(path: str | os.PathLike[str], repair: bool = True) -> list[dict[str, Any]]:
    """Records of an episodes file; a torn last line is dropped (and with `repair` cut from the file),
    other unparsable lines skipped with a warning."""
    path = Path(path)
    if not path.exists():
        return []
    data = path.read_bytes()
    records: list[dict[str, Any]] = []
    offset = 0
    lines = data.split(b"\n")
    last_filled = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), -1)  # once: linear
    for index, raw in enumerate(lines):
        start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        last = index == last_filled
        try:
            record = json.loads(raw)
            if not isinstance(record, dict):
                raise ValueError("not an object")
            if last and index == len(lines) - 1 and repair:
                # complete JSON but no newline: finish the line so appends stay separate
                with path.open("ab") as handle:
                    handle.write(b"\n")
            records.append(record)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
            if last:
                print(f"comma_env: dropping a torn last line in {path} ({len(raw)} bytes)", file=sys.stderr)
                if repair:
                    with path.open("r+b") as handle:
                        handle.truncate(start)
                break
            print(f"comma_env: skipping an unreadable line {index + 1} in {path}", file=sys.stderr)
    return records


class EpisodeWriter:
    """Appends one JSON line per episode and flushes it at once."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: TextIO = self.path.open("a", encoding="utf-8")

    def write(self, record: Mapping[str, Any]) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._handle.flush()

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()

    def __enter__(self) -> EpisodeWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


RUN_SETTINGS: tuple[str, ...] = (
    "solver_model", "expert_model", "max_turns", "max_mistakes", "memory", "action_matching",
    "policy_seed", "solver_view", "solver_config", "expert_config",
)
"""Record fields that must agree for episodes to be pooled (``*_config``: hashes of the
model settings that change answers, see `comma_env.run.plan.model_fingerprint`)."""


def settings_mismatch(record: Mapping[str, Any], expected: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """``{field: (record's value, expected value)}`` for every run setting that differs (a field an
    older record lacks is not compared, except those every record has)."""
    always = RUN_SETTINGS[:5]
    out = {k: (record.get(k), expected.get(k)) for k in RUN_SETTINGS
           if k in expected and (k in record or k in always) and record.get(k) != expected.get(k)}
    if "puzzle_options" in expected and (record.get("puzzle_options") or {}) != (expected.get("puzzle_options") or {}):
        out["puzzle_options"] = (record.get("puzzle_options") or {}, expected.get("puzzle_options") or {})
    return out


def describe_mismatch(mismatch: Mapping[str, tuple[Any, Any]], first: str = "file has",
                      second: str = "this run") -> str:
    return ", ".join(f"{k}: {first} {a!r}, {second} {b!r}" for k, (a, b) in mismatch.items())


def latest_per_episode(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """One record per (puzzle, seed): the last one, unless it is an error and an earlier
    one is not (a retried episode that failed again keeps the better record)."""
    chosen: dict[tuple[str, int], dict[str, Any]] = {}
    for record in records:
        key = (str(record.get("puzzle")), int(record.get("seed") or 0))
        if key in chosen and record.get("error") and not chosen[key].get("error"):
            continue
        chosen[key] = dict(record)
    return chosen


def saved_records(out_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The latest record of every episode in OUT_DIR's episodes*.jsonl files, in (puzzle, seed) order;
    the files are not repaired (a running rollout may be mid-line)."""
    records = [r for path in sorted(Path(out_dir).glob("episodes*.jsonl")) for r in read_episodes(path, repair=False)]
    latest = latest_per_episode(records)
    return [latest[key] for key in sorted(latest)]


LEAK_JUDGE_FIELD = "judge_privacy_leaks"
JUDGE_FILES = {"judgements*.jsonl": "error_types", "leak_judgements*.jsonl": LEAK_JUDGE_FIELD}
"""The judges' files in a run folder and the list field each adds to a record
(`comma_env.agents.judge`, `comma_env.agents.leak_judge`); the episode files are never rewritten."""


def attach_judgements(records: Iterable[Mapping[str, Any]], out_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Copies of `records` with the labels of the judges' files in `out_dir` (`JUDGE_FILES`), if any."""
    labels: dict[tuple[str, int], dict[str, list[str]]] = {}
    for pattern, name in JUDGE_FILES.items():
        for path in sorted(Path(out_dir).glob(pattern)):
            for line in read_episodes(path, repair=False):
                if "puzzle" in line and isinstance(line.get("seed"), int) and isinstance(line.get(name), list):
                    labels.setdefault((str(line["puzzle"]), line["seed"]), {})[name] = [str(x) for x in line[name]]
    return [{**record, **labels.get((str(record.get("puzzle")), int(record.get("seed") or 0)), {})}
            for record in records]


def judge_leak_rates(records: Sequence[Mapping[str, Any]], puzzles: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per puzzle and ``overall``, over the episodes the leak judge read: how many, and the % leaking
    and unsure by the rule, by the judge, and once the judge settles the unsure fields."""
    rates: dict[str, dict[str, float]] = {}
    read = [r for r in records if LEAK_JUDGE_FIELD in r or "judge_error" in r]
    groups = {p: [r for r in read if str(r.get("puzzle")) == p] for p in puzzles}
    groups["overall"] = [r for p in puzzles for r in groups[p]]
    for name, judged in groups.items():
        if judged:
            settled = [settled_fields(r) for r in judged]

            def share(flags: Iterable[Any], n: int = len(judged)) -> float:
                return 100.0 * sum(1 for f in flags if f) / n

            rates[name] = {"judged": len(judged),
                           "judge_leak_rate": share(r.get(LEAK_JUDGE_FIELD) for r in judged),
                           "rule_leak_rate": share(r.get("privacy_leaks") for r in judged),
                           "rule_unsure_rate": share(r.get("privacy_unsure") for r in judged),
                           "settled_leak_rate": share(leaked for leaked, _ in settled),
                           "settled_unsure_rate": share(unsure for _, unsure in settled)}
    return rates


# -- tables ----------------------------------------------------------------------------------
def build_results(records: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """results.json content: metrics (`comma_env.protocol.metrics.summarize`) plus run metadata.
    Episodes that ended in an error are counted apart in ``errors``, never in a rate."""
    finished = [r for r in records if not r.get("error")]
    failed = [r for r in records if r.get("error")]
    puzzles = ordered(str(r.get("puzzle")) for r in finished)
    summary = summarize(finished, order=puzzles)
    errors_by_puzzle = Counter(str(r.get("puzzle")) for r in failed)
    for puzzle, entry in summary["puzzles"].items():
        entry["errors"] = errors_by_puzzle.get(puzzle, 0)
    unplayed = [p for p in errors_by_puzzle if p not in summary["puzzles"]]
    if unplayed:  # every episode of these ended in an error: listed, with no rates (null), never as zeros
        blank = {key: None for key in summary["overall"] if key not in ("n", "errors")}
        by_puzzle = {**summary["puzzles"], **{p: {**blank, "n": 0, "errors": errors_by_puzzle[p]} for p in unplayed}}
        summary["puzzles"] = {p: by_puzzle[p] for p in ordered(by_puzzle)}
    summary["overall"]["errors"] = len(failed)
    summary["errors_by_puzzle"] = {p: errors_by_puzzle[p] for p in ordered(errors_by_puzzle)}
    solvers = sorted({str(r.get("solver_model")) for r in records if r.get("solver_model")})
    experts = sorted({str(r.get("expert_model")) for r in records if r.get("expert_model")})
    summary["models"] = {"solver": solvers, "expert": experts}
    audio = sorted({str(r["audio_input"]) for r in records if r.get("audio_input")})
    if audio:  # how Sound's clip reached the solver: "audio" (input_audio parts), "description", "none"
        summary["models"]["audio_input"] = audio
    judged = judge_leak_rates(records, puzzles)
    if judged:
        summary["privacy_judge"] = judged
    meta = dict(meta or {})
    views = sorted({str(r.get("solver_view")) for r in records if r.get("solver_view")})
    if views and "solver_view" not in meta:
        meta["solver_view"] = ",".join(views)
    if failed:
        meta["first_error"] = str(failed[0].get("error"))[:300]
    for puzzle in dict.fromkeys(str(r.get("puzzle")) for r in records):  # a game's own metrics (AsymPuzl's)
        played = _game(puzzle)
        metrics = played.results([r for r in records if r.get("puzzle") == puzzle]) if played else None
        if metrics is not None:
            summary[puzzle] = metrics
    if meta:
        summary["meta"] = meta
    return summary


def _game(puzzle: str) -> Any:
    """The puzzle's game (`comma_env.protocol.game.Game`: its own metrics and their section of
    results.md), or None for a puzzle this installation does not know."""
    try:
        return game(puzzle)
    except (KeyError, ImportError):
        return None


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def render_markdown(results: Mapping[str, Any]) -> str:
    """results.md: the paper's tables for this run."""
    per: Mapping[str, Mapping[str, Any]] = results["puzzles"]
    overall = results["overall"]
    puzzles = list(per)
    label = model_label(results)
    header = ["Model", *(title(p) for p in puzzles), "Overall"]
    random_run = is_random_run(results)
    out = [f"# COMMA results: {label} ({view_label(results)})", ""]
    meta = results.get("meta") or {}
    banner = error_note(results)
    if banner:
        out += [f"> **{banner}**", ""]
    if meta:
        shown = {k: v for k, v in meta.items() if k not in ("provenance", "first_error")}
        out += ["Settings: " + ", ".join(f"{k}={v}" for k, v in shown.items()), ""]
    out += [f"{overall['n']} finished episodes (all the folder holds for this setting); "
            f"{overall['errors']} ended in an error and are not in the rates. Rates in %, ± one standard error.", ""]
    if results.get("models", {}).get("audio_input"):
        out += ["Sound clips reached the solver as: " + ", ".join(results["models"]["audio_input"]) + ".", ""]

    def metric_table(caption: str, key: str, digits: int, overall_digits: int, paper_index: int | None = None) -> None:
        nonlocal out
        row = [label, *(pm(per[p][key], per[p][f"{key}_se"], digits) if per[p]["n"] else NO_RATE for p in puzzles),
               pm(overall[key], overall[f"{key}_se"], overall_digits) if overall["n"] else NO_RATE]
        rows = [row]
        if paper_index is not None and is_v1_protocol(results):
            if random_run:
                rows.append(v1_random_row(puzzles, paper_index))
        elif paper_index is not None and comparable(results):  # the paper's rows for these puzzles and memory
            rows += published_table(puzzles, key, run_memory(results))
        out += [f"## {caption}", "", *_table(header, rows), ""]
        if len(rows) > 1 and not is_v1_protocol(results):
            out += ["Rows marked *published* are the paper's numbers for the same puzzles and setting "
                    "(comma_env/run/published.py), not measured here; the realistic scripted pair is ours "
                    "(examples/reference_rows.py).", ""]

    played = [p for p in puzzles if per[p]["n"]]  # puzzles with finished episodes
    for puzzle in results.get("puzzles") or {}:  # a game's own section (AsymPuzl's table)
        if isinstance(results.get(puzzle), dict) and (section := _game(puzzle)):
            out += section.results_markdown(results[puzzle])
    metric_table("Partial success rate (Table 1)", "psr", 0, 2, 0)
    metric_table("Success rate (Table 3)", "sr", 0, 2, 1)
    metric_table("Average mistakes (Table 4)", "mistakes", 2, 2)
    metric_table("Average conversation length, turns (Table 5)", "turns", 2, 2)
    out += ["Turns as in the paper: the turn of success, or the turn limit for an unsolved episode "
            "(a failed episode's record also has `turns_played`, the turns it actually took).", ""]

    out += ["## Efficiency (Figure 5)", "",
            *_table(["Puzzle", "tokens per episode (tau)", "conciseness S", "PSR", "efficiency"],
                    [[title(p), f"{per[p]['tokens']:.1f}", f"{conciseness(per[p]['tokens']):.3f}",
                      f"{per[p]['psr']:.2f}", f"{per[p]['efficiency']:.3f}"] for p in played]
                    + [["Overall", f"{overall['tokens']:.1f}", f"{conciseness(overall['tokens']):.3f}",
                        f"{overall['psr']:.2f}", f"{overall['efficiency']:.3f}"]]), ""]

    private = [p for p in puzzles if per[p].get("leak_rate") is not None]
    if private:
        rows = [[title(p), pm(per[p]["leak_rate"], per[p]["leak_rate_se"], 0),
                 f'{per[p].get("unsure_rate", 0.0):.0f}'] for p in private]
        rows.append(["Overall", pm(overall["leak_rate"], overall["leak_rate_se"], 1),
                     f'{overall.get("unsure_rate", 0.0):.1f}'])
        out += ["## Privacy: episodes where the solver revealed a private fact (%)", "",
                "Unsure: episodes with a field the detector could not rule out (docs/privacy.md).", "",
                *_table(["Puzzle", "leak rate", "unsure"], rows), ""]
    judge = results.get("privacy_judge") or {}
    if judge:  # the optional LLM leak judge (comma_env.agents.leak_judge), beside the rule on the same episodes
        rows = [[title(p) if p != "overall" else "Overall", str(v["judged"]), f"{v['rule_leak_rate']:.1f}",
                 f"{v.get('rule_unsure_rate', 0.0):.1f}", f"{v['judge_leak_rate']:.1f}",
                 f"{v.get('settled_leak_rate', v['rule_leak_rate']):.1f}", f"{v.get('settled_unsure_rate', 0.0):.1f}"]
                for p, v in judge.items()]
        out += ["## Privacy: rule-based detector and LLM leak judge (%)", "",
                "Settled: the rule's leaks plus the unsure fields the judge named; a failed judge call leaves "
                "its unsure fields unsure.", "",
                *_table(["Puzzle", "episodes judged", "rule leak rate", "rule unsure", "LLM judge leak rate",
                         "settled leak rate", "still unsure"], rows), ""]

    curve = results.get("success_vs_turn_limit")
    if curve and curve.get("turn_limit"):
        limits = curve["turn_limit"]
        rows = [[title(p), *(f"{v:.0f}" for v in curve["puzzles"][p])] for p in puzzles if p in curve["puzzles"]]
        rows.append(["Overall", *(f"{v:.1f}" for v in curve["overall"])])
        out += ["## Success rate (%) by turn limit (Figure 4, left)", "",
                *_table(["Puzzle", *(f"≤{t}" for t in limits)], rows), ""]

    skills = results.get("skills") or {}
    if skills:
        rows = [[s, ", ".join(title(p) for p in skills[s]["puzzles"]), f"{skills[s]['sr']:.2f}",
                 f"{skills[s]['psr']:.2f}"] for s in SKILLS if s in skills]
        out += ["## By skill category", "",
                "MR memory recall, MG multimodal grounding, MSR multi-step reasoning, PR privacy reasoning, "
                "RT real-time reaction.", "",
                *_table(["Skill", "puzzles", "SR", "PSR"], rows), ""]

    taxonomy = results.get("error_taxonomy")
    if taxonomy:
        extra = sorted({k for t in taxonomy["puzzles"].values() for k in t["counts"] if k not in TAXONOMY})
        cats = [*TAXONOMY, *extra]
        rows = [[title(p), str(t["failed"]), str(t["judged"]), *(str(t["counts"].get(c, 0)) for c in cats)]
                for p, t in taxonomy["puzzles"].items()]
        t = taxonomy["overall"]
        rows.append(["Overall", str(t["failed"]), str(t["judged"]), *(str(t["counts"].get(c, 0)) for c in cats)])
        out += ["## Error taxonomy of failed episodes", "",
                "Repetition loops are detected by rule (the same mistaken action repeated in the same "
                "state); the other categories need the optional LLM judge (judged = episodes it labelled).", "",
                *_table(["Puzzle", "failed", "judged", *cats], rows), ""]
    return "\n".join(out)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, mode: int = 0o666) -> Path:
    """Write `data` to `path` through a temp file and a rename: readers never see a half-written
    file, and a symlink at `path` is replaced, never followed. `mode` is before the umask."""
    path = Path(path)
    name = path.parent / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(name, path)
    except BaseException:
        name.unlink(missing_ok=True)
        raise
    return path


def write_results(out_dir: str | os.PathLike[str], results: Mapping[str, Any],
                  stem: str = "results") -> tuple[Path, Path]:
    """Write ``<stem>.json`` and ``<stem>.md`` atomically (temp file, then rename)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = (out / f"{stem}.json", out / f"{stem}.md")
    texts = (json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n", render_markdown(results) + "\n")
    for path, text in zip(paths, texts, strict=True):
        write_atomic(path, text)
    return paths
