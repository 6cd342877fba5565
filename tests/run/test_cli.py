"""The rollout's command line: no silent no-op, one exit code per kind of failure, nothing
left behind by a run that never began, and fast answers to --help and to mistakes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from comma_env.protocol.resources import conf_dir
from comma_env.run.cli import EXIT_CONFIG_ERROR, EXIT_OK, EXIT_RUN_ERROR, check_override


def rollout(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "comma_env.rollout", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)


@pytest.mark.parametrize("override, says", [
    ("+episode=1", "unknown key 'episode' (did you mean episodes?)"),
    ("episdes=1", "did you mean episodes?"),
    ("+model.serve.lanch=true", "did you mean model.serve.launch?"),
    ("episodes=many", "takes a whole number"),
    ("memory=some", "choose one of full, last"),
    ("model=gtp4o", "no option 'gtp4o' in model/"),
    ("episodes=[1,2", "HYDRA_FULL_ERROR"),
    ("puzzles=[wire,nosuch]", "unknown puzzle(s) ['nosuch']"),
    ("model.temperature=-1", "temperature must be a finite number >= 0"),
    # Hydra's own grammar error: still a configuration error
    ("model.temperature=sk-not-a-number", "model.temperature takes a number"),
])
def test_configuration_errors_exit_2_before_anything_runs(tmp_path, override, says):
    done = rollout(override, "puzzles=[wire]", "episodes=1", f"out_dir={tmp_path / 'out'}", cwd=tmp_path)
    assert done.returncode == EXIT_CONFIG_ERROR, done.stderr
    assert says in done.stderr and "sk-not" not in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "outputs").exists()


def test_free_form_keys_keep_working(tmp_path):
    done = rollout("+model.extra.top_p=0.9", "+puzzle_options.telehealth.lesion_source=synthetic",
                   "puzzles=[wire,telehealth]", "episodes=1", f"out_dir={tmp_path / 'out'}", "progress_bar=false",
                   cwd=tmp_path)
    assert done.returncode == EXIT_OK, done.stderr
    assert len((tmp_path / "out" / "episodes.jsonl").read_text().splitlines()) == 2
    assert check_override("+solver.extra.anything.deep=1") is None


def test_the_schema_check_also_guards_programmatic_configs():
    from comma_env.run.plan import to_config

    with pytest.raises(ValueError, match="unknown key 'episode'"):
        to_config({"episode": 1})
    assert to_config({"episodes": 2, "puzzle_options": {"wire": {"x": 1}}, "model": {"extra": {"y": 2}}}).episodes == 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_local_server_says_how_to_start_one_and_leaves_no_folder(tmp_path):
    port = free_port()  # nothing listens there once the probe is closed
    done = rollout("model=qwen2vl", f"model.api_base=http://127.0.0.1:{port}/v1", "puzzles=[wire]", "episodes=1",
                   cwd=tmp_path)
    assert done.returncode == EXIT_RUN_ERROR, done.stderr
    assert "vLLM on a GPU" in done.stderr and "model.serve.launch=true" in done.stderr
    assert not (tmp_path / "outputs").exists()  # the failed pre-flight removed the folder it made


def test_help_lists_groups_that_agree_and_documents_exit_codes(tmp_path):
    done = rollout("--help", cwd=tmp_path)
    assert done.returncode == EXIT_OK
    options = {g: sorted(p.stem for p in (Path(conf_dir()) / g).glob("*.yaml")) for g in ("model", "solver", "expert")}
    assert options["model"] == options["solver"] == options["expert"]
    for group in ("model", "solver", "expert"):
        assert f"  {group}: " in done.stdout and "oracle_nl" in done.stdout.split(f"  {group}: ")[1].split("\n")[0]
    assert "Exit codes: 0 done; 2 configuration error" in done.stdout


def test_help_and_errors_import_neither_hydra_nor_the_model_clients(tmp_path):
    for args in (["--help"], ["+episode=1"]):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "comma_env.rollout", *args],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                    if line.startswith("import time")}
        heavy = {"hydra", "litellm", "matplotlib", "httpx", "PIL", "comma_env.drawing", "comma_env.run.rollout"}
        assert imported and not heavy & imported, args
