"""The rollout's command line: no silent no-op, one exit code per kind of failure, nothing
left behind by a run that never began, and fast answers to --help and to mistakes."""

from __future__ import annotations

import os
import re
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
    # a key in the URL and one named by api_key_env: aiohttp would refuse every call
    ("model=openai_compat model.api_base=http://u:sk-not@127.0.0.1:9/v1 model.api_key_env=OPENAI_API_KEY",
     "carries credentials (user:password@)"),
])
def test_configuration_errors_exit_2_before_anything_runs(tmp_path, override, says):
    done = rollout(*override.split(), "puzzles=[wire]", "episodes=1", f"out_dir={tmp_path / 'out'}", cwd=tmp_path)
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
        listed = re.split(r"\n  (?! )", done.stdout.split(f"  {group}: ")[1])[0]  # wrapped lines included
        assert "oracle_nl" in listed
    assert "Exit codes: 0 done; 2 configuration error" in done.stdout


def test_help_and_errors_import_neither_hydra_nor_the_model_clients(tmp_path):
    for args in (["--help"], ["+episode=1"]):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "comma_env.rollout", *args],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                    if line.startswith("import time")}
        heavy = {"hydra", "litellm", "matplotlib", "httpx", "PIL", "comma_env.drawing", "comma_env.run.rollout"}
        assert imported and not heavy & imported, args


# -- issue 58: exit codes that tell the truth, hints that work ----------------------------------
def test_a_server_that_is_not_openai_compatible_is_refused_before_the_first_episode(tmp_path):
    """A wrong path (no /v1) answers 404 to /models: the pre-flight says so, exit 1, no folder."""
    from tests.support.loopback_server import Loopback

    with Loopback() as server:
        done = rollout("model=openai_compat", f"model.api_base=http://127.0.0.1:{server.port}", "puzzles=[wire]",
                       "episodes=1", cwd=tmp_path)
    assert done.returncode == EXIT_RUN_ERROR, done.stderr
    assert "HTTP 404" in done.stderr and "/v1" in done.stderr
    assert not (tmp_path / "outputs").exists()


def test_a_run_in_which_every_model_call_fails_exits_1(tmp_path):
    from tests.support.loopback_server import Loopback

    with Loopback("--fault-rate", "1", "--faults", "500") as server:
        done = rollout("model=openai_compat", f"model.api_base={server.api_base}", "model.max_retries=0",
                       "puzzles=[wire]", "episodes=2", f"out_dir={tmp_path / 'out'}", "progress_bar=false",
                       cwd=tmp_path)
    assert done.returncode == EXIT_RUN_ERROR, done.stderr
    assert "2 of 2 episodes ended in an error" in done.stderr and "nothing could be played" in done.stderr
    assert (tmp_path / "out" / "episodes.jsonl").is_file()  # the errors are recorded, so a rerun retries them


def test_the_local_server_hint_names_a_model_vllm_can_load(tmp_path):
    port = free_port()
    done = rollout("model=openai_compat", f"model.api_base=http://127.0.0.1:{port}/v1", "puzzles=[wire]",
                   "episodes=1", cwd=tmp_path)
    assert done.returncode == EXIT_RUN_ERROR, done.stderr
    assert "vllm serve openai/" not in done.stderr  # LiteLLM's provider prefix is no model id
    assert "--served-model-name served-model" in done.stderr and "model.serve.hf_model=" in done.stderr
    launch = rollout("model=openai_compat", "model.serve.launch=true", "puzzles=[wire]", "episodes=1", cwd=tmp_path)
    assert launch.returncode == EXIT_CONFIG_ERROR, launch.stderr
    assert "model.serve.hf_model" in launch.stderr and not (tmp_path / "outputs").exists()


@pytest.mark.parametrize("override, says", [
    ("episodes=0", "episodes must be >= 1"),
    ("puzzles=wire", "puzzles=[wire]"),
    ("model=oracel", "did you mean oracle?"),
])
def test_more_mistakes_exit_2_with_a_message_that_helps(tmp_path, override, says):
    args = [a for a in ("puzzles=[wire]", "episodes=1") if a.split("=")[0] != override.split("=")[0]]
    done = rollout(override, *args, f"out_dir={tmp_path / 'out'}", cwd=tmp_path)
    assert done.returncode == EXIT_CONFIG_ERROR, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_help_fits_a_terminal(tmp_path):
    done = rollout("--help", cwd=tmp_path)
    assert done.returncode == EXIT_OK
    assert max(len(line) for line in done.stdout.splitlines()) <= 100
