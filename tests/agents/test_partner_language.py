"""The scripted partners on language written by people who never saw their readers (issue 56):
every set under tests/data/nl/ (a folder of <puzzle>.jsonl files) is replayed by
examples/partner_eval.py and must give the counts of its table; each set the readers were built
on must meet the goals: at least 90% understood and correct in each direction, and no wrong
advice or action from an ambiguous or incomplete message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import comma_env
from tests.support.docs_blocks import DOCS, python_block
from tests.support.natural import play_natural
from tests.support.script_files import import_example

partner_eval = import_example("partner_eval")  # examples/partner_eval.py

DATA = Path(__file__).resolve().parents[1] / "data" / "nl"
SETS = sorted(folder.name for folder in DATA.iterdir() if folder.is_dir() and any(folder.rglob("*.jsonl")))
GOAL = 0.90
MEASURED_ONLY = {"fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10"}
"""Sets written unread and committed after their measurement (their READMEs say so): how far the
goals hold on them is a finding shown on docs/partners.md, not something the readers were built to."""


@pytest.fixture(scope="module", params=SETS)
def measured(request):
    items = partner_eval.load_items([DATA / request.param])
    return request.param, items, partner_eval.counts(partner_eval.evaluate(items))


def test_there_is_a_dev_set_for_every_puzzle_and_direction():
    assert "dev" in SETS
    items = partner_eval.load_items([DATA / "dev"])
    pairs = {(i["puzzle"], i["direction"]) for i in items}
    assert len({p for p, _ in pairs}) == 13 and len(pairs) == 26


@pytest.mark.parametrize("measured", [name for name in SETS if name not in MEASURED_ONLY], indirect=True)
def test_partners_meet_the_goals_on_every_set(measured):
    name, items, counts = measured
    assert len(items) == sum(row["items"] for row in counts["all"].values())
    for direction in ("describe", "advise"):
        row = counts["all"][direction]
        assert row["wrong_on_ambiguous"] == 0, (name, direction, row)
        assert row["correct"] >= GOAL * row["items"], (name, direction, row)


def test_the_docs_table_shows_what_the_evaluation_measures(measured):
    name, _, counts = measured
    stored = partner_eval.GENERATED / "partners" / f"{name}.json"
    assert stored.exists(), f"run examples/partner_eval.py --data tests/data/nl/{name} --set {name}"
    assert json.loads(stored.read_text(encoding="utf-8"))["counts"] == counts


def test_the_exchange_on_the_partners_page_is_what_the_partner_says(capsys):
    page = DOCS / "partners.md"
    block = python_block("SingleRoleEnv(", page)
    exec(compile(block, str(page), "exec"), {"__name__": "__docs__"})
    text = page.read_text(encoding="utf-8")
    shown = text[text.index(block):]
    shown = shown[shown.index("```text\n") + len("```text\n"):]
    assert capsys.readouterr().out == shown[:shown.index("```")]


def test_the_rollout_transcript_keeps_what_each_partner_understood():
    result, _ = play_natural("wire", 3)
    first = result.transcript[0]
    assert first["expert_understood"]["advice"] == ["cut_wire_4"]  # six wires, serial ends in 6
    assert any("UBDLP6" in fact for fact in first["expert_understood"]["facts"])
    assert result.transcript[1]["solver_understood"]["actions"] == ["cut_wire_4"]


def test_a_learner_sees_what_the_partner_did_not_understand():
    from comma_env.rl.single_role import SingleRoleEnv

    env = SingleRoleEnv("wire", role="expert", partner="oracle_nl")
    env.reset(seed=3)
    _, _, _, _, info = env.step("Cut the red wire.")  # three red wires: the solver asks which
    assert info["partner_understood"]["actions"] is None and info["partner_understood"]["ask"]
    assert env.aec.unwrapped.visible_state["cut_wires"] == []  # nothing was cut on a guess


def test_going_on_from_where_the_expected_actions_end_to_solve_the_puzzle_is_right():
    env = comma_env.make("atm")
    env.reset(seed=24481)  # PIN 8697, a balance of at least $500
    login = ["select_withdraw", "press_8", "press_6", "press_9", "press_7", "press_enter"]
    puzzle = env.unwrapped.puzzle
    assert partner_eval.same_outcome(puzzle, [*login, "continue", "amount_300", "confirm"], [login]) is None
    assert partner_eval.same_outcome(puzzle, [*login, "continue"], [login]) is not None  # further, but not solved
    assert partner_eval.same_outcome(puzzle, ["select_deposit", *login[1:], "go_back", "select_withdraw", "continue",
                                              "amount_300", "confirm"], [login]) is None  # solved after passing it
