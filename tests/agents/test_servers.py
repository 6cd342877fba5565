"""Server launching: command lines, health wait, stop, and `serve.launch` through a fake `vllm`."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

import comma_env
from comma_env.agents.llm import LiteLLMPolicy, LLMCallError
from comma_env.agents.runner import run_episode
from comma_env.agents.servers import (
    ManagedServer,
    ServeConfig,
    ServerError,
    build_command,
    find_gguf,
    free_port,
    port_in_use,
    served_model_name,
    server_root,
)
from tests.support.loopback_server import Loopback

LOOPBACK = Path(__file__).resolve().parents[1] / "support" / "loopback_server.py"
CONF = Path(__file__).resolve().parents[2] / "conf" / "model"


def test_local_models_use_distinct_ports_matching_their_api_base():
    """solver=X expert=Y with two launched local models must not collide on a port."""
    from omegaconf import OmegaConf

    ports = {}
    for name in ["qwen2vl", "internvl", "llama32", "llava16", "r1onevision", "llavacot"]:
        cfg = OmegaConf.load(CONF / f"{name}.yaml")
        assert cfg.api_base == f"http://127.0.0.1:{cfg.serve.port}/v1", name
        ports[name] = cfg.serve.port
    assert len(set(ports.values())) == len(ports), ports


def test_vllm_command_line():
    serve = ServeConfig(backend="vllm", hf_model="Qwen/Qwen2-VL-7B-Instruct", port=8123,
                        args=["--max-model-len", "8192", "--limit-mm-per-prompt", '{"image":1}',
                              "--enable-prefix-caching"])
    cmd = build_command(serve, 8123)
    assert Path(cmd[0]).name == "vllm" and cmd[1:3] == ["serve", "Qwen/Qwen2-VL-7B-Instruct"]
    assert cmd[cmd.index("--port") + 1] == "8123" and cmd[cmd.index("--host") + 1] == "127.0.0.1"
    mm = cmd[cmd.index("--limit-mm-per-prompt") + 1]
    assert json.loads(mm) == {"image": 1}  # one argv item holding JSON, no shell quoting
    assert "--enable-prefix-caching" in cmd


@pytest.mark.parametrize("name", ["qwen2vl", "internvl", "llama32", "llava16", "r1onevision", "llavacot"])
def test_shipped_vllm_configs_build_valid_commands(name):
    from omegaconf import OmegaConf

    cfg = OmegaConf.load(CONF / f"{name}.yaml")
    assert cfg.kind == "litellm" and cfg.model.startswith("hosted_vllm/") and cfg.api_base.endswith("/v1")
    assert cfg.model == "hosted_vllm/" + cfg.serve.hf_model
    cmd = build_command(OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(ServeConfig), cfg.serve)), 8000)
    assert cmd[2] == cfg.serve.hf_model
    assert json.loads(cmd[cmd.index("--limit-mm-per-prompt") + 1]) == {"image": 1}
    assert "--max-model-len" in cmd
    mllama = name in ("llama32", "llavacot")  # encoder-decoder: vLLM cannot prefix-cache it
    assert ("--enable-prefix-caching" in cmd) != mllama


def test_llama_cpp_command_finds_packaged_gguf(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_gguf_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tiny.Q4.gguf").write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert find_gguf("fake_gguf_pkg") == pkg / "tiny.Q4.gguf"
    cmd = build_command(ServeConfig(backend="llama_cpp", hf_model="pkg:fake_gguf_pkg", args=["--n_ctx", "4096"]), 9001)
    assert cmd[:4] == [sys.executable, "-m", "comma_env.agents.servers", "llama_cpp"]
    assert cmd[cmd.index("--model") + 1] == str(pkg / "tiny.Q4.gguf") and cmd[-2:] == ["--n_ctx", "4096"]
    with pytest.raises(ServerError, match="not installed"):
        find_gguf("no_such_pkg_xyz")
    with pytest.raises(ServerError, match="backend"):
        build_command(ServeConfig(backend="tgi", hf_model="x"), 1)


def test_smollm2_stops_at_the_dialogue_headers_of_the_prompt():
    """A small model that goes on to write its partner's part is cut where that part would
    start: the stop strings are the headers the prompt itself writes (they went stale once,
    when the prompt's format changed and the config did not)."""
    from omegaconf import OmegaConf

    from comma_env.protocol.prompts import format_entry, speaker_header

    stop = list(OmegaConf.load(Path(__file__).resolve().parents[2] / "conf" / "model" / "smollm2_cpu.yaml").stop)
    assert stop == ["\n" + speaker_header(speaker) for speaker in ("expert", "solver", "environment")]
    shown = "\n".join(format_entry(entry) for entry in [
        {"speaker": "solver", "text": "hi"}, {"speaker": "environment", "text": "x: ok"},
        {"speaker": "expert", "text": "yo"}, {"speaker": "solver", "text": "ok"}])
    assert all(marker in "\n" + shown for marker in stop)


def test_server_root():
    assert server_root("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000"
    assert server_root("http://h:1/v1/") == "http://h:1"


def test_managed_server_waits_for_health_and_stops(tmp_path):
    port = free_port()
    command = [sys.executable, str(LOOPBACK), "--port", str(port), "--startup-delay", "1.0"]
    server = ManagedServer(command, f"http://127.0.0.1:{port}/v1", tmp_path / "server.log")
    started = time.monotonic()
    assert asyncio.run(server.start(timeout=30)) == f"http://127.0.0.1:{port}/v1"
    assert time.monotonic() - started >= 1.0 and server.running
    pid = server.process.pid
    code = server.stop()
    assert code is not None and not server.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_managed_server_reports_a_dying_process_with_its_log(tmp_path):
    command = [sys.executable, "-c", "import sys; print('model weights not found'); sys.exit(3)"]
    server = ManagedServer(command, f"http://127.0.0.1:{free_port()}/v1", tmp_path / "server.log")
    with pytest.raises(ServerError, match="(?s)code 3.*model weights not found"):
        asyncio.run(server.start(timeout=30))


def test_managed_server_times_out_and_kills(tmp_path):
    command = [sys.executable, "-c", "import time; time.sleep(60)"]
    server = ManagedServer(command, f"http://127.0.0.1:{free_port()}/v1", tmp_path / "server.log")
    with pytest.raises(ServerError, match="not ready"):
        asyncio.run(server.start(timeout=1.0))
    assert server.process is None  # stopped on failure


def _fake_vllm(bin_dir: Path, argv_log: Path) -> None:
    """A `vllm` executable that records its argv and serves the loopback server instead."""
    script = bin_dir / "vllm"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, runpy, sys\n"
        f"open({str(argv_log)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        # like vLLM, list the served model (its `serve` argument) under /v1/models
        f"sys.argv = [{str(LOOPBACK)!r}] + sys.argv[1:] + ['--model', sys.argv[2]]\n"
        f"runpy.run_path({str(LOOPBACK)!r}, run_name='__main__')\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)


def test_serve_launch_starts_plays_and_stops_a_fake_vllm(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    argv_log = tmp_path / "argv.json"
    _fake_vllm(bin_dir, argv_log)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    port = free_port()
    cfg = dict(kind="litellm", name="qwen2vl", model="hosted_vllm/Qwen/Qwen2-VL-7B-Instruct",
               api_base="http://127.0.0.1:1/v1", vision=False, extra={"retry_base_delay": 0.02},
               serve=dict(launch=True, backend="vllm", hf_model="Qwen/Qwen2-VL-7B-Instruct", port=port,
                          args=["--max-model-len", "8192", "--limit-mm-per-prompt", '{"image":1}',
                                "--enable-prefix-caching"],
                          startup_timeout=60))
    policy = LiteLLMPolicy(cfg, log_dir=tmp_path)

    async def go():
        await policy.start()
        env = comma_env.make("wire", solver_view="text")
        env.reset(seed=4)
        result = await run_episode(env, policy.player("solver", env, 4), policy.player("expert", env, 4))
        pid = policy.server.process.pid
        await policy.aclose()
        return result, pid

    result, pid = asyncio.run(go())
    assert result.error is None and result.summary["success"]
    argv = json.loads(argv_log.read_text())
    assert argv[:2] == ["serve", "Qwen/Qwen2-VL-7B-Instruct"] and argv[argv.index("--port") + 1] == str(port)
    assert argv[argv.index("--limit-mm-per-prompt") + 1] == '{"image":1}'
    assert policy.settings.api_base == f"http://127.0.0.1:{port}/v1"
    assert policy.server is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_failed_launch_is_an_error_once_not_a_relaunch_per_call(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no vllm anywhere
    cfg = dict(kind="litellm", name="q", model="hosted_vllm/x", vision=False,
               serve=dict(launch=True, backend="vllm", hf_model="x", port=free_port(), startup_timeout=5))
    policy = LiteLLMPolicy(cfg)
    for _ in range(2):
        with pytest.raises(LLMCallError, match="could not start"):
            asyncio.run(policy.client.complete([{"role": "user", "content": "hi"}]))


def test_serve_config_is_the_rollout_schema_dataclass():
    from comma_env.agents.llm_settings import LLMSettings
    from comma_env.run import config

    assert ServeConfig is config.ServeConfig
    settings = LLMSettings.from_config({"model": "openai/x", "serve": {"launch": 1, "args": [8192]}})
    assert settings.serve == config.ServeConfig(launch=True, args=["8192"])
    assert LLMSettings.from_config({"model": "openai/x"}).serve == config.ServeConfig()


def test_launch_onto_a_taken_port_is_refused_not_mistaken_for_ready(tmp_path):
    """A server left on the port answers /health and /v1/models; it must not pass as ours."""
    with Loopback() as other:
        assert port_in_use(other.port)
        command = [sys.executable, str(LOOPBACK), "--port", str(other.port)]
        server = ManagedServer(command, other.api_base, tmp_path / "server.log")
        with pytest.raises(ServerError, match="already in use"):
            asyncio.run(server.start(timeout=10))
        assert server.process is None
    assert not port_in_use(free_port())


def test_ready_requires_the_expected_model_in_v1_models(tmp_path):
    port = free_port()
    command = [sys.executable, str(LOOPBACK), "--port", str(port), "--model", "some-other-model"]
    server = ManagedServer(command, f"http://127.0.0.1:{port}/v1", tmp_path / "a.log", expected_model="mine")
    # start() waits out its timeout, in which the server must start and answer, on a loaded machine too
    with pytest.raises(ServerError, match="not the expected 'mine'"):
        asyncio.run(server.start(timeout=10.0))
    assert server.process is None
    port = free_port()
    command = [sys.executable, str(LOOPBACK), "--port", str(port), "--model", "mine"]
    server = ManagedServer(command, f"http://127.0.0.1:{port}/v1", tmp_path / "b.log", expected_model="mine")
    asyncio.run(server.start(timeout=30))
    assert server.running
    server.stop()


def test_expected_model_names_follow_each_backend(tmp_path, monkeypatch):
    vllm = ServeConfig(backend="vllm", hf_model="org/m", port=8123)
    assert served_model_name(vllm, build_command(vllm, 8123)) == "org/m"
    aliased = ServeConfig(backend="vllm", hf_model="org/m", port=8123, args=["--served-model-name", "short"])
    assert served_model_name(aliased, build_command(aliased, 8123)) == "short"
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    llama = ServeConfig(backend="llama_cpp", hf_model=str(gguf), port=0)
    assert served_model_name(llama, build_command(llama, 1)) == str(gguf)
    assert ManagedServer.from_config(llama).expected_model == str(gguf)


def test_default_log_file_does_not_leak_a_descriptor():
    before = len(os.listdir("/proc/self/fd"))
    servers = [ManagedServer(["true"], "http://127.0.0.1:1/v1") for _ in range(5)]
    assert len(os.listdir("/proc/self/fd")) == before
    for server in servers:
        server.log_path.unlink()
