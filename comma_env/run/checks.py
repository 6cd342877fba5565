"""Checks a rollout runs before its first episode (config and environment only, no network), so a
bad setting fails at once with one line that never repeats a possible secret."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from comma_env.protocol.logprobs import MAX_TOP
from comma_env.run.config import ModelConfig
from comma_env.run.redact import is_env_name, is_key_like

_CONVENTIONAL_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*\Z")


class ConfigError(ValueError):
    """A setting that makes the run pointless or unsafe; raised before anything runs."""


def check_model(role: str, model: ModelConfig) -> None:
    """Sampling values, time-outs, key handling and ``extra`` keys of one role's model."""
    where = f"{role} model {model.name!r}"
    if not math.isfinite(model.temperature) or model.temperature < 0:
        raise ConfigError(f"{where}: temperature must be a finite number >= 0, got {model.temperature}")
    if not math.isfinite(model.timeout) or model.timeout <= 0:
        raise ConfigError(f"{where}: timeout must be > 0 seconds, got {model.timeout}")
    if model.max_tokens < 1:
        raise ConfigError(f"{where}: max_tokens must be >= 1, got {model.max_tokens}")
    if model.max_retries < 0:
        raise ConfigError(f"{where}: max_retries must be >= 0, got {model.max_retries}")
    if not 0 <= model.top_logprobs <= MAX_TOP:
        raise ConfigError(f"{where}: top_logprobs must be between 0 and {MAX_TOP} (the OpenAI API's limit), "
                          f"got {model.top_logprobs}")
    if model.top_logprobs and not model.logprobs:
        raise ConfigError(f"{where}: top_logprobs={model.top_logprobs} needs logprobs=true")
    for name in ("startup_timeout", "stall_timeout"):
        value = getattr(model.serve, name)
        if not math.isfinite(value) or value <= 0:
            raise ConfigError(f"{where}: serve.{name} must be > 0 seconds, got {value}")
    if model.kind == "litellm" and model.serve.launch and model.serve.backend == "vllm" and not model.serve.hf_model:
        raise ConfigError(f"{where}: serve.launch=true needs the model to load: add model.serve.hf_model=HF_MODEL_ID "
                          f"(the run serves it as {model.name!r})")
    secret_extras = sorted(str(k) for k in (model.extra or {}) if is_key_like(k))
    if secret_extras:
        raise ConfigError(f"{where}: model.extra must not hold credentials ({', '.join(secret_extras)}; values not "
                          "shown): put the key in an environment variable and name it in model.api_key_env")
    key_env = model.api_key_env
    if key_env and not is_env_name(key_env):
        raise ConfigError(f"{where}: model.api_key_env must be the NAME of an environment variable holding the "
                          "key (like OPENAI_API_KEY), not the key itself (the value given is not shown)")
    urls = [str(u) for u in (model.extra or {}).get("replicas") or []] + [str(model.api_base or "")]
    if key_env and any(urlsplit(url).username for url in urls):
        # the server would get two credentials (aiohttp refuses to send both, so every call would fail)
        raise ConfigError(f"{where}: model.api_base (or a replica) carries credentials (user:password@) and "
                          "model.api_key_env names a key: send one, drop the credentials from the URL or unset "
                          "api_key_env")


def check_key(role: str, model: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
    """The API key a model calls with is set (checked when the run starts, not when it is
    planned, since it depends on the environment)."""
    environ = os.environ if environ is None else environ
    name = model.api_key_env
    if model.kind == "litellm" and name and is_env_name(name) and not environ.get(name):
        shown = name if _CONVENTIONAL_ENV_NAME.match(name) else "named by model.api_key_env"
        raise ConfigError(f"{role} model {model.name!r}: missing API key: the environment variable {shown} is not "
                          "set (export it, or set model.api_key_env=null for a server without keys)")


def check_puzzle_options(puzzle: str, options: Mapping[str, Any], seed: int) -> None:
    """Build and reset the puzzle's game once with its options, so a misspelt key or a
    missing data folder fails now rather than in every episode."""
    if not options:
        return
    from comma_env.protocol.game import RunOptions
    from comma_env.registry import game, make

    try:
        env = make(puzzle, **game(puzzle).env_options(RunOptions(puzzle_options=dict(options))))
        env.reset(seed=seed)
        env.close()
    except Exception as error:  # noqa: BLE001 - any construction failure is a config error here
        raise ConfigError(f"puzzle_options.{puzzle}: {error}") from None
