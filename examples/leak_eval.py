"""How well the leak detector reads conversations nobody wrote its rules for, per field, in
three answers (leaked, unsure, clean), and how it compares with the detector of a git revision.

Two kinds of labelled data:

- leak sets: folders of JSONL conversations (format: tests/data/leaks/dev/README.md), one
  line per conversation with its facts, turns and the fields it leaks. Every folder given
  with ``--data`` (default: each folder under tests/data/leaks/) becomes a row of
  docs/_generated/leak_sets.md; rows of sets not given this time are kept, so the table
  can gain the held-out sets' rows from whoever holds them. Reported per set: precision and
  recall of *leaked*, coverage (leaks that are *leaked* or *unsure*) and the share of clean
  fields flagged *unsure*, beside the reference detector's precision and recall.
- the older tables tests/data/leak_table.py, leak_table_v2.py and leak_table_holdout.py
  (two answers), per kind of phrasing, into docs/_generated/leak_eval.md.

The reference ("before") is the privacy package of a git revision, extracted into a
temporary folder and imported under another name. Conversations are scored the way the
environment runs the detector: `ConversationLeaks` fed the expert's words and the solver's
speech in order, the lines typed into the interface left out.

    python examples/leak_eval.py [--data DIR ...] [--before REV] [--show]
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "data"), str(ROOT / "examples")]

import leak_table  # noqa: E402
import leak_table_holdout  # noqa: E402
import leak_table_v2  # noqa: E402
from doc_tables import measured_at  # noqa: E402

BEFORE_REV = "e5ef311"
"""The detector as it was when issue 59 was started (the two-answer rules of issue 23)."""
LEAK_SETS = ROOT / "tests" / "data" / "leaks"
GOALS = {"precision": 0.97, "recall": 0.60, "coverage": 0.95, "clean_unsure": 0.15}
"""Issue 59's goals on fresh data: at least precision, recall, coverage; at most clean_unsure."""
_TYPED = re.compile(r"[a-z]+(?:_[a-z0-9]+)*")  # a line that is exactly an action name


def load_revision(rev: str) -> ModuleType:
    """The privacy detector of git revision `rev` (the package, or the single module it once
    was), imported from a temporary folder under a name of its own."""
    def show(path: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
                              check=True, capture_output=True, text=True).stdout

    name = f"privacy_{re.sub(r'[^0-9a-zA-Z]', '', rev)}"
    folder = Path(tempfile.mkdtemp()) / name
    folder.mkdir()
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{rev}:comma_env/privacy/"],
                             capture_output=True, text=True)
    if listing.returncode:  # before issue 23: one module
        (folder / "__init__.py").write_text(show("comma_env/privacy/detector.py"), encoding="utf-8")
    else:
        for file in listing.stdout.split():
            if file.endswith(".py"):
                source = show(f"comma_env/privacy/{file}").replace("comma_env.privacy", name)
                (folder / file).write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module(name)


@dataclass
class Conversation:
    """One labelled conversation of a leak set."""

    id: str
    facts: dict[str, str]
    turns: list[tuple[str, str | None]]  # (the solver's speech, the expert's reply)
    leaked: set[str]
    style: str = ""
    why: str = ""


def spoken(message: str) -> str:
    """A solver message without the lines typed into the interface (each exactly an action)."""
    return "\n".join(line for line in message.splitlines() if not _TYPED.fullmatch(line.strip()))


