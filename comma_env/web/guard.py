"""An ASGI wrapper that makes a loopback app safe on a network: a foreign ``Host`` gets 421, a foreign
``Origin`` 403, a body over `max_body` 413, and every answer strict security headers."""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "::1")
"""The default allow-list: the server answers only to names of this machine."""

DEFAULT_MAX_BODY = 256 * 1024

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; media-src 'self'; "
                                 b"style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; "
                                 b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def host_name(value: str) -> str:
    """The name part of a ``Host`` header value (``[::1]:8765`` -> ``::1``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def origin_host(origin: str) -> str | None:
    """The host name of an ``Origin`` header (None for ``null`` or garbage)."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname.lower()


class Guard:
    """Wrap `app`; `allowed_hosts` are host names (no ports), ``*`` allows any (not advised)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = LOOPBACK_HOSTS,
                 max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.allowed = frozenset(h.strip().lower().strip("[]") for h in allowed_hosts if h.strip())
        self.max_body = int(max_body)

    def allows(self, name: str | None) -> bool:
        return name is not None and ("*" in self.allowed or name in self.allowed)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not self.allows(host_name(headers.get("host", ""))):
            return 421, "this server does not answer to that host name"
        origin = headers.get("origin")
        if origin is not None and not self.allows(origin_host(origin)):
            return 403, "cross-origin request refused"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if scope["type"] == "websocket":
            if refused is not None:
                await send({"type": "websocket.close", "code": 1008, "reason": refused[1]})
                return
            await self.app(scope, receive, send)
            return
        send = self._with_headers(send)
        if refused is not None:
            await answer(send, refused[0], refused[1])
            return
        body = await self._read_body(receive)
        if body is None:
            await answer(send, 413, "request too large")
            return
        await self.app(scope, replay(body, receive), send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in present]
            await send(message)
        return wrapped


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the buffered body over once, then waits on the real one."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return again


async def answer(send: Send, status: int, detail: str) -> None:
    """A small JSON error answer (``{"detail": ...}``), as FastAPI gives."""
    payload = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": payload})
