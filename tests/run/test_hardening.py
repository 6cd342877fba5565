"""Rollout hardening (issue 9): episodes that fail mid-way keep what was played, bad settings
fail before the first episode, one run per folder, tables never shrink, outputs readable,
provenance, resume notes, --help, the solver's view in every header."""

from __future__ import annotations

import itertools
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.run import rollout
from comma_env.run.results import read_episodes
from tests.support.loopback_server import Loopback
from tests.support.timing import cpu_seconds

ENV = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")


def cfg(tmp_path: Path, **overrides):
    base = {"puzzles": ["wire"], "episodes": 4, "out_dir": str(tmp_path / "run"), "progress_bar": False}
    base.update(overrides)
    return base


def cli(cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "comma_env.rollout", *args], cwd=cwd, env=env or ENV,
                          capture_output=True, text=True, timeout=timeout)


def start_cli(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "comma_env.rollout", *args], cwd=cwd, env=env or ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- 9.1: a failure mid-way keeps the transcript, tokens and turns -----------------------------
class ChattyPlayer(Player):
    """Says nothing useful; raises (or sends the trigger) at its `fail_at`-th message."""

    needs_observation = False

    def __init__(self, fail_at: int | None, mode: str) -> None:
        self.fail_at, self.mode, self.calls = fail_at, mode, 0

    async def act(self, observation, info) -> Reply:
        self.calls += 1
        if self.calls == self.fail_at:
            if self.mode == "raise":
                raise ConnectionError("the model server went away")
            return Reply("TRIGGER-ENV-BUG " + "7" * 5000, prompt_tokens=11, completion_tokens=5, calls=1)
        return Reply(f"message {self.calls}", prompt_tokens=11, completion_tokens=5, calls=1)


class ChattyPolicy(Policy):
    name = "chatty"

    def __init__(self, fail_at: int | None, mode: str) -> None:
        self.fail_at, self.mode = fail_at, mode

    def player(self, role, env, seed):
        return ChattyPlayer(self.fail_at if role == "solver" else None, self.mode)


@pytest.mark.parametrize("mode", ["raise", "env_bug"])
def test_an_episode_that_fails_mid_way_keeps_what_was_played(tmp_path, monkeypatch, mode):
    from comma_env.privacy import ConversationLeaks

    real = ConversationLeaks.solver_said

    def buggy_leak_check(self, text, *args, **kwargs):  # the class of bug of issue 9.1 (int-string limit)
        if "TRIGGER-ENV-BUG" in text:
            raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ConversationLeaks, "solver_said", buggy_leak_check)
    monkeypatch.setattr(rollout, "make_policies",
                        lambda p: {"solver": ChattyPolicy(3, mode), "expert": ChattyPolicy(3, mode)})
    results = rollout.run(cfg(tmp_path, episodes=1), quiet=True)
    (record,) = records(tmp_path / "run" / "episodes.jsonl")
    assert record["error"] and record["end_reason"] == "error"
    assert ("ConnectionError" if mode == "raise" else "integer string conversion") in record["error"]
    assert [t["turn"] for t in record["transcript"]] == [1, 2]  # the two turns played are kept
    assert record["transcript"][0]["solver"] == "message 1" and record["transcript"][1]["expert"] == "message 2"
    assert record["turns_played"] >= 2 and record["turns"] == 10
    keys = list(record)
    assert keys.index("turns_played") < keys.index("turns")  # what happened first, the paper's metric after
    solver_calls = 2 if mode == "raise" else 3  # the message whose step raised was paid for
    assert record["tokens_by_role"]["solver"]["calls"] == solver_calls
    assert record["tokens_by_role"]["expert"]["calls"] == 2
    assert record["tokens"] == 5 * (solver_calls + 2)
    if mode == "env_bug":
        assert record["failed_message"].startswith("TRIGGER-ENV-BUG") and len(record["failed_message"]) < 2100
    assert results["overall"]["errors"] == 1 and results["overall"]["n"] == 0


