"""Keep OpenEnv WebSocket sessions alive through bad frames (an ``INVALID_JSON`` error frame), cancel
a step whose client left, and close a socket idle for `idle_timeout` seconds."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_IDLE_TIMEOUT = 300.0
"""Seconds a WebSocket may stay silent between its messages before it is closed."""
MAX_DEPTH = 32
"""How deeply a frame's JSON may nest (the protocol's messages nest a few levels); deeper
frames are refused before OpenEnv's handler parses and validates them again."""


def nesting_depth(value: Any) -> int:
    """How many lists and objects deep `value` goes (iterative: no recursion limit)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            todo += [(child, depth + 1) for child in item if isinstance(child, (dict, list))]
    return deepest


def bad_frame(message: Message) -> str | None:
    """Why a client frame cannot be a protocol message (None when it may be one)."""
    if message.get("bytes") is not None and message.get("text") is None:
        return "binary frames are not part of the protocol; send JSON text"
    try:
        decoded = json.loads(message.get("text") or "")
    except ValueError as error:
        return f"Invalid JSON: {error}"[:200]
    except RecursionError:  # nested deeper than the parser goes
        return f"Invalid JSON: nested deeper than {MAX_DEPTH} levels"
    if not isinstance(decoded, dict):
        return "a message must be a JSON object with a 'type'"
    if nesting_depth(decoded) > MAX_DEPTH:
        return f"Invalid JSON: nested deeper than {MAX_DEPTH} levels"
    return None


class WebSocketKeeper:
    """Wrap an ASGI app; only ``websocket`` scopes on `path` are touched."""

    def __init__(self, app: ASGIApp, path: str = "/ws", idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT) -> None:
        self.app = app
        self.path = path
        self.idle_timeout = idle_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope.get("path") != self.path:
            await self.app(scope, receive, send)
            return
        await _Connection(self, receive, send).run(scope)


class _Connection:
    def __init__(self, keeper: WebSocketKeeper, receive: Receive, send: Send) -> None:
        self.keeper = keeper
        self.client_receive = receive
        self.client_send = send
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.app_waiting = False  # the handler is inside receive(): idle, not stepping
        self.accepted = False
        self.closed = False
        self.cancelled = False
        self.app_future: asyncio.Future[Any] | None = None

    async def receive(self) -> Message:
        self.app_waiting = True
        try:
            return await self.inbox.get()
        finally:
            self.app_waiting = False

    async def send(self, message: Message) -> None:
        if message["type"] == "websocket.accept":
            self.accepted = True
        if self.closed and message["type"] in ("websocket.send", "websocket.close"):
            return  # the client is gone or was closed by us
        if message["type"] == "websocket.close":
            self.closed = True
        await self.client_send(message)

    async def run(self, scope: Scope) -> None:
        self.app_future = asyncio.ensure_future(self.keeper.app(scope, self.receive, self.send))
        reader = asyncio.ensure_future(self.read())
        try:
            await self.app_future
        except asyncio.CancelledError:
            if not self.cancelled:
                raise  # the server is stopping
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def read(self) -> None:
        """Pump client frames to the handler, filtering bad ones; end idle or gone clients."""
        pending: asyncio.Future[Message] | None = None
        try:
            while True:
                if pending is None:
                    pending = asyncio.ensure_future(self.client_receive())
                timeout = self.keeper.idle_timeout if self.accepted else None
                done, _ = await asyncio.wait({pending}, timeout=timeout)
                if not done:
                    if not self.app_waiting:
                        continue  # a step is running: the socket is not idle
                    await self.send({"type": "websocket.close", "code": 1001, "reason": "idle timeout"})
                    await self.inbox.put({"type": "websocket.disconnect", "code": 1001})
                    return
                message, pending = pending.result(), None
                if message["type"] == "websocket.receive":
                    problem = bad_frame(message)
                    if problem is not None:
                        error = {"type": "error", "data": {"message": problem, "code": "INVALID_JSON"}}
                        await self.send({"type": "websocket.send", "text": json.dumps(error)})
                        continue
                await self.inbox.put(message)
                if message["type"] == "websocket.disconnect":
                    self.closed = True
                    if not self.app_waiting and self.app_future is not None:
                        self.cancelled = True  # the client left mid-step: clean up now
                        self.app_future.cancel()
                    return
        finally:
            if pending is not None:
                pending.cancel()
