"""`examples/benchmark_leaderboard.py` times the command a user runs, on the episodes it just
played, and says whether 10,000 episodes meet the 60 s bar."""

from __future__ import annotations

from pathlib import Path

from tests.support.script_files import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "benchmark_leaderboard.py"


def test_a_row_times_the_command_on_the_rollouts_episodes(tmp_path):
    script = load_script(SCRIPT)
    rows = script.measure(["random", "oracle"], 2, 1, tmp_path, ["wire", "who"])
    assert [r[0] for r in rows] == ["`random` pair", "`oracle` pair", "all of them on one board"]
    assert [r[1] for r in rows] == ["4", "4", "8"]
    for cells in rows:
        wall, replay, cpu = float(cells[4]), float(cells[5]), float(cells[6])
        assert 0 <= replay <= wall and wall > 0 and cpu > 0 and cells[8].endswith("s at this rate")


def test_the_bar_is_met_by_the_wall_time_and_otherwise_says_what_the_cpu_allows():
    script = load_script(SCRIPT)
    assert script.row("x", 10_000, "", "", 59.0, 40.0, 100.0, 2)[8] == "met"
    assert script.row("x", 10_000, "", "", 61.0, 40.0, 50.0, 2)[8] == "NOT met here; 25 s of CPU per core"