# -- 9.4: fail before running ---------------------------------------------------------------------
def test_bad_settings_fail_before_the_first_episode_with_one_line(tmp_path):
    srv_free = rollout_free_port()
    env = {k: v for k, v in ENV.items() if k != "NO_SUCH_KEY_VAR"}
    cases = {
        "missing_key": ["model=openai_compat", "model.api_key_env=NO_SUCH_KEY_VAR", "model.api_base=http://127.0.0.1:1/v1"],
        "puzzle_option": ["+puzzle_options.wire.colour=red"],
        "nan": ["model=openai_compat", "model.temperature=nan"],
        "timeout": ["model=openai_compat", "model.timeout=0"],
        "unreachable": ["model=openai_compat", f"model.api_base=http://127.0.0.1:{srv_free}/v1"],
    }
    expected = {"missing_key": "NO_SUCH_KEY_VAR is not set", "puzzle_option": "puzzle_options.wire",
                "nan": "temperature must be a finite number", "timeout": "timeout must be > 0",
                "unreachable": f"cannot reach the server at http://127.0.0.1:{srv_free}/v1"}
    procs = {name: start_cli(tmp_path, *args, "puzzles=[wire]", "episodes=2", f"out_dir={tmp_path / name}",
                             "progress_bar=false", env=env) for name, args in cases.items()}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        assert proc.returncode != 0, (name, err)
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in err, (name, err)
        assert expected[name] in lines[0], (name, lines[0])
        assert not (tmp_path / name / "episodes.jsonl").exists(), name  # nothing ran


def rollout_free_port() -> int:
    from comma_env.agents.servers import free_port

    return free_port()


def test_preflight_passes_a_live_server_and_names_a_dead_one():
    import asyncio

    from comma_env.agents.preflight import PreflightError, check_servers, endpoints
    from comma_env.run.config import ModelConfig

    with Loopback() as srv:
        good = ModelConfig(kind="litellm", name="loop", model="openai/loopback", api_base=srv.api_base)
        assert len(endpoints([("solver", good), ("expert", good)])) == 1  # one call per server
        asyncio.run(check_servers([("solver", good), ("expert", good)]))
    with pytest.raises(PreflightError, match="solver model 'loop': cannot reach the server"):
        asyncio.run(check_servers([("solver", good)]))
    creds = ModelConfig(kind="litellm", name="c", model="openai/x", api_base=f"http://me:sk-PRE-123@127.0.0.1:{srv.port}/v1")
    with pytest.raises(PreflightError) as failed:
        asyncio.run(check_servers([("solver", creds)]))
    assert "sk-PRE-123" not in str(failed.value) and "***@127.0.0.1" in str(failed.value)


def test_error_episodes_are_reported_apart_and_prominently(tmp_path, monkeypatch, capsys):
    class Flaky(Policy):
        name = "flaky"

        def player(self, role, env, seed):
            return ChattyPlayer(1 if seed % 2 else None, "raise")

    monkeypatch.setattr(rollout, "make_policies", lambda p: {"solver": Flaky(), "expert": Flaky()})
    results = rollout.run(cfg(tmp_path, episodes=4))
    shown = capsys.readouterr()
    assert "WARNING: 2 of 4 episodes ended in an error" in shown.err
    assert results["overall"]["n"] == 2 and results["overall"]["errors"] == 2
    assert results["overall"]["psr"] == 0.0 and results["errors_by_puzzle"] == {"wire": 2}
    md = (tmp_path / "run" / "results.md").read_text()
    assert "**WARNING: 2 of 4 episodes ended in an error" in md.split("## ")[0]  # above the first table


# -- 9.6: one run per folder ----------------------------------------------------------------------
def test_one_run_per_folder_and_stale_locks_are_taken_over(tmp_path):
    out = tmp_path / "run"
    first = start_cli(tmp_path, "puzzles=[wire]", "episodes=1000000", "concurrency=1", f"out_dir={out}",
                      "progress_bar=false")
    try:
        deadline = time.time() + 60
        path = out / "episodes.jsonl"
        while time.time() < deadline and (not path.exists() or path.stat().st_size < 1000):
            time.sleep(0.1)
        second = cli(tmp_path, "puzzles=[wire]", "episodes=5", f"out_dir={out}", "progress_bar=false")
        assert second.returncode == 1, second.stderr
        assert f"pid {first.pid}" in second.stderr and "in use by another run" in second.stderr
        assert "started 20" in second.stderr and len(second.stderr.strip().splitlines()) == 1
    finally:
        os.kill(first.pid, signal.SIGKILL)  # a hard kill leaves the lock file behind
        first.communicate(timeout=30)
    lock = json.loads((out / ".rollout.lock").read_text())
    assert lock["pid"] == first.pid
    third = cli(tmp_path, "puzzles=[wire]", "episodes=5", f"out_dir={out}", "progress_bar=false")
    assert third.returncode == 0, third.stderr
    assert f"taking over the lock of a run that is no longer running (pid {first.pid}" in third.stderr


