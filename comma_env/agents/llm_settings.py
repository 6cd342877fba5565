"""A chat model's config as the policy and its client read it: `LLMSettings`, checked when built.
Keys of ``extra`` the policy does not read pass through to the request, except those it sets itself."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from omegaconf import DictConfig, OmegaConf

from comma_env.agents.http_client import speaks_openai_http
from comma_env.protocol.logprobs import MAX_TOP
from comma_env.run.config import ModelConfig

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
class LLMSettings(ModelConfig):
    """A model config as the chat policy and its client read it, checked by `from_config`."""

    model: str = ""  # required here

    @classmethod
    def from_config(cls, cfg: Any) -> LLMSettings:
        data = _plain(cfg)
        who = f"model config {data.get('name') or data.get('model')!r}"
        if not data.get("model"):
            raise ValueError(f"{who} has kind 'litellm' but no `model` string")
        reserved = sorted(k for k in data.get("extra") or {} if k in RESERVED_EXTRA_KEYS)
        if reserved:
            hints = "; ".join(f"{k}: "
                              + (f"use the top-level field `{RESERVED_EXTRA_KEYS[k]}`" if RESERVED_EXTRA_KEYS[k]
                                          else "built by the policy") for k in reserved)
            raise ValueError(f"{who}: `extra` must not set keys the policy passes itself ({hints})")
        given = {k: v for k, v in data.items() if v is not None}  # a null field keeps its default
        settings: LLMSettings = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(cls), given))  # type: ignore[assignment]
        settings.name = str(data.get("name") or settings.model)
        settings.client = settings.client.lower()
        if settings.client not in CLIENTS:
            raise ValueError(f"{who}: client must be one of {', '.join(CLIENTS)}, got {settings.client!r}")
        if not (math.isfinite(settings.timeout) and settings.timeout > 0):  # 0 or nan: no deadline, or none at all
            raise ValueError(f"{who}: timeout must be a positive number of seconds (the deadline of each "
                             f"attempt), got {data.get('timeout')!r}")
        settings.top_logprobs = settings.top_logprobs if settings.logprobs else 0
        if not 0 <= settings.top_logprobs <= MAX_TOP:
            raise ValueError(f"{who}: top_logprobs must be between 0 and {MAX_TOP}, got {settings.top_logprobs}")
        if settings.client == "aiohttp" and not (settings.api_base or settings.extra.get("replicas")
                                                 or settings.serve.launch):
            raise ValueError(f"{who}: client=aiohttp needs an api_base (or extra.replicas, or serve.launch)")
        return settings

    @property
    def uses_aiohttp(self) -> bool:
        """Whether calls go over `comma_env.agents.http_client` rather than LiteLLM."""
        if self.client != "auto":
            return self.client == "aiohttp"
        served = bool(self.api_base or self.extra.get("replicas") or self.serve.launch)
        return served and speaks_openai_http(self.model)


def _plain(cfg: Any) -> dict[str, Any]:
    """A dataclass / OmegaConf node / mapping as a plain dict."""
    if isinstance(cfg, dict):
        return dict(cfg)
    if isinstance(cfg, DictConfig):
        return dict(OmegaConf.to_container(cfg, resolve=True))  # type: ignore[arg-type]
    import dataclasses

    if dataclasses.is_dataclass(cfg):
        return {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg)}
    return dict(vars(cfg))

