"""Leak-detector speed: what the conversation-wide check costs per solver turn, and its
worst case on 100 KB adversarial lines, each as a ratio to a reference measured in the
same run (this machine's speed drifts, ratios do not).

- Per turn: ten-turn conversations made of the labelled table's messages, checked the way the
  environment does (`ConversationLeaks`, the whole conversation each turn) against checking
  each message alone (`find_leaks(message)`, the old per-message shape), interleaved.
- Worst case: `find_leaks` on each adversarial line of tests/test_linear_parsing.py against one
  linear C scan of the same line (`re.findall` of digit runs).

    python examples/benchmark_privacy.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "data")]

from leak_table import CASES, FACTS  # noqa: E402
from test_linear_parsing import ADVERSARIAL  # noqa: E402

from comma_env import privacy  # noqa: E402


def conversations(turns: int = 10) -> list[tuple[dict[str, str], list[str]]]:
    by_facts: dict[str, list[str]] = {}
    for facts_id, messages, _, _ in CASES:
        by_facts.setdefault(facts_id, []).extend(messages)
    out = []
    for facts_id, messages in by_facts.items():
        for start in range(0, len(messages) - turns + 1, turns):
            out.append((FACTS[facts_id], messages[start:start + turns]))
    return out


def whole_conversation(convs: list[tuple[dict[str, str], list[str]]]) -> float:
    started = time.perf_counter()
    for facts, messages in convs:
        detector = privacy.ConversationLeaks(facts)
        for message in messages:
            detector.solver_said(message)
    return time.perf_counter() - started


def per_message(convs: list[tuple[dict[str, str], list[str]]]) -> float:
    started = time.perf_counter()
    for facts, messages in convs:
        for message in messages:
            privacy.find_leaks(message, facts)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    convs = conversations()
    turns = sum(len(m) for _, m in convs)
    ours, reference = [], []
    for _ in range(args.rounds):
        privacy.analyse.cache_clear()
        ours.append(whole_conversation(convs))
        privacy.analyse.cache_clear()
        reference.append(per_message(convs))
    print(f"per solver turn ({len(convs)} ten-turn conversations, {turns} turns, median of {args.rounds}):")
    print(f"  whole conversation: {1e6 * median(ours) / turns:8.1f} us/turn")
    print(f"  message alone:      {1e6 * median(reference) / turns:8.1f} us/turn"
          f"   ratio {median(ours) / median(reference):.2f}")
    facts = FACTS["tele_c"] | FACTS["atm_a"]
    print("worst case, 100 KB adversarial lines (find_leaks with all seven facts):")
    rows = []
    for name, line in ADVERSARIAL.items():
        privacy.analyse.cache_clear()
        started = time.perf_counter()
        privacy.find_leaks(line, facts)
        detect = time.perf_counter() - started
        started = time.perf_counter()
        re.findall(r"[0-9]+", line)
        scan = max(time.perf_counter() - started, 1e-6)
        rows.append((detect, name, detect / scan))
    for detect, name, ratio in sorted(rows, reverse=True)[:8]:
        print(f"  {name:22s} {1e3 * detect:7.1f} ms   {ratio:7.0f}x a regex digit scan")
    print(f"  (all {len(rows)} lines: max {1e3 * max(r[0] for r in rows):.1f} ms, median {1e3 * median(r[0] for r in rows):.1f} ms)")


if __name__ == "__main__":
    main()
