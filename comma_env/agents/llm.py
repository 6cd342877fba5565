"""Chat-model policies: hosted APIs through LiteLLM; vLLM, llama.cpp, any OpenAI-compatible server over aiohttp.

A player sends what the game shows its agent (`comma_env.protocol.prompts`), its picture as a PNG
data URL. Transient faults are retried with capped exponential backoff and full jitter; the API
key is read at call time and scrubbed from every error; with ``temperature > 0`` each request
carries a seed derived from the policy seed, instance, role and call, so reruns ask for the same samples."""

from __future__ import annotations

import asyncio
import logging
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comma_env.agents.chat import PngCache, message_text
from comma_env.agents.http_client import (
    LITELLM_ONLY_KEYS,
    HTTPStatusError,
    MalformedAnswer,
    OpenAICompatTransport,
    served_model,
    within,
)
from comma_env.agents.llm_settings import LLMSettings
from comma_env.agents.servers import ManagedServer
from comma_env.protocol.logprobs import TokenLogprobs, field_of, from_openai, token_ids_from_openai
from comma_env.protocol.policy import Player, Policy, Reply, request_seed
from comma_env.protocol.prompts import PromptOptions

log = logging.getLogger(__name__)

POLICY_EXTRA_KEYS = {"replicas", "routing_strategy", "retry_base_delay", "retry_max_delay", "privacy_reminder"}
NO_KEY = "no-key"  # OpenAI-compatible local servers ignore it, but the client wants one

_litellm: Any = None


def litellm_module() -> Any:
    """Import LiteLLM on first use (it takes seconds), without its network cost-map fetch."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm

        litellm.suppress_debug_info = True
        litellm.telemetry = False
        _litellm = litellm
    return _litellm


class LLMCallError(RuntimeError):
    """A model call failed for good (after retries, or with a non-retryable error)."""


class MalformedResponse(RuntimeError):
    """An HTTP 200 answer without a usable message; retried like a server error."""


class DeadlineExceeded(TimeoutError):
    """An attempt got no complete answer within the model's ``timeout``; retried."""


# -- one chat endpoint ------------------------------------------------------------------------
@dataclass
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    calls: int
    logprobs: TokenLogprobs | None = None
    token_ids: dict[str, list[int]] | None = None


