"""python -m comma_env.export: replayed prompts equal what a real chat policy sent over HTTP,
rewards add up to the return, images are files, and datasets.load_dataset reads both formats."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from loopback_server import Loopback

from comma_env.run import rollout
from comma_env.rl.export import export


def run(tmp_path: Path, name: str, **overrides) -> Path:
    out = tmp_path / name
    config = {"puzzles": ["wire", "atm"], "episodes": 4, "out_dir": str(out), "progress_bar": False}
    config.update(overrides)
    rollout.run(config, quiet=True)
    return out


def load_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def prompt_texts(messages: list[dict]) -> tuple:
    return tuple((m["role"], "\n".join(p["text"] for p in m["content"] if p["type"] == "text")) for m in messages)


@pytest.mark.parametrize("vision", [False, True])
def test_exported_prompts_are_what_the_chat_policy_sent(tmp_path, vision):
    with Loopback() as server:
        out = run(tmp_path, "llm", model={"kind": "litellm", "name": "loop", "model": "openai/loopback",
                                          "api_base": server.api_base, "vision": vision,
                                          "extra": {"retry_base_delay": 0.02}}, puzzles=["wire"], episodes=3)
        sent = server.requests()
    stats = export(out, "rl")
    rows = load_rows(out / "export" / "rl.jsonl")
    assert stats.rows == len(rows) == len(sent) and stats.skipped_mismatch == 0
    assert Counter(prompt_texts(r["prompt"]) for r in rows) == Counter(
        tuple((m["role"], m["text"]) for m in request["messages"]) for request in sent)
    if vision:  # the image files are the very PNGs the policy sent
        sent_images = Counter(i["sha"] for request in sent for i in request["images"])
        files = Counter(hashlib.sha256((out / "export" / image).read_bytes()).hexdigest()[:16]
                        for row in rows for image in row["images"])
        assert files == sent_images and sum(files.values()) > 0
        for row in rows:
            parts = [p for m in row["prompt"] for p in m["content"] if p["type"] == "image"]
            assert len(parts) == len(row["images"]) == (1 if row["role"] == "solver" else 0)


def test_rl_rewards_add_up_and_datasets_loads_both_formats(tmp_path):
    import datasets

    out = run(tmp_path, "mixed", solver={"kind": "random", "name": "random"},
              expert={"kind": "oracle", "name": "oracle_nl", "extra": {"style": "natural"}},
              reward={"success_bonus": 1.0, "mistake_penalty": 0.5, "token_cost": 2.0}, episodes=6)
    records = {(r["puzzle"], r["seed"]): r for r in load_rows(out / "episodes.jsonl")}
    export(out, "rl")
    rl = load_rows(out / "export" / "rl.jsonl")
    for (puzzle, seed), record in records.items():
        for role in ("solver", "expert"):
            mine = sorted((r for r in rl if (r["puzzle"], r["seed"], r["role"]) == (puzzle, seed, role)), key=lambda r: r["turn"])
            if not mine:
                continue
            assert sum(r["reward"] for r in mine) == pytest.approx(record["return"])
            assert mine[0]["return_to_go"] == pytest.approx(record["return"])
            assert all(r["episode_return"] == pytest.approx(record["return"]) for r in mine)
    assert any(not r["success"] for r in records.values()) and any(r["success"] for r in records.values())

    export(out, "sft", successful_only=True)
    sft = load_rows(out / "export" / "sft.jsonl")
    assert sft and all(r["success"] for r in sft)
    assert {(r["puzzle"], r["seed"]) for r in sft} == {k for k, r in records.items() if r["success"]}
    assert all(r["messages"][-1]["role"] == "assistant" for r in sft)

    for name in ("rl", "sft"):
        dataset = datasets.load_dataset("json", data_files=str(out / "export" / f"{name}.jsonl"), split="train")
        assert len(dataset) == len(load_rows(out / "export" / f"{name}.jsonl"))
        assert "images" in dataset.column_names


def test_cli_writes_where_asked_and_reports_bad_folders(tmp_path):
    out = run(tmp_path, "oracle", model={"kind": "oracle", "name": "oracle_nl", "extra": {"style": "natural"}},
              puzzles=["who"], episodes=2)
    target = tmp_path / "data" / "sft.jsonl"
    done = subprocess.run([sys.executable, "-m", "comma_env.export", str(out), "--format", "sft", "--role", "solver",
                           "--out", str(target)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = load_rows(target)
    assert rows and {r["role"] for r in rows} == {"solver"}
    assert all((target.parent / image).is_file() for r in rows for image in r["images"])
    empty = subprocess.run([sys.executable, "-m", "comma_env.export", str(tmp_path / "nothing")],
                           capture_output=True, text=True, timeout=120)
    assert empty.returncode == 2 and "no episodes" in empty.stderr
