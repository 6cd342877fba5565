"""The client path to OpenAI-compatible servers (vLLM, llama.cpp, SGLang...): one JSON POST over a
pooled `aiohttp` session per endpoint and event loop; with replicas, to the least busy one."""

from __future__ import annotations

import asyncio
import atexit
import json
import sys
import weakref
from dataclasses import dataclass, field
from typing import Any

import aiohttp

# model-string prefixes LiteLLM uses for servers that speak the OpenAI chat protocol over HTTP
OPENAI_COMPATIBLE_PROVIDERS = frozenset({"openai", "hosted_vllm", "openai_like", "custom_openai", "llamafile",
                                         "lm_studio"})
# LiteLLM-only request options: meaningful to LiteLLM itself, never part of the HTTP body
LITELLM_ONLY_KEYS = frozenset({"drop_params", "num_retries", "metadata", "mock_response", "custom_llm_provider",
                               "caching", "api_version", "base_url", "organization", "litellm_logging_obj"})
_LIVE: weakref.WeakSet[OpenAICompatTransport] = weakref.WeakSet()  # for the exit-time release
ERROR_EXCERPT = 300  # characters of a failed answer's body kept in the error message


class HTTPStatusError(RuntimeError):
    """A non-200 answer; `status_code` decides whether it is retried (429 and 5xx are)."""

    def __init__(self, status_code: int, excerpt: str) -> None:
        super().__init__(f"HTTP {status_code}: {excerpt}")
        self.status_code = status_code


class MalformedAnswer(RuntimeError):
    """An HTTP 200 answer that is not a JSON object (retried like a server error)."""


def served_model(model: str) -> str:
    """The name the server expects: ``hosted_vllm/Qwen/Qwen2-VL`` -> ``Qwen/Qwen2-VL``."""
    provider, sep, rest = model.partition("/")
    return rest if sep and provider in OPENAI_COMPATIBLE_PROVIDERS else model


def speaks_openai_http(model: str) -> bool:
    """True when LiteLLM would send `model` to an OpenAI-compatible HTTP endpoint."""
    provider, sep, _ = model.partition("/")
    return not sep or provider in OPENAI_COMPATIBLE_PROVIDERS


async def within(seconds: float, awaitable: Any) -> Any:
    """`awaitable`'s result, or `TimeoutError` once `seconds` have passed (a total deadline). It runs
    in the caller's task: under `asyncio.wait_for`'s own task, LiteLLM 1.80's logging worker hung
    `asyncio.run` at exit."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            return await awaitable
    try:  # pragma: no cover - Python 3.10, whose asyncio.TimeoutError is not the builtin
        return await asyncio.wait_for(awaitable, seconds)
    except asyncio.TimeoutError:  # pragma: no cover
        raise TimeoutError from None


@dataclass
class Endpoint:
    """One replica: its URL, its requests in flight and its session (per event loop)."""

    url: str
    outstanding: int = 0
    session: aiohttp.ClientSession | None = field(default=None, repr=False)
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    def session_for(self, loop: asyncio.AbstractEventLoop) -> aiohttp.ClientSession:
        if self.session is None or self.loop is not loop or self.session.closed:
            if self.session is not None and self.loop is not loop:
                abandon(self.session)
            connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300, keepalive_timeout=60)
            # no aiohttp timeout: the caller's total deadline (`within`) bounds every call
            self.session = aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None))
            self.loop = loop
        return self.session


    def __del__(self) -> None:
        # a policy dropped without `aclose()` (a script's asyncio.run): release quietly
        if self.session is not None and not self.session.closed:
            abandon(self.session)


def abandon(session: aiohttp.ClientSession) -> None:
    """Drop a session whose event loop is gone, without an "unclosed session" warning."""
    connector = session.connector
    if connector is not None and not connector.closed:
        connector._close()  # marks it closed and closes its sockets (without awaiting)
    session.detach()


@atexit.register
def _release_at_exit() -> None:
    """Sessions still open when the interpreter exits are released without warnings."""
    for transport in list(_LIVE):
        for endpoint in transport.endpoints:
            if endpoint.session is not None and not endpoint.session.closed:
                abandon(endpoint.session)


class OpenAICompatTransport:
    """POSTs chat requests to ``<base>/chat/completions`` of one or more replicas."""

    def __init__(self, bases: list[str], headers: dict[str, str] | None = None) -> None:
        if not bases:
            raise ValueError("an OpenAI-compatible transport needs at least one api_base")
        self.endpoints = [Endpoint(base.rstrip("/") + "/chat/completions") for base in bases]
        self.headers = {"Content-Type": "application/json", **(headers or {})}
        self._next = 0
        _LIVE.add(self)

    def pick(self) -> Endpoint:
        """The replica with the fewest requests in flight; ties go round-robin."""
        n = len(self.endpoints)
        start = self._next
        self._next = (start + 1) % n
        best = self.endpoints[start]
        for i in range(1, n):
            candidate = self.endpoints[(start + i) % n]
            if candidate.outstanding < best.outstanding:
                best = candidate
        return best

    async def post(self, body: dict[str, Any], api_key: str | None) -> dict[str, Any]:
        """The decoded JSON answer to one request (no retries here: the caller retries)."""
        endpoint = self.pick()
        session = endpoint.session_for(asyncio.get_running_loop())
        headers = self.headers if not api_key else {**self.headers, "Authorization": f"Bearer {api_key}"}
        endpoint.outstanding += 1
        try:
            async with session.post(endpoint.url, data=encode(body), headers=headers) as response:
                raw = await response.read()
                status = response.status
        finally:
            endpoint.outstanding -= 1
        if status != 200:
            raise HTTPStatusError(status, _excerpt(raw))
        try:
            answer = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise MalformedAnswer(f"answer is not JSON ({exc}): {_excerpt(raw)}") from None
        if not isinstance(answer, dict):
            raise MalformedAnswer(f"answer is not a JSON object: {_excerpt(raw)}")
        return answer

    async def aclose(self) -> None:
        """Close the sessions of the running loop; abandon those of finished loops."""
        loop = asyncio.get_running_loop()
        for endpoint in self.endpoints:
            session, endpoint.session = endpoint.session, None
            if session is None or session.closed:
                continue
            if endpoint.loop is loop:
                await session.close()
            else:
                abandon(session)


def encode(body: dict[str, Any]) -> bytes:
    """The request body as compact, ASCII-escaped JSON (lone surrogates included)."""
    return json.dumps(body, separators=(",", ":")).encode("ascii")


def _excerpt(raw: bytes) -> str:
    text = raw[: ERROR_EXCERPT * 4].decode("utf-8", errors="replace")
    text = " ".join(text.split())
    return text[:ERROR_EXCERPT] + ("..." if len(text) > ERROR_EXCERPT else "")
