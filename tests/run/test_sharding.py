"""Sharding: shards partition the episodes, merge recomputes the tables, joblib runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from comma_env.run import merge as merge_mod
from comma_env.run import rollout

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


def test_results_written_concurrently_never_collide(tmp_path):
    import threading

    from comma_env.run.results import build_results, write_results

    results = build_results([{"puzzle": "wire", "seed": 0, "success": True, "progress": 1.0, "solved_at_turn": 1}])
    failures: list[BaseException] = []

    def writer():
        try:
            for _ in range(60):
                write_results(tmp_path, results)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            failures.append(error)

    threads = [threading.Thread(target=writer) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:1]
    assert json.loads((tmp_path / "results.json").read_text())["overall"]["n"] == 1
    written = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".merge"))
    assert written == ["results.json", "results.md"]


def test_merge_refuses_mixed_settings(tmp_path):
    rollout.run(base(tmp_path, episodes=3, out_dir=str(tmp_path / "a")), quiet=True)
    rollout.run(base(tmp_path, episodes=3, seed=3, out_dir=str(tmp_path / "b")), quiet=True)
    rollout.run(base(tmp_path, episodes=3, seed=6, max_turns=5, out_dir=str(tmp_path / "c")), quiet=True)
    assert merge_mod.merge([tmp_path / "a", tmp_path / "b"], dest=tmp_path / "ab", quiet=True)["overall"]["n"] == 6
    with pytest.raises(ValueError, match="max_turns"):
        merge_mod.merge([tmp_path / "a", tmp_path / "c"], dest=tmp_path / "ac", quiet=True)
    assert not (tmp_path / "ac" / "results.json").exists()
    pooled = merge_mod.merge([tmp_path / "a", tmp_path / "c"], dest=tmp_path / "ac", quiet=True, allow_mixed=True)
    assert pooled["overall"]["n"] == 6 and "max_turns" in pooled["meta"]["mixed_settings"]
    assert merge_mod.main([str(tmp_path / "a"), str(tmp_path / "c"), "--out", str(tmp_path / "x")]) == 2


def test_last_shard_merges_only_this_runs_shard_files(tmp_path):
    out = tmp_path / "run"
    rollout.run(base(tmp_path, episodes=3, seed=50), quiet=True)  # a stale unsharded episodes.jsonl
    rollout.run(base(tmp_path, episodes=4, seed=80, shard=0, num_shards=3), quiet=True)  # another num_shards
    for shard in range(2):
        rollout.run(base(tmp_path, shard=shard, num_shards=2), quiet=True)
    merged = json.loads((out / "results.json").read_text())
    assert merged["overall"]["n"] == 12
    assert sorted(merged["meta"]["merged_files"]) == [str(out / f"episodes.shard{i}of2.jsonl") for i in range(2)]