def test_shards_of_one_run_lock_their_own_files(tmp_path):
    from comma_env.run.runlock import LockHeld, RunLock

    with RunLock(tmp_path / ".rollout.shard0of2.lock"), RunLock(tmp_path / ".rollout.shard1of2.lock"):
        with pytest.raises(LockHeld, match=f"pid {os.getpid()}"):
            RunLock(tmp_path / ".rollout.shard0of2.lock").acquire()


# -- 9.7: results never clobbered -----------------------------------------------------------------
def test_a_quick_run_into_a_full_runs_folder_keeps_its_tables(tmp_path):
    full = rollout.run(cfg(tmp_path, puzzles=["wire", "who"], episodes=20), quiet=True)
    before = json.loads((tmp_path / "run" / "results.json").read_text())
    quick = rollout.run(cfg(tmp_path, puzzles=["wire"], episodes=5), quiet=True)
    after = json.loads((tmp_path / "run" / "results.json").read_text())
    assert quick["overall"]["n"] == full["overall"]["n"] == after["overall"]["n"] == 40
    assert after["puzzles"] == before["puzzles"]
    assert after["meta"]["this_run"] == {"puzzles": ["wire"], "seeds": "0..4", "episodes_planned": 5,
                                         "episodes_recorded": 5}
    assert "40 finished episodes (all the folder holds" in (tmp_path / "run" / "results.md").read_text()
    # new seeds of the same setting extend the tables rather than replace them
    extended = rollout.run(cfg(tmp_path, puzzles=["wire"], episodes=5, seed=100), quiet=True)
    assert extended["puzzles"]["wire"]["n"] == 25 and extended["meta"]["seeds"] == "0..19, 100..104"


# -- 9.11: small things ---------------------------------------------------------------------------
def test_outputs_are_world_readable_and_carry_provenance(tmp_path):
    old = os.umask(0o022)
    try:
        rollout.run(cfg(tmp_path), quiet=True)
    finally:
        os.umask(old)
    out = tmp_path / "run"
    for name in ("results.json", "results.md", "config.yaml", "episodes.jsonl"):
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o644, name
    results = json.loads((out / "results.json").read_text())
    prov = results["meta"]["provenance"]
    assert prov["comma_env"] and prov["python"].count(".") == 2 and "pettingzoo" in prov["libraries"]
    repo = Path(rollout.__file__).resolve().parents[1]
    if (repo / ".git").exists():  # run from a checkout (the tests always are, but not from a wheel)
        assert len(prov["git"]["commit"]) == 40 and isinstance(prov["git"]["dirty"], bool)
    import yaml

    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert saved["provenance"]["libraries"]["pettingzoo"] == prov["libraries"]["pettingzoo"]


def test_out_dir_that_is_a_file_gets_one_line(tmp_path):
    (tmp_path / "taken").write_text("not a folder")
    done = cli(tmp_path, "puzzles=[wire]", "episodes=2", f"out_dir={tmp_path / 'taken'}", "progress_bar=false")
    assert done.returncode == 1 and done.stderr.strip() == (
        f"comma_env.rollout: out_dir {tmp_path / 'taken'} exists and is not a folder; choose another out_dir")
    inside = cli(tmp_path, "puzzles=[wire]", "episodes=2", f"out_dir={tmp_path / 'taken' / 'sub'}",
                 "progress_bar=false")
    assert inside.returncode == 1 and len(inside.stderr.strip().splitlines()) == 1
    assert "cannot create out_dir" in inside.stderr


