"""The play server (``python -m comma_env.play``): FastAPI pages and a JSON API over a
`SessionStore`, checked by pydantic and wrapped in `guard.Guard`."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from comma_env.audio.wav import wav_bytes
from comma_env.drawing.common import png_bytes
from comma_env.web.connections import connection_options
from comma_env.web.expiry import expiry_loop
from comma_env.web.guard import Guard
from comma_env.web.limits import AdminToken, CreationLimiter
from comma_env.web.session import MAX_MESSAGE_CHARS, PLAYABLE, POLL_SECONDS, Session, SessionStore, describe_hint

STATIC = Path(__file__).parent / "static"
TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
SEATS_COOKIE = "comma_seats"
"""Session ids this browser sits in (HttpOnly): stops a player taking the other seat of
their own game through its invite."""


class NewSession(BaseModel):
    puzzle: str | None = Field(default=None, max_length=40)
    seed: int | None = Field(default=None, ge=0, le=2**31)  # honoured for the admin only


class Message(BaseModel):
    text: str = Field(max_length=MAX_MESSAGE_CHARS)
    client_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")


def manual_html(text: str) -> str:
    """The expert's manual as HTML (CommonMark; raw HTML in the source is escaped)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def view(session: Session, role: str, token: str) -> dict[str, Any]:
    """What `role`'s page shows: its own observation and info only (the expert never gets
    the image, the feedback or the valid actions; nobody gets the seed or the other seat)."""
    raw = session.raw
    info = raw.infos.get(role) or {}
    done = session.done
    others = [r for r in session.human_roles if r != role]
    out: dict[str, Any] = {
        "version": session.version, "role": role, "puzzle": session.puzzle, "title": raw.puzzle_cls.title,
        "turn": raw.turn, "max_turns": raw.max_turns, "to_move": session.to_move,
        "your_turn": session.to_move == role, "partner_busy": session.partner_busy, "done": done,
        "dialogue": info.get("dialogue", []),
        "partner": "another person" if others else (session.plan.expert.name if role == "solver"
                                                    else session.plan.solver.name),
        "partner_joined": all(r in session.seats for r in others),
        "error": session.public_error, "saved": session.saved, "study": bool(session.participants),
    }
    if role == "solver":
        out.update(task=raw.puzzle_cls.task_prompt, valid_actions=[] if done else list(info.get("valid_actions") or []),
                   mistakes=raw.mistakes, max_mistakes=raw.max_mistakes,
                   image=f"/api/play/{token}/image?v={raw.puzzle.version}",
                   audio=f"/api/play/{token}/audio" if _has_audio(session) else None,
                   hint=describe_hint(session))
    else:
        out.update(manual=raw.manual, manual_html=manual_html(raw.manual))
    if done:
        summary = {key: value for key, value in raw.episode_summary().items() if key != "seed"}
        out["episode"] = summary | {"error": session.public_error}
    return out


def _has_audio(session: Session) -> bool:
    return "audio" in session.raw.observation_space("solver").spaces


def client_of(request: Request) -> str:
    """The client's address (the proxy's X-Forwarded-For when uvicorn trusts the proxy)."""
    return request.client.host if request.client else "unknown"


def seats_cookie(request: Request) -> set[str]:
    return {s for s in request.cookies.get(SEATS_COOKIE, "").split(".") if re.fullmatch(r"[0-9a-f]{8,32}", s)}


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})


