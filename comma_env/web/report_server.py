"""``python -m comma_env.report RUN --serve``: each episode page and image of a run of any size drawn
by replay when the browser asks; it serves only files inside the report folder."""

from __future__ import annotations

import mimetypes
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from comma_env.drawing.common import png_bytes
from comma_env.web.guard import LOOPBACK_HOSTS, SECURITY_HEADERS, host_name
from comma_env.web.replay import Replayed, Walk, walk
from comma_env.web.report import _templates, episode_href, episode_page
from comma_env.web.runs import Run, slug

PAGE = re.compile(r"/episodes/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)-(\d{1,19})\.html")
IMAGE = re.compile(r"/images/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)-(\d{1,19})/(\d{1,7}|final)\.png")
CLIP = re.compile(r"/images/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)-(\d{1,19})/clip\.wav")
CACHED_WALKS = 32


class Episodes:
    """Records by (run slug, puzzle slug, seed), and the walks of recently opened episodes."""

    def __init__(self, runs: Sequence[Run], data_roots: Mapping[str, str] | None = None) -> None:
        self.runs = {run.slug: run for run in runs}
        self.where: dict[tuple[str, str, int], tuple[Run, int]] = {}
        for run in runs:
            for i, record in enumerate(run.records):
                self.where[(run.slug, slug(str(record.get("puzzle"))), int(record.get("seed") or 0))] = (run, i)
        self.data_roots = dict(data_roots or {})
        self._walks: OrderedDict[tuple[str, str, int], Walk] = OrderedDict()
        self._lock = threading.Lock()

    def walked(self, key: tuple[str, str, int], record: Mapping[str, Any]) -> Walk:
        with self._lock:
            if key in self._walks:
                self._walks.move_to_end(key)
                return self._walks[key]
        result = walk(record, self.data_roots)  # outside the lock: other pages go on meanwhile
        with self._lock:
            self._walks[key] = result
            while len(self._walks) > CACHED_WALKS:
                self._walks.popitem(last=False)
        return result


def served_replay(key: tuple[str, str, int], walked: Walk) -> Replayed:
    """Image names (relative to ``images/``) that this server answers for one episode."""
    base = f"{key[0]}/{key[1]}-{key[2]}"
    return Replayed(turn_images=[f"{base}/{i}.png" for i in range(len(walked.turn_states))],
                    final_image=f"{base}/final.png" if walked.final_state is not None else None,
                    audio=f"{base}/clip.wav" if walked.audio is not None else None, mismatch=walked.mismatch)


def inside(root: Path, relative: str) -> Path | None:
    """`root/relative` if it is a regular file inside `root` reached through no symlink."""
    candidate = Path(os.path.normpath(root / relative.lstrip("/")))
    if root not in candidate.parents:
        return None
    probe = candidate
    while probe != root:
        if probe.is_symlink():
            return None
        probe = probe.parent
    return candidate if candidate.is_file() else None


MAX_CONNECTIONS = 32
"""Connections the report server answers at once (a thread each); more are closed at once."""
REQUEST_SECONDS = 20.0
"""Seconds a connection may stay silent while its request is read before it is closed."""


