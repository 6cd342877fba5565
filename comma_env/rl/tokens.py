"""``--tokenizer``: token ids, the learner's loss mask and the recorded log-probabilities on those
ids added to an ``rl`` export (rows with the server's own ids are kept as they are)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def load_tokenizer(name_or_path: str) -> Any:
    """A `transformers` tokenizer from a ``.gguf`` file (needs ``gguf``), a folder, or a name
    of the local Hugging Face cache."""
    from transformers import AutoTokenizer

    path = Path(name_or_path)
    if path.suffix == ".gguf":
        if not path.is_file():
            raise FileNotFoundError(f"no GGUF file at {path}")
        return AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    return AutoTokenizer.from_pretrained(name_or_path)


def chat_text(content: Any) -> str:
    """A message content (string or list of parts) as the text the template renders."""
    if isinstance(content, str):
        return content
    return "\n\n".join(str(part.get("text") or "") for part in content or []
                       if isinstance(part, dict) and part.get("type") == "text")


def _plain(messages: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"role": m["role"], "content": chat_text(m.get("content"))} for m in messages]


def _ids(tokenizer: Any, messages: list[dict[str, str]], generation_prompt: bool) -> list[int]:
    rendered = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation_prompt)
    return list(tokenizer(rendered, add_special_tokens=False)["input_ids"])


def tokenize_row(row: dict[str, Any], tokenizer: Any) -> dict[str, Any]:
    """The token fields of one ``rl`` row (see the module docstring)."""
    prompt = _plain(row["prompt"])
    completion = _plain(row["completion"])
    prompt_ids = _ids(tokenizer, prompt, generation_prompt=True)
    full_ids = _ids(tokenizer, prompt + completion, generation_prompt=False)
    if full_ids[:len(prompt_ids)] == prompt_ids and len(full_ids) > len(prompt_ids):
        completion_ids, alignment = full_ids[len(prompt_ids):], "prefix"
    else:
        text = "".join(m["content"] for m in completion) + (tokenizer.eos_token or "")
        completion_ids, alignment = list(tokenizer(text, add_special_tokens=False)["input_ids"]), "appended"
    return {
        "input_ids": prompt_ids + completion_ids,
        "loss_mask": [0] * len(prompt_ids) + [1] * len(completion_ids),
        "prompt_length": len(prompt_ids),
        "token_alignment": alignment,
    }


def add_tokens(jsonl: str | Path, tokenizer: Any, tokenizer_name: str = "") -> int:
    """Add the token fields to every row of an ``rl`` JSONL, in place; returns the rows."""
    from comma_env.rl.logprob_align import align, token_bytes

    bytes_of = token_bytes(tokenizer)
    path = Path(jsonl)
    tmp = path.with_suffix(path.suffix + ".tokens.tmp")
    count = 0
    with path.open(encoding="utf-8") as source, tmp.open("w", encoding="utf-8") as target:
        for line in source:
            if not line.strip():
                continue
            row = json.loads(line)
            if "completion" not in row:
                raise ValueError(f"{path} is not an rl export (a row without 'completion'); use --format rl")
            if row.get("token_source") == "server":  # the server's own ids: nothing to redo
                target.write(line if line.endswith("\n") else line + "\n")
                count += 1
                continue
            fields = tokenize_row(row, tokenizer)
            reply = "".join(chat_text(m.get("content")) for m in row["completion"])
            fields.update(align(row.get("reply_logprobs"), reply, fields["input_ids"], fields["prompt_length"],
                                tokenizer, bytes_of))
            row.update(fields, tokenizer=tokenizer_name, token_source="retokenized")
            target.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    tmp.replace(path)
    return count
