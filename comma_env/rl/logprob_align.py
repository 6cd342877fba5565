"""Recorded log-probabilities put onto the learner's token ids, or a reason why they can't be.

The server's tokens (text or bytes, or ``token_id:<id>`` from vLLM) must be, one for one and byte
for byte, the tokens the learner's tokenizer gives the exported reply; `align` says ``aligned``,
``missing``, ``text_differs`` (the environment cleaned the reply) or ``tokens_differ``
(another tokenizer, or a split it would not make) and attaches log-probabilities only when aligned.
When the server returned the token ids themselves, `server_tokens` takes them as they are."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from comma_env.protocol.logprobs import TokenLogprobs, from_record

_TOKEN_ID = re.compile(r"token_id:(\d+)\Z")
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>\Z")


def token_bytes(tokenizer: Any) -> Callable[[int], bytes]:
    """A function giving the exact bytes a token id stands for: byte-level BPE pieces (GPT-2,
    SmolLM2, Llama 3, Qwen) through their byte table, SentencePiece pieces with ``▁`` for a
    space and ``<0xNN>`` for a byte, added tokens (``<|im_end|>``) as their text."""
    added = {int(i): str(getattr(t, "content", t)) for i, t in (getattr(tokenizer, "added_tokens_decoder", None)
                                                                 or {}).items()}
    backend = getattr(tokenizer, "backend_tokenizer", None)
    byte_level = type(getattr(backend, "decoder", None)).__name__ == "ByteLevel" or hasattr(tokenizer, "byte_decoder")
    table: dict[str, int] = {}
    if byte_level:
        from transformers.convert_slow_tokenizer import bytes_to_unicode

        table = {char: byte for byte, char in bytes_to_unicode().items()}

    def lookup(token_id: int) -> bytes:
        if token_id in added:
            return added[token_id].encode("utf-8")
        piece = str(tokenizer.convert_ids_to_tokens(token_id))
        if byte_level and all(char in table for char in piece):
            return bytes(table[char] for char in piece)
        if (match := _BYTE_PIECE.match(piece)) is not None:
            return bytes([int(match.group(1), 16)])
        return piece.replace("\u2581", " ").encode("utf-8")

    return lookup


def _result(status: str, note: str | None, logprobs: list[float | None] | None = None) -> dict[str, Any]:
    return {"logprobs": logprobs, "logprob_status": status, "logprob_note": note}


def _show(data: bytes) -> str:
    return repr(data.decode("utf-8", "backslashreplace"))


def align(recorded: Any, reply: str, input_ids: list[int], prompt_length: int, tokenizer: Any,
          bytes_of: Callable[[int], bytes] | None = None) -> dict[str, Any]:
    """``logprobs`` (a float or null per id of `input_ids`) with ``logprob_status`` and
    ``logprob_note``, from a row's ``reply_logprobs`` (`recorded`) and completion text (`reply`)."""
    if recorded is None:
        return _result("missing", "no log-probabilities were recorded for this reply (the model config had "
                                  "logprobs=false, or the server returned none)")
    server, problem = from_record(recorded)
    if server is None:
        return _result("missing", f"the recorded log-probabilities are unusable: {problem}")
    bytes_of = bytes_of or token_bytes(tokenizer)
    special = {int(i) for i in getattr(tokenizer, "all_special_ids", []) or []}
    completion = input_ids[prompt_length:]
    ids = _as_ids(server)
    pieces = [bytes_of(i) for i in ids] if ids is not None else [server.bytes_of(j) for j in range(len(server.tokens))]
    trailing = _trailing_specials(server, ids, pieces, special, tokenizer)
    spelled = b"".join(pieces[:len(pieces) - trailing])
    wanted = reply.encode("utf-8", "surrogatepass")
    if spelled != wanted:
        return _result("text_differs", _text_note(spelled, wanted))
    for index, token_id in enumerate(completion[:len(pieces)]):
        same = ids[index] == token_id if ids is not None else (
            pieces[index] == bytes_of(token_id) or (pieces[index] == b"" and token_id in special))
        if not same:
            mine = bytes_of(token_id)
            return _result("tokens_differ", f"completion token {index}: the tokenizer has {_show(mine)} (id "
                                            f"{token_id}), the server generated {_show(pieces[index])}; another "
                                            "tokenizer than the served model's?")
    if len(pieces) > len(completion):
        return _result("tokens_differ", f"the server returned {len(pieces)} tokens, the tokenizer gives the reply "
                                        f"and its end of turn {len(completion)}: another tokenizer than the served "
                                        "model's?")
    logprobs: list[float | None] = [None] * len(input_ids)
    for index, value in enumerate(server.logprobs):
        logprobs[prompt_length + index] = value
    rest = len(completion) - len(pieces)
    note = (f"the last {rest} completion token(s) (the chat template's end of turn) were not generated by the "
            "server as recorded: no log-probability (null) though their loss_mask is 1") if rest else None
    return _result("aligned", note, logprobs)


