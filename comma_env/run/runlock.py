"""One run per episode file: an exclusive ``flock`` on ``out_dir/.rollout{suffix}.lock``, naming its
holder. The kernel drops the lock when its process dies, so a stale file is taken over."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path
from typing import Any, TextIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, the lock is advisory only
    fcntl = None  # type: ignore[assignment]


class LockHeld(RuntimeError):
    """Another live process runs into the same episode file."""


class RunLock:
    """``with RunLock(path) as lock:``; ``lock.stale`` is the holder record of a dead run
    that was taken over (None when the lock was free)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.stale: dict[str, Any] | None = None
        self._handle: TextIO | None = None

    def acquire(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise LockHeld(f"{self.path.parent} is in use by another run ({describe(read_holder(self.path))}); "
                                   "wait for it to finish or stop it, or choose another out_dir") from None
            self.stale = read_holder(self.path) or None
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                     "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}) + "\n")
            handle.flush()
        except BaseException:
            handle.close()
            raise
        self._handle = handle
        return self

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            handle.seek(0)
            handle.truncate()  # an empty lock file: the run ended cleanly
        finally:
            handle.close()  # closing drops the flock

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


def read_holder(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def describe(holder: dict[str, Any]) -> str:
    if not holder:
        return "holder unknown"
    return f"pid {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}"
