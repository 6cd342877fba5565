"""SingleRoleEnv: both roles, partners (scripted, LLM over real HTTP, failing), the sync API
inside a running loop, and the async API overlapping (Gymnasium's check_env on every registered
puzzle: tests/registry/test_gymnasium.py)."""

from __future__ import annotations

import asyncio
import time

import gymnasium
import pytest

from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.rl import SingleRoleEnv
from tests.support.loopback_server import Loopback
from tests.support.rl_partners import SlowPolicy


@pytest.mark.parametrize("solver_view", ["image", "text"])
def test_solver_role_with_oracle_partner_solves(solver_view):
    env = gymnasium.make("comma/Wire-solver-v0", partner="oracle", solver_view=solver_view)
    obs, info = env.reset(seed=3)
    assert ("image" in obs) == (solver_view == "image")
    assert obs["image"].shape == (512, 512, 3) if solver_view == "image" else True
    state = env.unwrapped.raw.visible_state
    from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state

    obs, reward, terminated, truncated, info = env.step(f"{DESCRIPTION_HEADER}\n{describe_state(state)}")
    assert reward == 0.0 and not terminated and not truncated
    advice = info["partner_message"]
    assert advice and advice == info["dialogue"][-1]["text"]
    assert all(line in obs["text"] for line in advice.splitlines())  # the reply is in the observation
    action = next(line for line in advice.splitlines() if line.startswith("cut_wire_"))
    obs, reward, terminated, truncated, info = env.step(action)
    assert reward == 1.0 and terminated and not truncated
    assert info["episode"]["success"] and info["episode"]["return"] == 1.0
    assert info["partner_message"] is None  # nobody answers after the last message
    # stepping a finished episode is harmless
    obs, reward, terminated, truncated, info = env.step("cut_wire_1")
    assert reward == 0.0 and terminated and "warning" in info


def test_expert_role_gets_only_what_the_aec_expert_gets():
    env = SingleRoleEnv("atm", role="expert", partner="oracle")
    obs, info = env.reset(seed=5)
    assert set(obs) == {"text"}
    raw = env.raw
    assert info["dialogue"] == raw.infos["expert"]["dialogue"] and info["dialogue"][0]["speaker"] == "solver"
    assert info["partner_message"] == info["dialogue"][-1]["text"]  # the solver spoke first
    for key in ("valid_actions", "feedback", "executed", "description", "task"):
        assert key not in info
    for _ in range(12):
        expert_advice = type(raw.puzzle).expert_advice(
            __import__("comma_env.protocol.text", fromlist=["parse_description"]).parse_description(
                info["partner_message"].partition("I see:")[2]), {})
        obs, reward, terminated, truncated, info = env.step("Type these actions:\n" + "\n".join(expert_advice))
        pin = raw.private_facts.get("pin")
        assert pin is None or pin not in obs["text"]  # masked key presses, never the PIN
        if terminated or truncated:
            break
    assert info["episode"]["success"]


def test_expert_role_reward_comes_from_the_partner_solver():
    env = SingleRoleEnv("wire", role="expert", partner="oracle", success_bonus=0.5)
    obs, info = env.reset(seed=0)
    from comma_env.protocol.text import parse_description
    from comma_env.puzzles.wire import WirePuzzle

    seen = parse_description(info["partner_message"].partition("I see:")[2])
    advice = "Type these actions:\n" + "\n".join(WirePuzzle.expert_advice(seen, {}))
    obs, reward, terminated, truncated, info = env.step(advice)
    assert terminated and reward == 1.5 and info["episode"]["return"] == 1.5


def test_random_partner_solver_can_end_the_episode_during_reset():
    """A partner solver may solve on its first message; the learner's first step then only
    collects that reward and the end of the episode."""
    ended = 0
    for seed in range(30):
        env = SingleRoleEnv("wire", role="expert", partner="random")
        obs, info = env.reset(seed=seed)
        if info.get("episode"):
            ended += 1
            obs, reward, terminated, truncated, info = env.step("anything")
            assert terminated and reward == 1.0 and info["episode"]["success"]
            assert info["dialogue"][-1]["speaker"] == "solver"  # the learner's message was not played
    assert ended > 0


class FailingPolicy(Policy):
    name = "failing"

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at

    def player(self, role, env, seed):
        policy = self

        class Failing(Player):
            needs_observation = False
            calls = 0

            async def act(self, observation, info):
                self.calls += 1
                if self.calls >= policy.fail_at:
                    raise ConnectionError("partner server went away")
                return Reply("Please describe what you see.")

        return Failing()


@pytest.mark.parametrize("role", ["solver", "expert"])
def test_failing_partner_truncates_with_a_reason(role):
    env = SingleRoleEnv("who", role=role, partner=FailingPolicy(fail_at=2))
    obs, info = env.reset(seed=1)
    for _ in range(5):
        obs, reward, terminated, truncated, info = env.step("hello")
        if terminated or truncated:
            break
    assert truncated and not terminated
    assert "ConnectionError" in info["partner_error"] and "went away" in info["partner_error"]
    assert info["episode"]["end_reason"] == "partner_error" and info["episode"]["error"]
    obs, info = env.reset(seed=2)  # the next episode starts clean
    assert "partner_error" not in info


