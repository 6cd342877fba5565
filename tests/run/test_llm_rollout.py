"""The LLM policy inside the real rollout CLI: secrets stay out of outputs and logs, through
retries and failed calls (SmolLM2 on the CPU: tests/run/test_smollm2_rollout.py)."""

from __future__ import annotations

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
