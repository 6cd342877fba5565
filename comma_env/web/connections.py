"""Connection limits of the play and OpenEnv servers in uvicorn's h11 protocol: a request arrives
whole within `request_seconds`, and one client address holds at most `per_client` connections."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

WAITING_FOR_REQUEST = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states in which its request is not yet complete."""


def guarded_protocol(request_seconds: float, per_client: int | None, exempt: Collection[str] = ()) -> type[H11Protocol]:
    """An `H11Protocol` class with the limits above; `exempt` addresses (trusted proxies) have no
    connection cap, and a connection upgraded to a WebSocket leaves both limits."""
    open_by_client: Counter[str] = Counter()

    class GuardedH11(H11Protocol):
        deadline: asyncio.TimerHandle | None = None
        counted: str | None = None
        upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            host = str(self.client[0]) if self.client else ""
            if per_client is not None and host not in exempt:
                if open_by_client[host] >= per_client:
                    transport.close()
                    return
                open_by_client[host] += 1
                self.counted = host
            self.watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self.watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.watch()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self.upgraded = True
            self.release()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self.release()
            super().connection_lost(exc)

        def release(self) -> None:
            """Stop the clock and give back the client's connection."""
            self.stop_clock()
            if self.counted is not None:
                open_by_client[self.counted] -= 1
                if open_by_client[self.counted] <= 0:
                    del open_by_client[self.counted]
                self.counted = None

        def watch(self) -> None:
            """Run the clock while a request is awaited, stop it once the request is in."""
            if self.upgraded or self.transport.is_closing() or self.conn.their_state not in WAITING_FOR_REQUEST:
                self.stop_clock()
            elif self.deadline is None:
                self.deadline = self.loop.call_later(request_seconds, self.too_slow)

        def stop_clock(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def too_slow(self) -> None:
            self.deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return GuardedH11


def connection_options(cfg: Any) -> dict[str, Any]:
    """The uvicorn options of a `PlayConfig`: its connection limits, and X-Forwarded-For
    believed from `trusted_proxies` only (none named: from nobody, not uvicorn's 127.0.0.1)."""
    proxies = list(cfg.trusted_proxies)
    return {"http": guarded_protocol(cfg.request_timeout_seconds, cfg.max_connections_per_client, frozenset(proxies)),
            "proxy_headers": bool(proxies), "forwarded_allow_ips": ",".join(proxies) or None}
