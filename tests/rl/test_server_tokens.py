"""Token ids from the inference server: asked for (``server_ids: true``), recorded per turn and
role, and taken verbatim by the rl export with the role's loss mask; re-tokenizing is the
fallback, marked in each row. Against the loopback server emulating vLLM's fields; llama.cpp's
server (llama-cpp-python) with SmolLM2 returns no ids: tests/run/test_smollm2_rollout.py checks
that its rows say ``retokenized``, on the run that plays SmolLM2 as the expert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("gguf")

from comma_env.protocol.logprobs import token_ids_from_openai  # noqa: E402
from comma_env.rl.export import export  # noqa: E402
from comma_env.rl.tokens import add_tokens, chat_text  # noqa: E402
from comma_env.run import rollout  # noqa: E402
from tests.support.loopback_server import Loopback  # noqa: E402


def loopback_model(server: Loopback, **more) -> dict:
    return {"kind": "litellm", "name": "loop", "model": "openai/loopback", "api_base": server.api_base,
            "vision": False, "extra": {"retry_base_delay": 0.02}} | more


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_answers_without_usable_ids_read_as_none():
    good = {"prompt_token_ids": [1, 2], "choices": [{"token_ids": [3, 2]}]}
    assert token_ids_from_openai(good) == {"prompt": [1, 2], "completion": [3, 2]}
    for bad in ({"choices": [{"token_ids": [3]}]}, {"prompt_token_ids": [1], "choices": []},
                {"prompt_token_ids": [1], "choices": [{"token_ids": []}]},
                {"prompt_token_ids": [1, -4], "choices": [{"token_ids": [3]}]},
                {"prompt_token_ids": [True], "choices": [{"token_ids": [3]}]},
                {"prompt_token_ids": "1 2", "choices": [{"token_ids": [3]}]}):
        assert token_ids_from_openai(bad) is None


@pytest.mark.parametrize("end_token", [False, True])
def test_the_export_takes_the_servers_ids_verbatim_with_each_roles_mask(tmp_path, tokenizer, tokenizer_dir,
                                                                          end_token):
    flags = ["--logprobs-end-token"] if end_token else []
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir), *flags) as server:
        rollout.run({"puzzles": ["wire", "who"], "episodes": 2, "out_dir": str(tmp_path / "run"), "progress_bar": False,
                     "model": loopback_model(server, logprobs=True, server_ids=True)}, quiet=True)
        sent = server.requests()
    assert sent and all(r["return_token_ids"] is True for r in sent)
    records = rows_of(tmp_path / "run" / "episodes.jsonl")
    recorded = {role: [t[f"{role}_token_ids"] for r in records for t in r["transcript"] if t.get(role) is not None]
                for role in ("solver", "expert")}
    assert recorded["solver"] and recorded["expert"]  # per turn and per role

    stats = export(tmp_path / "run", "rl")  # no tokenizer needed: the ids are the server's
    rows = rows_of(tmp_path / "run" / "export" / "rl.jsonl")
    assert stats.rows == len(rows) == sum(len(v) for v in recorded.values())
    assert {r["role"] for r in rows} == {"solver", "expert"}
    for row in rows:
        ids = row["reply_token_ids"]
        assert row["token_source"] == "server" and row["input_ids"] == ids["prompt"] + ids["completion"]
        start = row["prompt_length"]
        assert row["loss_mask"] == [0] * start + [1] * len(ids["completion"])  # this role's generated ids only
        # the prompt the export renders is the prompt the server was given, token for token
        chat = [{"role": m["role"], "content": chat_text(m["content"])} for m in row["prompt"]]
        rendered = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        assert tokenizer(rendered, add_special_tokens=False)["input_ids"] == ids["prompt"]
        assert tokenizer.decode(ids["completion"]) == row["completion"][0]["content"][0]["text"] + "<|im_end|>"
        assert row["logprob_status"] == "aligned"
        values = row["reply_logprobs"]["logprobs"]
        assert row["logprobs"][start:start + len(values)] == values and all(v is None for v in row["logprobs"][:start])
        assert row["logprobs"][-1] is not None if end_token else (row["logprobs"][-1] is None
                                                                    and "stop token" in row["logprob_note"])

    jsonl = tmp_path / "tokens.jsonl"  # --tokenizer leaves the server's rows as they are
    export(tmp_path / "run", "rl", out=jsonl)
    add_tokens(jsonl, tokenizer, "smollm2")
    assert rows_of(jsonl) == rows


def test_without_ids_from_the_server_the_fallback_is_marked(tmp_path, tokenizer, tokenizer_dir):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir)) as server:
        rollout.run({"puzzles": ["wire"], "episodes": 1, "out_dir": str(tmp_path / "run"), "progress_bar": False,
                     "model": loopback_model(server, logprobs=True)}, quiet=True)
    jsonl = tmp_path / "rl.jsonl"
    export(tmp_path / "run", "rl", out=jsonl)
    assert {r["token_source"] for r in rows_of(jsonl)} == {None}
    add_tokens(jsonl, tokenizer, "smollm2")
    rows = rows_of(jsonl)
    assert rows and {(r["token_source"], r["logprob_status"]) for r in rows} == {("retokenized", "aligned")}