@pytest.fixture
def tiny_mount(tmp_path):
    """A real 256 KiB tmpfs (needs the right to mount, as root in CI containers usually has)."""
    point = tmp_path / "mnt"
    point.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(point)], capture_output=True,
                          text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({made.stderr.strip()}); full-disk and read-only cases untested")
    yield point
    subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_full_disk_and_read_only_out_dir_get_one_line(tmp_path, tiny_mount):
    full = cli(tmp_path, "puzzles=[wire,who,atm]", "episodes=3000", f"out_dir={tiny_mount / 'run'}",
               "progress_bar=false")
    assert full.returncode == 1, full.stderr[-2000:]
    assert full.stderr.strip().splitlines()[-1].startswith("comma_env.rollout: cannot write outputs")
    assert "No space left on device" in full.stderr and "Traceback" not in full.stderr
    kept = read_episodes(tiny_mount / "run" / "episodes.jsonl", repair=False)
    assert kept and all(r["puzzle"] in ("wire", "who", "atm") for r in kept)  # what fitted is intact
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_mount)], check=True)
    ro = cli(tmp_path, "puzzles=[wire]", "episodes=2", f"out_dir={tiny_mount / 'other'}", "progress_bar=false")
    assert ro.returncode == 1 and "Read-only file system" in ro.stderr and "Traceback" not in ro.stderr
    assert len(ro.stderr.strip().splitlines()) == 1


def test_resume_says_how_many_episodes_were_done(tmp_path, capsys):
    rollout.run(cfg(tmp_path, episodes=3), quiet=True)
    rollout.run(cfg(tmp_path, episodes=5))
    err = capsys.readouterr().err
    assert "resuming" in err and "3 of 5 episodes already done" in err and "2 to run" in err