def create_app(store: SessionStore, admin: AdminToken | None = None,
               extra_routes: Callable[[FastAPI, Limits], None] | None = None) -> FastAPI:
    """The play app; `extra_routes(app, limits)` adds a study's lobby and admin pages."""
    admin = admin or AdminToken()
    limits = Limits(store, admin)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        starter = getattr(store.policy, "start", None)
        if starter is not None:
            await starter()
        restored = await store.restore()
        if restored:
            print(f"comma_env.play: restored {restored} session(s) from {store.folder}")
        expiry = asyncio.get_running_loop().create_task(expiry_loop(store))
        yield
        expiry.cancel()
        for task in list(store.tasks):
            task.cancel()
        closer = getattr(store.policy, "aclose", None)
        if closer is not None:
            await closer()

    app = FastAPI(title="COMMA play", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.end_long_polls = store.end_waits  # called by `play_server` as it stops
    app.state.uvicorn_options = connection_options(store.cfg)  # its connection limits, for `play_server`
    app.add_middleware(Guard, allowed_hosts=store.cfg.allowed_hosts, max_body=store.cfg.max_body_bytes)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        # field and reason only: echoing the input back could fail to encode (lone surrogates)
        detail = [{"loc": [str(part) for part in e.get("loc", ())], "msg": str(e.get("msg", ""))}
                  for e in error.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.exception_handler(Exception)
    async def failure(request: Request, error: Exception) -> JSONResponse:  # detail to the console, not the client
        print(f"comma_env.play: {request.method} {request.url.path.split('/')[1:3]}: {type(error).__name__}")
        return JSONResponse({"detail": "the server could not do that"}, status_code=500)

    async def find(token: str) -> tuple[Session, str]:
        if not TOKEN.match(token):
            raise HTTPException(404, "no such game (check the link)")
        return await store.lookup(token)

    if extra_routes is not None:
        extra_routes(app, limits)
    else:
        @app.get("/")
        async def index() -> FileResponse:
            return page("index.html")

        @app.get("/api/config")
        async def config() -> dict[str, Any]:
            return {"mode": "play", "puzzle": store.cfg.puzzle, "role": store.cfg.role, "partner": store.cfg.partner,
                    "puzzles": list(PLAYABLE)}

        @app.post("/api/sessions")
        async def new_session(body: NewSession, request: Request) -> dict[str, Any]:
            is_admin = limits.creating(request)
            if body.seed is not None and not is_admin:
                raise HTTPException(403, "choosing a seed needs the admin token")
            session, token, invite = store.create(body.puzzle, body.seed)
            return {"url": f"/play/{token}", "invite": f"/join/{invite}" if invite else None}

    @app.get("/join/{invite}")
    async def join_page(invite: str) -> FileResponse:
        return page("join.html")

    @app.post("/api/join/{invite}")
    async def join(invite: str, request: Request) -> JSONResponse:
        if not TOKEN.match(invite):
            raise HTTPException(404, "this invitation was used already or does not exist")
        session, role, token = await store.redeem(invite, seats_cookie(request))
        response = JSONResponse({"url": f"/play/{token}", "role": role})
        remember_seat(response, request, session.id)
        return response

    @app.get("/play/{token}")
    async def play_page(token: str, request: Request) -> FileResponse:
        session, _ = await find(token)
        response = page("play.html")
        remember_seat(response, request, session.id)
        return response

    @app.get("/api/play/{token}/state")
    async def state(token: str, since: int = Query(default=-1, ge=-1)) -> dict[str, Any]:
        session, role = await find(token)
        session.last_seen[role] = time.time()
        await store.wait(session, since, POLL_SECONDS, role)
        return view(session, role, token)

    @app.post("/api/play/{token}/message")
    async def message(token: str, body: Message) -> dict[str, Any]:
        session, role = await find(token)
        session.last_seen[role] = time.time()
        await store.submit(session, role, body.text, body.client_id)
        return view(session, role, token)

    @app.post("/api/play/{token}/leave")
    async def leave(token: str) -> dict[str, Any]:
        session, role = await find(token)
        await store.abandon(session, f"the {role} left")
        return view(session, role, token)

    @app.get("/api/play/{token}/image")
    async def image(token: str) -> Response:
        session, role = await find(token)
        if role != "solver" or session.raw.solver_view != "image":
            raise HTTPException(403, "only the solver sees the puzzle")
        return Response(png_bytes(session.raw.image()), media_type="image/png", headers={"Cache-Control": "no-store"})

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


class Limits:
    """Creation limits of one app: per client (sliding window) and in total, lifted for the admin."""

    def __init__(self, store: SessionStore, admin: AdminToken) -> None:
        self.store = store
        self.admin = admin
        self.per_client = CreationLimiter(store.cfg.max_creations_per_client, store.cfg.creation_window_seconds)

    def is_admin(self, request: Request) -> bool:
        return self.admin.check(request.headers.get("authorization"))

    def creating(self, request: Request) -> bool:
        """Count one creation by this client; raise 429 past the limit. Returns is_admin."""
        if self.is_admin(request):
            return True
        if not self.per_client.allow(client_of(request)):
            raise HTTPException(429, "too many new games from your address; try again later")
        return False


def remember_seat(response: Response, request: Request, session_id: str) -> None:
    seats = sorted(seats_cookie(request) | {session_id})[-20:]
    response.set_cookie(SEATS_COOKIE, ".".join(seats), httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")


def play_server(app: FastAPI, **options: Any) -> Any:
    """A uvicorn server that ends the app's long polls as it stops, so open pages do not hold the
    shutdown until they are cancelled."""
    import uvicorn

    class PlayServer(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            end_long_polls = getattr(app.state, "end_long_polls", None)
            if end_long_polls is not None:
                end_long_polls()
            await super().shutdown(sockets)

    return PlayServer(uvicorn.Config(app, **{**getattr(app.state, "uvicorn_options", {}), **options}))


class BackgroundServer:
    """``with BackgroundServer(app) as url: ...``: serve an app from a thread on a free port."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        self.server = play_server(app, host=host, port=port, log_level="warning", lifespan="on",
                                  timeout_graceful_shutdown=2)
        self.thread: Any = None

    def __enter__(self) -> str:
        self.thread = threading.Thread(target=self.server.run, name="comma-play-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                config = self.server.config
                raise OSError(f"the server on {config.host}:{config.port} did not start (is the port taken?)")
            time.sleep(0.02)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
