"""Sharding: shards partition the episodes, merge recomputes the tables, joblib runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from comma_env import merge as merge_mod
from comma_env import rollout

PUZZLES = ["wire"]


def base(tmp_path, **kw):
    return {"puzzles": PUZZLES, "episodes": 12, "out_dir": str(tmp_path / "run"), "progress_bar": False, **kw}


def test_shards_partition_the_episodes(tmp_path):
    full = rollout.plan(rollout.to_config(base(tmp_path, episodes=10)))
    parts = [rollout.plan(rollout.to_config(base(tmp_path, episodes=10, shard=i, num_shards=3))) for i in range(3)]
    jobs = [j for p in parts for j in p.jobs]
    assert sorted(jobs) == sorted(full.jobs) and len(jobs) == len(set(jobs)) == 10
    assert [len(p.jobs) for p in parts] == [4, 3, 3]
    assert parts[1].episodes_path.name == "episodes.shard1of3.jsonl"
    assert full.episodes_path.name == "episodes.jsonl"


def test_merged_shards_equal_an_unsharded_run(tmp_path):
    single = rollout.run(base(tmp_path, out_dir=str(tmp_path / "single")), quiet=True)
    first = rollout.run(base(tmp_path, shard=0, num_shards=2), quiet=True)
    out = tmp_path / "run"
    assert first["overall"]["n"] == 6
    assert not (out / "results.json").exists()  # shard 1 has not run yet
    rollout.run(base(tmp_path, shard=1, num_shards=2), quiet=True)
    auto = json.loads((out / "results.json").read_text())  # the last shard merged
    merged = merge_mod.merge([out], quiet=True)
    for results in (auto, merged):
        assert results["overall"]["n"] == 12
        for key in ("sr", "psr", "mistakes", "turns", "sr_se"):
            assert results["overall"][key] == pytest.approx(single["overall"][key])
    assert "Partial success rate" in (out / "results.md").read_text()


def test_merge_cli_and_torn_shard(tmp_path):
    rollout.run(base(tmp_path, shard=0, num_shards=2), quiet=True)
    path = tmp_path / "run" / "episodes.shard0of2.jsonl"
    with path.open("a") as handle:
        handle.write('{"puzzle": "wire", "se')  # a shard killed mid-write
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    done = subprocess.run([sys.executable, "-m", "comma_env.merge", str(tmp_path / "run")], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "run" / "results.json").read_text())["overall"]["n"] == 6
    missing = subprocess.run([sys.executable, "-m", "comma_env.merge", str(tmp_path / "nothing")],
                             capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 2 and "no episodes" in missing.stderr


def test_joblib_launcher_runs_shards_in_parallel(tmp_path):
    out = tmp_path / "run"
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    done = subprocess.run(
        [sys.executable, "-m", "comma_env.rollout", "-m", "hydra/launcher=joblib", "hydra.launcher.n_jobs=2",
         "shard=0,1", "num_shards=2", "puzzles=[wire]", "episodes=10", f"out_dir={out}", "progress_bar=false"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Joblib" in done.stdout + done.stderr
    counts = [len((out / f"episodes.shard{i}of2.jsonl").read_text().splitlines()) for i in range(2)]
    assert counts == [5, 5]
    assert json.loads((out / "results.json").read_text())["overall"]["n"] == 10
