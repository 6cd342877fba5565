"""Metrics against hand-computed values (COMMA section 4.2 and the paper's own numbers)."""

from __future__ import annotations

import math

import pytest

from comma_env.protocol import metrics
from comma_env.run.console import render_console
from comma_env.run.results import build_results, render_markdown


def rec(puzzle="wire", success=False, progress=0.0, mistakes=0, solved_at=None, tokens=0, leaks=(), loop=False,
        error=None, max_turns=10, skills=("MG",), **extra):
    return {"puzzle": puzzle, "success": success, "progress": progress, "mistakes": mistakes,
            "solved_at_turn": solved_at, "turns": solved_at if solved_at is not None else max_turns,
            "tokens": tokens, "privacy_leaks": list(leaks), "repetition_loop": loop, "error": error,
            "max_turns": max_turns, "skills": list(skills), **extra}


def test_efficiency_matches_the_papers_figure_5():
    # GPT-4o: overall PSR 41.74 with 451 tokens per puzzle -> 0.52
    assert metrics.conciseness(451) == pytest.approx(1 / 1.451)
    assert metrics.efficiency(41.74, 451) == pytest.approx(0.5199, abs=1e-4)
    assert round(metrics.efficiency(41.74, 451), 2) == 0.52
    # Random: overall PSR 18.70 and (almost) no tokens -> 0.32
    assert round(metrics.efficiency(18.70, 0), 2) == 0.32
    assert metrics.efficiency(0.0, 0) == 0.0
    assert metrics.efficiency(100.0, 0) == 1.0


def test_standard_error_is_the_papers_binomial_one():
    # the paper's Random Wire: 57 successes in 100 -> 57 +- 5.0
    values = [1.0] * 57 + [0.0] * 43
    assert 100 * metrics.standard_error(values) == pytest.approx(100 * math.sqrt(0.57 * 0.43 / 100))
    assert round(100 * metrics.standard_error(values), 1) == 5.0
    assert metrics.standard_error([1.0]) == 0.0
    assert metrics.standard_error([]) == 0.0


def test_puzzle_metrics_by_hand():
    records = [
        rec(success=True, progress=1.0, mistakes=0, solved_at=2, tokens=100),
        rec(progress=0.5, mistakes=1, tokens=200),
        rec(progress=0.0, mistakes=3, tokens=300, loop=True, error="solver: TimeoutError"),
        rec(success=True, progress=1.0, mistakes=2, solved_at=5, tokens=400),
    ]
    m = metrics.puzzle_metrics(records)
    assert m["n"] == 4
    assert m["sr"] == 50.0
    assert m["sr_se"] == pytest.approx(25.0)  # sqrt(.5*.5/4)
    assert m["psr"] == 62.5
    # deviations .375 -.125 -.625 .375 -> variance .171875 -> sd .41458 / 2
    assert m["psr_se"] == pytest.approx(100 * math.sqrt(0.171875) / 2)
    assert m["mistakes"] == 1.5
    assert m["turns"] == pytest.approx((2 + 10 + 10 + 5) / 4)  # ACL: turn of success, else the limit
    assert m["tokens"] == 250.0
    assert m["efficiency"] == pytest.approx(2 * 0.625 * 0.8 / (0.625 + 0.8))
    assert m["errors"] == 1
    assert m["repetition_loops"] == 1
    assert "leak_rate" not in m  # only the privacy puzzles have one


def test_leak_rate_counts_episodes_with_any_leak():
    records = [rec("telehealth", leaks=["ssn"]), rec("telehealth"), rec("telehealth", leaks=["name", "ssn"]),
               rec("telehealth")]
    m = metrics.puzzle_metrics(records)
    assert m["leak_rate"] == 50.0
    assert m["leak_rate_se"] == pytest.approx(25.0)
    atm = [rec("atm", leaks=["pin"]), rec("atm"), rec("atm"), rec("atm")]
    overall = metrics.overall_metrics({"telehealth": records, "atm": atm, "wire": [rec(leaks=[])]})
    assert overall["leak_rate"] == pytest.approx(100 * 3 / 8)  # pooled over ATM + Telehealth only


def test_overall_is_the_mean_across_puzzles_with_pooled_errors():
    wire = [rec(success=True, progress=1.0, solved_at=1)] * 3 + [rec()]          # SR 75
    who = [rec("who", success=True, progress=1.0, solved_at=3)] + [rec("who")] * 1  # SR 50, n=2
    o = metrics.overall_metrics({"wire": wire, "who": who})
    assert o["n"] == 6
    assert o["sr"] == pytest.approx(62.5)  # (75 + 50) / 2, not 4/6
    assert o["psr"] == pytest.approx(62.5)
    pooled = [1, 1, 1, 0, 1, 0]
    assert o["sr_se"] == pytest.approx(100 * metrics.standard_error(pooled))
    assert o["turns"] == pytest.approx(((1 + 1 + 1 + 10) / 4 + (3 + 10) / 2) / 2)
    assert o["efficiency"] == pytest.approx(metrics.efficiency(62.5, 0))


