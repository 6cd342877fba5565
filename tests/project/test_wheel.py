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
import re
import shlex
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def extras() -> dict[str, list[str]]:
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]


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
    for required in ("comma_env/conf/config.yaml", "comma_env/conf/model/random.yaml",
                     "comma_env/conf/model/qwen2vl.yaml",
                     "comma_env/conf/solver/gpt4o.yaml", "comma_env/manuals/wire.md", "comma_env/run/rollout.py",
                     "comma_env/agents/factory.py"):
        assert required in names, required

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    site = Path(subprocess.check_output([str(python), "-c",
                                         "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        text=True).strip())
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                              str(wheel)],
                             capture_output=True, text=True, timeout=180)
    assert install.returncode == 0, install.stderr[-3000:]
    (site / "zz_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    where = subprocess.run([str(python), "-c",
                            "import comma_env, comma_env.agents.factory; "
                            "from comma_env.protocol.resources import conf_dir, manuals_dir; "
                            "print(comma_env.__file__); print(conf_dir()); print(manuals_dir())"],
                           cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert str(site) in line and str(REPO) not in line, line  # the wheel, not the checkout

    # The install hint the report and play print after a wheel install names the extra's own
    # requirements (comma-env is not on PyPI, so "comma-env[web]" would not resolve).
    hint = subprocess.run([str(python), "-c",
                           "import comma_env; from comma_env.protocol.resources import install_hint; "
                           "print(comma_env.__version__); print(install_hint('web'))"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert hint.returncode == 0, hint.stderr
    version, command = hint.stdout.strip().splitlines()
    assert wheel.name.startswith(f"comma_env-{version}-")
    words = shlex.split(command)
    assert words[:2] == ["pip", "install"] and sorted(words[2:]) == sorted(extras()["web"]), command
    # ... and pip accepts it as printed (offline: the test's own packages satisfy it)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", *words[2:]],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]

    done = subprocess.run([str(python), "-m", "comma_env.rollout", "puzzles=[wire]", "episodes=5", "model=oracle"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((cwd / "outputs" / "oracle" / "results.json").read_text())
    assert results["puzzles"]["wire"]["sr"] == 100.0 and results["overall"]["n"] == 5


HINT_CALL = re.compile(r"install_hint\(\s*[\"']([\w-]+)[\"']")
LITERAL_HINT = re.compile(r"pip install[^\n`]*?\[([\w,-]+)\]")


def test_every_install_hint_names_an_extra_that_exists():
    """Each `install_hint("X")` call and each ``pip install ...[X]`` in the package's source
    names an extra of pyproject.toml, and none says "comma-env[X]" (not on PyPI)."""
    known = set(extras())
    seen = set()
    for path in (REPO / "comma_env").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for match in HINT_CALL.finditer(text):
            assert match.group(1) in known, f"{path}: install_hint({match.group(1)!r})"
            seen.add(match.group(1))
        for match in LITERAL_HINT.finditer(text):
            if "llama-cpp-python" in match.group(0):  # a third-party package's own extra
                continue
            for extra in match.group(1).split(","):
                assert extra in known, f"{path}: {match.group(0)}"
            named = match.group(0)
            assert "comma-env[" not in named and "comma_env[" not in named, f"{path}: {named}"
    assert {"web", "human"} <= seen


def test_the_checkout_hint_is_an_editable_install_of_this_checkout():
    from comma_env.protocol.resources import install_hint

    assert install_hint("web") == f'pip install -e "{REPO}[web]"'


@pytest.mark.timeout(300)
def test_sdist_and_wheel_build_and_pass_twine_check(tmp_path):
    """What a release uploads: `python -m build` (sdist, then the wheel from it) and
    `twine check` on both (the README renders as the long description)."""
    pytest.importorskip("build")
    pytest.importorskip("twine")
    cmd = [sys.executable, "-m", "build", "--outdir", str(tmp_path), str(REPO)]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(3, "--no-isolation")  # no network needed
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    built = sorted(p.name for p in tmp_path.iterdir())
    import comma_env

    assert built == [f"comma_env-{comma_env.__version__}-py3-none-any.whl",
                     f"comma_env-{comma_env.__version__}.tar.gz"], built
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, tmp_path.iterdir())],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
