"""A chat model's config as the policy and its client read it: `LLMSettings`, checked when built.
Keys of ``extra`` the policy does not read pass through to the request, except those it sets itself."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from comma_env.agents.http_client import speaks_openai_http
from comma_env.agents.servers import serve_config
from comma_env.protocol.logprobs import MAX_TOP
from comma_env.run.config import ServeConfig

RESERVED_EXTRA_KEYS = {
    # passed explicitly to litellm.acompletion / Router.acompletion: a duplicate is a TypeError
    "model": "model", "api_base": "api_base", "api_key": "api_key_env (the NAME of an env variable)",
    "max_retries": "max_retries", "messages": None,
    # set from top-level config fields: an `extra` copy would silently override them
    "temperature": "temperature", "max_tokens": "max_tokens", "timeout": "timeout", "stop": "stop",
    "logprobs": "logprobs", "top_logprobs": "top_logprobs", "return_token_ids": "server_ids",
}
CLIENTS = ("auto", "aiohttp", "litellm")


@dataclass
class LLMSettings:
    """The fields of a model config this module uses, normalised."""

    name: str
    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    stop: list[str] = field(default_factory=list)
    vision: bool = True
    audio: bool = False
    describe_audio: bool = True
    timeout: float = 120.0
    max_retries: int = 5
    client: str = "auto"
    logprobs: bool = False
    top_logprobs: int = 0
    server_ids: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    serve: ServeConfig = field(default_factory=ServeConfig)

    @classmethod
    def from_config(cls, cfg: Any) -> LLMSettings:
        data = _plain(cfg)
        if not data.get("model"):
            raise ValueError(f"model config {data.get('name')!r} has kind 'litellm' but no `model` string")
        extra = dict(data.get("extra") or {})
        who = f"model config {data.get('name') or data.get('model')!r}"
        reserved = sorted(k for k in extra if k in RESERVED_EXTRA_KEYS)
        if reserved:
            hints = "; ".join(f"{k}: "
                              + (f"use the top-level field `{RESERVED_EXTRA_KEYS[k]}`" if RESERVED_EXTRA_KEYS[k]
                                          else "built by the policy") for k in reserved)
            raise ValueError(f"{who}: `extra` must not set keys the policy passes itself ({hints})")
        client = str(data.get("client") or "auto").lower()
        if client not in CLIENTS:
            raise ValueError(f"{who}: client must be one of {', '.join(CLIENTS)}, got {client!r}")
        serve = serve_config(data.get("serve"))
        timeout = float(_given(data, "timeout", 120.0))
        if not (math.isfinite(timeout) and timeout > 0):  # 0 or nan would mean "no deadline" or none at all
            raise ValueError(f"{who}: timeout must be a positive number of seconds (the deadline of each "
                             f"attempt), got {data.get('timeout')!r}")
        top_logprobs = int(data.get("top_logprobs") or 0) if data.get("logprobs") else 0
        if not 0 <= top_logprobs <= MAX_TOP:
            raise ValueError(f"{who}: top_logprobs must be between 0 and {MAX_TOP}, got {top_logprobs}")
        if client == "aiohttp" and not (data.get("api_base") or extra.get("replicas") or serve.launch):
            raise ValueError(f"{who}: client=aiohttp needs an api_base (or extra.replicas, or serve.launch)")
        return cls(
            name=str(data.get("name") or data["model"]),
            model=str(data["model"]),
            api_base=data.get("api_base") or None,
            api_key_env=data.get("api_key_env") or None,
            temperature=float(_given(data, "temperature", 0.0)),
            max_tokens=int(data.get("max_tokens") or 512),
            stop=[str(s) for s in (data.get("stop") or [])],
            vision=bool(data.get("vision", True)),
            audio=bool(data.get("audio", False)),
            describe_audio=bool(data.get("describe_audio", True)),
            timeout=timeout,
            max_retries=int(_given(data, "max_retries", 5)),
            client=client,
            logprobs=bool(data.get("logprobs", False)),
            top_logprobs=top_logprobs,
            server_ids=bool(data.get("server_ids", False)),
            extra=extra,
            serve=serve,
        )

    @property
    def uses_aiohttp(self) -> bool:
        """Whether calls go over `comma_env.agents.http_client` rather than LiteLLM."""
        if self.client != "auto":
            return self.client == "aiohttp"
        served = bool(self.api_base or self.extra.get("replicas") or self.serve.launch)
        return served and speaks_openai_http(self.model)


def _given(data: dict[str, Any], key: str, default: Any) -> Any:
    """`data[key]`, or `default` when it is missing or None (unlike `or`, a given 0 stays 0)."""
    value = data.get(key)
    return default if value is None else value


def _plain(cfg: Any) -> dict[str, Any]:
    """A dataclass / OmegaConf node / mapping as a plain dict."""
    if isinstance(cfg, dict):
        return dict(cfg)
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(cfg, DictConfig):
            return dict(OmegaConf.to_container(cfg, resolve=True))  # type: ignore[arg-type]
    except ImportError:  # pragma: no cover - omegaconf comes with hydra
        pass
    import dataclasses

    if dataclasses.is_dataclass(cfg):
        return {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg)}
    return dict(vars(cfg))

