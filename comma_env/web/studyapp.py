"""The routes of a study: instructions and consent, the lobby (long-polled until paired), and
the admin page of progress per puzzle (admin token only)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from comma_env.web.lobby import Lobby
from comma_env.web.records import token_hash
from comma_env.web.server import TOKEN, Limits, client_of, manual_html, page
from comma_env.web.session import POLL_SECONDS, wait_for_change
from comma_env.web.study import Progress

DEFAULT_TEXTS = Path(__file__).parent / "static"


class Join(BaseModel):
    consent: bool = False
    token: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{8,64}$")  # a returning participant
    participant: str | None = Field(default=None, max_length=20)  # the anonymous id kept by the browser


def read_text(path: str | None, default: str) -> str:
    return Path(path).read_text(encoding="utf-8") if path else (DEFAULT_TEXTS / default).read_text(encoding="utf-8")


def study_routes(lobby: Lobby, progress: Progress, instructions: str,
                 consent: str) -> Callable[[FastAPI, Limits], None]:
    """A function adding the study's routes to the play app (`server.create_app`'s extra_routes)."""
    texts = {"instructions_html": manual_html(instructions), "consent_html": manual_html(consent)}

    def add(app: FastAPI, limits: Limits) -> None:
        @app.get("/")
        async def index() -> FileResponse:
            return page("study.html")

        @app.get("/api/config")
        async def config() -> dict[str, Any]:
            return {"mode": "study", "puzzles": progress.schedule.puzzles}

        @app.get("/api/study/text")
        async def text() -> dict[str, str]:
            return texts

        @app.post("/api/lobby/join")
        async def join(body: Join, request: Request) -> dict[str, Any]:
            if not body.consent:
                raise HTTPException(400, "please read the consent text and agree before joining")
            returning = bool(body.token) and token_hash(str(body.token)) in lobby.by_token
            if not returning:
                limits.creating(request)
            token, participant = lobby.join(body.token if returning else None, body.participant, client_of(request))
            await lobby.pair()
            return {"token": token, **lobby.status(participant)}

        @app.get("/api/lobby/{token}")
        async def lobby_state(token: str, since: int = Query(default=-1, ge=-1)) -> dict[str, Any]:
            participant = _find(lobby, token)
            await lobby.pair()
            await wait_for_change(lobby, since, POLL_SECONDS, lobby.store.closing)
            participant.last_seen = time.time()
            return lobby.status(participant)

        @app.post("/api/lobby/{token}/leave")
        async def leave(token: str) -> dict[str, Any]:
            participant = _find(lobby, token)
            lobby.leave(participant)
            return lobby.status(participant)

        @app.get("/admin")
        async def admin_page() -> FileResponse:
            return page("admin.html")

        @app.get("/api/admin/progress")
        async def admin_progress(request: Request) -> dict[str, Any]:
            if not limits.is_admin(request):
                raise HTTPException(403, "the admin token is missing or wrong" if limits.admin.enabled
                                else "no admin token is set: start the server with COMMA_PLAY_ADMIN_TOKEN")
            return {"puzzles": progress.table(), "waiting": len(lobby.waiting), "participants": len(lobby.by_token),
                    "complete": progress.complete(), "games_in_play": len(progress.in_play())}

    return add


def _find(lobby: Lobby, token: str) -> Any:
    if not TOKEN.match(token):
        raise HTTPException(404, "unknown participant: join the study again")
    return lobby.find(token)
