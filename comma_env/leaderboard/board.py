"""The leaderboard as data: one `Entry` per submission, ranked, and the pairwise comparisons
(verified entries under the paper's protocol ranked together, others listed apart)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from comma_env.leaderboard.protocol import Protocol, check_protocol
from comma_env.leaderboard.stats import interval, paired, scores, shared_ranks
from comma_env.leaderboard.submission import Submission
from comma_env.leaderboard.verify import Check, check_records, rescored
from comma_env.web.runs import slug

SLUG_CHARS = 60


@dataclass
class Entry:
    """One submission, replayed and scored."""

    submission: Submission
    slug: str
    checks: list[Check]
    records: list[dict[str, Any]]  # the submission's records with the replayed outcomes
    protocol: Protocol
    results: dict[str, Any]  # `stats.scores` of `records`
    rank: int | None = None

    @property
    def name(self) -> str:
        return self.submission.name

    @property
    def differing(self) -> list[tuple[dict[str, Any], Check]]:
        """The records whose replay differs, with their checks."""
        return [(r, c) for r, c in zip(self.records, self.checks, strict=True) if c.differences]

    @property
    def mismatches(self) -> int:
        return sum(1 for c in self.checks if c.differences)

    @property
    def verified(self) -> bool:
        return bool(self.records) and not self.mismatches and not self.submission.problems

    @property
    def models(self) -> str:
        solver, expert = self.protocol.settings.get("solver_model"), self.protocol.settings.get("expert_model")
        return str(solver) if solver == expert else f"{solver} / {expert}"

    @property
    def status(self) -> str:
        """``ranked``, ``other settings`` or ``not verified``."""
        if not self.verified:
            return "not verified"
        return "ranked" if self.protocol.paper else "other settings"


@dataclass
class Board:
    """Every entry in display order (ranked, other settings, not verified) and the
    comparisons of verified entries that share episodes, keyed by their slugs."""

    entries: list[Entry]
    comparisons: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def with_status(self, status: str) -> list[Entry]:
        return [e for e in self.entries if e.status == status]

    @property
    def compared(self) -> list[Entry]:
        return [e for e in self.entries if e.verified]


def unique_slugs(names: Sequence[str]) -> list[str]:
    """File-name-safe ids, one per name, unique (``name``, ``name-2``, ...)."""
    out: list[str] = []
    for name in names:
        base = slug(name)[:SLUG_CHARS] or "entry"
        candidate, count = base, 1
        while candidate in out:
            count += 1
            candidate = f"{base}-{count}"
        out.append(candidate)
    return out


def build_entries(submissions: Sequence[Submission], workers: int | None = None,
                  data_roots: Mapping[str, str] | None = None) -> list[Entry]:
    """Replay every submission's records (all in one pool of workers) and score them."""
    everything = [r for s in submissions for r in s.records]
    checks = check_records(everything, workers=workers, data_roots=data_roots)
    entries, start = [], 0
    for submission, name in zip(submissions, unique_slugs([s.name for s in submissions]), strict=True):
        mine = checks[start:start + len(submission.records)]
        start += len(submission.records)
        records = [rescored(r, c) for r, c in zip(submission.records, mine, strict=True)]
        entries.append(Entry(submission=submission, slug=name, checks=mine, records=records,
                             protocol=check_protocol(submission.records, submission.provenance),
                             results=scores(records)))
    return entries


def overall(entry: Entry, metric: str = "psr") -> tuple[float, float]:
    """The entry's overall value and standard error of `metric` (0 for no episode)."""
    result = entry.results["overall"]
    return float(result.get(metric) or 0.0), float(result.get(f"{metric}_se") or 0.0)


def build_board(entries: Sequence[Entry]) -> Board:
    """Rank the verified entries of the paper's protocol and compare every verified pair."""
    ranked = sorted((e for e in entries if e.status == "ranked"), key=lambda e: (-overall(e)[0], -overall(e, "sr")[0]))
    for entry, rank in zip(ranked, shared_ranks([interval(*overall(e)) for e in ranked]), strict=True):
        entry.rank = rank
    rest = sorted((e for e in entries if e.status == "other settings"), key=lambda e: -overall(e)[0])
    board = Board(entries=[*ranked, *rest, *(e for e in entries if e.status == "not verified")])
    verified = board.compared
    for i, a in enumerate(verified):
        for b in verified[i + 1:]:
            result = paired(a.records, b.records)
            if result["shared"]:
                board.comparisons[(a.slug, b.slug)] = result
    return board
