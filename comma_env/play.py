"""Play COMMA in the browser, either role, against a model, the oracle, or another person.

    python -m comma_env.play puzzle=wire role=solver partner=oracle
    python -m comma_env.play puzzle=atm role=expert partner=gpt4o
    python -m comma_env.play role=solver partner=human          # two people, two tabs (a join link)
    python -m comma_env.play partner=openai_compat partner_config.api_base=http://127.0.0.1:8000/v1

Starts a local page (FastAPI + uvicorn, bound to 127.0.0.1 unless ``host=`` says
otherwise) and prints its link. Finished episodes go to ``out_dir/episodes.jsonl`` in the
rollout's format (model name ``human``), so `python -m comma_env.report` shows them as the
Human row. All settings: `comma_env.web.playconfig.PlayConfig`. Needs the ``web``
extra (``pip install -e ".[web]"`` in a checkout; the message names the command for this
installation).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence


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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    try:
        cfg, store, app = build(args)
    except ImportError as error:
        from comma_env.protocol.resources import install_hint

        print(f"comma_env.play: {error}; install the web extra: {install_hint('web')}", file=sys.stderr)
        return 2
    except Exception as error:  # a bad setting: one line, no traceback
        print(f"comma_env.play: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    import uvicorn

    if cfg.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"comma_env.play: warning: listening on {cfg.host}: anyone who can reach this port can start "
              "episodes; session links are the only secret", file=sys.stderr)
    url = f"http://{cfg.host}:{cfg.port}/"
    print(f"comma_env.play: open {url} ({cfg.role} against {cfg.partner}; episodes go to {store.out_dir / 'episodes.jsonl'})",
          flush=True)
    if cfg.open_browser:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(app, host=cfg.host, port=cfg.port, log_level="warning", timeout_graceful_shutdown=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
