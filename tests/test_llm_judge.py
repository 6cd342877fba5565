"""Error taxonomy: rule-based repetition loops and the optional LLM judge over HTTP."""

from __future__ import annotations

import asyncio
import json

from loopback_server import Loopback

from agents.judge import (
    judge_messages,
    judge_records,
    parse_label,
    rule_label,
    taxonomy_markdown,
    write_judgements,
)
from comma_env.results import attach_judgements

SOLVED = {"puzzle": "wire", "seed": 0, "success": True, "error": None, "repetition_loop": False, "transcript": []}
LOOP = {"puzzle": "wire", "seed": 1, "success": False, "error": None, "repetition_loop": True, "progress": 0.0,
        "transcript": [{"turn": 1, "solver": "cut_wire_2", "actions": ["cut_wire_2"], "outcomes": [False], "expert": "Cut wire 3."},
                       {"turn": 2, "solver": "cut_wire_2", "actions": ["cut_wire_2"], "outcomes": [False], "expert": None}]}
IGNORED = {"puzzle": "wire", "seed": 2, "success": False, "error": None, "repetition_loop": False,
           "transcript": [{"turn": 1, "solver": "cut_wire_1", "actions": ["cut_wire_1"], "outcomes": [False], "expert": "Cut the third wire."}]}
ERRORED = {"puzzle": "wire", "seed": 3, "success": False, "error": "solver: LLMCallError: ...", "transcript": []}


def test_rule_and_label_parsing():
    assert rule_label(LOOP) == "repetition_loop" and rule_label(IGNORED) is None
    assert parse_label('{"label": "Roleplay", "reason": "x"}') == "roleplay"
    assert parse_label("I think this is misinterpretation of the colours") == "misinterpretation"
    assert parse_label("no idea") == "other"
    text = judge_messages(LOOP)[1]["content"]
    assert "executed cut_wire_2: MISTAKE" in text and "EXPERT: Cut wire 3." in text


def test_rule_only_labels_failed_episodes_and_skips_errors_and_successes(tmp_path):
    labels = asyncio.run(judge_records([SOLVED, LOOP, IGNORED, ERRORED]))
    assert labels == {("wire", 1): ["repetition_loop"], ("wire", 2): ["other"]}
    md = taxonomy_markdown(labels, judged=False)
    assert "| repetition_loop | 1 | 50.0% |" in md and "rule only" in md


def test_llm_judge_over_http_and_results_pickup(tmp_path):
    with Loopback("--judge-label", "miscommunication") as srv:
        cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base=srv.api_base, extra={"retry_base_delay": 0.01})
        labels = asyncio.run(judge_records([SOLVED, LOOP, IGNORED, ERRORED], cfg))
        reqs = srv.requests()
    assert {r["role"] for r in reqs} == {"judge"} and len(reqs) == 2
    assert labels == {("wire", 1): ["repetition_loop", "miscommunication"], ("wire", 2): ["miscommunication"]}
    path = write_judgements(labels, tmp_path)
    assert json.loads(path.read_text().splitlines()[0]) == {"puzzle": "wire", "seed": 1, "error_types": ["repetition_loop", "miscommunication"]}
    attached = attach_judgements([SOLVED, LOOP, IGNORED], tmp_path)
    assert attached[1]["error_types"] == ["repetition_loop", "miscommunication"] and "error_types" not in attached[0]
    assert "| miscommunication | 2 | 100.0% |" in taxonomy_markdown(labels, judged=True)
