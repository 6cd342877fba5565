"""Precision and recall of the leak detector per kind of phrasing, before and after a change,
on the labelled tables (tests/data/leak_table.py, the first; leak_table_v2.py, written before
issue 23's rework; leak_table_holdout.py, written after it without running it).

"Before" is the detector of a git revision (default: the last one before issue 23's rework),
loaded from `git show REV:comma_env/privacy/detector.py` into a temporary module; "after" is
the package in this tree. Scored per (conversation, field), the way the environment runs the
detector (`ConversationLeaks` fed the turns in order, the expert's words first).

    python examples/leak_eval.py [--before REV] [--out docs/_generated/leak_eval.md]
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "data")]

import leak_table  # noqa: E402
import leak_table_holdout  # noqa: E402
import leak_table_v2  # noqa: E402

BEFORE_REV = "dd69770"
"""The detector as it was when issue 23 was filed (one 667-line module)."""


def load_revision(rev: str) -> ModuleType:
    """The single-module detector of git revision `rev`, imported from a temporary file."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:comma_env/privacy/detector.py"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "detector_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("detector_before", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def cases() -> dict[str, list[tuple[str, dict[str, str], list[str], set[str], str]]]:
    """Both tables as (kind, facts, turns, leaked, expert); the first table's kind is one word."""
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


def score(detector: Any, rows: list[tuple[str, dict[str, str], list[str], set[str], str]]) -> dict[str, list[int]]:
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


def render(before: dict[str, dict[str, list[int]]], after: dict[str, dict[str, list[int]]], rev: str) -> str:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE_REV, help="git revision of the reference detector")
    parser.add_argument("--out", default=str(ROOT / "docs" / "_generated" / "leak_eval.md"))
    parser.add_argument("--show", action="store_true", help="print every conversation the new detector gets wrong")
    args = parser.parse_args(argv)
    from comma_env import privacy

    old = load_revision(args.before)
    tables = cases()
    before = {name: score(old, rows) for name, rows in tables.items()}
    after = {name: score(privacy, rows) for name, rows in tables.items()}
    text = render(before, after, args.before)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    if args.show:
        for name, rows in tables.items():
            for kind, facts, turns, expected, expert in rows:
                got = detected(privacy, facts, turns, expert)
                if got != expected:
                    print(f"{name} {kind}: {turns} expected {sorted(expected)} got {sorted(got)}")


if __name__ == "__main__":
    main()