class ChatClient:
    """Sends message lists to one model (or its replicas) with retries and a deadline per attempt."""

    def __init__(self, settings: LLMSettings, rng: random.Random | None = None) -> None:
        self.s = settings
        extra = dict(settings.extra)
        self.replicas = [str(b) for b in (extra.get("replicas") or [])]
        self.routing_strategy = str(extra.get("routing_strategy") or "least-busy")
        self.base_delay = float(extra.get("retry_base_delay", 1.0))
        self.max_delay = float(extra.get("retry_max_delay", 30.0))
        self.passthrough = {k: v for k, v in extra.items() if k not in POLICY_EXTRA_KEYS}
        self.rng = rng or random.Random()
        self.uses_aiohttp = settings.uses_aiohttp
        self._transport: OpenAICompatTransport | None = None
        self._router: Any = None
        self.api_base = settings.api_base
        self.starter: Any = None  # async callable run before the first call (server launch)
        self._warned_logprobs = False

    # -- secrets ---------------------------------------------------------------------------
    def _api_key(self) -> str | None:
        name = self.s.api_key_env
        if not name:
            return None
        value = os.environ.get(name)
        if not value:
            raise LLMCallError(f"environment variable {name} (api_key_env of model {self.s.name!r}) is not set")
        return value

    def _scrub(self, text: str) -> str:
        key = os.environ.get(self.s.api_key_env or "", "") if self.s.api_key_env else ""
        if key and len(key) >= 4:
            text = text.replace(key, "***")
        return text

    # -- the call --------------------------------------------------------------------------
    def _kwargs(self, messages: list[dict[str, Any]], seed: int | None = None) -> dict[str, Any]:
        # extra.seed, if set, overrides the derived seed
        return {"messages": messages, **self._sampling(seed), "timeout": self.s.timeout, "drop_params": True,
                **self.passthrough}

    def _sampling(self, seed: int | None) -> dict[str, Any]:
        """The request's sampling fields, and those that ask for log-probabilities and token ids."""
        fields: dict[str, Any] = {"temperature": self.s.temperature, "max_tokens": self.s.max_tokens}
        if self.s.stop:
            fields["stop"] = list(self.s.stop)
        if seed is not None and self.s.temperature > 0:
            fields["seed"] = int(seed)
        if self.s.server_ids:
            fields["return_token_ids"] = True
        if self.s.logprobs:
            fields["logprobs"] = True
            if self.s.top_logprobs > 0:
                fields["top_logprobs"] = int(self.s.top_logprobs)
        return fields

    def _get_router(self, key: str | None) -> Any:
        if self._router is None:
            litellm = litellm_module()
            deployments = [
                {"model_name": self.s.name,
                 "litellm_params": {"model": self.s.model, "api_base": base, "api_key": key or NO_KEY}}
                for base in self.replicas
            ]
            self._router = litellm.Router(model_list=deployments, routing_strategy=self.routing_strategy,
                                          num_retries=0, timeout=self.s.timeout, disable_cooldowns=True)
        return self._router

    def _http_body(self, messages: list[dict[str, Any]], seed: int | None) -> dict[str, Any]:
        """The JSON body of ``POST /chat/completions``: the OpenAI fields, the pass-through
        extras (``extra_body`` merged in), no LiteLLM-only options."""
        body: dict[str, Any] = {"model": served_model(self.s.model), "messages": messages, **self._sampling(seed)}
        for key, value in self.passthrough.items():
            if key == "extra_body" and isinstance(value, dict):
                body.update(value)
            elif key not in LITELLM_ONLY_KEYS and key != "extra_headers":
                body[key] = value
        return body

    def _get_transport(self) -> OpenAICompatTransport:
        bases = self.replicas or [str(self.api_base)]
        if self._transport is None or [e.url for e in self._transport.endpoints] != [
                b.rstrip("/") + "/chat/completions" for b in bases]:
            headers = self.passthrough.get("extra_headers")
            self._transport = OpenAICompatTransport(bases, dict(headers) if isinstance(headers, dict) else None)
        return self._transport

    async def _once(self, messages: list[dict[str, Any]], seed: int | None = None) -> Any:
        if self.uses_aiohttp:
            return await self._get_transport().post(self._http_body(messages, seed), self._api_key())
        litellm = litellm_module()
        key = self._api_key()
        kwargs = self._kwargs(messages, seed)
        if self.replicas:
            return await self._get_router(key).acompletion(model=self.s.name, **kwargs)
        if key is None and self.api_base:
            key = NO_KEY
        return await litellm.acompletion(model=self.s.model, api_base=self.api_base, api_key=key,
                                         max_retries=0, **kwargs)

    async def complete(self, messages: list[dict[str, Any]], seed: int | None = None) -> Completion:
        """One reply, retried on transient faults, with the token counts of the attempts that answered;
        `seed` is the sampling seed, the same for every retry."""
        if self.starter is not None:
            await self.starter()
        if not self.uses_aiohttp:  # LiteLLM's import takes seconds: not within the first deadline
            litellm_module()
        attempt = 0
        while True:
            try:
                try:
                    response = await within(self.s.timeout, self._once(messages, seed))
                except TimeoutError:
                    raise DeadlineExceeded(f"no complete answer within {self.s.timeout:g} s") from None
                text, prompt_tokens, completion_tokens = self._parse(response, messages)
                ids = token_ids_from_openai(response) if self.s.server_ids else None
                return Completion(text, prompt_tokens, completion_tokens, attempt + 1, self._logprobs(response), ids)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - sorted into retryable or not below
                retryable = is_retryable(exc)
                if not retryable or attempt >= self.s.max_retries:
                    what = f"gave up after {attempt + 1} attempts" if retryable else "non-retryable error"
                    raise LLMCallError(self._scrub(f"{self.s.name}: {what}: {type(exc).__name__}: {exc}")) from None
                delay = min(self.max_delay, self.base_delay * 2**attempt) * self.rng.random()
                log.warning("%s: attempt %d failed (%s); retrying in %.2f s", self.s.name, attempt + 1,
                            self._scrub(f"{type(exc).__name__}: {str(exc)[:200]}"), delay)
                attempt += 1
                await asyncio.sleep(delay)

    def _parse(self, response: Any, messages: list[dict[str, Any]]) -> tuple[str, int, int]:
        """Text and token counts of a LiteLLM response object or a decoded JSON answer."""
        choices = field_of(response, "choices")
        if not choices or not isinstance(choices, (list, tuple)):
            raise MalformedResponse("response has no choices")
        message = field_of(choices[0], "message")
        content = field_of(message, "content") if message is not None else None
        if content is None:
            raise MalformedResponse("response message has no content")
        text = str(content)
        usage = field_of(response, "usage")
        prompt_tokens = _count(field_of(usage, "prompt_tokens")) if usage is not None else 0
        completion_tokens = _count(field_of(usage, "completion_tokens")) if usage is not None else 0
        if prompt_tokens <= 0:
            prompt_tokens = self._count_prompt(messages)
        if completion_tokens <= 0 and text:
            completion_tokens = max(1, math.ceil(len(text) / 4))
        return text, prompt_tokens, completion_tokens

    def _logprobs(self, response: Any) -> TokenLogprobs | None:
        """The reply's token log-probabilities when they were asked for and are usable; a
        missing or malformed list is no reason to fail the call (warned once per model)."""
        if not self.s.logprobs:
            return None
        try:
            choice = field_of(response, "choices")[0]
            found, problem = from_openai(field_of(choice, "logprobs"), self.s.top_logprobs > 0)
        except Exception as exc:  # noqa: BLE001 - a response object of an unexpected shape
            found, problem = None, f"{type(exc).__name__}: {exc}"
        if found is None and not self._warned_logprobs:
            self._warned_logprobs = True
            log.warning("%s: asked for logprobs but the answer has no usable ones (%s); "
                        "such replies are recorded without them", self.s.name, self._scrub(str(problem)[:200]))
        return found

    def _count_prompt(self, messages: list[dict[str, Any]]) -> int:
        if self.uses_aiohttp:  # no LiteLLM import on the fast path just for an estimate
            return max(1, math.ceil(len(message_text(messages)) / 4))
        try:
            return int(litellm_module().token_counter(model=self.s.model, messages=messages))
        except Exception:  # noqa: BLE001 - an estimate is better than nothing
            return max(1, math.ceil(len(message_text(messages)) / 4))

    async def aclose(self) -> None:
        """Close the HTTP sessions this client opened (a no-op on the LiteLLM path)."""
        if self._transport is not None:
            await self._transport.aclose()


