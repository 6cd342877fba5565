"""The lower bounds in pyproject.toml install and work: a fresh venv gets the lowest
version of every core dependency that pyproject.toml allows (``uv pip install
--resolution lowest-direct``), then runs tests/support/lowest_smoke.py in it (import, api_test for
every puzzle, one random-baseline episode per puzzle through the rollout).

Needs network access to PyPI (or uv's cache, under ~/.cache/uv, from an earlier run).
Deselect with ``-m "not lowest"``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.uv_venvs import uv_venv, without_venv

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.lowest, pytest.mark.timeout(900)]


def test_lowest_direct_versions_install_and_play(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy without the developer's build leftovers
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "outputs", "__pycache__", "*.egg-info",
                                                                 "node_modules", ".mypy_cache", ".ruff_cache", "build",
                                                                 "dist", "docs"))
    python = uv_venv(sys.executable, tmp_path / "venv", "--resolution", "lowest-direct", str(source), timeout=600)
    run = subprocess.run([str(python), str(ROOT / "tests" / "support" / "lowest_smoke.py"), str(tmp_path / "out")],
                         cwd=tmp_path, env=without_venv(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    versions_line = next(line for line in run.stdout.splitlines() if line.startswith("versions "))
    installed = json.loads(versions_line.split(" ", 1)[1])
    for package, floor in _floors().items():  # lowest-direct really installed the floors we declare
        if package in RAISED_BY_OTHERS:
            continue
        assert installed[package].split(".")[:2] == floor.split(".")[:2], (package, installed[package], floor)


RAISED_BY_OTHERS = {"typing-extensions"}
"""Floors that another dependency lifts (pydantic, under LiteLLM, wants a newer
typing-extensions): ours is what our own code needs."""


def _floors() -> dict[str, str]:
    """``name -> lower bound`` of the core dependencies in pyproject.toml."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floors = {}
    for requirement in project["dependencies"]:
        name, _, rest = requirement.partition(">=")
        floors[name.strip().lower()] = rest.split(",")[0].split(";")[0].strip()
    return floors