def test_bad_actions_never_raise():
    env = SingleRoleEnv("keypad", role="solver", partner="oracle")
    env.reset(seed=0)
    for action in [None, b"\xff\xfe", 12, "", "x" * 100_000, "\ud800", "<think>press_top_left", "**press_top_left**"]:
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            env.reset()


def test_unseeded_resets_follow_the_seeded_generator():
    a, b = SingleRoleEnv("maze", solver_view="text"), SingleRoleEnv("maze", solver_view="text")
    a.reset(seed=7)
    b.reset(seed=7)
    for _ in range(3):
        assert a.reset()[0] == b.reset()[0]
    assert a.instance_seed == b.instance_seed != 7


def test_sync_api_works_inside_a_running_event_loop():
    async def notebook_cell():
        env = SingleRoleEnv("wire", partner="oracle", solver_view="text")
        obs, info = env.reset(seed=0)  # a running loop here: must not raise
        obs, reward, terminated, truncated, info = env.step("hi")
        env.close()
        return info["partner_message"]

    assert asyncio.run(notebook_cell()) == "Please describe exactly what you see."


def test_unknown_partner_and_role_are_clear_errors():
    with pytest.raises(ValueError, match="unknown partner 'gpt5'"):
        SingleRoleEnv("wire", partner="gpt5")
    with pytest.raises(ValueError, match="role"):
        SingleRoleEnv("wire", role="judge")
    with pytest.raises(ValueError, match="not a solver/expert puzzle"):
        SingleRoleEnv("asympuzl")


def test_partner_configs_are_each_callers_own_and_follow_their_file(tmp_path, monkeypatch):
    """`model_config` merges the file and the overrides into a config of the caller's own; a
    bad override is an error every time; an edited file is read again."""
    from omegaconf.errors import ConfigKeyError

    from comma_env.rl import partners

    first = partners.model_config("openai_compat", {"name": "served", "max_tokens": 77})
    first.name = "changed by its caller"
    again = partners.model_config("openai_compat", {"max_tokens": 77, "name": "served"})
    assert again.name == "served" and again.max_tokens == 77
    for _ in range(2):
        with pytest.raises(ConfigKeyError):
            partners.model_config("oracle", {"nmae": "typo"})

    (tmp_path / "model").mkdir()
    file = tmp_path / "model" / "mine.yaml"
    file.write_text("kind: oracle\nname: first\n")
    monkeypatch.setattr(partners, "conf_dir", lambda: tmp_path)
    assert partners.model_config("mine").name == "first"
    file.write_text("kind: oracle\nname: the second version\n")
    assert partners.model_config("mine").name == "the second version"


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
def test_async_steps_of_many_envs_overlap():
    envs = [SingleRoleEnv("wire", partner=SlowPolicy(reply="ok"), solver_view="text") for _ in range(8)]

    async def run():
        await asyncio.gather(*(env.areset(seed=i) for i, env in enumerate(envs)))
        started = time.perf_counter()
        await asyncio.gather(*(env.astep("hello") for env in envs))
        return time.perf_counter() - started

    elapsed = asyncio.run(run())
    assert elapsed < 0.2 * 8 / 2  # overlapped, not 8 sequential 0.2 s calls


@pytest.fixture(scope="module")
def server():
    with Loopback() as srv:
        yield srv


@pytest.mark.parametrize("role", ["solver", "expert"])
def test_llm_partner_over_http(server, role):
    """The partner is the rollout's chat policy talking to a real loopback server."""
    overrides = {"api_base": server.api_base, "name": "loopback", "vision": False,
                 "extra": {"retry_base_delay": 0.02, "retry_max_delay": 0.2}}
    env = gymnasium.make(f"comma/Wire-{role}-v0", partner="openai_compat", partner_overrides=overrides)
    obs, info = env.reset(seed=4)
    raw = env.unwrapped.raw
    from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state, parse_description
    from comma_env.puzzles.wire import WirePuzzle

    if role == "solver":
        description = f"{DESCRIPTION_HEADER}\n{describe_state(raw.visible_state)}"
        obs, reward, terminated, truncated, info = env.step(description)
        partner_lines = info["partner_message"].splitlines()
        action = next(line for line in partner_lines if line.startswith("cut_wire_"))
        obs, reward, terminated, truncated, info = env.step(action)
    else:
        assert raw.solver_view == "text"  # a text-only partner solver gets the description
        seen = parse_description(info["partner_message"].partition(DESCRIPTION_HEADER)[2])
        advice = "Type these actions:\n" + WirePuzzle.expert_advice(seen, {})[0]
        obs, reward, terminated, truncated, info = env.step(advice)
    assert terminated and reward == 1.0 and info["episode"]["success"]
    assert info["partner_usage"]["calls"] >= 1 and info["partner_usage"]["completion_tokens"] > 0
    env.close()


def test_llm_partner_that_cannot_connect_truncates():
    overrides = {"api_base": "http://127.0.0.1:9/v1", "name": "nobody", "max_retries": 1, "timeout": 2.0,
                 "extra": {"retry_base_delay": 0.01, "retry_max_delay": 0.02}}
    env = SingleRoleEnv("wire", partner="openai_compat", partner_overrides=overrides, solver_view="text")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step("hello")
    assert truncated and info["episode"]["end_reason"] == "partner_error"
    assert "expert:" in info["partner_error"]
    env.close()


