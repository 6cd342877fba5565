"""A server started as a subprocess that writes its bound port to a file once it listens
(the loopback OpenAI-compatible server, the OpenEnv server): start it, wait for the port,
stop it. Its stderr goes to a file, so a server that fails to start says why."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def start(command: list[str], folder: Path, port_file: Path, timeout: float,
          what: str = "server") -> tuple[subprocess.Popen[bytes], int]:
    """Run `command` (stderr into ``folder / "stderr"``) until `port_file` appears; returns
    the process and the port. A server that exits or takes longer than `timeout` seconds is
    stopped, and the error carries the end of its stderr."""
    with open(folder / "stderr", "wb") as stderr:  # the child keeps its own descriptor
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + timeout
    while not port_file.exists():  # written atomically by the server (a rename)
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise RuntimeError(f"{what} did not start: " + (folder / "stderr").read_text()[-3000:])
        time.sleep(0.02)
    return process, int(port_file.read_text())


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill if it has not ended within 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class ServerProcess:
    """`python -m comma_env.openenv ARGS port=0` as a subprocess; waits for its port file."""

    def __init__(self, *args: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="openenv_"))
        self.args = list(args)
        self.process: Any = None
        self.port = 0

    def __enter__(self) -> ServerProcess:
        port_file = self.dir / "port"
        command = [sys.executable, "-m", "comma_env.openenv", *self.args, "port=0", f"port_file={port_file}"]
        self.process, self.port = start(command, self.dir, port_file, 120, "OpenEnv server")
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stderr(self) -> str:
        return (self.dir / "stderr").read_text()

    def __exit__(self, *exc: Any) -> None:
        stop(self.process)