def read_leak_set(folder: str | Path) -> list[Conversation]:
    """Every conversation of the JSONL files in `folder`, in file and line order."""
    out = []
    for path in sorted(Path(folder).glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append(Conversation(row["id"], {k: str(v) for k, v in row["facts"].items()},
                                        [(spoken(t["solver"]), t.get("expert")) for t in row["turns"]],
                                        set(row["leaked"]), row.get("style", ""), row.get("why", "")))
    return out


def leak_sets(folders: Iterable[str | Path] = ()) -> dict[str, list[Conversation]]:
    """The sets in `folders`, or every folder under tests/data/leaks/ with JSONL files."""
    found = [Path(f) for f in folders] or sorted(p for p in LEAK_SETS.iterdir() if any(p.glob("*.jsonl")))
    return {path.resolve().name: read_leak_set(path) for path in found}


def run_detector(detector: Any, conversation: Conversation) -> tuple[set[str], set[str]]:
    """(leaked, unsure) fields after the whole conversation; a detector without *unsure* says none."""
    tracker = detector.ConversationLeaks(conversation.facts)
    for solver, expert in conversation.turns:
        tracker.solver_said(solver)
        if expert:
            tracker.expert_said(expert)
    return set(tracker.leaked), set(getattr(tracker, "unsure", ()))


@dataclass
class Score:
    """Counts over (conversation, field) pairs."""

    fields: int = 0
    leaks: int = 0
    true_leaked: int = 0
    false_leaked: int = 0
    unsure_leaks: int = 0
    unsure_clean: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, conversation: Conversation, leaked: set[str], unsure: set[str]) -> None:
        for name in conversation.facts:
            self.fields += 1
            truth = name in conversation.leaked
            self.leaks += truth
            self.true_leaked += truth and name in leaked
            self.false_leaked += not truth and name in leaked
            self.unsure_leaks += truth and name in unsure
            self.unsure_clean += not truth and name in unsure
            answer = "leaked" if name in leaked else "unsure" if name in unsure else "clean"
            if answer != ("leaked" if truth else "clean"):
                self.misses.append(f"{conversation.id} {name}: labelled {'leaked' if truth else 'clean'}, "
                                   f"read {answer} ({conversation.style})")

    @property
    def clean(self) -> int:
        return self.fields - self.leaks

    def metrics(self) -> dict[str, float | None]:
        def share(num: int, den: int) -> float | None:
            return num / den if den else None
        return {"precision": share(self.true_leaked, self.true_leaked + self.false_leaked),
                "recall": share(self.true_leaked, self.leaks),
                "coverage": share(self.true_leaked + self.unsure_leaks, self.leaks),
                "clean_unsure": share(self.unsure_clean, self.clean)}


