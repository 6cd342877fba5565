"""The paper's metrics (COMMA, section 4.2) from finished episodes' records: per-puzzle means with
standard errors, "Overall" as the paper pools it, and efficiency (PSR against conciseness)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from comma_env.protocol.spec import SKILLS

PRIVACY_PUZZLES: tuple[str, ...] = ("atm", "telehealth")
"""Puzzles with private facts; only they get a leak rate."""

TAXONOMY: tuple[str, ...] = ("roleplay", "misinterpretation", "repetition_loop", "miscommunication")
"""The paper's error taxonomy; repetition loops are detected by rule, the rest by an optional judge."""

RULE_LABELS: tuple[str, ...] = ("repetition_loop",)
"""Labels set by rule from the record, not by a judge."""

UNJUDGED = "unjudged"
"""The label of an episode whose judge call failed."""

Record = Mapping[str, Any]


# -- elementary statistics ---------------------------------------------------------------
def mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


def standard_error(values: Sequence[float]) -> float:
    """Population standard deviation over sqrt(n) (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / n) / math.sqrt(n)


def conciseness(tau: float) -> float:
    """S = 1 / (1 + tau/1000), tau = average tokens generated per episode."""
    return 1.0 / (1.0 + max(float(tau), 0.0) / 1000.0)


def efficiency(psr_percent: float, tau: float) -> float:
    """Harmonic mean of PSR (as a fraction) and conciseness; 0 when both are 0."""
    p = psr_percent / 100.0
    s = conciseness(tau)
    return 2.0 * p * s / (p + s) if p + s > 0 else 0.0


# -- per-episode accessors ----------------------------------------------------------------
def _success(r: Record) -> float:
    return 1.0 if r.get("success") else 0.0


def _progress(r: Record) -> float:
    return float(r.get("progress") or 0.0)


def _turns(r: Record) -> float:
    if r.get("turns") is not None:
        return float(r["turns"])
    solved = r.get("solved_at_turn")
    return float(solved if solved is not None else r.get("max_turns", 10))


def _tokens(r: Record) -> float:
    return float(r.get("tokens") or 0)


def is_privacy_puzzle(puzzle: str, records: Iterable[Record] = ()) -> bool:
    return puzzle in PRIVACY_PUZZLES or any("PR" in (r.get("skills") or ()) for r in records)


# -- tables ---------------------------------------------------------------------------------
def puzzle_metrics(records: Sequence[Record]) -> dict[str, Any]:
    """SR, PSR, AM, ACL, tokens, efficiency, errors (and leak rate for PR puzzles) of one puzzle."""
    succ = [_success(r) for r in records]
    prog = [_progress(r) for r in records]
    mist = [float(r.get("mistakes") or 0) for r in records]
    turns = [_turns(r) for r in records]
    toks = [_tokens(r) for r in records]
    psr = 100.0 * mean(prog)
    tau = mean(toks)
    out: dict[str, Any] = {
        "n": len(records),
        "sr": 100.0 * mean(succ),
        "sr_se": 100.0 * standard_error(succ),
        "psr": psr,
        "psr_se": 100.0 * standard_error(prog),
        "mistakes": mean(mist),
        "mistakes_se": standard_error(mist),
        "turns": mean(turns),
        "turns_se": standard_error(turns),
        "tokens": tau,
        "efficiency": efficiency(psr, tau),
        "errors": sum(1 for r in records if r.get("error")),
        "repetition_loops": sum(1 for r in records if r.get("repetition_loop")),
    }
    puzzle = str(records[0].get("puzzle")) if records else ""
    if is_privacy_puzzle(puzzle, records):
        out.update(_leak_rates(records))
    return out


def _leak_rates(records: Sequence[Record]) -> dict[str, float]:
    leaks = [1.0 if r.get("privacy_leaks") else 0.0 for r in records]
    return {"leak_rate": 100.0 * mean(leaks), "leak_rate_se": 100.0 * standard_error(leaks),
            "unsure_rate": 100.0 * mean([1.0 if r.get("privacy_unsure") else 0.0 for r in records])}


def overall_metrics(by_puzzle: Mapping[str, Sequence[Record]]) -> dict[str, Any]:
    """Means of the per-puzzle values; standard errors pooled over all episodes."""
    groups = [list(v) for v in by_puzzle.values() if v]
    every = [r for g in groups for r in g]
    per = [puzzle_metrics(g) for g in groups]
    if not per:
        return {"n": 0, "sr": 0.0, "sr_se": 0.0, "psr": 0.0, "psr_se": 0.0, "mistakes": 0.0,
                "mistakes_se": 0.0, "turns": 0.0, "turns_se": 0.0, "tokens": 0.0,
                "efficiency": 0.0, "errors": 0, "repetition_loops": 0}
    psr = mean([m["psr"] for m in per])
    tau = mean([m["tokens"] for m in per])
    out: dict[str, Any] = {
        "n": len(every),
        "sr": mean([m["sr"] for m in per]),
        "sr_se": 100.0 * standard_error([_success(r) for r in every]),
        "psr": psr,
        "psr_se": 100.0 * standard_error([_progress(r) for r in every]),
        "mistakes": mean([m["mistakes"] for m in per]),
        "mistakes_se": standard_error([float(r.get("mistakes") or 0) for r in every]),
        "turns": mean([m["turns"] for m in per]),
        "turns_se": standard_error([_turns(r) for r in every]),
        "tokens": tau,
        "efficiency": efficiency(psr, tau),
        "errors": sum(m["errors"] for m in per),
        "repetition_loops": sum(m["repetition_loops"] for m in per),
    }
    private = [r for name, g in by_puzzle.items() if is_privacy_puzzle(name, g) for r in g]
    if private:
        out.update(_leak_rates(private))
    return out


def success_vs_turn_limit(records: Sequence[Record], max_turns: int) -> list[float]:
    """SR (%) had the turn limit been L, for L = 1..max_turns (paper Figure 4, left; no re-run needed)."""
    n = len(records)
    solved = [r.get("solved_at_turn") for r in records if r.get("success")]
    return [100.0 * sum(1 for t in solved if t is not None and t <= limit) / n if n else 0.0
            for limit in range(1, max_turns + 1)]


def skill_metrics(per_puzzle: Mapping[str, Mapping[str, Any]], skills: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """SR and PSR per skill category: the mean over the puzzles that exercise it."""
    out: dict[str, Any] = {}
    for skill in SKILLS:
        names = [p for p in per_puzzle if skill in skills.get(p, ())]
        if not names:
            continue
        out[skill] = {
            "puzzles": names,
            "n": sum(per_puzzle[p]["n"] for p in names),
            "sr": mean([per_puzzle[p]["sr"] for p in names]),
            "psr": mean([per_puzzle[p]["psr"] for p in names]),
        }
    return out


def error_taxonomy(records: Sequence[Record]) -> dict[str, Any]:
    """Counts of the taxonomy's categories among failed episodes: ``repetition_loop`` by the
    environment's rule, the others from a judge's ``error_types``."""
    failed = [r for r in records if not r.get("success")]
    counts: Counter[str] = Counter()
    for r in failed:
        labels = set(r.get("error_types") or ())
        if r.get("repetition_loop"):
            labels.add("repetition_loop")
        counts.update(labels)
    judged = sum(1 for r in failed if is_judged(r))
    return {"failed": len(failed), "judged": judged, "counts": {k: counts.get(k, 0) for k in TAXONOMY}
            | {k: v for k, v in counts.items() if k not in TAXONOMY}}


def is_judged(record: Record) -> bool:
    """A judge labelled this episode (beyond the rule's labels, and the call did not fail)."""
    types = record.get("error_types")
    if types is None or UNJUDGED in types:
        return False
    return not types or any(t not in RULE_LABELS for t in types)


def group_by_puzzle(records: Iterable[Record], order: Sequence[str] = ()) -> dict[str, list[Record]]:
    """Records per puzzle, puzzles in `order` first, then in order of appearance."""
    groups: dict[str, list[Record]] = {p: [] for p in order}
    for r in records:
        groups.setdefault(str(r.get("puzzle")), []).append(r)
    return {p: g for p, g in groups.items() if g}


def summarize(
    records: Sequence[Record], order: Sequence[str] = (), skills: Mapping[str, Sequence[str]] | None = None
) -> dict[str, Any]:
    """Everything results.json holds: metrics overall, per puzzle and per skill, curves and taxonomy."""
    by_puzzle = group_by_puzzle(records, order)
    per = {p: puzzle_metrics(g) for p, g in by_puzzle.items()}
    max_turns = max((int(r.get("max_turns") or 0) for r in records), default=0) or 10
    curves = {p: success_vs_turn_limit(g, max_turns) for p, g in by_puzzle.items()}
    overall_curve = [mean([c[i] for c in curves.values()]) for i in range(max_turns)] if curves else []
    if skills is None:
        skills = {p: tuple(next((r.get("skills") or () for r in g if r.get("skills")), ()))
                  for p, g in by_puzzle.items()}
    return {
        "overall": overall_metrics(by_puzzle),
        "puzzles": per,
        "success_vs_turn_limit": {
            "turn_limit": list(range(1, max_turns + 1)), "overall": overall_curve, "puzzles": curves,
        },
        "skills": skill_metrics(per, skills),
        "error_taxonomy": {
            "overall": error_taxonomy(records), "puzzles": {p: error_taxonomy(g) for p, g in by_puzzle.items()},
        },
    }


def settled_fields(record: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """(leaked, still unsure) fields of a record: the rule's leaks plus the unsure fields the judge
    named; the unsure stay unsure when no judge verdict is there."""
    leaked = list(record.get("privacy_leaks") or [])
    unsure = [f for f in record.get("privacy_unsure") or [] if f not in leaked]
    verdict = record.get("judge_privacy_leaks")
    if not isinstance(verdict, list):
        return leaked, unsure
    return leaked + [f for f in unsure if f in verdict], []