class CappedServer(ThreadingHTTPServer):
    """A threading HTTP server with at most `max_connections` connections (threads) at once."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any, max_connections: int = MAX_CONNECTIONS) -> None:
        super().__init__(address, handler)
        self.slots = threading.BoundedSemaphore(max_connections)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)  # full: closed at once rather than queued in a thread
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def make_server(report_dir: str | Path, runs: Sequence[Run], host: str = "127.0.0.1", port: int = 0,
                data_roots: Mapping[str, str] | None = None,
                request_seconds: float = REQUEST_SECONDS) -> ThreadingHTTPServer:
    """A server (not yet serving) for the report in `report_dir`: it answers only to this machine's
    names and `host`, with security headers, to `MAX_CONNECTIONS` connections at once."""
    root = Path(report_dir).resolve()
    allowed = {*LOOPBACK_HOSTS, host_name(host)}
    episodes = Episodes(runs, data_roots)
    templates = _templates()

    class Handler(BaseHTTPRequestHandler):
        server_version = "comma-report"
        timeout = request_seconds  # a silent or slow client is dropped

        def log_message(self, format: str, *args: Any) -> None:  # quiet: one line per error only
            if args and str(args[1] if len(args) > 1 else "").startswith(("4", "5")):
                super().log_message(format, *args)

        def send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in SECURITY_HEADERS:
                self.send_header(name.decode(), value.decode())
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            path = unquote(urlsplit(self.path).path)
            if host_name(self.headers.get("Host", "")) not in allowed:
                self.send(b"unknown host", "text/plain", HTTPStatus.MISDIRECTED_REQUEST)
                return
            try:
                if path in ("", "/"):
                    self.send_response(HTTPStatus.FOUND)
                    self.send_header("Location", "/report.html")
                    self.end_headers()
                    return
                for pattern, answer in ((PAGE, self.page), (IMAGE, self.image), (CLIP, self.clip)):
                    match = pattern.fullmatch(path)
                    if match:
                        run_slug, puzzle, seed, *which = match.groups()
                        episode = episodes.where.get((run_slug, puzzle, int(seed)))
                        if episode is None:
                            self.send(b"no such episode", "text/plain", HTTPStatus.NOT_FOUND)
                        else:
                            answer(*episode, (run_slug, puzzle, int(seed)), *which)
                        return
                found = inside(root, path)
                if found is None:
                    self.send(b"not found", "text/plain", HTTPStatus.NOT_FOUND)
                    return
                kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
                self.send(found.read_bytes(), kind)
            except Exception as error:  # noqa: BLE001 - one bad page must not stop the server
                self.send(f"cannot show this: {type(error).__name__}".encode(), "text/plain",
                          HTTPStatus.INTERNAL_SERVER_ERROR)

        def page(self, run: Run, i: int, key: tuple[str, str, int]) -> None:
            record = run.records[i]
            replayed = served_replay(key, episodes.walked(key, record))
            previous = episode_href(run, run.records[i - 1]) if i else None
            following = episode_href(run, run.records[i + 1]) if i + 1 < len(run.records) else None
            html = episode_page(templates, run, record, replayed, previous, following)
            self.send(html.encode("utf-8"), "text/html; charset=utf-8")

        def image(self, run: Run, i: int, key: tuple[str, str, int], which: str) -> None:
            walked = episodes.walked(key, run.records[i])
            if which == "final":
                state = walked.final_state
            else:
                state = walked.turn_states[int(which)] if int(which) < len(walked.turn_states) else None
            if state is None or walked.draw is None:
                self.send(b"no such image", "text/plain", HTTPStatus.NOT_FOUND)
                return
            self.send(png_bytes(walked.draw(state)), "image/png")

        def clip(self, run: Run, i: int, key: tuple[str, str, int]) -> None:
            walked = episodes.walked(key, run.records[i])
            if walked.audio is None:
                self.send(b"no clip", "text/plain", HTTPStatus.NOT_FOUND)
                return
            self.send(walked.audio, "audio/wav")

    return CappedServer((host, port), Handler)


def serve(folders: Sequence[str | Path], out: str | Path | None = None, host: str = "127.0.0.1", port: int = 8765,
          data_roots: Mapping[str, str] | None = None) -> None:
    """Write the report's index (no pages) and serve it until interrupted."""
    from comma_env.web.report import write_report

    stats = write_report(folders, out, pages="none", data_roots=data_roots, quiet=True)
    server = make_server(stats.path.parent, stats.runs, host, port, data_roots)
    print(f"report of {stats.episodes} episodes at http://{host}:{server.server_address[1]}/report.html "
          "(Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
