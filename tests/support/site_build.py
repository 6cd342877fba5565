"""The documentation site's strict build, run as a background process.

The build takes a minute or more on one core. In one process (`pytest -n 0`) the suite
runs on one core at a time, so `conftest.py` starts the build as soon as the session has
collected the test that checks it, and the build overlaps the tests that run before it on
the second core. On xdist's workers (`pytest -q` runs two) every worker collects every
test and the two already keep both cores busy: there the `site_build` fixture starts the
build when the test asks for it, so only the worker that runs it builds, once, into its
own temporary folder. `tests/docs/test_build.py` then waits for the result. The command is the
same as a user's strict build: warnings are errors."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_ID = "docs/test_build.py::test_the_site_builds_with_warnings_as_errors"
NEEDS = ("sphinx", "furo", "myst_parser")


def available() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in NEEDS)


class SiteBuild:
    """One `sphinx-build -E -W --keep-going -b html` of `docs/` into a temporary folder,
    with its output in files (a pipe nobody reads could fill and stall the build)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="comma_site_"))
        self.html = self.folder / "html"
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        with open(self.folder / "stdout.txt", "wb") as out, open(self.folder / "stderr.txt", "wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                 str(ROOT / "docs"), str(self.html)], stdout=out, stderr=err, env=env)

    def wait(self, timeout: float) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) once the build has finished."""
        code = self.process.wait(timeout=timeout)
        read = lambda name: (self.folder / name).read_text(encoding="utf-8", errors="replace")  # noqa: E731
        return code, read("stdout.txt"), read("stderr.txt")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
