"""The OpenEnv package of COMMA (envs/comma_openenv) as OpenEnv's own tooling sees it: the
manifest passes `openenv validate`, the Dockerfile serves what the manifest and the server's
settings say, a running server passes `openenv validate URL`, and `AutoEnv.from_env("comma")`
finds the client by name and plays an episode with it over loopback."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
import yaml

pytest.importorskip("openenv", reason='needs the openenv extra: pip install -e ".[openenv]"')

from tests.support.docs_blocks import ROOT  # noqa: E402
from tests.support.port_file_process import ServerProcess  # noqa: E402

PACKAGE = ROOT / "envs" / "comma_openenv"


def openenv_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`openenv ARGS` (the installed CLI's module), its output captured."""
    return subprocess.run([sys.executable, "-m", "openenv.cli", *args], capture_output=True, text=True, timeout=300)


def manifest() -> dict:
    return yaml.safe_load((PACKAGE / "openenv.yaml").read_text())


def dockerfile() -> dict[str, list[str]]:
    """Instruction -> its arguments, one entry per line (continuations joined)."""
    text = (PACKAGE / "server" / "Dockerfile").read_text().replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, rest = line.strip().partition(" ")
            found.setdefault(instruction.upper(), []).append(rest.strip())
    return found


def test_the_manifest_passes_openenv_validate():
    result = openenv_cli("validate", str(PACKAGE), "--level", "static", "--skip-build")
    assert result.returncode == 0 and "PASS  static.manifest" in result.stdout, result.stdout + result.stderr
    import comma_env

    assert manifest()["version"] == comma_env.__version__


def test_the_dockerfile_serves_what_the_manifest_and_the_settings_say():
    from comma_env.openenv.server import ServerSettings, parse_settings

    spec, steps = manifest(), dockerfile()
    assert steps["COPY"] == [". /app/src"]  # built from the repository root, which holds comma_env
    installed = steps["RUN"][0].split()
    assert '"/app/src[openenv]"' in installed and "/app/src/envs/comma_openenv" in installed
    assert (ROOT / "envs" / "comma_openenv" / "pyproject.toml").is_file()
    assert steps["EXPOSE"] == [str(spec["port"])] and ServerSettings().port == spec["port"]
    command = json.loads(steps["CMD"][0])
    assert command[:3] == ["python", "-m", "comma_env.openenv"]
    settings = parse_settings(command[3:])  # the server accepts every word of the command
    assert (settings.host, settings.port, settings.allowed_hosts) == ("0.0.0.0", spec["port"], ["*"])
    assert f"127.0.0.1:{spec['port']}/health" in steps["HEALTHCHECK"][0]


def test_the_manifests_app_is_the_servers_app():
    from comma_openenv.server import app as module

    assert manifest()["app"] == "server.app:app" and callable(module.main)
    assert {route.path for route in module.app.routes} >= {"/reset", "/step", "/state", "/health", "/ws"}


def test_a_running_server_passes_openenv_validate_and_autoenv_plays_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # a fresh discovery cache
    from comma_openenv import CommaAction, CommaEnv
    from openenv import AutoAction, AutoEnv
    from openenv.auto._discovery import reset_discovery

    reset_discovery()
    with ServerProcess("puzzle=wire", "role=solver", "partner=oracle") as server:
        result = openenv_cli("validate", server.url)
        assert result.returncode == 0 and "Verdict: PASS" in result.stdout, result.stdout + result.stderr
        assert AutoAction.from_env("comma") is CommaAction

        async def play() -> tuple[float, bool]:
            async with AutoEnv.from_env("comma", base_url=server.url) as env:
                assert isinstance(env, CommaEnv)
                first = await env.reset(seed=2)
                assert first.observation.image_png and first.observation.messages
                step = await env.step(CommaAction(message="I see some wires."))
                return step.observation.info["turn"], (await env.state()).seed == 2

        assert asyncio.run(play()) == (1, True)