def test_success_vs_turn_limit():
    records = [rec(success=True, progress=1, solved_at=1, max_turns=3),
               rec(success=True, progress=1, solved_at=3, max_turns=3),
               rec(max_turns=3), rec(success=True, progress=1, solved_at=2, max_turns=3)]
    assert metrics.success_vs_turn_limit(records, 3) == [25.0, 50.0, 75.0]
    # the last point is the success rate itself
    assert metrics.success_vs_turn_limit(records, 3)[-1] == metrics.puzzle_metrics(records)["sr"]


def test_skill_categories_average_their_puzzles():
    per = {"wire": {"n": 10, "sr": 50.0, "psr": 50.0}, "led": {"n": 10, "sr": 10.0, "psr": 30.0},
           "memory": {"n": 10, "sr": 0.0, "psr": 20.0}}
    skills = {"wire": ("MG",), "led": ("MR", "MSR"), "memory": ("MR", "MSR")}
    s = metrics.skill_metrics(per, skills)
    assert set(s) == {"MG", "MR", "MSR"}
    assert s["MR"]["psr"] == 25.0 and s["MR"]["sr"] == 5.0 and s["MR"]["n"] == 20
    assert s["MG"]["puzzles"] == ["wire"]


def test_error_taxonomy_counts_failures_only():
    records = [rec(loop=True), rec(loop=True, error_types=["roleplay"]),
               rec(success=True, progress=1, solved_at=1, loop=True),
               rec(error_types=["miscommunication", "repetition_loop"])]
    t = metrics.error_taxonomy(records)
    assert t["failed"] == 3
    assert t["judged"] == 2
    assert t["counts"] == {"roleplay": 1, "misinterpretation": 0, "repetition_loop": 3, "miscommunication": 1}


def test_summary_tables_render_in_paper_order():
    records = [rec("who", success=True, progress=1, solved_at=1, skills=("MG",), solver_model="random",
                   expert_model="random"),
               rec("wire", solver_model="random", expert_model="random"),
               rec("telehealth", progress=0.5, leaks=["ssn"], skills=("PR",), solver_model="random",
                   expert_model="random")]
    results = build_results(records)
    assert list(results["puzzles"]) == ["wire", "telehealth", "who"]  # the paper's column order
    assert results["puzzles"]["telehealth"]["leak_rate"] == 100.0
    md = render_markdown(results)
    assert "| Model | Wire | Telehealth | Who | Overall |" in md
    # shown next to a random run, with its published SE
    assert "| Random (published, Table 1) | 57 ± 5.0 | 16 ± 2.6 | 44 ± 5.0 |" in md
    assert "Success rate (Table 3)" in md and "Average mistakes (Table 4)" in md and "(Table 5)" in md
    assert "leak rate" in md and "By skill category" in md and "repetition_loop" in md
    console = render_console(results)
    assert "Overall" in console and "paper PSR/SR" in console


def test_judge_labels_from_a_side_file_enter_the_taxonomy(tmp_path):
    import json

    from comma_env.run.results import attach_judgements

    records = [rec(solver_model="x", expert_model="x", seed=0), rec(seed=1, loop=True)]
    (tmp_path / "judgements.jsonl").write_text(
        json.dumps({"puzzle": "wire", "seed": 0, "error_types": ["roleplay", "miscommunication"]}) + "\n"
        + '{"puzzle": "wire", "seed": 1, "error_ty')  # torn line ignored
    labelled = attach_judgements(records, tmp_path)
    assert "error_types" not in records[0]  # inputs untouched
    t = build_results(labelled)["error_taxonomy"]["overall"]
    assert t["judged"] == 1
    assert t["counts"]["roleplay"] == 1 and t["counts"]["miscommunication"] == 1 and t["counts"]["repetition_loop"] == 1


def test_unjudged_and_rule_only_labels_are_not_counted_as_judged():
    records = [rec(error_types=["unjudged"]), rec(loop=True, error_types=["repetition_loop", "unjudged"]),
               rec(loop=True, error_types=["repetition_loop"]), rec(error_types=["other"]), rec()]
    t = metrics.error_taxonomy(records)
    assert t["failed"] == 5 and t["judged"] == 1
    assert t["counts"]["repetition_loop"] == 2 and t["counts"]["unjudged"] == 2 and t["counts"]["other"] == 1
