"""The drawing core (every puzzle's rules and drawing, numpy and Pillow only) on every CPython
this project supports that the machine has: this file runs tests/support/handout_probe.py on each
version of `VERSIONS`: on this interpreter directly, on the others that this machine has (on
PATH as ``pythonX.Y``, or under pyenv) in a fresh venv with only numpy and Pillow, installed
by uv from its cache or PyPI. A version the machine lacks is skipped, and says so."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.uv_venvs import uv_venv, without_venv

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / "tests" / "support" / "handout_probe.py"
VERSIONS = ((3, 10), (3, 11), (3, 12), (3, 13), (3, 14))
"""Every CPython from the oldest this project supports (pyproject's requires-python) on."""

pytestmark = pytest.mark.timeout(600)


def _interpreter(version: tuple[int, int]) -> Path | None:
    """A CPython of `version` on this machine that runs: the newest pyenv build of it, else
    ``pythonX.Y`` on PATH (pyenv's shims on PATH run only the versions pyenv selects)."""
    name = f"python{version[0]}.{version[1]}"
    versions = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    builds = sorted(versions.glob(f"{version[0]}.{version[1]}.*/bin/{name}"),
                    key=lambda path: [int(part) if part.isdigit() else -1 for part in path.parts[-3].split(".")])
    on_path = shutil.which(name)
    for candidate in [*reversed(builds), *([Path(on_path)] if on_path else [])]:
        probe = subprocess.run([str(candidate), "-c", "import sys; print(*sys.version_info[:2])"],
                               capture_output=True, text=True, timeout=60)
        if probe.returncode == 0 and probe.stdout.split() == [str(part) for part in version]:
            return candidate
    return None


@pytest.mark.parametrize("version", VERSIONS, ids=lambda version: f"{version[0]}.{version[1]}")
def test_the_drawing_core_runs_on(version: tuple[int, int], tmp_path: Path) -> None:
    if version == sys.version_info[:2]:
        python = Path(sys.executable)
    else:
        found = _interpreter(version)
        if found is None:
            pytest.skip(f"no CPython {version[0]}.{version[1]} on this machine")
        # numpy and Pillow: all that the rules and drawings need
        python = uv_venv(found, tmp_path / "venv", "numpy>=2.1", "pillow>=10.1", timeout=480)
    run = subprocess.run([str(python), str(PROBE), str(ROOT)], capture_output=True, text=True, timeout=300,
                         env=without_venv())
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    last_line = run.stdout.strip().splitlines()[-1]
    assert last_line.startswith(f"the drawing core runs on cpython {version[0]}.{version[1]}:"), last_line
    checks = int(last_line.rsplit(": ", 1)[1].split()[0])  # one per puzzle
    assert checks >= 10 and run.stdout.count("ok: ") == checks
