"""Hydra launchers people scale out with: submitit (SLURM's code path, run locally) and Ray.

Each runs a two-shard rollout as separate jobs; the merged results and every episode must
equal those of one process running everything. Both launchers come with the ``launchers``
extra (``pip install -e ".[test,launchers]"``, which CI installs); without it these tests
skip and say why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from comma_env.run import rollout

SETTINGS = ["puzzles=[wire,who]", "episodes=6", "num_shards=2", "progress_bar=false"]
COMPARED = ("puzzle", "seed", "success", "progress", "mistakes", "turns", "transcript", "error")


def single_run(tmp_path: Path) -> tuple[dict, dict]:
    out = tmp_path / "single"
    results = rollout.run({"puzzles": ["wire", "who"], "episodes": 6, "out_dir": str(out), "progress_bar": False},
                          quiet=True)
    return results, episodes(out / "episodes.jsonl")


def episodes(*paths: Path) -> dict:
    found = {}
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            found[(record["puzzle"], record["seed"])] = {k: record.get(k) for k in COMPARED}
    return found


def launch(tmp_path: Path, *overrides: str, timeout: float = 300) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path / "sharded"
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", "-m", *overrides, "shard=0,1", *SETTINGS,
                           f"out_dir={out}"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    return done, out


def assert_same_as_single(tmp_path: Path, out: Path) -> None:
    single, single_episodes = single_run(tmp_path)
    merged = json.loads((out / "results.json").read_text())
    assert merged["overall"]["n"] == single["overall"]["n"] == 12
    for key in ("sr", "psr", "mistakes", "turns", "sr_se"):
        assert merged["overall"][key] == pytest.approx(single["overall"][key]), key
    shards = [out / f"episodes.shard{i}of2.jsonl" for i in range(2)]
    assert [len(p.read_text().splitlines()) for p in shards] == [6, 6]
    assert episodes(*shards) == single_episodes


@pytest.mark.skipif(importlib.util.find_spec("hydra_plugins.hydra_submitit_launcher") is None,
                    reason="hydra-submitit-launcher is not installed: pip install -e '.[launchers]'")
def test_submitit_local_launcher_runs_shards_whose_merge_equals_one_process(tmp_path):
    done, out = launch(tmp_path, "hydra/launcher=submitit_local", "hydra.launcher.timeout_min=5")
    assert "Submitit 'local' sweep" in done.stdout + done.stderr
    logs = list((tmp_path / "outputs" / "multirun").rglob("*_log.out"))
    assert len(logs) == 2  # one submitit job per shard, each with its own log
    assert_same_as_single(tmp_path, out)


@pytest.mark.skipif(importlib.util.find_spec("hydra_plugins.hydra_ray_launcher") is None,
                    reason="hydra-ray-launcher is not installed: pip install -e '.[launchers]'")
def test_ray_launcher_runs_shards_on_a_local_ray_whose_merge_equals_one_process(tmp_path):
    # no address: the launcher starts a local Ray for this run, which ends with the process
    done, out = launch(tmp_path, "hydra/launcher=ray", "+hydra.launcher.ray.init.num_cpus=2",
                       "+hydra.launcher.ray.init.include_dashboard=false")
    text = done.stdout + done.stderr
    assert "Ray Launcher is launching 2 jobs" in text and "Started a local Ray instance" in text
    assert_same_as_single(tmp_path, out)
