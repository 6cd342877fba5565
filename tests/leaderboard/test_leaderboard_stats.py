"""The leaderboard's statistics and protocol check: exact tests where they exist, Holm's
correction, ranks shared by overlapping intervals, and the paper's protocol told apart."""

from __future__ import annotations

import math

import pytest

from comma_env.leaderboard.protocol import check_protocol
from comma_env.leaderboard.stats import holm, paired, shared_ranks, sign_flip_p
from comma_env.registry import COMMA_PUZZLES


def test_success_differences_get_mcnemars_exact_p():
    # 10 episodes won by A, none by B, 90 ties: the sign of each of the 10 is a fair coin under H0
    assert sign_flip_p([1.0] * 10 + [0.0] * 90) == pytest.approx(2 / 2 ** 10)
    # 7 against 3: two-sided binomial tail
    expected = 2 * sum(math.comb(10, k) for k in range(7, 11)) / 2 ** 10
    assert sign_flip_p([1.0] * 7 + [-1.0] * 3) == pytest.approx(expected)
    assert sign_flip_p([0.0] * 50) == 1.0
    assert sign_flip_p([1.0] * 1100 + [-1.0] * 900) < 1e-5  # 2**2000 overflows a float
    assert sign_flip_p([1.0, -1.0] * 1500) == pytest.approx(1.0)


def test_partial_success_is_exact_for_few_differences_and_reproducible_for_many():
    # three positive differences of different sizes: only all-positive and all-negative are as extreme
    assert sign_flip_p([0.5, 0.25, 0.75]) == pytest.approx(2 / 8)
    assert sign_flip_p([0.5, -0.25, 0.75]) == pytest.approx(4 / 8)  # |sum| of 1.5 twice and 1.0 twice
    strong = [0.2 + 0.01 * (i % 7) for i in range(200)]
    assert sign_flip_p(strong) < 1e-3
    balanced = [(0.1 + 0.01 * (i % 5)) * (1 if i % 2 else -1) for i in range(200)]
    assert sign_flip_p(balanced) > 0.5
    assert sign_flip_p(balanced) == sign_flip_p(balanced)  # fixed draws: a site rebuilds identically


def test_holm_adjusts_step_down_and_stays_monotone():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])


def test_overlapping_intervals_share_a_rank():
    assert shared_ranks([(80, 90), (85, 95), (50, 60)]) == [1, 1, 3]
    assert shared_ranks([(10, 20), (15, 30), (25, 40)]) == [2, 1, 1]  # only the first lies wholly below another


def _record(puzzle: str, seed: int, success: bool, progress: float | None = None) -> dict:
    return {"puzzle": puzzle, "seed": seed, "success": success,
            "progress": float(success) if progress is None else progress}


def test_a_pair_is_told_apart_only_where_the_paired_test_holds():
    a = [_record("wire", s, True) for s in range(100)] + [_record("memory", s, s % 2 == 0) for s in range(100)]
    b = [_record("wire", s, s < 40) for s in range(100)] + [_record("memory", s, s % 2 == 1) for s in range(100)]
    result = paired(a, b)
    assert result["shared"] == 200
    verdicts = {(r["puzzle"], r["metric"]): r["better"] for r in result["rows"]}
    assert verdicts[("wire", "sr")] == "a" and verdicts[("wire", "psr")] == "a"
    assert verdicts[("memory", "sr")] is None  # 50 against 50: no difference shown
    wire = next(r for r in result["rows"] if r["puzzle"] == "wire" and r["metric"] == "sr")
    assert (wire["a"], wire["b"], wire["difference"]) == (100.0, 40.0, 60.0)
    overall = next(r for r in result["rows"] if r["puzzle"] == "overall" and r["metric"] == "sr")
    assert overall["a"] == pytest.approx(75.0) and overall["b"] == pytest.approx(45.0)  # the mean of the puzzles
    only_a = paired(a, [_record("keypad", 0, True)])
    assert only_a["shared"] == 0 and only_a["rows"] == []


def _protocol_records(puzzles, seeds, **settings) -> list[dict]:
    base = {"max_turns": 10, "max_mistakes": 3, "memory": "full", "solver_view": "image", "action_matching": "exact",
            "puzzle_options": {}, "solver_model": "m", "expert_model": "m"}
    return [{"puzzle": p, "seed": s, **base, **settings} for p in puzzles for s in seeds]


def test_the_papers_protocol_and_each_departure_from_it():
    version = {"comma_env": __import__("comma_env").__version__}
    paper = check_protocol(_protocol_records(COMMA_PUZZLES, range(100)), version)
    assert paper.paper and paper.settings["seeds"].startswith("0..99")
    assert check_protocol(_protocol_records(COMMA_PUZZLES, range(1000)), version).paper
    cases = {
        "puzzles": _protocol_records(COMMA_PUZZLES[:3], range(100)),
        "seeds": _protocol_records(COMMA_PUZZLES, range(1, 101)),
        "memory": _protocol_records(COMMA_PUZZLES, range(100), memory="last"),
        "max_turns": _protocol_records(COMMA_PUZZLES, range(100), max_turns=20),
        "solver_view": _protocol_records(COMMA_PUZZLES, range(100), solver_view="text"),
        "puzzle_options": _protocol_records(COMMA_PUZZLES, range(100), puzzle_options={"color": {"strike": "keep"}}),
    }
    for key, records in cases.items():
        departures = check_protocol(records, version).departures
        assert len(departures) == 1 and departures[0].startswith(key), (key, departures)
    mixed = _protocol_records(COMMA_PUZZLES, range(100))
    mixed[0]["solver_model"] = "other"
    assert check_protocol(mixed, version).departures[0].startswith("solver_model")
    assert check_protocol(_protocol_records(COMMA_PUZZLES, range(100)), {"comma_env": "0.1.4"}).departures
    assert check_protocol(_protocol_records(COMMA_PUZZLES, range(100)), {}).departures
