"""Fresh venvs made with uv (packages from its cache or PyPI), for tests that run code under
an interpreter or dependency versions of their own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def without_venv() -> dict[str, str]:
    """This process's environment without what ties a subprocess to the test's own venv."""
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}


def uv_venv(python: str | Path, where: Path, *install: str, timeout: float) -> Path:
    """A venv of `python` at `where` holding what `install` (``uv pip install`` arguments)
    names, installed within `timeout` seconds; its interpreter."""
    uv = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not Path(uv).exists():
        pytest.fail('uv is not installed: pip install -e ".[test]"')
    env = without_venv()
    subprocess.run([uv, "venv", "-q", "-p", str(python), str(where)], check=True, env=env, timeout=120)
    subprocess.run([uv, "pip", "install", "-q", "--native-tls", *install],
                   check=True, env={**env, "VIRTUAL_ENV": str(where)}, timeout=timeout)
    return where / "bin" / "python"
