"""Per-token log-probabilities and token ids of one model reply, read from an untrusted
OpenAI-style answer (anything unusable becomes None and a reason) and from rollout records."""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any

MAX_TOKENS = 65_536  # more entries in one reply is a broken answer
MAX_TOP = 20  # the OpenAI API's limit of top_logprobs
MAX_TOKEN_CHARS = 1_024  # a longer token is garbage, not a vocabulary entry
POSITIVE_SLACK = 1e-4  # rounding may make a near-certain token's logprob slightly positive


@dataclass(frozen=True)
class TokenLogprobs:
    """The tokens a server generated for one reply and the log-probability of each."""

    tokens: list[str]
    logprobs: list[float]
    token_bytes: dict[int, bytes]
    """Exact bytes of the tokens whose text is not their UTF-8 bytes (a character split across tokens)."""
    top: list[list[tuple[str, float]]] | None = None
    """Per token, the most likely alternatives and their log-probabilities (when asked for)."""

    def bytes_of(self, index: int) -> bytes:
        """The exact bytes of token `index`."""
        found = self.token_bytes.get(index)
        return found if found is not None else self.tokens[index].encode("utf-8", "surrogatepass")

    def as_record(self) -> dict[str, Any]:
        """The compact JSON form written into a rollout record (module docstring)."""
        record: dict[str, Any] = {"tokens": list(self.tokens), "logprobs": list(self.logprobs)}
        if self.token_bytes:
            record["bytes"] = {str(i): list(b) for i, b in sorted(self.token_bytes.items())}
        if self.top is not None:
            record["top"] = [[[token, value] for token, value in alternatives] for alternatives in self.top]
        return record


def field_of(obj: Any, name: str) -> Any:
    """A field of a decoded JSON object or an attribute of a response object."""
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _logprob(value: Any) -> float | None:
    """`value` as a log-probability, or None when it is not one."""
    if not isinstance(value, Real) or isinstance(value, bool):
        return None
    number = float(value)
    if not math.isfinite(number) or number > POSITIVE_SLACK:
        return None
    return min(number, 0.0)


def _token(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= MAX_TOKEN_CHARS else None


def _bytes(value: Any) -> bytes | None:
    if not isinstance(value, list) or len(value) > 4 * MAX_TOKEN_CHARS:
        return None
    if not all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 255 for b in value):
        return None
    return bytes(value)


def _top(value: Any) -> list[tuple[str, float]] | None:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or len(value) > MAX_TOP:
        return None
    alternatives = []
    for entry in value:
        token, logprob = _token(field_of(entry, "token")), _logprob(field_of(entry, "logprob"))
        if token is None or logprob is None:
            return None
        alternatives.append((token, logprob))
    return alternatives


def from_openai(logprobs: Any, want_top: bool = False) -> tuple[TokenLogprobs | None, str | None]:
    """The token log-probabilities of a ``choices[i].logprobs`` value, or (None, why not)."""
    if logprobs is None:
        return None, "the answer has no logprobs"
    content = field_of(logprobs, "content")
    if content is None:
        return None, "the answer's logprobs have no content"
    if not isinstance(content, (list, tuple)):
        return None, f"logprobs.content is a {type(content).__name__}, not a list"
    if len(content) > MAX_TOKENS:
        return None, f"logprobs.content has {len(content)} entries, more than {MAX_TOKENS}"
    tokens: list[str] = []
    values: list[float] = []
    exact: dict[int, bytes] = {}
    top: list[list[tuple[str, float]]] | None = [] if want_top else None
    for index, entry in enumerate(content):
        token, logprob = _token(field_of(entry, "token")), _logprob(field_of(entry, "logprob"))
        if token is None or logprob is None:
            return None, f"logprobs.content[{index}] has no usable token and logprob"
        raw = field_of(entry, "bytes")
        if raw is not None:
            data = _bytes(raw)
            if data is None:
                return None, f"logprobs.content[{index}].bytes is not a list of byte values"
            if data != token.encode("utf-8", "surrogatepass"):
                exact[index] = data
        if top is not None:
            alternatives = _top(field_of(entry, "top_logprobs"))
            if alternatives is None:
                return None, f"logprobs.content[{index}].top_logprobs is malformed"
            top.append(alternatives)
        tokens.append(token)
        values.append(logprob)
    return TokenLogprobs(tokens, values, exact, top), None


def from_record(record: Any) -> tuple[TokenLogprobs | None, str | None]:
    """A record's ``<role>_logprobs`` value read back (files may be damaged), or (None, why not)."""
    if not isinstance(record, dict):
        return None, "not an object"
    tokens, values = record.get("tokens"), record.get("logprobs")
    if not isinstance(tokens, list) or not isinstance(values, list) or len(tokens) != len(values):
        return None, "tokens and logprobs are not two lists of one length"
    if len(tokens) > MAX_TOKENS:
        return None, f"more than {MAX_TOKENS} tokens"
    checked_tokens = [_token(t) for t in tokens]
    checked_values = [_logprob(v) for v in values]
    if any(t is None for t in checked_tokens) or any(v is None for v in checked_values):
        return None, "a token is not a string or a logprob is not a number <= 0"
    exact: dict[int, bytes] = {}
    raw_bytes = record.get("bytes") or {}
    if not isinstance(raw_bytes, dict):
        return None, "bytes is not an object"
    for key, value in raw_bytes.items():
        data = _bytes(value)
        if not (isinstance(key, str) and key.isdigit() and int(key) < len(tokens)) or data is None:
            return None, "bytes holds an entry that is not index: byte values"
        exact[int(key)] = data
    top = None
    if record.get("top") is not None:
        raw_top = record["top"]
        if not isinstance(raw_top, list) or len(raw_top) != len(tokens):
            return None, "top is not a list per token"
        top = []
        for alternatives in raw_top:
            if not isinstance(alternatives, list):
                return None, "top holds an entry that is not a list"
            checked = _top([{"token": a[0], "logprob": a[1]} if isinstance(a, list) and len(a) == 2 else None
                            for a in alternatives])
            if checked is None:
                return None, "top holds an entry that is not [token, logprob] pairs"
            top.append(checked)
    return TokenLogprobs([t for t in checked_tokens if t is not None],
                         [v for v in checked_values if v is not None], exact, top), None


MAX_PROMPT_TOKENS = 1_048_576  # no served context is that long


def _ids(value: Any, limit: int) -> list[int] | None:
    if not isinstance(value, (list, tuple)) or not value or len(value) > limit:
        return None
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**31 for i in value):
        return None
    return [int(i) for i in value]


def token_ids(prompt: Any, completion: Any) -> dict[str, list[int]] | None:
    """``{"prompt": ids, "completion": ids}`` when both are non-empty lists of token ids, else None."""
    prompt_ids, completion_ids = _ids(prompt, MAX_PROMPT_TOKENS), _ids(completion, MAX_TOKENS)
    if prompt_ids is None or completion_ids is None:
        return None
    return {"prompt": prompt_ids, "completion": completion_ids}


def token_ids_from_openai(response: Any) -> dict[str, list[int]] | None:
    """The ids vLLM returns with ``return_token_ids: true``, or None when none are usable."""
    choices = field_of(response, "choices")
    if not isinstance(choices, (list, tuple)) or not choices:
        return None
    return token_ids(field_of(response, "prompt_token_ids"), field_of(choices[0], "token_ids"))