def test_help_describes_each_field(tmp_path):
    from comma_env.run.config import field_help

    done = cli(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    for name, _, text in field_help():
        assert text, f"{name} has no help text"
        lines = done.stdout.splitlines()
        start = next((i for i, line in enumerate(lines) if line.strip().startswith(name + " ")), None)
        assert start is not None, name
        entry = [lines[start]]  # the field's line and its wrapped continuation lines
        entry += itertools.takewhile(lambda line: line.startswith(" " * 10), lines[start + 1:])
        assert text in " ".join(part.strip() for part in entry), name
    assert "model.serve.startup_timeout" in done.stdout and "== Configuration groups" in done.stdout


def test_headers_state_the_solvers_view(tmp_path, capsys):
    rollout.run(cfg(tmp_path, out_dir=str(tmp_path / "img")))
    text_model = {"kind": "random", "name": "random", "vision": False}
    rollout.run(cfg(tmp_path, out_dir=str(tmp_path / "txt"), model=text_model))
    shown = capsys.readouterr().out
    assert "solver view: image" in shown and "solver view: text" in shown and "not comparable" in shown
    assert (tmp_path / "img" / "results.md").read_text().startswith("# COMMA results: random (solver view: image)")
    md = (tmp_path / "txt" / "results.md").read_text()
    assert md.splitlines()[0].startswith("# COMMA results: random (solver view: text") and "not comparable" in md
    assert json.loads((tmp_path / "txt" / "results.json").read_text())["meta"]["solver_view"] == "text"
    assert "turns_played" in md  # `turns` is explained where it is written


def test_running_score_matches_a_full_recount():
    import random

    rng = random.Random(0)
    made = [{"success": rng.random() < 0.3, "progress": rng.random(), "error": "x" if rng.random() < 0.1 else None}
            for _ in range(500)]
    score = rollout.RunningScore()
    for i, record in enumerate(made, 1):
        score.add(record)
        done = [r for r in made[:i] if not r["error"]]
        errors = i - len(done)
        expected = (f"SR {100 * sum(r['success'] for r in done) / len(done):.1f} "
                    f"PSR {100 * sum(r['progress'] for r in done) / len(done):.1f}") if done else ""
        if errors:
            expected = f"{expected} errors {errors}".strip()
        assert str(score) == expected


# -- 9.3: no secret reaches the disk or the wrong place -----------------------------------------
FAKE_KEY = "sk-FAKE-9c2e71-DO-NOT-WRITE"


def _every_file_text(root: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def test_a_fake_key_through_every_route_never_reaches_disk_or_output(tmp_path):
    env = dict(ENV, FAKE_KEY_VAR=FAKE_KEY)
    captured: list[str] = []
    with Loopback("--fault-rate", "0.2", "--faults", "500") as srv:
        host = f"127.0.0.1:{srv.port}"
        accepted = cli(tmp_path, "-m", "model=openai_compat", "model.name=loopback", "model.vision=false",
                       f"model.api_base=http://user:{FAKE_KEY}@{host}/v1",
                       f"+model.extra.extra_headers.X-Api-Key={FAKE_KEY}", "model.max_retries=0",
                       "puzzles=[wire]", "episodes=3", "seed=0,10", f"out_dir={tmp_path / 'run'}", "progress_bar=false",
                       env=env)
        # the key from its environment variable, in the Authorization header
        by_name = cli(tmp_path, "model=openai_compat", "model.name=loopback", "model.vision=false",
                      f"model.api_base=http://{host}/v1", "model.api_key_env=FAKE_KEY_VAR", "model.max_retries=0",
                      "puzzles=[wire]", "episodes=2", f"out_dir={tmp_path / 'by_name'}", "progress_bar=false", env=env)
    for done in (accepted, by_name):  # played (a call the server fails is an episode's error, not the run's)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr[-3000:]
        captured += [done.stdout, done.stderr]
    assert records(tmp_path / "run" / "episodes.jsonl") and records(tmp_path / "by_name" / "episodes.jsonl")
    refused = {
        "openai_api_key": [f"+model.extra.openai_api_key={FAKE_KEY}"],
        "API_KEY": [f"+model.extra.API_KEY={FAKE_KEY}"],
        "api_key_env": [f"model.api_key_env={FAKE_KEY}"],
        "literal": [f"+model.extra.extra_headers={{Authorization: {FAKE_KEY}}}"],
        # credentials in the URL beside a key's header: the server would get two (aiohttp sends neither)
        "url_and_key_env": [f"model.api_base=http://user:{FAKE_KEY}@127.0.0.1:9/v1", "model.api_key_env=FAKE_KEY_VAR"],
    }
    procs = {name: start_cli(tmp_path, "-m", "model=openai_compat", *args, "puzzles=[wire]", "episodes=2", "seed=0,1",
                             f"out_dir={tmp_path / name}", "progress_bar=false", env=env)
             for name, args in refused.items()}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, (name, err[-2000:])
        assert "comma_env.rollout:" in err and "Traceback" not in err, (name, err[-2000:])
        captured += [out, err]
    everything = _every_file_text(tmp_path) + "\n".join(captured)
    assert (tmp_path / "outputs" / "multirun" / "multirun.yaml").exists()  # Hydra's own files were searched
    assert FAKE_KEY not in everything
    assert FAKE_KEY.split("-")[2] not in everything  # not even a piece of it
    assert "***@" + host in (tmp_path / "run" / "config.yaml").read_text()
    assert "X-Api-Key: '***'" in (tmp_path / "run" / "config.yaml").read_text()


# -- 9.11: launched servers say they are starting; dead or stalled ones stop the run ------------
LOOPBACK = Path(__file__).resolve().parents[1] / "support" / "loopback_server.py"


def _fake_vllm(bin_dir: Path, pid_file: Path) -> None:
    """A `vllm` that writes its pid and serves the loopback server (slowly) instead."""
    bin_dir.mkdir()
    script = bin_dir / "vllm"
    script.write_text(
        f"#!{sys.executable}\n"
        "import os, runpy, sys\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        f"sys.argv = [{str(LOOPBACK)!r}] + sys.argv[1:] + ['--model', sys.argv[2], '--latency', '0.05']\n"
        f"runpy.run_path({str(LOOPBACK)!r}, run_name='__main__')\n"
    )
    script.chmod(0o755)


@pytest.mark.parametrize("fault", ["dies", "stalls"])
def test_a_launched_server_that_dies_or_stalls_stops_the_run_with_one_line(tmp_path, fault):
    from comma_env.agents.servers import free_port

    pid_file = tmp_path / "server.pid"
    _fake_vllm(tmp_path / "bin", pid_file)
    env = dict(ENV, PATH=f"{tmp_path / 'bin'}{os.pathsep}{ENV['PATH']}")
    port = free_port()
    out = tmp_path / "run"
    proc = start_cli(tmp_path, "model=qwen2vl", "model.serve.launch=true", f"model.serve.port={port}",
                     f"model.api_base=http://127.0.0.1:{port}/v1", "model.vision=false", "model.serve.stall_timeout=3",
                     "puzzles=[wire]", "episodes=400", "concurrency=2", f"out_dir={out}", "progress_bar=false", env=env)
    try:
        deadline = time.time() + 90
        path = out / "episodes.jsonl"
        while time.time() < deadline and (not path.exists() or path.read_text().count("\n") < 2):
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            time.sleep(0.2)
        server_pid = int(pid_file.read_text())
        os.kill(server_pid, signal.SIGKILL if fault == "dies" else signal.SIGSTOP)
        stopped_at = time.time()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        if fault == "stalls":
            with contextlib_suppress():
                os.kill(server_pid, signal.SIGKILL)
    assert time.time() - stopped_at < 30  # reported, not retried for minutes
    assert proc.returncode == 1, err[-3000:]
    assert "starting a model server" in err and f"log: {out / 'logs'}" in err and "ready after" in err
    last = [line for line in err.splitlines() if line.startswith("comma_env.rollout:")]
    assert len(last) == 1, err[-3000:]
    assert ("exited with code" if fault == "dies" else "has not answered for 3 s (stalled)") in last[0]
    finished = read_episodes(path, repair=False)
    assert 2 <= len(finished) < 400
    assert json.loads((out / "results.json").read_text())["meta"]["episodes_in_folder"] == len(finished)


def contextlib_suppress():
    import contextlib

    return contextlib.suppress(ProcessLookupError)


def test_llama_cpp_threads_follow_the_machine(tmp_path, monkeypatch):
    from comma_env.agents import servers
    from comma_env.agents.servers import ServeConfig, build_command, server_threads

    pkg = tmp_path / "fake_gguf_pkg2"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "m.gguf").write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path))
    cmd = build_command(ServeConfig(backend="llama_cpp", hf_model="pkg:fake_gguf_pkg2"), 9)
    assert cmd[cmd.index("--n_threads") + 1] == str(server_threads())
    assert server_threads() == max(1, len(os.sched_getaffinity(0)) - 1)
    for cpus, threads in ((1, 1), (2, 1), (3, 2), (16, 15)):  # one CPU left for the rest, never zero threads
        monkeypatch.setattr(servers.os, "sched_getaffinity", lambda pid, cpus=cpus: set(range(cpus)))
        cmd = build_command(ServeConfig(backend="llama_cpp", hf_model="pkg:fake_gguf_pkg2"), 9)
        assert cmd[cmd.index("--n_threads") + 1] == str(threads)
    pinned = build_command(ServeConfig(backend="llama_cpp", hf_model="pkg:fake_gguf_pkg2",
                                       args=["--n_threads", "1"]), 9)
    assert pinned.count("--n_threads") == 1 and pinned[pinned.index("--n_threads") + 1] == "1"
    from omegaconf import OmegaConf

    shipped = OmegaConf.load(Path(__file__).resolve().parents[2] / "conf" / "model" / "smollm2_cpu.yaml")
    assert "--n_threads" not in shipped.serve.args  # follows the machine
    assert shipped.timeout * (shipped.max_retries + 1) <= 600  # a dead call gives up within minutes, not 15+


