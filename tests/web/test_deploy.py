"""The deployment examples say what the server accepts: the Dockerfile's default command and
documented run line, and the proxy configurations' host name, parse as real settings."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from comma_env.web.playconfig import parse_args

ROOT = Path(__file__).resolve().parents[2]


def settings_of(arguments: list[str]):
    """`python -m comma_env.play collect OUT_DIR key=value...` arguments as a PlayConfig."""
    assert arguments[0] == "collect" and "=" not in arguments[1]
    return parse_args(arguments[2:])


def test_the_dockerfile_commands_are_valid_settings():
    text = (ROOT / "Dockerfile").read_text()
    entry = json.loads(re.search(r"^ENTRYPOINT (.+)$", text, re.M).group(1))
    assert entry == ["python", "-m", "comma_env.play"]
    default = settings_of(json.loads(re.search(r"^CMD (.+)$", text, re.M).group(1)))
    assert default.host == "0.0.0.0" and default.port == 8765 and default.puzzles
    documented = " ".join(line.lstrip("# ").rstrip("\\ ") for line in text.splitlines()
                          if line.startswith("#") and ("comma-play" in line or line.startswith("#       ")))
    arguments = shlex.split(documented.split("comma-play", 2)[-1])
    run = settings_of(arguments)
    assert run.host == "0.0.0.0" and run.allowed_hosts == ["play.example.org"] and run.trusted_proxies


def test_the_proxy_examples_serve_the_name_the_server_allows():
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"^play\.example\.org \{", caddy, re.M) and "allowed_hosts=[play.example.org]" in caddy
    assert "reverse_proxy 127.0.0.1:8765" in caddy and "max_size 256KB" in caddy
    assert "server_name play.example.org;" in nginx and "proxy_set_header Host $host;" in nginx
    assert "proxy_pass http://127.0.0.1:8765;" in nginx and "client_max_body_size 256k;" in nginx
    assert parse_args([]).port == 8765 and parse_args([]).max_body_bytes == 256 * 1024


def test_an_unknown_puzzle_is_refused_with_a_suggestion(capsys):
    from comma_env.play import main

    assert main(["puzzle=wires"]) == 2
    err = capsys.readouterr().err
    assert "'wires'" in err and "did you mean wire?" in err


def test_the_caddy_example_names_its_proxy():
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "trusted_proxies=[127.0.0.1]" in caddy
