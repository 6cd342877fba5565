"""examples/play_load.py's latency percentiles stay within the measured latencies."""

from __future__ import annotations

import math
from pathlib import Path

from tests.support.script_files import load_script

PLAY_LOAD = load_script(Path(__file__).resolve().parents[2] / "examples" / "play_load.py")


def test_percentiles_of_a_few_moves_lie_between_the_fastest_and_the_slowest() -> None:
    latencies = [0.1, 0.2, 0.3, 0.9]  # the default method put the p95 at 1.35 s, above the max
    p50, p95 = PLAY_LOAD.median_and_p95(latencies)
    assert min(latencies) <= p50 <= p95 <= max(latencies)
    assert math.isclose(p50, 0.25)


def test_too_few_latencies_give_no_percentiles() -> None:
    assert all(math.isnan(value) for value in PLAY_LOAD.median_and_p95([0.4]))