def test_log_lines_are_masked_while_a_run_holds_secrets(capsys):
    import logging

    from comma_env.run.redact import masking_logs

    logger = logging.getLogger("some.library")
    handler = logging.StreamHandler(sys.stderr)
    logging.getLogger().addHandler(handler)
    try:
        with masking_logs([FAKE_KEY]):
            logger.warning("retrying %s with key %s", f"http://u:{FAKE_KEY}@h/v1", FAKE_KEY)
        logger.warning("after: %s", "plain")
    finally:
        logging.getLogger().removeHandler(handler)
    err = capsys.readouterr().err
    assert FAKE_KEY not in err and "retrying http://***@h/v1 with key ***" in err and "after: plain" in err


def test_shield_argv_moves_every_secret_bearing_value_out_of_the_command_line():
    from comma_env.run.redact import UnsafeOverride, shield_argv

    environ: dict[str, str] = {}
    argv = ["-m", f"model.api_base=http://u:{FAKE_KEY}@h:1/v1", f"+model.extra.openai_api_key={FAKE_KEY}",
            f"solver.api_key_env={FAKE_KEY}", "expert.api_key_env=OPENAI_API_KEY", f"+expert.extra.API_KEY={FAKE_KEY}",
            f"hydra.job.env_set.OPENAI_API_KEY={FAKE_KEY}", "model.max_tokens=64", "episodes=3", "seed=0,1"]
    shielded = shield_argv(argv, environ)
    assert FAKE_KEY not in " ".join(shielded)
    assert shielded[0] == "-m" and shielded[-3:] == ["model.max_tokens=64", "episodes=3", "seed=0,1"]
    assert "expert.api_key_env=OPENAI_API_KEY" in shielded  # a variable's name stays as written
    assert shielded[1] == "model.api_base=http://${oc.env:COMMA_ENV_SECRET_0}@h:1/v1"
    assert sorted(environ.values()) == sorted([f"u:{FAKE_KEY}"] + [FAKE_KEY] * 4)
    with pytest.raises(UnsafeOverride) as refused:
        shield_argv([f"+model.extra.extra_headers={{Authorization: {FAKE_KEY}}}"], {})
    assert FAKE_KEY not in str(refused.value)


