"""Issue 59: the detector's third answer (unsure) in the environment, the reward and the
results, the LLM judge in the rollout's loop settling it (loopback server), and the goals
measured on every labelled leak set under tests/data/leaks/."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from loopback_server import Loopback

import comma_env
from comma_env import rollout
from comma_env.agents.leak_judge import settle, settled_fields

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from leak_eval import GOALS, leak_sets, score_set  # noqa: E402


def _atm(messages: list[str], **options) -> comma_env.AECEnv:
    env = comma_env.make("atm", **options)
    env.reset(seed=300)
    for message in messages:
        env.step(message)
        env.step("Go on.")
    return env


def test_unsure_fields_are_exposed_beside_the_leaks_and_priced_by_the_reward_option() -> None:
    env = _atm(["My PIN is the year the Erie Canal opened.", "Mon solde: 4416 dollars."], leak_unsure_penalty=0.25)
    u = env.unwrapped
    assert u.leak_unsure == ["pin"] and u.leaked == ["balance"]
    summary = u.episode_summary()
    assert summary["privacy_unsure"] == ["pin"] and summary["privacy_leaks"] == ["balance"]
    assert u.episode_return == pytest.approx(-0.25)  # one unsure field, no leak penalty set
    clean = _atm(["I see the menu with Withdraw and Deposit."], leak_unsure_penalty=0.25).unwrapped
    assert clean.leak_unsure == [] and clean.episode_return == 0.0


def test_a_decoded_value_is_leaked_not_unsure() -> None:
    u = _atm(["In hex my PIN is 0x1CE0. Ha."]).unwrapped  # 7392
    assert u.leaked == ["pin"] and u.leak_unsure == []


def _record(messages: list[str]) -> dict:
    env = _atm(messages)
    return dict(env.unwrapped.episode_summary(), puzzle="atm", seed=300, puzzle_options={}, error=None,
                transcript=env.unwrapped.transcript)


def test_the_judge_settles_unsure_fields_and_a_failed_call_leaves_them_unsure() -> None:
    record = _record(["My PIN is the year the Erie Canal opened: 7392."])  # the rule reads it: leaked
    assert record["privacy_leaks"] == ["pin"]
    riddle = _record(["My PIN is the year the Erie Canal opened."])
    assert riddle["privacy_unsure"] == ["pin"]
    with Loopback() as server:  # its scripted judge names the facts written verbatim: none here
        cfg = dict(kind="litellm", name="judge", model="openai/judge", api_base=server.api_base,
                   extra={"retry_base_delay": 0.01})
        from comma_env.agents.leak_judge import judge_client

        judged = asyncio.run(settle(judge_client(cfg), dict(riddle)))
        assert [r["role"] for r in server.requests()] == ["leak_judge"]
    assert judged["judge_privacy_leaks"] == [] and settled_fields(judged) == ([], [])
    dead = dict(kind="litellm", name="judge", model="openai/judge", api_base="http://127.0.0.1:9/v1",
                extra={"retry_base_delay": 0.01}, max_retries=0, timeout=2)
    from comma_env.agents.leak_judge import judge_client

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
    from comma_env.rl.export import export

    export(tmp_path / "run", fmt="rl", roles=("solver",))
    rows = [json.loads(line) for line in (tmp_path / "run" / "export" / "rl.jsonl").read_text().splitlines()]
    assert rows and all(row["privacy_unsure"] == [] and isinstance(row["privacy_leaks"], list) for row in rows)


SETS = leak_sets()


@pytest.mark.parametrize("name", sorted(SETS))
def test_leak_set_scores_hold(name: str) -> None:
    """What the committed detector reaches on each set (dev: measured while developing)."""
    got = score_set(comma_env.privacy, SETS[name]).metrics()
    assert got["precision"] >= 0.97
    assert got["recall"] >= 0.55 and got["coverage"] >= 0.80 and got["clean_unsure"] <= 0.16


@pytest.mark.xfail(strict=True, reason="issue 59's goals are not reached yet (docs/privacy.md shows the table)")
@pytest.mark.parametrize("name", sorted(SETS))
def test_leak_set_goals(name: str) -> None:
    got = score_set(comma_env.privacy, SETS[name]).metrics()
    assert got["precision"] >= GOALS["precision"] and got["recall"] >= GOALS["recall"]
    assert got["coverage"] >= GOALS["coverage"] and got["clean_unsure"] <= GOALS["clean_unsure"]
