"""Ruff and mypy, as configured in pyproject.toml ([tool.ruff], [tool.mypy]), find nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.lint


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_mypy_finds_nothing() -> None:
    """The whole package and the example scripts (``files`` in [tool.mypy])."""
    result = _run("mypy")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Success: no issues found" in result.stdout
