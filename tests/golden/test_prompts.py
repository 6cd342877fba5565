"""The requests the rollout sends a model, byte for byte as recorded (tests/golden/record.py
prompts): the scripted loopback server replays the recorded replies, so every conversation
takes the recorded course, and each request body must equal its recording."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.golden.record import PROMPT_RUNS, rollout
from tests.support.loopback_server import Loopback

DATA = Path(__file__).resolve().parents[1] / "data" / "golden"
RECORDED = {run["name"]: run for run in json.loads(gzip.decompress((DATA / "prompts.json.gz").read_bytes()))}


def _key(body: dict) -> str:
    return json.dumps(body, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("name,overrides", PROMPT_RUNS, ids=[name for name, _ in PROMPT_RUNS])
def test_requests_are_the_recorded_ones(tmp_path, name, overrides):
    bodies = tmp_path / "bodies.jsonl"
    with Loopback("--replay", str(DATA / "replies.json.gz"), "--log-bodies", str(bodies)) as server:
        roles = [role for role in ("solver", "expert") if f"{role}=openai_compat" in overrides]
        fields = (f"api_base={server.api_base}", "name=loopback", "max_retries=0")  # a stray request fails fast
        endpoints = [f"{r}.{field}" for r in (roles or ["model"]) for field in fields]
        rollout([*overrides, *endpoints], tmp_path / "run")
    sent = sorted((json.loads(line)["body"] for line in bodies.read_text().splitlines()), key=_key)
    expected = sorted(RECORDED[name]["requests"], key=_key)
    assert len(sent) == len(expected)
    for got, want in zip(sent, expected, strict=True):
        assert got == want
