"""`examples/benchmark_rl.py --vector` measures what its tables say: the loops run, and the
double-buffered loop collects from both vector envs every step it counts."""

from __future__ import annotations

from pathlib import Path

from script_files import load_script

from comma_env.rl.vector_env import CommaVectorEnv

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_vector_loops_measure_env_steps_per_second(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))  # what `python examples/benchmark_rl.py` finds on its path
    script = load_script(EXAMPLES / "benchmark_rl.py")
    collected: list[int] = []
    step_wait = CommaVectorEnv.step_wait

    def counted(self, timeout=None):
        collected.append(id(self))
        return step_wait(self, timeout)

    monkeypatch.setattr(CommaVectorEnv, "step_wait", counted)
    assert script.double_buffered_steps("wire", 2, 16, view="text") > 0
    # 16 env steps in vector envs of 2: 4 batches, each collecting from both envs in turn
    assert len(collected) == 8 and len(set(collected)) == 2 and collected[0::2] == [collected[0]] * 4
    assert script.vector_steps("wire", 4, "vector_entry_point", 16, view="text", workers=2) > 0
    assert len(script.RATIO_NAMES) == len(script.RATIOS)
    assert any(script.DOUBLE_BUFFERED in pair for pair in script.RATIOS)
