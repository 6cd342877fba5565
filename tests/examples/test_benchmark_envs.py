"""`examples/benchmark_envs.py` measures what docs/performance.md says: an LLM rollout's ideal
is built from every call the loopback server answered, the bare loop plays the random
baseline, and the text view and the pictures reach their tables for any registered puzzle."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.loopback_server import Loopback
from tests.support.script_files import load_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def scripts():
    llm = load_script(EXAMPLES / "benchmark_llm.py")
    return load_script(EXAMPLES / "benchmark_envs.py"), llm


def test_the_ideal_is_the_rollouts_schedule_when_only_latency_counts(scripts) -> None:
    ideal = scripts[1].ideal_seconds
    assert ideal([20] * 128, 64, 0.2) == pytest.approx(8.0)  # two full waves of 20 calls
    assert ideal([3, 1, 1, 1], 2, 1.0) == 3.0  # one worker plays the long episode, the other the three short ones
    assert ideal([1, 3], 1, 1.0) == 4.0


def test_an_llm_rollout_reports_every_call_the_server_answered(scripts, tmp_path) -> None:
    with Loopback("--latency", "0.01", log=tmp_path / "requests.jsonl", log_messages=False) as server:
        run = scripts[1].rollout("aiohttp", 2, tmp_path, ("wire", "who"), "image")
        chains, _, _ = run(server.api_base, 0, 4, [])
        assert len(chains) == 4 and sum(chains) == len(server.requests())


def test_the_random_baseline_plays_and_every_part_writes_its_table(scripts, monkeypatch, tmp_path) -> None:
    envs = scripts[0]
    assert envs.play_random(("wire", "atm"), 2) > 0
    monkeypatch.syspath_prepend(str(EXAMPLES))  # what `python examples/benchmark_envs.py` finds on its path
    import doc_tables

    monkeypatch.setattr(doc_tables, "GENERATED", tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmark_envs.py", "--parts", "text", "pictures", "--puzzles", "wire",
                                      "asympuzl", "--rounds", "1", "--burst", "0.02", "--picture-seeds", "2",
                                      "--picture-turns", "2", "--markdown"])
    envs.main()
    tables = {name: (tmp_path / f"{name}.md").read_text() for name in ("speed", "text_view", "picture_cost")}
    assert all("Measured by `python examples/benchmark_envs.py" in table for table in tables.values())
    assert "| text view, random play: the slowest puzzle" in tables["speed"]
    assert "| a changed picture: the costliest" in tables["speed"]
    for puzzle in ("wire", "asympuzl"):
        assert f"| {puzzle} |" in tables["text_view"] and f"| {puzzle} |" in tables["picture_cost"]
