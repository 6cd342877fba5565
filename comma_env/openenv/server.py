"""Build and run the OpenEnv app: `python -m comma_env.openenv key=value ...`.

Arguments are OmegaConf dotlist overrides of `ServerSettings` (the rollout's Hydra style):

    python -m comma_env.openenv puzzle=wire role=solver partner=oracle_nl \
        env.solver_view=text max_sessions=64 port=8000
    python -m comma_env.openenv puzzle=who partner=openai_compat \
        partner_overrides.api_base=http://127.0.0.1:9000/v1 partner_overrides.name=my-model

A typo or a wrong type is an error before anything starts.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from omegaconf import OmegaConf

from comma_env.web.guard import LOOPBACK_HOSTS

log = logging.getLogger("comma_env.openenv")

REQUEST_SECONDS = 20.0
"""Seconds a connection may take to send its request or WebSocket handshake (at most
`session_timeout`)."""


@dataclass
class ServerSettings:
    """What one server serves: a puzzle, the learning role, its partner, env options."""

    puzzle: str = "wire"
    role: str = "solver"
    partner: str = "oracle"  # a conf/model name: oracle, oracle_nl, random, openai_compat, ...
    partner_overrides: dict[str, Any] = field(default_factory=dict)  # e.g. api_base, name
    env: dict[str, Any] = field(default_factory=dict)  # SingleRoleEnv options (solver_view, max_turns, rewards...)
    host: str = "127.0.0.1"
    port: int = 8000  # 0 picks a free port (written to port_file)
    port_file: str | None = None  # where to write the bound port once listening
    max_sessions: int = 16  # concurrent WebSocket sessions (one episode each)
    session_timeout: float | None = 300.0  # seconds a socket may stay silent before it is closed (None: never)
    allowed_hosts: list[str] = field(default_factory=lambda: list(LOOPBACK_HOSTS))  # Host/Origin names served
    max_body_bytes: int = 1024 * 1024  # HTTP request bodies, however framed, and WebSocket frames
    log_level: str = "warning"


def parse_settings(argv: Sequence[str]) -> ServerSettings:
    """`ServerSettings` from ``key=value`` arguments (``--help`` prints the defaults)."""
    base = OmegaConf.structured(ServerSettings)
    merged = OmegaConf.merge(base, OmegaConf.from_dotlist(list(argv)))
    return OmegaConf.to_object(merged)  # type: ignore[return-value]


def make_app(settings: ServerSettings) -> Any:
    """The FastAPI app of OpenEnv's `create_app`, one `CommaEnvironment` per session, behind
    `WebSocketKeeper` and `Guard`."""
    from openenv.core.env_server.http_server import create_app
    from openenv.core.env_server.types import ConcurrencyConfig

    from comma_env.openenv.environment import CommaEnvironment
    from comma_env.openenv.models import CommaAction, CommaObservation
    from comma_env.openenv.wsguard import WebSocketKeeper
    from comma_env.web.guard import Guard

    factory = functools.partial(CommaEnvironment, puzzle=settings.puzzle, role=settings.role,
                                partner=settings.partner, partner_overrides=dict(settings.partner_overrides),
                                env_options=dict(settings.env))
    factory().close()  # fail now, not at the first session, on a bad puzzle/partner/option
    # HTTP sessions are reaped by OpenEnv after the same silence; sockets by WebSocketKeeper
    concurrency = ConcurrencyConfig(max_concurrent_envs=settings.max_sessions, session_timeout=settings.session_timeout)
    app = create_app(factory, CommaAction, CommaObservation, env_name=f"comma-{settings.puzzle}",
                     concurrency_config=concurrency)
    app.add_middleware(WebSocketKeeper, idle_timeout=settings.session_timeout)
    app.add_middleware(Guard, allowed_hosts=settings.allowed_hosts, max_body=settings.max_body_bytes)
    return app


class _DropClosedSocketNoise(logging.Filter):
    """OpenEnv closes a WebSocket the client already closed and uvicorn logs the
    resulting `WebSocketDisconnect` as an error with a traceback; a client leaving is normal."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return type(exc).__name__ != "WebSocketDisconnect"


def serve(settings: ServerSettings) -> None:
    """Run the app with uvicorn until interrupted; write the bound port to `port_file`."""
    import asyncio

    import uvicorn

    app = make_app(settings)
    logging.getLogger("uvicorn.error").addFilter(_DropClosedSocketNoise())
    from comma_env.run.results import write_atomic
    from comma_env.web.connections import guarded_protocol

    # a connection that sends no request (nor WebSocket handshake) is closed after the same silence
    request_seconds = min(REQUEST_SECONDS, settings.session_timeout or REQUEST_SECONDS)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=settings.log_level,
                            http=guarded_protocol(request_seconds, per_client=None),
                            ws_max_size=settings.max_body_bytes)  # a larger frame closes the socket (1009)
    server = uvicorn.Server(config)

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                await task  # raises why it could not start
                return
            await asyncio.sleep(0.05)
        port = next(s.getsockname()[1] for srv in server.servers for s in srv.sockets)
        print(f"comma_env.openenv: {settings.puzzle} {settings.role} with partner {settings.partner} "
              f"on http://{settings.host}:{port} (WebSocket /ws)", flush=True)
        if settings.port_file:
            write_atomic(settings.port_file, str(port))
        await task

    asyncio.run(run())


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip() + "\n\nSettings and defaults:\n"
              + OmegaConf.to_yaml(OmegaConf.structured(ServerSettings)))
        return 0
    try:
        settings = parse_settings(argv)
    except Exception as exc:
        print(f"comma_env.openenv: bad arguments: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper())
    serve(settings)
    return 0
