"""What the play tests share: a play server on a background thread and a client that
follows one player's view (long-polling ``/api/<link>/state``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from comma_env.play import build
from comma_env.web.server import BackgroundServer


def serve(tmp_path: Path, *args: str) -> tuple[BackgroundServer, Any]:
    """A play server with `args` as its settings and its out_dir in `tmp_path`; and its store."""
    _, store, app = build([f"out_dir={tmp_path / 'out'}", *args])
    return BackgroundServer(app), store


def state(client: httpx.Client, link: str, since: int = -1) -> dict:
    response = client.get(f"/api{link}/state", params={"since": since})
    response.raise_for_status()
    return response.json()


def wait_for(client: httpx.Client, link: str, predicate: Callable[[dict], bool], timeout: float = 30.0) -> dict:
    """The player's view once `predicate` holds (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    current = state(client, link)
    while not predicate(current):
        assert time.monotonic() < deadline, current
        current = state(client, link, current["version"])
    return current
