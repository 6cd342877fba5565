"""Reward options: for each option, the per-step rewards add up to the documented return
(comma_env/protocol/rewards.py), in the AEC env, in SingleRoleEnv (both roles) and in the rollout."""

from __future__ import annotations

import json

import numpy as np
import pytest

import comma_env
from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.protocol.rewards import RewardTerms
from comma_env.protocol.text import count_tokens
from comma_env.rl import SingleRoleEnv
from comma_env.run import rollout

REWARD_OPTIONS = ("success_bonus", "mistake_penalty", "leak_penalty", "leak_unsure_penalty", "token_cost")
OPTION_SETS = [{}] + [{name: 0.5} for name in REWARD_OPTIONS] + [
    {"success_bonus": 2.0, "mistake_penalty": 0.25, "leak_penalty": 1.5, "token_cost": 3.0}]


def documented_return(summary: dict, transcript: list[dict], options: dict) -> float:
    tokens = sum(count_tokens(t["solver"]) + count_tokens(t["expert"] or "") for t in transcript)
    return RewardTerms(**options).solver_step(summary["progress"], summary["success"], summary["mistakes"],
                                              len(summary["privacy_leaks"]), tokens)


class LeakySolver(Policy):
    """Says its private facts out loud, tries a valid action, and asks questions."""

    name = "leaky"

    def player(self, role, env, seed):
        raw = env.unwrapped
        rng = np.random.default_rng(seed)

        class Leaky(Player):
            needs_observation = False

            async def act(self, observation, info):
                facts = list(raw.private_facts.values())
                if facts and rng.random() < 0.5:
                    said = f"My secret is {facts[int(rng.integers(len(facts)))]}."
                else:
                    said = "What now?"
                actions = info["valid_actions"]
                return Reply(said + "\n" + actions[int(rng.integers(len(actions)))])

        return Leaky()


def aec_episode(puzzle: str, seed: int, options: dict, solver_policy: Policy, expert_policy: Policy):
    env = comma_env.make(puzzle, solver_view="text", **options)
    env.reset(seed=seed)
    players = {"solver": solver_policy.player("solver", env, seed), "expert": expert_policy.player("expert", env, seed)}
    total = {"solver": 0.0, "expert": 0.0}
    import asyncio

    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(asyncio.run(players[agent].act(observation, info)).text)
    return total, env.unwrapped.episode_summary(), env.unwrapped.transcript


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "+".join(o) or "default")
@pytest.mark.parametrize("puzzle", ["wire", "atm", "telehealth", "keypad"])
def test_aec_rewards_add_up_to_the_documented_return(puzzle, options):
    from comma_env.agents.oracle import OraclePolicy

    for seed in range(8):
        total, summary, transcript = aec_episode(puzzle, seed, options, LeakySolver(), OraclePolicy("natural"))
        expected = documented_return(summary, transcript, options)
        assert total["solver"] == pytest.approx(expected) and total["expert"] == pytest.approx(expected)
        assert summary["return"] == pytest.approx(expected)
        if not options:
            assert expected == pytest.approx(summary["progress"])  # default: return = partial score


def test_each_option_moves_the_return_by_its_own_term():
    from comma_env.agents.oracle import OraclePolicy

    base_total, summary, transcript = aec_episode("atm", 3, {}, LeakySolver(), OraclePolicy("natural"))
    assert summary["mistakes"] > 0 and summary["privacy_leaks"]  # the episode exercises every term
    tokens = sum(count_tokens(t["solver"]) + count_tokens(t["expert"] or "") for t in transcript)

    for name, delta in [("mistake_penalty", -summary["mistakes"]), ("leak_penalty", -len(summary["privacy_leaks"])),
                        ("token_cost", -tokens / 1000), ("success_bonus", float(summary["success"]))]:
        total, _, _ = aec_episode("atm", 3, {name: 1.0}, LeakySolver(), OraclePolicy("natural"))
        assert total["solver"] - base_total["solver"] == pytest.approx(delta), name


@pytest.mark.parametrize("role", ["solver", "expert"])
def test_single_role_rewards_add_up_to_the_documented_return(role):
    options = {"success_bonus": 1.0, "mistake_penalty": 0.3, "token_cost": 2.0}
    for seed in range(10):
        env = SingleRoleEnv("who", role=role, partner="oracle_nl" if role == "solver" else "random",
                            solver_view="text", **options)
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            if role == "solver":
                action = rng.choice(info["valid_actions"]) if rng.random() < 0.5 else "Please help."
            else:
                action = "Press the top left button."
            obs, reward, terminated, truncated, info = env.step(str(action))
            total += reward
            done = terminated or truncated
        summary = info["episode"]
        assert total == pytest.approx(documented_return(summary, env.raw.transcript, options))


def test_token_counter_option_replaces_the_estimate():
    env = comma_env.make("wire", token_cost=1000.0, token_counter=lambda text: len(text))
    env.reset(seed=0)
    env.step("abc")
    assert env.unwrapped.rewards["solver"] == -3.0


def test_rollout_config_reward_options_reach_the_records(tmp_path):
    results = rollout.run({"puzzles": ["wire"], "episodes": 6, "out_dir": str(tmp_path / "run"), "progress_bar": False,
                           "reward": {"success_bonus": 2.0, "mistake_penalty": 0.5, "token_cost": 1.0}}, quiet=True)
    assert results["overall"]["n"] == 6
    records = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    for record in records:
        assert record["reward"] == {"success_bonus": 2.0, "mistake_penalty": 0.5, "leak_penalty": 0.0,
                                    "leak_unsure_penalty": 0.0, "token_cost": 1.0}
        assert record["return"] == pytest.approx(documented_return(record, record["transcript"], record["reward"]))
