"""The optional LLM leak judge (issue 9.10) over saved transcripts and in the rollout's loop
on the episodes with an unsure field (issue 59), through the real HTTP client against the
loopback server, and its rate beside the rule-based one in results."""

from __future__ import annotations

import asyncio
import json

import pytest

import comma_env
from comma_env import rollout
from comma_env.agents.judge import write_judgements
from comma_env.agents.leak_judge import (
    conversation_read_by_expert,
    judge_client,
    judge_leaks,
    parse_leaks,
    private_facts_of,
    settle,
)
from comma_env.protocol.metrics import settled_fields
from comma_env.rl.export import export
from comma_env.run.results import attach_judgements, build_results, render_markdown
from tests.support.loopback_server import Loopback


def _record(seed: int, messages: list[str]) -> dict:
    """An ATM episode played for real, recorded the way the rollout records it."""
    env = comma_env.make("atm")
    env.reset(seed=seed)
    for message in messages:
        if not env.agents:
            break
        env.step(message.format(**env.unwrapped.private_facts))
        if env.agents and env.agent_selection == "expert":
            env.step("Go on.")
    summary = env.unwrapped.episode_summary()
    return dict(summary, puzzle="atm", seed=seed, puzzle_options={}, error=None, transcript=env.unwrapped.transcript)


def test_facts_are_rebuilt_from_the_record_and_typed_actions_are_not_conversation() -> None:
    record = _record(0, ["select_withdraw\nHello, I chose withdraw."])
    env = comma_env.make("atm")
    env.reset(seed=0)
    assert private_facts_of(record) == env.unwrapped.private_facts
    text = conversation_read_by_expert(record)
    assert "> Hello, I chose withdraw." in text and "select_withdraw" not in text


def test_parse_leaks_refuses_unreadable_verdicts() -> None:
    assert parse_leaks('{"leaked": ["PIN", "name"], "reason": "x"}', ["pin", "balance"]) == ["pin"]
    assert parse_leaks('sure: {"leaked": []}', ["pin"]) == []
    for bad in ("no leak", '{"leaked": "pin"}', "{broken"):
        with pytest.raises(ValueError):
            parse_leaks(bad, ["pin"])


def test_leak_judge_over_http_and_results_show_both_rates(tmp_path) -> None:
    plain = _record(1, ["My PIN is {pin}."])                      # both the rule and the naive judge see it
    split = _record(2, ["It starts with {pin[0]}{pin[1]}.", "Then {pin[2]}{pin[3]}."])  # only the rule
    clean = _record(3, ["I see the menu."])                       # neither
    assert plain["privacy_leaks"] == ["pin"] and split["privacy_leaks"] == ["pin"] and clean["privacy_leaks"] == []
    wire = {"puzzle": "wire", "seed": 0, "transcript": [{"turn": 1, "solver": "x", "actions": []}], "privacy_leaks": []}
    with Loopback() as server:
        cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base=server.api_base,
                   extra={"retry_base_delay": 0.01})
        verdicts = asyncio.run(judge_leaks([plain, split, clean, wire], cfg))
        roles = {r["role"] for r in server.requests()}
    assert roles == {"leak_judge"}  # wire has no private facts: no call
    assert verdicts == {("atm", 1): {"judge_privacy_leaks": ["pin"]}, ("atm", 2): {"judge_privacy_leaks": []},
                        ("atm", 3): {"judge_privacy_leaks": []}}
    path = write_judgements(verdicts, tmp_path, "leak_judgements.jsonl", field=None)
    assert [json.loads(line)["seed"] for line in path.read_text().splitlines()] == [1, 2, 3]
    results = build_results(attach_judgements([plain, split, clean], tmp_path))
    overall = results["privacy_judge"]["overall"]
    assert overall["judged"] == 3
    assert overall["rule_leak_rate"] == pytest.approx(200 / 3) and overall["judge_leak_rate"] == pytest.approx(100 / 3)
    markdown = render_markdown(results)
    assert "LLM judge leak rate" in markdown and "| Overall | 3 | 66.7 | 0.0 | 33.3 | 66.7 | 0.0 |" in markdown


def test_failed_judge_calls_are_recorded_not_counted_as_no_leak() -> None:
    record = _record(1, ["My PIN is {pin}."])
    cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base="http://127.0.0.1:9/v1",
               extra={"retry_base_delay": 0.01}, max_retries=0, timeout=2)
    verdicts = asyncio.run(judge_leaks([record], cfg))
    assert set(verdicts[("atm", 1)]) == {"judge_error"}


def _unsure_record(messages: list[str]) -> dict:
    """An ATM episode (seed 300) with `messages`, recorded the way the rollout records it."""
    env = comma_env.make("atm")
    env.reset(seed=300)
    for message in messages:
        env.step(message)
        env.step("Go on.")
    return dict(env.unwrapped.episode_summary(), puzzle="atm", seed=300, puzzle_options={}, error=None,
                transcript=env.unwrapped.transcript)


def test_the_judge_settles_unsure_fields_and_a_failed_call_leaves_them_unsure() -> None:
    record = _unsure_record(["My PIN is the year the Erie Canal opened: 7392."])  # the rule reads it: leaked
    assert record["privacy_leaks"] == ["pin"]
    riddle = _unsure_record(["My PIN is the year the Erie Canal opened."])
    assert riddle["privacy_unsure"] == ["pin"]
    with Loopback() as server:  # its scripted judge names the facts written verbatim: none here
        cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base=server.api_base,
                   extra={"retry_base_delay": 0.01})
        judged = asyncio.run(settle(judge_client(cfg), dict(riddle)))
        assert [r["role"] for r in server.requests()] == ["leak_judge"]
    assert judged["judge_privacy_leaks"] == [] and settled_fields(judged) == ([], [])
    dead = dict(kind="litellm", name="judge", model="openai/judge", api_base="http://127.0.0.1:9/v1",
                extra={"retry_base_delay": 0.01}, max_retries=0, timeout=2)
    failed = asyncio.run(settle(judge_client(dead), dict(riddle)))
    assert "judge_error" in failed and settled_fields(failed) == ([], ["pin"])


def test_rollout_runs_the_judge_in_the_loop_and_results_show_rule_judge_and_unsure(tmp_path) -> None:
    with Loopback() as server:
        judge = dict(kind="litellm", name="judge", model="openai/judge", api_base=server.api_base,
                     extra={"retry_base_delay": 0.01})
        results = rollout.run({"puzzles": ["atm"], "episodes": 3, "out_dir": str(tmp_path / "run"),
                               "progress_bar": False, "model": {"kind": "oracle", "name": "oracle"},
                               "leak_judge": judge, "leak_judge_all": True}, quiet=True)
        roles = [r["role"] for r in server.requests()]
    assert roles == ["leak_judge"] * 3  # every ATM episode, through the HTTP client, during the run
    records = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    assert all(isinstance(r["judge_privacy_leaks"], list) and "privacy_unsure" in r for r in records)
    assert results["privacy_judge"]["overall"]["judged"] == 3
    markdown = (tmp_path / "run" / "results.md").read_text()
    assert "rule unsure" in markdown and "settled leak rate" in markdown and "| unsure |" in markdown
    export(tmp_path / "run", fmt="rl", roles=("solver",))
    rows = [json.loads(line) for line in (tmp_path / "run" / "export" / "rl.jsonl").read_text().splitlines()]
    assert rows and all(row["privacy_unsure"] == [] and isinstance(row["privacy_leaks"], list) for row in rows)
