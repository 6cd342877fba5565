"""Real environments and a real rollout hand out exactly what comma_env.protocol.contracts
says: every key, every value's type, JSON where it says JSON."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import numpy as np
import pytest

import comma_env
from comma_env.protocol import contracts
from comma_env.protocol.core import CommaEnv
from comma_env.rl.single_role import SingleRoleEnv
from tests.support.contracts import conforms


def _play(puzzle: str, seed: int, **options: Any) -> list[tuple[str, Any, dict[str, Any]]]:
    """A random episode: (agent, observation, info) at every turn, final ones included."""
    env = comma_env.make(puzzle, **options)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        seen.append((agent, observation, info))
        env.step(None if terminated or truncated else env.action_space(agent).sample())
    seen.append(("summary", env.unwrapped.transcript, env.unwrapped.episode_summary()))
    return seen


@pytest.mark.parametrize("puzzle,options", [("wire", {}), ("atm", {"solver_view": "text"}), ("sound", {}),
                                            ("maze", {"memory": "last"})])
def test_observations_infos_and_summary_follow_the_contracts(puzzle: str, options: dict[str, Any]) -> None:
    played = _play(puzzle, 4, max_turns=3, **options)
    kinds = {"solver": (contracts.SolverObservation, contracts.SolverInfo),
             "expert": (contracts.ExpertObservation, contracts.ExpertInfo)}
    for agent, observation, info in played[:-1]:
        observation_type, info_type = kinds[agent]
        conforms(observation, observation_type, f"{agent} observation")
        conforms(info, info_type, f"{agent} info")
        json.dumps(info)  # infos are plain JSON
    transcript, summary = played[-1][1], played[-1][2]
    conforms(summary, contracts.EpisodeSummary, "summary")
    conforms(transcript, list[contracts.TurnRecordDict], "transcript")
    json.dumps([summary, transcript])
    assert any("episode" in info for _, _, info in played[:-1])
    solver_observation = next(o for a, o, _ in played if a == "solver")
    assert ("image" in solver_observation) == (options.get("solver_view", "image") == "image")
    assert ("audio" in solver_observation) == (puzzle == "sound")


def test_a_rollout_record_follows_the_contract(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "comma_env.rollout", "puzzles=[wire,sound,asympuzl]", "episodes=1",
                          "max_turns=3", f"out_dir={tmp_path}"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    records = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines() if line]
    assert sorted(r["puzzle"] for r in records) == ["asympuzl", "sound", "wire"]
    for record in records:
        if record["puzzle"] == "asympuzl":  # a game adds its own settings and metrics
            known = get_type_hints(contracts.RolloutRecord)
            record = {key: value for key, value in record.items() if key in known}
        conforms(record, contracts.RolloutRecord, record["puzzle"])
        assert contracts.ROLLOUT_RECORD_ALWAYS <= set(record), contracts.ROLLOUT_RECORD_ALWAYS - set(record)


def test_comma_env_is_a_parameterised_aec_env() -> None:
    base = next(b for b in CommaEnv.__orig_bases__ if get_origin(b) is not None)  # type: ignore[attr-defined]
    assert get_args(base) == (str, contracts.Observation, str)
    assert typing.get_type_hints(CommaEnv.observe)["return"] == contracts.Observation


def test_attributes_exist_before_reset() -> None:
    raw = comma_env.wire_v0.raw_env()
    assert raw.seed_used is None and raw.turn == 0 and raw.end_reason is None and raw.leaked == []
    assert raw.agents == [] and raw.infos == {}
    single = SingleRoleEnv("wire", partner="random")
    try:
        assert single.instance_seed is None  # no AttributeError before the first reset
        single.reset(seed=5)
        assert single.instance_seed == 5
    finally:
        single.close()


def test_seeding_one_instance_space_leaves_another_alone() -> None:
    first, second = comma_env.wire_v0.raw_env(), comma_env.wire_v0.raw_env()
    space_a, space_b = first.observation_space("solver"), second.observation_space("solver")
    assert space_a is not space_b and space_a["image"] is not space_b["image"]
    space_b.seed(1)
    state_b = space_b["image"].np_random.bit_generator.state
    space_a.seed(0)
    assert space_b["image"].np_random.bit_generator.state == state_b
    samples = [space_a["image"].sample() for _ in range(2)]
    space_a.seed(0)
    assert np.array_equal(space_a["image"].sample(), samples[0])  # seeding works per instance
    space_b.seed(0)
    assert np.array_equal(space_b["image"].sample(), samples[0])
