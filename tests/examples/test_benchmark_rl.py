"""`examples/benchmark_rl.py` runs every batching path it reports, and its table lists each
one against the plain environment."""

from __future__ import annotations

from pathlib import Path

from tests.support.script_files import load_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_every_path_steps_and_the_table_lists_it(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))  # what `python examples/benchmark_rl.py` finds on its path
    script = load_script(EXAMPLES / "benchmark_rl.py")
    rates = {name: path("wire", 24) for name, path in script.PATHS.items()}
    assert all(rate > 0 for rate in rates.values()), rates
    assert script.async_start("wire", num_envs=2) > 0
    text = script.table([rates], [1.0])
    for name in script.PATHS:
        assert f"| {name} |" in text
    assert f"| {script.REFERENCE} | {rates[script.REFERENCE]:,.0f} | 1.00x |" in text
