"""Play COMMA in the browser, either role, against a model, the oracle, or another person;
or run a study that pairs participants and records their games.

    python -m comma_env.play puzzle=wire role=solver partner=oracle
    python -m comma_env.play puzzle=atm role=expert partner=gpt4o
    python -m comma_env.play role=solver partner=human          # two people: a one-time invitation
    python -m comma_env.play partner=openai_compat partner_config.api_base=http://127.0.0.1:8000/v1
    python -m comma_env.play collect OUT_DIR puzzles=[wire,atm] games_per_puzzle=10

Serves a local page (loopback only unless ``host=`` and ``allowed_hosts=`` say otherwise) and
prints its link. Finished episodes go to ``out_dir/episodes.jsonl`` in the rollout's format (model
``human``). Settings: `comma_env.web.playconfig.PlayConfig`. Needs the ``web`` extra.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def build(argv: Sequence[str]):  # -> (PlayConfig, SessionStore, FastAPI)
    """The checked config, the session store and the app (used by `main` and by tests)."""
    from comma_env.web.playconfig import default_out_dir, parse_args, partner_model
    from comma_env.web.server import create_app
    from comma_env.web.session import SessionStore

    cfg = parse_args(argv)
    out_dir = Path(cfg.out_dir) if cfg.out_dir else default_out_dir(cfg)
    partner = partner_model(cfg)
    policy = None
    if cfg.partner != "human":
        from comma_env.agents.factory import make_policy

        policy = make_policy(partner, seed=cfg.policy_seed, log_dir=str(out_dir / "logs"))
    store = SessionStore(cfg, policy, out_dir)
    store.check_out_dir()
    return cfg, store, create_app(store)


def build_study(argv: Sequence[str]) -> tuple[Any, Any, Any, Any]:
    """``collect OUT_DIR key=value...``: (PlayConfig, SessionStore, FastAPI, Lobby)."""
    from comma_env.web.lobby import Lobby
    from comma_env.web.playconfig import parse_args
    from comma_env.web.server import create_app
    from comma_env.web.session import SessionStore
    from comma_env.web.study import Progress, Schedule
    from comma_env.web.studyapp import read_text, study_routes

    if not argv or "=" in argv[0]:
        raise ValueError("usage: python -m comma_env.play collect OUT_DIR puzzles=[wire,atm] games_per_puzzle=N")
    out_dir = Path(argv[0])
    cfg = parse_args([*argv[1:], f"out_dir={out_dir}", "partner=human"])
    texts = read_text(cfg.instructions_file, "study_instructions.md"), read_text(cfg.consent_file, "study_consent.md")
    store = SessionStore(cfg, None, out_dir)
    store.check_out_dir()
    # last: it may write study.json
    schedule = Schedule.open(out_dir, list(cfg.puzzles), cfg.games_per_puzzle, cfg.seeds)
    progress = Progress(schedule, store)
    lobby = Lobby(store, progress)
    routes = study_routes(lobby, progress, *texts)
    return cfg, store, create_app(store, extra_routes=routes), lobby


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    study = bool(args) and args[0] == "collect"
    try:
        if study:
            cfg, store, app, _ = build_study(args[1:])
        else:
            cfg, store, app = build(args)
    except ImportError as error:
        from comma_env.protocol.resources import install_hint

        print(f"comma_env.play: {error}; install the web extra: {install_hint('web')}", file=sys.stderr)
        return 2
    except Exception as error:  # a bad setting: one line, no traceback
        print(f"comma_env.play: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    from comma_env.web.limits import ADMIN_ENV, AdminToken
    from comma_env.web.server import play_server

    if cfg.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"comma_env.play: listening on {cfg.host}, answering to the host names {', '.join(cfg.allowed_hosts)}; "
              "put a TLS reverse proxy in front (docs/play.md)", file=sys.stderr)
    url = f"http://{cfg.host}:{cfg.port}/"
    if study:
        admin = "" if AdminToken().enabled else f" (set {ADMIN_ENV} to see /admin)"
        print(f"comma_env.play: study of {', '.join(cfg.puzzles)} x {cfg.games_per_puzzle}: participants open {url}; "
              f"progress at {url}admin{admin}; games go to {store.out_dir / 'episodes.jsonl'}", flush=True)
    else:
        print(f"comma_env.play: open {url} ({cfg.role} against {cfg.partner}; episodes go to "
              f"{store.out_dir / 'episodes.jsonl'})", flush=True)
    if cfg.open_browser:
        import webbrowser

        webbrowser.open(url)
    server = play_server(app, host=cfg.host, port=cfg.port, log_level="warning", timeout_graceful_shutdown=2)
    server.run()
    return 0 if server.started else 3  # 3: did not start (the port taken), as `uvicorn.run` exits


if __name__ == "__main__":
    sys.exit(main())