def test_masking_is_linear_on_adversarial_text():
    from comma_env.run.redact import is_key_like, mask

    nasty = ["a" * 200_000, "://" * 70_000, "http://" + "u:" * 100_000, ("x://" + "y" * 50) * 4000]
    for text in nasty:
        # CPU time, not wall time: the other worker shares the machine
        assert cpu_seconds(mask, text, [FAKE_KEY]) + cpu_seconds(is_key_like, text) < 1.0  # quadratic: minutes
    assert mask(f"x http://a:{FAKE_KEY}@h/ y {FAKE_KEY}", [FAKE_KEY]) == "x http://***@h/ y ***"


def test_reading_a_large_episode_file_is_linear(tmp_path):
    path = tmp_path / "episodes.jsonl"
    path.write_text('{"puzzle": "wire", "seed": 1}\n' * 50_000)
    episodes: list = []
    seconds = cpu_seconds(lambda: episodes.extend(read_episodes(path)))  # CPU: the other worker shares the machine
    assert len(episodes) == 50_000
    assert seconds < 5.0  # a scan of the rest of the file per line: about 30 s here


def test_a_key_passed_as_a_server_flag_is_masked_or_refused():
    from comma_env.run.redact import UnsafeOverride, config_secrets, mask, scrub, shield_argv

    serve = {"serve": {"args": ["--port", "8000", "--api-key", FAKE_KEY, "--enable-prefix-caching"]}}
    assert scrub(serve)["serve"]["args"] == ["--port", "8000", "--api-key", "***", "--enable-prefix-caching"]
    assert FAKE_KEY in config_secrets(serve) and FAKE_KEY not in mask(f"failed: {FAKE_KEY}", config_secrets(serve))
    with pytest.raises(UnsafeOverride, match="VLLM_API_KEY") as refused:
        shield_argv([f"model.serve.args=[--api-key,{FAKE_KEY}]"], {})
    assert FAKE_KEY not in str(refused.value)
    assert shield_argv(["model.serve.args=[--max-model-len,8192]"], {}) == ["model.serve.args=[--max-model-len,8192]"]


def test_a_puzzle_whose_episodes_all_failed_is_listed_without_rates(tmp_path, monkeypatch, capsys):
    class FailsOnAtm(Policy):
        name = "fails-on-atm"

        def player(self, role, env, seed):
            return ChattyPlayer(1 if env.unwrapped.puzzle_cls.name == "atm" else None, "raise")

    monkeypatch.setattr(rollout, "make_policies", lambda p: {"solver": FailsOnAtm(), "expert": FailsOnAtm()})
    results = rollout.run(cfg(tmp_path, puzzles=["wire", "atm"], episodes=3))
    atm = results["puzzles"]["atm"]
    assert atm["n"] == 0 and atm["errors"] == 3 and atm["psr"] is None and atm["sr"] is None
    assert results["puzzles"]["wire"]["n"] == 3 and results["overall"]["n"] == 3
    md = (tmp_path / "run" / "results.md").read_text()
    table1 = md.split("## Partial success rate (Table 1)")[1].split("##")[0]
    assert "| –" in table1 and "Privacy" not in md  # no rate shown for ATM, not a zero
    console = capsys.readouterr().out
    assert next(line for line in console.splitlines() if line.startswith("ATM")).split()[1:3] == ["0", "–"]
