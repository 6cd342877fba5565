"""Leak-detector speed: what the conversation-wide check costs per solver turn, and its
worst case on 100 KB adversarial lines, each as a ratio to a reference detector measured in
the same run, interleaved, in CPU time (this machine's speed drifts and other jobs take turns
on its cores; ratios of CPU time do not).

The reference is the detector of a git revision (default: the one before issue 23's rework),
loaded from `git show REV:comma_env/privacy/detector.py` (examples/leak_eval.py does the same).

- Per turn: ten-turn conversations made of both labelled tables' messages, checked the way
  the environment does (`ConversationLeaks`, the whole conversation each turn).
- The same for the labelled sets' conversations in Cyrillic, with and without the memo of the
  Russian and Ukrainian number-word table (`privacy.cyrillic.number_words`).
- Worst case: `find_leaks` on each adversarial line of tests/protocol/test_linear_parsing.py.

    python examples/benchmark_privacy.py [--rounds 15] [--before REV] [--out docs/_generated/leak_cost.md]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "data"), str(ROOT / "examples")]

import leak_table  # noqa: E402
import leak_table_v2  # noqa: E402
from leak_eval import BEFORE_REV, load_revision  # noqa: E402

from comma_env import privacy  # noqa: E402
from comma_env.privacy.cyrillic import CYRILLIC, number_words  # noqa: E402
from tests.protocol.test_linear_parsing import ADVERSARIAL  # noqa: E402


def conversations(turns: int = 10) -> list[tuple[dict[str, str], list[str]]]:
    by_facts: dict[str, tuple[dict[str, str], list[str]]] = {}
    for facts_id, messages, _, _ in leak_table.CASES:
        by_facts.setdefault("v1" + facts_id, (leak_table.FACTS[facts_id], []))[1].extend(messages)
    for _, facts_id, messages, _, _ in leak_table_v2.CASES:
        by_facts.setdefault("v2" + facts_id, (leak_table_v2.FACTS[facts_id], []))[1].extend(messages)
    out = []
    for facts, messages in by_facts.values():
        for start in range(0, len(messages) - turns + 1, turns):
            out.append((facts, messages[start:start + turns]))
    return out


def cyrillic_conversations() -> list[tuple[dict[str, str], list[str]]]:
    """The labelled sets' conversations whose solver writes Cyrillic (Russian or Ukrainian numbers)."""
    out = []
    for path in sorted((ROOT / "tests" / "data" / "leaks").glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            conv = json.loads(line)
            messages = [turn["solver"] for turn in conv["turns"]]
            if any(CYRILLIC.search(message) for message in messages):
                out.append((conv["facts"], messages))
    return out


def rebuilt_table(convs: list[tuple[dict[str, str], list[str]]]) -> float:
    """`whole_conversation` with the Cyrillic number-word table made again for every turn (no memo)."""
    gc.collect()
    started = time.process_time()
    for facts, messages in convs:
        conversation = privacy.ConversationLeaks(facts)
        for message in messages:
            number_words.cache_clear()
            conversation.solver_said(message)
    return time.process_time() - started


def _clear_memo(detector: Any) -> None:
    """Empty the analysis memo of a detector that has one (the reference has; this tree's has not)."""
    clear = getattr(detector.analyse, "cache_clear", None)
    if clear is not None:
        clear()


def whole_conversation(detector: Any, convs: list[tuple[dict[str, str], list[str]]]) -> float:
    """CPU time of checking every conversation turn by turn, from an empty heap (`gc.collect()` first): otherwise a
    collection the other detector's garbage made due lands in whichever detector runs next."""
    _clear_memo(detector)
    gc.collect()
    started = time.process_time()
    for facts, messages in convs:
        conversation = detector.ConversationLeaks(facts)
        for message in messages:
            conversation.solver_said(message)
    return time.process_time() - started


def worst_case(detector: Any, line: str, facts: dict[str, str]) -> float:
    _clear_memo(detector)
    gc.collect()
    started = time.process_time()
    detector.find_leaks(line, facts)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", default=BEFORE_REV)
    parser.add_argument("--out", default="", help="also write the result as a Markdown table here")
    args = parser.parse_args()
    old = load_revision(args.before)
    convs = conversations()
    turns = sum(len(m) for _, m in convs)
    whole_conversation(privacy, convs[:3])  # first use loads the language data and homoglyph table
    from comma_env.privacy.languages import _number_word_languages

    cyrillic = cyrillic_conversations()
    cyrillic_turns = sum(len(m) for _, m in cyrillic)
    ours, cold, reference, russian, russian_old, rebuilt = [], [], [], [], [], []
    for _ in range(args.rounds):
        ours.append(whole_conversation(privacy, convs))
        reference.append(whole_conversation(old, convs))
        _number_word_languages.cache_clear()  # every word seen for the first time
        cold.append(whole_conversation(privacy, convs))
        russian.append(whole_conversation(privacy, cyrillic))
        russian_old.append(whole_conversation(old, cyrillic))
        rebuilt.append(rebuilt_table(cyrillic))
    per_turn, per_turn_old = 1e6 * median(ours) / turns, 1e6 * median(reference) / turns
    lines = ["*Written by `examples/benchmark_privacy.py` "
             f"({platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}); "
             f"median of {args.rounds} "
             f"interleaved rounds, CPU time; before = the detector of git {args.before}.*", "",
             "| measure | before | after | after / before |", "|---|---|---|---|",
             f"| per solver turn ({len(convs)} ten-turn conversations, {turns} turns) | {per_turn_old:.0f} us | "
             f"{per_turn:.0f} us | {median(ours) / median(reference):.2f} |",
             f"| the same, every word new to the number-word memo | {per_turn_old:.0f} us | "
             f"{1e6 * median(cold) / turns:.0f} us | {median(cold) / median(reference):.2f} |",
             f"| per solver turn, the labelled sets' {len(cyrillic)} conversations in Cyrillic "
             f"({cyrillic_turns} turns) | "
             f"{1e6 * median(russian_old) / cyrillic_turns:.0f} us | {1e6 * median(russian) / cyrillic_turns:.0f} us | "
             f"{median(russian) / median(russian_old):.2f} |",
             f"| the same, the Cyrillic number-word table made for every turn (no memo) | "
             f"{1e6 * median(russian_old) / cyrillic_turns:.0f} us | {1e6 * median(rebuilt) / cyrillic_turns:.0f} us | "
             f"{median(rebuilt) / median(russian_old):.2f} |"]
    facts = leak_table.FACTS["tele_c"] | leak_table.FACTS["atm_a"]
    rows = []
    for name, line in ADVERSARIAL.items():
        new_s = median(worst_case(privacy, line, facts) for _ in range(max(1, args.rounds // 2)))
        old_s = median(worst_case(old, line, facts) for _ in range(max(1, args.rounds // 2)))
        rows.append((new_s, old_s, name))
    rows.sort(reverse=True)
    for new_s, old_s, name in rows[:6]:
        lines.append(f"| 100 KB line `{name}` | {1e3 * old_s:.0f} ms | {1e3 * new_s:.0f} ms | {new_s / old_s:.2f} |")
    total_new, total_old = sum(r[0] for r in rows), sum(r[1] for r in rows)
    lines.append(f"| all {len(rows)} adversarial lines | {1e3 * total_old:.0f} ms | {1e3 * total_new:.0f} ms | "
                 f"{total_new / total_old:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
