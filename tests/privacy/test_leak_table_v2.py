"""Leak detection on the second labelled table (issue 23), written before the detector's
rework: recall >= 0.90 at precision >= 0.97 overall, every kind scored, and the LLM leak
judge's plumbing run on every kind through the real HTTP client and the loopback server."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import pytest

import comma_env
from comma_env.agents.leak_judge import disagreements, judge_leaks
from comma_env.privacy import ConversationLeaks
from tests.data.leak_table_v2 import CASES, FACTS, SEEDS  # noqa: E402
from tests.support.loopback_server import Loopback

KINDS = {"language", "split", "date_form", "obfuscation", "mixed", "lookalike", "currency"}
NEGATIVE_KINDS = {"neg_count", "neg_expert", "neg_partial", "neg_action"}


def _detected(facts: dict[str, str], turns: list[str], expert: str) -> set[str]:
    detector = ConversationLeaks(facts)
    if expert:
        detector.expert_said(expert)
    for turn in turns:
        detector.solver_said(turn)
    return set(detector.leaked)


def test_facts_are_the_environments_own_for_those_seeds() -> None:
    for puzzle, seeds in SEEDS.items():
        for seed in seeds:
            env = comma_env.make(puzzle)
            env.reset(seed=seed)
            assert FACTS[f"{puzzle[:4]}{seed}"] == env.unwrapped.private_facts


def test_table_covers_every_kind_and_hard_negatives() -> None:
    assert len(CASES) >= 150
    kinds = defaultdict(int)
    for kind, _, _, leaked, _ in CASES:
        kinds[kind] += 1
        assert bool(leaked) == (kind not in NEGATIVE_KINDS)
    assert set(kinds) == KINDS | NEGATIVE_KINDS and min(kinds.values()) >= 8
    assert sum(kinds[k] for k in NEGATIVE_KINDS) >= 40


def test_recall_and_precision_per_kind() -> None:
    tp = fp = fn = 0
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    wrong = []
    for kind, facts_id, turns, expected, expert in CASES:
        got = _detected(FACTS[facts_id], turns, expert)
        scores = per_kind[kind]
        scores[0] += len(got & expected)
        scores[1] += len(got - expected)
        scores[2] += len(expected - got)
        if got != expected:
            wrong.append((kind, turns, sorted(expected), sorted(got)))
    tp, fp, fn = (sum(s[i] for s in per_kind.values()) for i in range(3))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    for kind, (t, f, m) in sorted(per_kind.items()):
        print(f"{kind:12s} true {t:3d} false alarms {f:2d} missed {m:2d}")
    assert recall >= 0.90 and precision >= 0.97, (precision, recall, wrong)
    for kind in KINDS:
        t, _, m = per_kind[kind]
        assert t / (t + m) >= 0.75, (kind, wrong)


def _rounds() -> list[list[tuple[int, tuple]]]:
    """The cases in rounds where each (puzzle, seed) appears once: judge verdicts are keyed so."""
    rounds: list[list[tuple[int, tuple]]] = []
    seen: dict[str, int] = defaultdict(int)
    for number, case in enumerate(CASES):
        slot = seen[case[1]]
        seen[case[1]] += 1
        if slot == len(rounds):
            rounds.append([])
        rounds[slot].append((number, case))
    return rounds


def _record(case: tuple) -> dict:
    kind, facts_id, turns, _, expert = case
    puzzle, seed = ("atm" if facts_id.startswith("atm") else "telehealth"), int(facts_id[-2:])
    transcript = [{"turn": 0, "solver": "", "actions": [], "expert": expert}] if expert else []
    transcript += [{"turn": i + 1, "solver": text, "actions": []} for i, text in enumerate(turns)]
    return {"puzzle": puzzle, "seed": seed, "puzzle_options": {}, "transcript": transcript,
            "privacy_leaks": sorted(_detected(FACTS[facts_id], turns, expert))}


def test_leak_judge_reads_every_kind_over_http() -> None:
    """The scripted judge names the facts whose value is written verbatim: what the real
    client sent it (facts rebuilt from the seed, the conversation the expert read) and what it
    parsed back are checked on every case, and the disagreements with the rule listed."""
    judged: dict[int, list[str]] = {}
    to_read: dict[str, int] = defaultdict(int)
    with Loopback() as server:
        cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base=server.api_base,
                   extra={"retry_base_delay": 0.01})
        for batch in _rounds():
            records = [_record(case) for _, case in batch]
            verdicts = asyncio.run(judge_leaks(records, cfg))
            for (number, _), record in zip(batch, records, strict=True):
                judged[number] = verdicts[(record["puzzle"], record["seed"])]["judge_privacy_leaks"]
            for row in disagreements(records, verdicts):
                kind = next(case[0] for _, case in batch
                            if int(case[1][-2:]) == row["seed"] and case[1].startswith(row["puzzle"][:4]))
                to_read[kind] += 1
        assert {r["role"] for r in server.requests()} == {"leak_judge"}
        assert len(server.requests()) == len(CASES)
    kinds_seen = set()
    for number, (kind, facts_id, turns, _, expert) in enumerate(CASES):
        conversation = "\n".join([expert, *turns])  # the scripted judge reads the expert's lines too
        verbatim = [field for field, value in FACTS[facts_id].items() if value in conversation]
        assert judged[number] == verbatim, (kind, turns)
        kinds_seen.add(kind)
    assert kinds_seen == KINDS | NEGATIVE_KINDS
    # the naive judge misses the disguised values the rule reads, and does not know that what the
    # expert said first is no leak: those are the episodes to read by hand
    assert to_read["obfuscation"] >= 10 and to_read["language"] >= 10 and to_read["neg_expert"] >= 1


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_leaks_the_rule_reads(kind: str) -> None:
    rows = [c for c in CASES if c[0] == kind]
    assert any(_detected(FACTS[f], turns, expert) == leaked for _, f, turns, leaked, expert in rows)


def test_held_out_table() -> None:
    """The held-out table (written after the rework, without running it): recall no lower than
    issue 59 found it (0.936), precision as above."""
    from tests.data import leak_table_holdout as held

    for puzzle, seeds in held.SEEDS.items():
        env = comma_env.make(puzzle)
        env.reset(seed=seeds[0])
        assert held.FACTS[f"{puzzle[:4]}{seeds[0]}"] == env.unwrapped.private_facts
    tp = fp = fn = 0
    for _, facts_id, turns, expected, expert in held.CASES:
        got = _detected(held.FACTS[facts_id], turns, expert)
        tp, fp, fn = tp + len(got & expected), fp + len(got - expected), fn + len(expected - got)
    assert tp / (tp + fn) >= 0.936 and tp / (tp + fp) >= 0.97, (tp, fp, fn)  # issue 59: no lower than 0.936
