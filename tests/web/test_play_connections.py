"""The play server's connection limits (issue 58), attacked over loopback with real sockets:
silent, slow-header and slow-body connections are closed within the request time-out, one
client address holds a bounded number of connections, and neither limit cuts a long poll or
locks other clients out."""

from __future__ import annotations

import socket
import time

import httpx

from comma_env.web.playconfig import PlayConfig
from tests.support.play_client import serve

TIMEOUT = 2.0  # request_timeout_seconds of these servers (the default is 20)


def connect(url: str, source: str = "127.0.0.1") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=5, source_address=(source, 0))
    sock.setblocking(False)
    return sock


def closed(sock: socket.socket) -> bool:
    """The server closed the connection (end of file, or a reset)."""
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def trickle(sock: socket.socket, byte: bytes) -> bool:
    """Send one more byte; False once the server has closed the connection."""
    try:
        sock.send(byte)
        return not closed(sock)
    except OSError:
        return False


def test_the_default_closes_slow_requests_within_30_seconds():
    assert 0 < PlayConfig().request_timeout_seconds <= 30 and PlayConfig().max_connections_per_client <= 100


def test_silent_slow_header_and_slow_body_connections_are_closed(tmp_path):
    server, _ = serve(tmp_path, f"request_timeout_seconds={TIMEOUT}")
    with server as url:
        silent = [connect(url) for _ in range(3)]
        slow_header = [connect(url) for _ in range(3)]
        slow_body = [connect(url) for _ in range(3)]
        for sock in slow_header:
            sock.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for sock in slow_body:
            sock.send(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n{")
        started = time.monotonic()
        open_ = {"silent": silent, "slow header": slow_header, "slow body": slow_body}
        closed_after: dict[str, float] = {}
        while open_ and time.monotonic() - started < 4 * TIMEOUT + 5:
            for kind, socks in list(open_.items()):
                byte = b"" if kind == "silent" else (b"X" if kind == "slow header" else b" ")
                still = [s for s in socks if (trickle(s, byte) if byte else not closed(s))]
                open_[kind] = still
                if not still:
                    closed_after[kind] = time.monotonic() - started
                    del open_[kind]
            time.sleep(0.25)
        for sock in silent + slow_header + slow_body:
            sock.close()
        assert not open_, f"still open after {time.monotonic() - started:.0f} s: {sorted(open_)}"
        assert all(seconds < 2 * TIMEOUT + 3 for seconds in closed_after.values()), closed_after
        with httpx.Client(base_url=url, timeout=30) as client:  # a normal request is not cut
            made = client.post("/api/sessions", json={}).json()
            first = client.get(f"/api{made['url']}/state").json()
            waited = time.monotonic()
            again = client.get(f"/api{made['url']}/state", params={"since": first["version"]})
            assert again.status_code == 200 and time.monotonic() - waited > TIMEOUT  # a long poll lives on


def test_one_client_holds_a_bounded_number_of_connections(tmp_path):
    server, _ = serve(tmp_path, "max_connections_per_client=8", "request_timeout_seconds=20")
    with server as url:
        held = [connect(url) for _ in range(8)]
        time.sleep(0.5)
        extra = [connect(url) for _ in range(4)]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(closed(s) for s in extra):
            time.sleep(0.1)
        assert all(closed(s) for s in extra)  # refused at once
        assert not any(closed(s) for s in held)
        other = httpx.Client(base_url=url, timeout=10, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            assert other.get("/").status_code == 200  # another client is served meanwhile
        for sock in held:
            sock.close()
        time.sleep(0.5)
        with httpx.Client(base_url=url, timeout=10) as client:
            assert client.get("/").status_code == 200  # the client's own slots come back