def _as_ids(server: TokenLogprobs) -> list[int] | None:
    """The token ids when the server named every token ``token_id:<id>``, else None."""
    if not server.tokens:
        return None
    ids = []
    for token in server.tokens:
        match = _TOKEN_ID.match(token)
        if match is None or len(match.group(1)) > 12:
            return None
        ids.append(int(match.group(1)))
    return ids


def _trailing_specials(server: TokenLogprobs, ids: list[int] | None, pieces: list[bytes], special: set[int],
                       tokenizer: Any) -> int:
    """How many of the server's last tokens are special tokens (the end-of-turn token, sent
    as its text or as an empty string): part of the generation, not of the reply's text."""
    names = {str(t) for t in getattr(tokenizer, "all_special_tokens", []) or []}
    count = 0
    for index in range(len(pieces) - 1, -1, -1):
        is_special = ids[index] in special if ids is not None else (
            pieces[index] == b"" or server.tokens[index] in names)
        if not is_special:
            break
        count += 1
    return count


def _text_note(spelled: bytes, wanted: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(spelled, wanted, strict=False)) if a != b), min(len(spelled),
                                                                                                 len(wanted)))
    return (f"the server's tokens spell {len(spelled)} bytes, the exported reply has {len(wanted)}, first "
            f"difference at byte {at}: the recorded message is not the raw reply (the environment removed a "
            "thinking block or cut it), or the record is damaged")


def server_tokens(ids: dict[str, list[int]] | None, recorded: Any) -> dict[str, Any] | None:
    """The token fields of a row from the ids the server returned (``<role>_token_ids``, checked), taken
    verbatim: ``loss_mask`` 1 on the generated ids, the recorded log-probabilities on them in
    order; None when no usable ids were recorded (then `comma_env.rl.tokens` re-tokenizes)."""
    if ids is None:
        return None
    prompt, completion = ids["prompt"], ids["completion"]
    fields: dict[str, Any] = {"input_ids": prompt + completion, "loss_mask": [0] * len(prompt) + [1] * len(completion),
                              "prompt_length": len(prompt), "token_source": "server", "token_alignment": "server"}
    if recorded is None:
        return fields | _result("missing", "no log-probabilities were recorded for this reply")
    server, problem = from_record(recorded)
    if server is None:
        return fields | _result("missing", f"the recorded log-probabilities are unusable: {problem}")
    if len(server.logprobs) > len(completion):
        return fields | _result("tokens_differ", f"{len(server.logprobs)} log-probabilities for {len(completion)} "
                                                 "generated ids: the record is damaged")
    rest = len(completion) - len(server.logprobs)
    note = (f"the server gave no log-probability for the last {rest} generated id(s) (its stop token): null"
            if rest else None)
    return fields | _result("aligned", note, [None] * len(prompt) + list(server.logprobs) + [None] * rest)
