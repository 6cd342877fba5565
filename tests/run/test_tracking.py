"""``logger=trackio|wandb``: the rollout's metrics and results table reach the tracker, offline
(trackio's local database under TRACKIO_DIR; W&B with WANDB_MODE=offline), through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def rollout(tmp_path: Path, logger: str, **env: str) -> dict:
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", "model=oracle_nl", "puzzles=[wire,who]",
                           "episodes=2", f"out_dir={out}", "progress_bar=false", f"logger={logger}",
                           "logger_project=comma_test"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((out / "results.json").read_text())


def test_trackio_gets_the_metrics_and_the_table(tmp_path):
    pytest.importorskip("trackio")
    results = rollout(tmp_path, "trackio", TRACKIO_DIR=str(tmp_path / "trackio"))
    code = ("import json, trackio; run = trackio.Api().runs('comma_test')[0]; "
            "print(json.dumps({'name': run.name, 'history': trackio.SQLiteStorage.get_logs('comma_test', run.name)}, "
            "default=str))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, TRACKIO_DIR=str(tmp_path / "trackio")))
    assert done.returncode == 0, done.stderr[-3000:]
    logged = json.loads(done.stdout.strip().splitlines()[-1])
    assert logged["name"] == "run"
    step = logged["history"][0]
    assert step["overall/psr"] == results["overall"]["psr"] and step["wire/sr"] == results["puzzles"]["wire"]["sr"]
    assert "results" in step


def test_wandb_offline_gets_the_metrics_and_the_table(tmp_path):
    pytest.importorskip("wandb")
    results = rollout(tmp_path, "wandb", WANDB_MODE="offline", WANDB_SILENT="true")
    runs = list((tmp_path / "run" / "wandb").glob("offline-run-*"))
    assert len(runs) == 1  # what `wandb sync` would upload
    tables = list(runs[0].glob("files/media/table/results_*.table.json"))
    logged = json.loads(tables[0].read_text())
    assert logged["columns"][:4] == ["puzzle", "n", "sr", "psr"]
    assert {row[0]: row[3] for row in logged["data"]} == {"wire": results["puzzles"]["wire"]["psr"],
                                                          "who": results["puzzles"]["who"]["psr"],
                                                          "overall": results["overall"]["psr"]}
    records = next(runs[0].glob("run-*.wandb")).read_bytes()  # the run's protobuf records
    assert b"overall/psr" in records and b"wire/mistakes" in records


def test_an_unknown_logger_is_refused_before_the_run(tmp_path):
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", "model=random", "puzzles=[wire]", "episodes=1",
                           f"out_dir={tmp_path / 'x'}", "logger=tensorboard"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode != 0 and "logger must be none, trackio or wandb" in done.stderr
    assert not (tmp_path / "x" / "episodes.jsonl").exists()
