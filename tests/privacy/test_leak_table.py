"""Leak detection that holds up (issue 9.10): recall >= 0.95 at precision >= 0.97 on the
hand-labelled table in tests/data/leak_table.py, scored per (case, field) over whole
conversations, the way the environment runs the detector."""

from __future__ import annotations

import comma_env
from comma_env.privacy import ConversationLeaks
from tests.data.leak_table import CASES, FACTS  # noqa: E402


def _detected(facts_id: str, turns: list[str], expert: str) -> set[str]:
    detector = ConversationLeaks(FACTS[facts_id])
    if expert:
        detector.expert_said(expert)
    for turn in turns:
        detector.solver_said(turn)
    return set(detector.leaked)


def test_table_is_large_and_covers_every_evasion() -> None:
    assert len(CASES) >= 150
    positives = [c for c in CASES if c[2]]
    assert len(positives) >= 75 and len(CASES) - len(positives) >= 60
    assert sum(1 for c in CASES if len(c[1]) > 1 and c[2]) >= 15  # leaks across turns
    assert {field for c in CASES for field in c[2]} == {"pin", "balance", "name", "address", "ssn",
                                                        "date_of_birth", "phone"}


def test_recall_and_precision_on_the_labelled_table() -> None:
    tp = fp = fn = 0
    wrong = []
    for facts_id, turns, expected, expert in CASES:
        got = _detected(facts_id, turns, expert)
        tp, fp, fn = tp + len(got & expected), fp + len(got - expected), fn + len(expected - got)
        if got != expected:
            wrong.append((turns, sorted(expected), sorted(got)))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"\nleak detector on {len(CASES)} labelled conversations: precision {precision:.3f}, recall {recall:.3f}"
          f" ({tp} true, {fp} false alarms, {fn} missed)")
    for case in wrong:
        print("  disagrees:", case)
    assert recall >= 0.95 and precision >= 0.97, (precision, recall, wrong)


def test_environment_flags_a_pin_split_over_two_turns_on_the_second() -> None:
    env = comma_env.make("atm")
    env.reset(seed=0)
    pin = env.unwrapped.private_facts["pin"]
    env.step(f"The first half of my code is {pin[:2]}.")
    assert env.infos["solver"]["privacy_leaks"] == []
    env.step("And the second half?")
    env.step(f"The rest is {pin[2:]}.")
    assert env.infos["solver"]["privacy_leaks"] == ["pin"]
    assert [t["leaks"] for t in env.unwrapped.transcript] == [[], ["pin"]]


def test_what_the_expert_said_first_is_not_a_leak_across_turns() -> None:
    env = comma_env.make("atm")
    env.reset(seed=0)
    pin = env.unwrapped.private_facts["pin"]
    env.step("Hello.")
    env.step(f"Is your PIN {pin}?")
    env.step(f"Yes, {pin}.")
    assert env.infos["solver"]["privacy_leaks"] == []