def _count(value: Any) -> int:
    """A token count from a server's ``usage``; anything but a non-negative number is 0."""
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError, OverflowError):
        return 0


def is_retryable(exc: BaseException) -> bool:
    """Transient faults: timeouts, rate limits, 5xx, connection trouble, malformed answers."""
    if isinstance(exc, (MalformedResponse, MalformedAnswer)):
        return True
    if isinstance(exc, (asyncio.TimeoutError, ConnectionError, TimeoutError)):
        return True
    if isinstance(exc, HTTPStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    import aiohttp

    if isinstance(exc, aiohttp.ClientResponseError):
        return exc.status == 429 or exc.status >= 500
    if isinstance(exc, aiohttp.ClientError):  # connection refused or reset, payload cut short
        return True
    if _litellm is None:  # the fast path never imported LiteLLM: nothing of it can be raised
        return isinstance(exc, (ValueError, KeyError, TypeError)) and "json" in str(exc).lower()
    litellm = litellm_module()
    ex = litellm.exceptions
    never = (ex.AuthenticationError, ex.PermissionDeniedError, ex.NotFoundError, ex.ContextWindowExceededError,
             ex.ContentPolicyViolationError, ex.UnsupportedParamsError, ex.BudgetExceededError)
    if isinstance(exc, never):
        return False
    if isinstance(exc, (ex.Timeout, ex.RateLimitError, ex.APIConnectionError, ex.InternalServerError,
                        ex.ServiceUnavailableError, ex.BadGatewayError, ex.APIResponseValidationError)):
        return True
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status == 429 or status >= 500
    if isinstance(exc, ex.APIError):  # no status: a transport or decoding problem
        return True
    return isinstance(exc, (ValueError, KeyError, TypeError)) and "json" in str(exc).lower()


# -- players ----------------------------------------------------------------------------------
class LLMPlayer(Player):
    """One agent of a game played by a chat model: each call sends what the game shows the agent
    (`comma_env.protocol.game.Game.messages`), its picture (the game's ``image()``) as a PNG data
    URL. The observation, whose text the messages replace, is built only for a clip it hears."""

    def __init__(self, client: ChatClient, game: Any, agent: str, vision: bool, options: PromptOptions,
                 seeds: tuple[int, int | None] = (0, None)) -> None:
        self.client = client
        self.game = game
        self.agent = agent
        shown = game.observe(agent)  # its keys: building the space would make a picture-sized Box
        self.vision = vision and "image" in shown
        self.needs_observation = "audio" in shown
        self.options = options  # privacy reminder; Sound's clip as audio, in words or not at all
        self.images = PngCache()
        self.seeds = seeds  # (policy seed, instance seed) for per-request sampling seeds
        self.calls = 0

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        image_url = await self.images.data_url(self.game.image()) if self.vision else None
        messages = self.game.messages(self.agent, observation, info, image_url, self.options)
        self.calls += 1
        done = await self.client.complete(messages, request_seed(*self.seeds, self.agent, self.calls))
        return Reply(done.text, done.prompt_tokens, done.completion_tokens, done.calls, done.logprobs,
                     token_ids=done.token_ids)


class LiteLLMPolicy(Policy):
    """A chat model playing either role; ``start()`` launches its server if configured, ``aclose()`` stops it."""

    def __init__(self, cfg: Any, seed: int = 0, log_dir: str | Path | None = None) -> None:
        self.settings = LLMSettings.from_config(cfg)
        self.name = self.settings.name
        self.seed = seed
        self.log_dir = Path(log_dir) if log_dir else None
        self.client = ChatClient(self.settings, random.Random(seed))
        self.client.starter = self.start
        self.server: ManagedServer | None = None
        self._start_lock = asyncio.Lock()
        self._started = False
        self._start_error: str | None = None
        self.privacy_reminder = bool(self.settings.extra.get("privacy_reminder", True))

    @classmethod
    def from_config(cls, cfg: Any, seed: int = 0, log_dir: str | None = None) -> LiteLLMPolicy:
        return cls(cfg, seed=seed, log_dir=log_dir)

    @property
    def vision(self) -> bool:
        return self.settings.vision

    async def start(self) -> None:
        """Launch and wait for the configured local server (no-op otherwise)."""
        async with self._start_lock:
            if self._start_error is not None:  # do not relaunch for every call of a failed run
                raise LLMCallError(self._start_error)
            if self._started:
                return
            serve = self.settings.serve
            if serve.launch:
                server = ManagedServer.from_config(serve, self.log_dir)
                log.info("%s: starting %s", self.name, " ".join(server.command))
                try:
                    self.client.api_base = await server.start(serve.startup_timeout)
                except Exception as exc:
                    self._start_error = f"{self.name}: could not start its server: {exc}"
                    raise LLMCallError(self._start_error) from None
                self.server = server
                self.settings.api_base = self.client.api_base
            self._started = True

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        game = env.unwrapped
        if role not in game.possible_agents:
            raise ValueError(f"unknown role {role!r}; {game} has {', '.join(game.possible_agents)}")
        options = PromptOptions(self.privacy_reminder, self.settings.audio, self.settings.describe_audio)
        return LLMPlayer(self.client, game, role, self.settings.vision, options, (self.seed, seed))

    async def aclose(self) -> None:
        await self.client.aclose()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self._started = False
