"""`examples/benchmark_leaderboard.py` times the command a user runs, on the episodes it just
played, and says whether 10,000 episodes meet the 60 s bar."""

from __future__ import annotations

from pathlib import Path

from script_files import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "benchmark_leaderboard.py"


def test_a_row_times_the_command_on_the_rollouts_episodes(tmp_path):
    script = load_script(SCRIPT)
    rows = script.measure(["random", "oracle"], 2, 1, tmp_path, ["wire", "who"])
    assert [r[0] for r in rows] == ["`random` pair", "`oracle` pair", "all of them on one board"]
    assert [r[1] for r in rows] == ["4", "4", "8"]
    for cells in rows:
        wall, replay = float(cells[4]), float(cells[5])
        assert 0 <= replay <= wall and wall > 0 and cells[7].endswith("s at this rate")
    assert script.row("x", 10_000, "", "", 59.0, 40.0)[7] == "met"
    assert script.row("x", 10_000, "", "", 61.0, 40.0)[7] == "NOT met"
