"""Keep secrets off disk and out of logs: tell credential names by their words, mask URL
credentials and known values, and move secret overrides into environment variables."""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from typing import Any

MASK = "***"
SECRET_ENV_PREFIX = "COMMA_ENV_SECRET_"
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}\Z")
"""What an environment-variable name looks like (POSIX portable names)."""

_KEY_WORDS = frozenset({
    "key", "apikey", "token", "secret", "password", "passwd", "pwd", "passphrase", "credential",
    "credentials", "auth", "authorization", "bearer", "cookie", "signature", "jwt",
})
_KEY_SUFFIXES = ("key", "token", "secret", "password")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")
_USERINFO = re.compile(r"://([^/\s@?#\"'<>]+)@")  # the user:password@ of a URL


def is_key_like(name: Any) -> bool:
    """True when a config key names a credential (case-insensitive, camelCase aware)."""
    words = [w.lower() for w in _WORDS.findall(str(name))]
    return any(w in _KEY_WORDS or w.endswith(_KEY_SUFFIXES) for w in words)


def is_env_name(value: Any) -> bool:
    """True when `value` could be the name of an environment variable (not a key itself)."""
    return isinstance(value, str) and ENV_NAME.match(value) is not None


def url_credentials(text: str) -> list[str]:
    """The user-info parts (``user:password``) of the URLs in `text`."""
    return _USERINFO.findall(text)


def mask_urls(text: str) -> str:
    """`text` with the user-info part of every URL replaced by ``***``."""
    return _USERINFO.sub(f"://{MASK}@", text)


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with URL credentials and every known secret value (4+ characters) masked."""
    text = mask_urls(text)
    for secret in sorted({s for s in secrets if isinstance(s, str) and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def scrub(value: Any, key: Any = None) -> Any:
    """A copy of a config tree with values under key-like keys and URL credentials masked
    (``*_env`` keys hold variable names, not secrets, and are kept)."""
    secret_key = key is not None and is_key_like(key) and not str(key).lower().endswith("_env")
    if isinstance(value, dict):
        return {k: scrub(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        out = [scrub(v, key) for v in value]
        for index in _flag_value_indexes(value):  # server args such as ["--api-key", "sk-..."]
            out[index] = MASK
        return out
    if secret_key and value not in (None, "", False):
        return MASK
    if isinstance(value, str):
        return mask_urls(value)
    return value


def _is_key_flag(item: Any) -> bool:
    return isinstance(item, str) and item.startswith("-") and is_key_like(item.split("=", 1)[0])


def _flag_value_indexes(items: Sequence[Any]) -> list[int]:
    """Indexes of the values that follow key-like flags in a command-line list."""
    return [i + 1 for i, item in enumerate(items[:-1]) if _is_key_flag(item) and "=" not in item]


def config_secrets(model: Any) -> list[str]:
    """Secret strings a model config carries or points to (the key ``api_key_env`` names, URL
    credentials, values under key-like keys of ``extra``)."""
    data = model if isinstance(model, dict) else getattr(model, "__dict__", {})
    found: list[str] = []
    name = data.get("api_key_env")
    if name:
        found.append(os.environ.get(str(name), "") if is_env_name(name) else str(name))

    def walk(value: Any, key: Any = None) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)
            found.extend(str(value[i]) for i in _flag_value_indexes(value))
        elif isinstance(value, str):
            if key is not None and is_key_like(key) and not str(key).lower().endswith("_env"):
                found.append(value)
            for info in url_credentials(value):
                found.append(info)
                found.extend(part for part in info.split(":") if len(part) >= 4)

    walk({k: v for k, v in data.items() if k != "api_key_env"})
    return [s for s in found if s]


# -- the command line --------------------------------------------------------------------------
class UnsafeOverride(ValueError):
    """An override that would put a secret where it cannot be kept off disk."""


def shield_argv(argv: Sequence[str], environ: MutableMapping[str, str] | None = None) -> list[str]:
    """`argv` with secret override values replaced by ``${oc.env:COMMA_ENV_SECRET_i}``, the values put
    into `environ`; raises `UnsafeOverride` for a dict literal holding key-like keys."""
    env: MutableMapping[str, str] = os.environ if environ is None else environ
    out: list[str] = []
    count = sum(1 for k in env if k.startswith(SECRET_ENV_PREFIX))

    def stash(value: str) -> str:
        nonlocal count
        name = f"{SECRET_ENV_PREFIX}{count}"
        count += 1
        env[name] = value
        return "${oc.env:" + name + "}"

    for arg in argv:
        if arg.startswith("-") or "=" not in arg:
            out.append(arg)
            continue
        key, value = arg.split("=", 1)
        path = key.lstrip("+~")
        leaf = path.rsplit(".", 1)[-1].rsplit("/", 1)[-1]
        if "${" in value or not value:
            out.append(arg)
        elif leaf.lower().endswith("api_key_env"):
            out.append(arg if is_env_name(value) or value == "null" else f"{key}={stash(value)}")
        elif is_key_like(leaf) and not leaf.lower().endswith("_env"):  # also e.g. hydra.job.env_set.OPENAI_API_KEY=...
            out.append(f"{key}={stash(value)}")
        elif value.lstrip().startswith("[") and any(_is_key_flag(w) for w in re.findall(r"-[\w-]+", value)):
            raise UnsafeOverride(f"override {path}=[...] passes a key-like flag; give the server its key through its "
                                 "environment instead (vLLM reads VLLM_API_KEY), so it is kept off disk")
        elif value.lstrip().startswith("{") and any(is_key_like(w) for w in re.findall(r"[\w-]+(?=\s*:)", value)):
            raise UnsafeOverride(f"override {path}=... holds a key-like entry inside a {{...}} literal; give such "
                                 f"entries one per override ({path}.<name>=...) so they can be kept off disk")
        elif "://" in value and url_credentials(value):
            for info in url_credentials(value):
                value = value.replace(info + "@", stash(info) + "@")
            out.append(f"{key}={value}")
        else:
            out.append(arg)
    return out


# -- logs --------------------------------------------------------------------------------------
class MaskingFilter(logging.Filter):
    """Masks URL credentials and known secrets in every log record a handler emits (a
    library may log a request URL or an error body)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is the logger's problem, not ours
            return True
        masked = mask(text, self.secrets)
        if masked != text:
            record.msg, record.args = masked, None
        return True


@contextlib.contextmanager
def masking_logs(secrets: Iterable[str]) -> Iterator[None]:
    """While active, every handler of the root logger masks secrets in what it writes."""
    masking = MaskingFilter(secrets)
    handlers = list(logging.getLogger().handlers)
    for handler in handlers:
        handler.addFilter(masking)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(masking)
