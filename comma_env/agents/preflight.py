"""Reach every model server once before the first episode (``GET <api_base>/models``), so a dead
server or a refused key exits with one line instead of an error per episode."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from comma_env.run.redact import mask

PREFLIGHT_TIMEOUT = 10.0  # seconds one server gets to answer (at most the model's own time-out)


class PreflightError(RuntimeError):
    """A server the run needs cannot be used."""


@dataclass(frozen=True)
class Endpoint:
    url: str
    key_env: str | None
    who: str  # "solver model 'x'" for messages
    timeout: float


def endpoints(models: Sequence[tuple[str, Any]]) -> list[Endpoint]:
    """The distinct endpoints of `models` ((role, ModelConfig) pairs) that need a check."""
    seen: dict[str, Endpoint] = {}
    for role, model in models:
        if model.kind != "litellm" or model.serve.launch:
            continue
        urls = [str(u) for u in (model.extra or {}).get("replicas") or []] or ([model.api_base]
                                                                               if model.api_base else [])
        for url in urls:
            key = url.rstrip("/")
            if key not in seen:
                seen[key] = Endpoint(key, model.api_key_env, f"{role} model {model.name!r}",
                                     min(PREFLIGHT_TIMEOUT, float(model.timeout)))
    return list(seen.values())


async def _check(client: httpx.AsyncClient, endpoint: Endpoint) -> str | None:
    """None when the server answers usably, else one line saying what is wrong."""
    headers = {}
    key = os.environ.get(endpoint.key_env or "") if endpoint.key_env else None
    if key:
        headers["Authorization"] = f"Bearer {key}"
    secrets = [key] if key else []
    shown = mask(endpoint.url, secrets)
    try:
        response = await client.get(endpoint.url + "/models", headers=headers, timeout=endpoint.timeout)
    except httpx.TimeoutException:
        return f"{endpoint.who}: the server at {shown} did not answer within {endpoint.timeout:.0f} s"
    except httpx.HTTPError as error:
        reason = mask(str(error) or type(error).__name__, secrets)
        return (f"{endpoint.who}: cannot reach the server at {shown} ({type(error).__name__}: {reason}); "
                "start it, or point model.api_base at a running server")
    if response.status_code in (401, 403):
        return (f"{endpoint.who}: the server at {shown} refused the API key (HTTP {response.status_code}); "
                "check the variable model.api_key_env names")
    if response.status_code == 404:
        return (f"{endpoint.who}: the server at {shown} answers HTTP 404 to /models, so it is no "
                "OpenAI-compatible API at that address; check the port, and that model.api_base ends in /v1")
    if response.status_code >= 500:
        return f"{endpoint.who}: the server at {shown} answers HTTP {response.status_code} to /models"
    return None


async def check_servers(models: Sequence[tuple[str, Any]]) -> None:
    """Raise `PreflightError` naming the first endpoint of `models` that cannot be used."""
    todo = endpoints(models)
    if not todo:
        return
    async with httpx.AsyncClient(follow_redirects=True) as client:
        problems = await asyncio.gather(*(_check(client, e) for e in todo))
    failed = [p for p in problems if p]
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise PreflightError(failed[0] + more)
