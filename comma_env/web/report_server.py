"""``python -m comma_env.report RUN --serve``: each episode page and image of a run of any size drawn
by replay when the browser asks; it serves only files inside the report folder."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from comma_env.drawing.common import png_bytes
from comma_env.web.connections import guarded_protocol
from comma_env.web.guard import LOOPBACK_HOSTS, Guard, host_name
from comma_env.web.replay import Replayed, Walk, walk
from comma_env.web.report import _templates, episode_href, episode_page
from comma_env.web.runs import Run, slug
from comma_env.web.server import BackgroundServer

MAX_CONNECTIONS = 32
"""Connections the report server keeps open at once; more are closed at once."""
REQUEST_SECONDS = 20.0
"""Seconds a connection may stay silent while its request is read before it is closed."""


def make_app(report_dir: str | Path, runs: Sequence[Run], host: str = "127.0.0.1",
             data_roots: Mapping[str, str] | None = None, request_seconds: float = REQUEST_SECONDS) -> FastAPI:
    """The report's app: it answers only to this machine's names and `host`, with security headers, to
    `MAX_CONNECTIONS` connections at once (`BackgroundServer` or `play_server` runs it)."""
    where = {(run.slug, slug(str(record.get("puzzle"))), int(record.get("seed") or 0)): (run, i)
             for run in runs for i, record in enumerate(run.records)}

    def find(run_slug: str, name: str) -> tuple[Run, int, tuple[str, str, int], Walk]:
        """The episode named ``<puzzle>-<seed>`` in a run, and its walk (404 when there is none)."""
        puzzle, _, seed = name.rpartition("-")
        key = (run_slug, puzzle, int(seed)) if seed.isdigit() and len(seed) < 20 else None
        if key not in where:
            raise HTTPException(404, "no such episode")
        run, i = where[key]
        return run, i, key, walk(run.records[i], data_roots)

    templates = _templates()
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.state.uvicorn_options = {"http": guarded_protocol(request_seconds, MAX_CONNECTIONS)}
    app.add_middleware(Guard, allowed_hosts=[*LOOPBACK_HOSTS, host_name(host)])

    @app.get("/")
    async def index() -> RedirectResponse:
        return RedirectResponse("/report.html", status_code=302)

    @app.get("/episodes/{run_slug}/{name}.html")
    def page(run_slug: str, name: str) -> HTMLResponse:
        run, i, key, walked = find(run_slug, name)
        base = f"{key[0]}/{key[1]}-{key[2]}"
        replayed = Replayed(turn_images=[f"{base}/{n}.png" for n in range(len(walked.turn_states))],
                            final_image=f"{base}/final.png" if walked.final_state is not None else None,
                            audio=f"{base}/clip.wav" if walked.audio is not None else None, mismatch=walked.mismatch)
        previous = episode_href(run, run.records[i - 1]) if i else None
        following = episode_href(run, run.records[i + 1]) if i + 1 < len(run.records) else None
        return HTMLResponse(episode_page(templates, run, run.records[i], replayed, previous, following))

    @app.get("/images/{run_slug}/{name}/clip.wav")
    def clip(run_slug: str, name: str) -> Response:
        walked = find(run_slug, name)[3]
        if walked.audio is None:
            raise HTTPException(404, "no clip")
        return Response(walked.audio, media_type="audio/wav")

    @app.get("/images/{run_slug}/{name}/{which}.png")
    def image(run_slug: str, name: str, which: str) -> Response:
        walked = find(run_slug, name)[3]
        states = {"final": walked.final_state, **{str(n): s for n, s in enumerate(walked.turn_states)}}
        state = states.get(which)
        if state is None or walked.draw is None:
            raise HTTPException(404, "no such image")
        return Response(png_bytes(walked.draw(state)), media_type="image/png")

    app.mount("/", StaticFiles(directory=Path(report_dir).resolve()), name="report")
    return app


def serve(folders: Sequence[str | Path], out: str | Path | None = None, host: str = "127.0.0.1", port: int = 8765,
          data_roots: Mapping[str, str] | None = None) -> None:
    """Write the report's index (no pages) and serve it until interrupted."""
    from comma_env.web.report import write_report

    stats = write_report(folders, out, pages="none", data_roots=data_roots, quiet=True)
    with BackgroundServer(make_app(stats.path.parent, stats.runs, host, data_roots), host, port) as url:
        print(f"report of {stats.episodes} episodes at {url}/report.html (Ctrl+C stops)", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
