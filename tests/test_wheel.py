"""The built wheel works on its own: configs and manuals ship inside it and the rollout runs
from any directory after a plain install (not editable) into a fresh venv.

The fresh venv gets the wheel with ``--no-deps``; the dependencies come from the test's
own environment through a ``.pth`` line (a path listed in a .pth file is not itself
scanned for .pth files, so the editable install's hook to the source tree stays out).
No network is needed when the build backend (hatchling) is installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def build_wheel(dest: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dest), str(REPO)]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(4, "--no-build-isolation")
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    wheels = list(dest.glob("comma_env-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.mark.timeout(180)
def test_wheel_installs_and_rolls_out_from_anywhere(tmp_path):
    wheel = build_wheel(tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("comma_env/conf/config.yaml", "comma_env/conf/model/random.yaml", "comma_env/conf/model/qwen2vl.yaml",
                     "comma_env/conf/solver/gpt4o.yaml", "comma_env/manuals/wire.md", "comma_env/run/rollout.py",
                     "comma_env/agents/factory.py"):
        assert required in names, required

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    site = Path(subprocess.check_output([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        text=True).strip())
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                             capture_output=True, text=True, timeout=180)
    assert install.returncode == 0, install.stderr[-3000:]
    (site / "zz_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    where = subprocess.run([str(python), "-c", "import comma_env, comma_env.agents.factory; from comma_env.protocol.resources import conf_dir, "
                            "manuals_dir; print(comma_env.__file__); print(conf_dir()); print(manuals_dir())"],
                           cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert str(site) in line and str(REPO) not in line, line  # the wheel, not the checkout

    done = subprocess.run([str(python), "-m", "comma_env.rollout", "puzzles=[wire]", "episodes=5", "model=oracle"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((cwd / "outputs" / "oracle" / "results.json").read_text())
    assert results["puzzles"]["wire"]["sr"] == 100.0 and results["overall"]["n"] == 5
