"""The play server: FastAPI routes over a `SessionStore` (``python -m comma_env.play``).

Pages: ``/`` starts episodes, ``/play/<token>`` is one role's page. JSON API under
``/api``: ``POST /api/sessions`` (new episode), ``GET /api/play/<token>/state?since=<v>``
(long poll: answers when the session changes or after 20 s), ``POST /api/play/<token>/message``,
``GET /api/play/<token>/image`` and ``.../audio`` (solver only). Every body is validated by
pydantic; a request never reaches the environment unless it is this role's turn.
"""

from __future__ import annotations

import io
import re
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from comma_env.audio.wav import wav_bytes
from comma_env.registry import VERSIONS
from comma_env.web.playconfig import PlayConfig
from comma_env.web.session import MAX_MESSAGE_CHARS, PlayError, Session, SessionStore, describe_hint

STATIC = Path(__file__).parent / "static"
TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
MAX_BODY_BYTES = 256 * 1024
POLL_SECONDS = 20.0


class NewSession(BaseModel):
    puzzle: str | None = Field(default=None, max_length=40)
    seed: int | None = Field(default=None, ge=0, le=2**31)


class Message(BaseModel):
    text: str = Field(max_length=MAX_MESSAGE_CHARS)
    client_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")


def links(session: Session) -> dict[str, str]:
    return {role: f"/play/{token}" for role, token in session.tokens.items()}


def view(session: Session, role: str) -> dict[str, Any]:
    """What `role`'s page shows: its own observation and info only (the expert never gets
    the image, the feedback or the valid actions)."""
    raw = session.raw
    info = raw.infos.get(role) or {}
    done = session.done
    out: dict[str, Any] = {
        "version": session.version, "role": role, "puzzle": session.puzzle, "title": raw.puzzle_cls.title,
        "seed": session.seed, "turn": raw.turn, "max_turns": raw.max_turns, "to_move": session.to_move,
        "your_turn": session.to_move == role, "partner_busy": session.partner_busy, "done": done,
        "dialogue": info.get("dialogue", []), "partner": session.plan.expert.name if role == "solver" else session.plan.solver.name,
        "error": session.error, "saved": session.saved,
    }
    if role == "solver":
        out.update(task=raw.puzzle_cls.task_prompt, valid_actions=[] if done else list(info.get("valid_actions") or []),
                   mistakes=raw.mistakes, max_mistakes=raw.max_mistakes,
                   image=f"/api/play/{session.tokens[role]}/image?v={raw.puzzle.version}",
                   audio=f"/api/play/{session.tokens[role]}/audio" if _has_audio(session) else None,
                   hint=describe_hint(session))
    else:
        out.update(manual=raw.manual)
    if role == session.primary and len(session.tokens) > 1:
        out["join"] = {r: link for r, link in links(session).items() if r != role}
    if done:
        out["episode"] = raw.episode_summary() | {"error": session.error}
    return out


def _has_audio(session: Session) -> bool:
    return "audio" in session.raw.observation_space("solver").spaces


def create_app(store: SessionStore) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        starter = getattr(store.policy, "start", None)
        if starter is not None:
            await starter()
        restored = await store.restore()
        if restored:
            print(f"comma_env.play: restored {restored} session(s) from {store.folder}")
        yield
        for task in list(store.tasks):
            task.cancel()
        closer = getattr(store.policy, "aclose", None)
        if closer is not None:
            await closer()

    app = FastAPI(title="COMMA play", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": "request too large"}, status_code=413)
        return await call_next(request)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        # field and reason only: echoing the input back could fail to encode (lone surrogates)
        detail = [{"loc": [str(part) for part in e.get("loc", ())], "msg": str(e.get("msg", ""))} for e in error.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.exception_handler(PlayError)
    async def play_error(request: Request, error: PlayError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=error.status)

    async def find(token: str) -> tuple[Session, str]:
        if not TOKEN.match(token):
            raise HTTPException(404, "no such session (check the link)")
        return await store.lookup(token)

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        return {"puzzle": store.cfg.puzzle, "role": store.cfg.role, "partner": store.cfg.partner,
                "puzzles": list(VERSIONS), "out_dir": str(store.out_dir)}

    @app.post("/api/sessions")
    async def new_session(body: NewSession) -> dict[str, Any]:
        session = store.create(body.puzzle, body.seed)
        return {"id": session.id, "url": links(session)[store.cfg.role], "links": links(session), "seed": session.seed}

    @app.get("/play/{token}")
    async def page(token: str) -> FileResponse:
        await find(token)
        return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/play/{token}/state")
    async def state(token: str, since: int = Query(default=-1, ge=-1)) -> dict[str, Any]:
        session, role = await find(token)
        await store.wait(session, since, POLL_SECONDS)
        return view(session, role)

    @app.post("/api/play/{token}/message")
    async def message(token: str, body: Message) -> dict[str, Any]:
        session, role = await find(token)
        await store.submit(session, role, body.text, body.client_id)
        return view(session, role)

    @app.get("/api/play/{token}/image")
    async def image(token: str) -> Response:
        session, role = await find(token)
        if role != "solver" or session.raw.solver_view != "image":
            raise HTTPException(403, "only the solver sees the puzzle")
        from PIL import Image

        buffer = io.BytesIO()
        Image.fromarray(session.raw.image()).save(buffer, format="PNG", compress_level=1)
        return Response(buffer.getvalue(), media_type="image/png", headers={"Cache-Control": "no-store"})

    @app.get("/api/play/{token}/audio")
    async def audio(token: str) -> Response:
        session, role = await find(token)
        if role != "solver":
            raise HTTPException(403, "only the solver hears the puzzle")
        if not _has_audio(session):
            raise HTTPException(404, "this puzzle has no sound")
        observation = session.raw.observe("solver")
        sound, rate = observation["audio"], int(observation["sample_rate"])
        return Response(wav_bytes(sound, rate), media_type="audio/wav", headers={"Cache-Control": "no-store"})

    return app


class BackgroundServer:
    """Serve an app from a thread on a free port (tests, notebooks, screenshots).

    ``with BackgroundServer(app) as url: ...``; the server stops when the block ends.
    """

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                                                    timeout_graceful_shutdown=2))  # open long polls end
        self.thread: Any = None

    def __enter__(self) -> str:
        import threading
        import time

        self.thread = threading.Thread(target=self.server.run, name="comma-play-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the play server did not start")
            time.sleep(0.02)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
