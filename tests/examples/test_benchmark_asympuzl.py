"""`examples/benchmark_asympuzl.py` starts and measures: it imports its helpers from
`examples/benchmark_envs.py` (it once imported one that script no longer had, and stopped at
its import line)."""

from __future__ import annotations

import sys
from pathlib import Path

import comma_env
from tests.support.script_files import load_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_asympuzl_benchmark_measures_steps_per_second(monkeypatch) -> None:
    # what `python examples/benchmark_asympuzl.py` finds on its path (examples/)
    monkeypatch.setitem(sys.modules, "benchmark_envs", load_script(EXAMPLES / "benchmark_envs.py"))
    script = load_script(EXAMPLES / "benchmark_asympuzl.py")
    rate = script._steps_per_second(lambda: comma_env.make("asympuzl", n=5, view="text"), script._random_update, 0.05)
    assert rate > 0
