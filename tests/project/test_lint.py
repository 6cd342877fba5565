"""Ruff and mypy, as configured in pyproject.toml ([tool.ruff], [tool.mypy]), find nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# mypy's incremental cache, once per machine beside the recipes' model folder (examples/recipes/
# hf_model.py, cache_root): a fresh clone re-checks only the files whose content differs from the
# last run's, not every installed library mypy reads (most of a cold run). Entries name paths
# relative to the checkout, and a changed file is checked again (a planted error is still found).
MYPY_CACHE = Path(os.environ.get("COMMA_ENV_CACHE") or Path.home() / ".cache" / "comma_env") / "mypy"

pytestmark = pytest.mark.lint


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_mypy_finds_nothing() -> None:
    """The whole package and the example scripts (``files`` in [tool.mypy])."""
    result = _run("mypy", "--cache-dir", str(MYPY_CACHE))
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Success: no issues found" in result.stdout