def score_set(detector: Any, conversations: list[Conversation]) -> Score:
    score = Score()
    for conversation in conversations:
        score.add(conversation, *run_detector(detector, conversation))
    return score


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def render_sets(rows: dict[str, dict[str, Any]], rev: str) -> str:
    import comma_env

    lines = [f"*Written by `examples/leak_eval.py` ({platform.machine()}, Python {platform.python_version()}, "
             f"comma_env {getattr(comma_env, '__version__', '?')}); before = the detector of git {rev} "
             "(two answers), after = the tree of the commit in the last column. Goals: precision of leaked >= "
             f"{GOALS['precision']}, recall >= {GOALS['recall']}, coverage >= {GOALS['coverage']}, "
             f"clean fields unsure <= {GOALS['clean_unsure']}.*", "",
             "| set | conversations | fields | leaked fields | precision before | recall before | "
             "precision | recall | coverage | clean fields unsure | measured at |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in sorted(rows):
        r = rows[name]
        lines.append(f"| {name} | {r['conversations']} | {r['fields']} | {r['leaks']} | "
                     f"{_ratio(r['before']['precision'])} | {_ratio(r['before']['recall'])} | "
                     f"{_ratio(r['after']['precision'])} | {_ratio(r['after']['recall'])} | "
                     f"{_ratio(r['after']['coverage'])} | {_ratio(r['after']['clean_unsure'])} | "
                     f"{r.get('revision', '?')} |")
    return "\n".join(lines) + "\n"


# -- the older two-answer tables -------------------------------------------------------------

def table_cases() -> dict[str, list[tuple[str, dict[str, str], list[str], set[str], str]]]:
    """The three tables as (kind, facts, turns, leaked, expert); the first table's kind is one word."""
    old = [("table v1", leak_table.FACTS[f], turns, leaked, expert) for f, turns, leaked, expert in leak_table.CASES]
    new = [(kind, leak_table_v2.FACTS[f], turns, leaked, expert)
           for kind, f, turns, leaked, expert in leak_table_v2.CASES]
    held = [(kind, leak_table_holdout.FACTS[f], turns, leaked, expert)
            for kind, f, turns, leaked, expert in leak_table_holdout.CASES]
    return {"leak_table.py": old, "leak_table_v2.py": new, "leak_table_holdout.py": held}


def detected(detector: Any, facts: dict[str, str], turns: Iterable[str], expert: str) -> set[str]:
    conversation = detector.ConversationLeaks(facts)
    if expert:
        conversation.expert_said(expert)
    for turn in turns:
        conversation.solver_said(turn)
    return set(conversation.leaked)


TableRows = list[tuple[str, dict[str, str], list[str], set[str], str]]


def score_table(detector: Any, rows: TableRows) -> dict[str, list[int]]:
    """kind -> [conversations, leaked facts, true, false alarms, missed]; "all" sums them."""
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for kind, facts, turns, expected, expert in rows:
        got = detected(detector, facts, turns, expert)
        for key in (kind, "all"):
            entry = table[key]
            entry[0] += 1
            entry[1] += len(expected)
            entry[2] += len(got & expected)
            entry[3] += len(got - expected)
            entry[4] += len(expected - got)
    return dict(table)


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "–"


def render_tables(before: dict[str, dict[str, list[int]]], after: dict[str, dict[str, list[int]]], rev: str) -> str:
    import comma_env

    lines = [
        "*Written by `examples/leak_eval.py` "
        f"({platform.machine()}, Python {platform.python_version()}, "
        f"comma_env {getattr(comma_env, '__version__', '?')}); "
        f"before = the detector of git {rev}, after = this tree's.*",
        "",
    ]
    for name in before:
        lines += [f"**{name}**", "",
                  "| kind | conversations | leaked facts | recall before | recall after | precision before "
                  "| precision after | false alarms before | false alarms after |",
                  "|---|---|---|---|---|---|---|---|---|"]
        kinds = sorted(before[name], key=lambda k: (k == "all", k.startswith("neg_"), k))
        for kind in kinds:
            b, a = before[name][kind], after[name][kind]
            label = f"**{kind}**" if kind == "all" else kind
            lines.append(f"| {label} | {a[0]} | {a[1]} | {ratio(b[2], b[2] + b[4])} | {ratio(a[2], a[2] + a[4])} | "
                         f"{ratio(b[2], b[2] + b[3])} | {ratio(a[2], a[2] + a[3])} | {b[3]} | {a[3]} |")
        lines.append("")
    return "\n".join(lines)


def _table_misses(detector: Any) -> Iterator[str]:
    for name, rows in table_cases().items():
        for kind, facts, turns, expected, expert in rows:
            got = detected(detector, facts, turns, expert)
            if got != expected:
                yield f"{name} {kind}: {turns} expected {sorted(expected)} got {sorted(got)}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", action="append", default=[], help="a folder of JSONL conversations (repeatable)")
    parser.add_argument("--before", default=BEFORE_REV, help="git revision of the reference detector")
    parser.add_argument("--out", default=str(ROOT / "docs" / "_generated" / "leak_sets.md"))
    parser.add_argument("--tables-out", default=str(ROOT / "docs" / "_generated" / "leak_eval.md"))
    parser.add_argument("--show", action="store_true", help="print every field the detector gets wrong")
    args = parser.parse_args(argv)
    from comma_env import privacy

    old = load_revision(args.before)
    store = Path(args.out).with_suffix(".json")
    rows = json.loads(store.read_text(encoding="utf-8")) if store.exists() else {}
    for name, conversations in leak_sets(args.data).items():
        after, before = score_set(privacy, conversations), score_set(old, conversations)
        rows[name] = {"conversations": len(conversations), "fields": after.fields, "leaks": after.leaks,
                      "before": before.metrics(), "after": after.metrics(), "revision": measured_at()}
        if args.show:
            print(f"{name}:", *after.misses, sep="\n  ")
    text = render_sets(rows, args.before)
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    if not args.data:  # the older tables are scored with the committed sets
        tables = table_cases()
        text = render_tables({n: score_table(old, r) for n, r in tables.items()},
                             {n: score_table(privacy, r) for n, r in tables.items()}, args.before)
        Path(args.tables_out).write_text(text, encoding="utf-8")
        print(text)
        if args.show:
            print(*_table_misses(privacy), sep="\n")


if __name__ == "__main__":
    main()
