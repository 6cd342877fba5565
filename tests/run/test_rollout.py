"""The rollout: outputs, typed config, resume after a torn line or a signal, errors, secrets."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException, MissingConfigException

from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.protocol.resources import conf_dir
from comma_env.registry import COMMA_PUZZLES
from comma_env.run import rollout
from comma_env.run.config import register_configs
from comma_env.run.plan import model_fingerprint
from comma_env.run.results import read_episodes

PUZZLES = ["wire"]  # a small, fast selection; the defaults are all ten
EPISODE_KEYS = {"puzzle", "seed", "success", "progress", "mistakes", "turns", "tokens", "privacy_leaks", "error",
                "transcript", "solver_model", "expert_model", "tokens_by_role", "repetition_loop", "solved_at_turn",
                "end_reason", "shard"}
RESULT_KEYS = {"n", "sr", "sr_se", "psr", "psr_se", "mistakes", "turns", "efficiency", "tokens", "errors"}


def cfg(tmp_path: Path, **overrides):
    base = {"puzzles": PUZZLES, "episodes": 10, "out_dir": str(tmp_path / "run"), "progress_bar": False}
    base.update(overrides)
    return base


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_outputs_of_a_random_run(tmp_path):
    results = rollout.run(cfg(tmp_path, episodes=30), quiet=True)
    out = tmp_path / "run"
    records = lines(out / "episodes.jsonl")
    assert len(records) == 30
    assert sorted(r["seed"] for r in records) == list(range(30))
    for r in records:
        assert EPISODE_KEYS <= set(r), EPISODE_KEYS - set(r)
        assert r["error"] is None and r["solver_model"] == "random" and r["tokens"] == 0
        assert r["turns"] == (r["solved_at_turn"] or 10)
        assert r["transcript"] and r["transcript"][0]["turn"] == 1
    on_disk = json.loads((out / "results.json").read_text())
    assert set(on_disk) >= {"overall", "puzzles"}
    assert set(on_disk["puzzles"]) == {"wire"}
    for entry in (on_disk["overall"], on_disk["puzzles"]["wire"]):
        assert RESULT_KEYS <= set(entry)
    wire = on_disk["puzzles"]["wire"]
    assert wire["n"] == 30 and 0 <= wire["sr"] <= 100
    assert wire["sr"] == pytest.approx(100 * sum(r["success"] for r in records) / 30)
    assert results["puzzles"]["wire"]["sr"] == wire["sr"]
    md = (out / "results.md").read_text()
    assert "Partial success rate (Table 1)" in md and "Random (published, Table 1)" in md
    assert (out / "config.yaml").exists()


def test_oracle_scores_100(tmp_path):
    results = rollout.run(cfg(tmp_path, model={"kind": "oracle", "name": "oracle"}, episodes=10), quiet=True)
    for entry in (results["overall"], results["puzzles"]["wire"]):
        assert entry["sr"] == 100.0 and entry["psr"] == 100.0 and entry["mistakes"] == 0 and entry["errors"] == 0


def test_random_is_reproducible_and_independent_of_order(tmp_path):
    a = rollout.run(cfg(tmp_path, out_dir=str(tmp_path / "a"), episodes=20), quiet=True)
    b = rollout.run(cfg(tmp_path, out_dir=str(tmp_path / "b"), episodes=10, seed=10, concurrency=3), quiet=True)
    first = {r["seed"]: r["success"] for r in lines(tmp_path / "a" / "episodes.jsonl")}
    second = {r["seed"]: r["success"] for r in lines(tmp_path / "b" / "episodes.jsonl")}
    assert all(first[s] == second[s] for s in second)
    assert a["puzzles"]["wire"]["n"] == 20 and b["puzzles"]["wire"]["n"] == 10


def test_resume_skips_finished_episodes(tmp_path):
    rollout.run(cfg(tmp_path, episodes=5), quiet=True)
    path = tmp_path / "run" / "episodes.jsonl"
    assert len(lines(path)) == 5
    results = rollout.run(cfg(tmp_path, episodes=8), quiet=True)  # extends: 3 new
    assert [r["seed"] for r in lines(path)] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert results["overall"]["n"] == 8
    rollout.run(cfg(tmp_path, episodes=8), quiet=True)  # nothing to do
    assert len(lines(path)) == 8
    # the tables describe everything the folder holds, not only what this command asked for
    results = rollout.run(cfg(tmp_path, episodes=3), quiet=True)
    assert results["overall"]["n"] == 8 and results["meta"]["this_run"]["episodes_planned"] == 3


def test_torn_last_line_is_dropped_and_repaired(tmp_path):
    rollout.run(cfg(tmp_path, episodes=4), quiet=True)
    path = tmp_path / "run" / "episodes.jsonl"
    with path.open("a") as handle:
        handle.write('{"puzzle": "wire", "seed": 4, "success": tr')  # killed mid-write
    results = rollout.run(cfg(tmp_path, episodes=6), quiet=True)
    records = lines(path)  # every line parses again
    assert [r["seed"] for r in records] == [0, 1, 2, 3, 4, 5]
    assert results["overall"]["n"] == 6


def test_complete_last_line_without_newline_is_kept(tmp_path):
    rollout.run(cfg(tmp_path, episodes=2), quiet=True)
    path = tmp_path / "run" / "episodes.jsonl"
    path.write_text(path.read_text().rstrip("\n"))
    rollout.run(cfg(tmp_path, episodes=3), quiet=True)
    assert [r["seed"] for r in lines(path)] == [0, 1, 2]


class Failing(Player):
    async def act(self, observation, info):
        raise TimeoutError("server went away")


class FailingPolicy(Policy):
    name = "failing"

    def player(self, role, env, seed):
        return Failing() if seed % 2 else _Silent()


class _Silent(Player):
    async def act(self, observation, info):
        return Reply("", completion_tokens=3)


def test_errors_are_recorded_counted_and_retried(tmp_path, monkeypatch):
    monkeypatch.setattr(rollout, "make_policies", lambda p: {"solver": FailingPolicy(), "expert": FailingPolicy()})
    results = rollout.run(cfg(tmp_path, episodes=4), quiet=True)
    records = lines(tmp_path / "run" / "episodes.jsonl")
    assert len(records) == 4  # never dropped
    errors = [r for r in records if r["error"]]
    assert [r["seed"] for r in errors] == [1, 3]
    assert "TimeoutError" in errors[0]["error"] and "server went away" in errors[0]["error"]
    assert results["puzzles"]["wire"]["errors"] == 2 and results["overall"]["errors"] == 2
    assert results["puzzles"]["wire"]["n"] == 2  # error episodes are reported apart, not averaged in as zeros
    assert results["overall"]["psr"] == pytest.approx(100 * sum(r["progress"] for r in records if not r["error"]) / 2)
    # silent pair: 10 solver messages + 9 expert replies, 3 tokens each (the paper's tau)
    assert [r["tokens"] for r in records if not r["error"]] == [57, 57]
    assert records[0]["tokens_by_role"]["solver"]["completion_tokens"] == 30
    monkeypatch.undo()
    results = rollout.run(cfg(tmp_path, episodes=4), quiet=True)  # errored episodes are replayed
    assert results["overall"]["errors"] == 0 and results["overall"]["n"] == 4
    assert len(lines(tmp_path / "run" / "episodes.jsonl")) == 6


def test_resume_refuses_a_folder_of_another_setting(tmp_path):
    rollout.run(cfg(tmp_path, episodes=2), quiet=True)
    saved = (tmp_path / "run" / "config.yaml").read_text()
    with pytest.raises(ValueError, match="max_turns"):
        rollout.run(cfg(tmp_path, episodes=2, max_turns=5), quiet=True)
    assert (tmp_path / "run" / "config.yaml").read_text() == saved  # the rejected settings are not saved


@pytest.mark.parametrize("change, field", [({"action_matching": "lenient"}, "action_matching"),
                                           ({"policy_seed": 7}, "policy_seed"),
                                           ({"model": {"kind": "random", "name": "random", "temperature": 0.7}},
                                            "solver_config"),
                                           ({"model": {"kind": "random", "name": "random", "vision": False}},
                                            "solver_view")])
def test_resume_refuses_other_matching_policy_seed_or_model_settings(tmp_path, change, field):
    rollout.run(cfg(tmp_path, episodes=2), quiet=True)
    with pytest.raises(ValueError, match=field):
        rollout.run(cfg(tmp_path, episodes=4, **change), quiet=True)
    assert len(lines(tmp_path / "run" / "episodes.jsonl")) == 2  # nothing pooled
    record = lines(tmp_path / "run" / "episodes.jsonl")[0]
    assert record["action_matching"] == "exact" and record["policy_seed"] == 0 and record["solver_view"] == "image"
    assert record["solver_config"] == record["expert_config"] == model_fingerprint(rollout.to_config({}).model)


def test_settings_that_do_not_change_results_still_resume(tmp_path):
    rollout.run(cfg(tmp_path, episodes=2), quiet=True)
    model = {"kind": "random", "name": "random", "timeout": 5.0, "max_retries": 1, "api_key_env": "X",
             "serve": {"launch": True, "startup_timeout": 1.0}}
    assert rollout.run(cfg(tmp_path, episodes=3, model=model), quiet=True)["overall"]["n"] == 3


def test_records_keep_the_redacted_initial_state(tmp_path):
    import comma_env

    rollout.run(cfg(tmp_path, puzzles=["atm", "telehealth"], episodes=2), quiet=True)
    for record in lines(tmp_path / "run" / "episodes.jsonl"):
        env = comma_env.make(record["puzzle"])
        env.reset(seed=record["seed"])
        cls = env.unwrapped.puzzle_cls
        full = env.unwrapped.visible_state
        expected = {k: v for k, v in cls.redact(full).items() if k not in cls.drawing_only_keys}
        assert record["initial_state"] == json.loads(json.dumps(expected))
        assert set(record["initial_state"]) < set(full)  # private facts / drawing-only keys left out
        assert not set(record["initial_state"]) & set(cls.drawing_only_keys)


def test_default_out_dir_tells_changed_model_settings_apart():
    def out(*overrides):
        c = rollout.to_config(compose_cfg(*overrides))
        return str(rollout.plan(rollout.to_config({**vars(c), "puzzles": PUZZLES})).out_dir)

    assert out("model=gpt4o") == os.path.join("outputs", "gpt4o")
    assert out("model=gpt4o", "model.timeout=5", "model.max_retries=1") == os.path.join("outputs", "gpt4o")
    hot = out("model=gpt4o", "model.temperature=0.7")
    assert hot.startswith(os.path.join("outputs", "gpt4o_cfg")) and hot != out("model=gpt4o", "model.temperature=0.5")
    assert out("solver=gpt4o", "solver.max_tokens=64").startswith(os.path.join("outputs", "gpt4o-random_cfg"))
    assert out("model=oracle") == os.path.join("outputs", "oracle")
    # a served model renamed on the command line has no file defaults to differ from
    assert out("model=openai_compat", "model.name=my-served") == os.path.join("outputs", "my-served")


def test_bad_values_get_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown puzzle"):
        rollout.run(cfg(tmp_path, puzzles=["wiire"]), quiet=True)
    with pytest.raises(ValueError, match="shard"):
        rollout.run(cfg(tmp_path, shard=2, num_shards=2), quiet=True)
    with pytest.raises(ValueError, match="concurrency"):
        rollout.run(cfg(tmp_path, concurrency=0), quiet=True)
    with pytest.raises(ValueError, match="policy_seed must be >= 0"):  # as the command line says
        rollout.run(cfg(tmp_path, policy_seed=-1), quiet=True)


def test_no_secrets_in_saved_config(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_TEST_KEY", "sk-test-do-not-leak-123")
    model = {"kind": "random", "name": "random", "api_key_env": "MY_TEST_KEY",
             "extra": {"headers": {"Authorization": "Bearer xyz-789"}}}
    with pytest.raises(ValueError, match="must not hold credentials") as refused:
        rollout.run(cfg(tmp_path, model={**model, "extra": {"api_key": "sk-inline-do-not-leak-456"}}, episodes=2),
                    quiet=True)
    assert "sk-inline-do-not-leak-456" not in str(refused.value)
    rollout.run(cfg(tmp_path, model=model, episodes=2), quiet=True)
    for path in (tmp_path / "run").iterdir():
        if path.is_dir():
            continue
        text = path.read_text()
        assert "sk-test-do-not-leak-123" not in text and "sk-inline-do-not-leak-456" not in text, path
        assert "xyz-789" not in text, path
    saved = (tmp_path / "run" / "config.yaml").read_text()
    assert "api_key_env: MY_TEST_KEY" in saved  # the variable's name is kept


# -- Hydra composition: typed config ------------------------------------------------------------
def compose_cfg(*overrides: str):
    register_configs()
    with initialize_config_dir(str(conf_dir()), version_base=None):
        return compose("config", overrides=list(overrides))


ALL_MODELS = ["random", "oracle", "realistic", "qwen2vl", "gpt4o", "gpt4v", "gemini", "o4mini", "internvl", "llama32",
              "llava16", "r1onevision", "llavacot", "openai_compat", "smollm2_cpu"]


def test_every_model_config_composes_for_every_role():
    for name in ALL_MODELS:
        c = rollout.to_config(compose_cfg(f"model={name}", f"solver={name}", f"expert={name}"))
        assert c.model == c.solver == c.expert
        assert c.model.kind in ("random", "oracle", "realistic", "litellm", "human")
        if c.model.kind == "litellm":
            assert c.model.model and c.model.api_key_env != "" and "sk-" not in str(c.model)
        if name in ("o4mini", "r1onevision", "llavacot"):
            assert c.model.temperature == 0.6
    qwen = rollout.to_config(compose_cfg("model=qwen2vl")).model
    assert qwen.model == "hosted_vllm/Qwen/Qwen2-VL-7B-Instruct" and qwen.api_base.endswith("/v1")


def test_defaults_and_roles():
    c = rollout.to_config(compose_cfg())
    assert c.model.kind == "random" and c.solver is None and c.expert is None
    assert c.episodes == 100 and c.seed == 0 and c.max_turns == 10 and c.max_mistakes == 3
    assert c.memory.value == "full" and list(c.puzzles) == list(COMMA_PUZZLES)
    c = rollout.to_config(compose_cfg("solver=qwen2vl", "expert=gpt4o", "memory=last", "puzzles=[wire,who]"))
    p = rollout.plan(rollout.to_config({**vars(c), "puzzles": PUZZLES}))
    assert (p.solver.name, p.expert.name) == ("qwen2vl", "gpt4o")
    assert str(p.out_dir) == os.path.join("outputs", "qwen2vl-gpt4o_memory-last")
    c = rollout.to_config(compose_cfg("model=openai_compat", "model.name=my-served", "model.api_base=http://h:1/v1"))
    assert c.model.model == "openai/my-served" and c.model.api_base == "http://h:1/v1"


@pytest.mark.parametrize("override", ["episdes=5", "episodes=many", "memory=some", "model.temprature=1",
                                      "concurrency=1.5", "model.vision=maybe"])
def test_misspelt_or_mistyped_overrides_are_rejected(override):
    with pytest.raises(ConfigCompositionException):
        compose_cfg(override)


def test_unknown_model_name_is_rejected():
    with pytest.raises(MissingConfigException, match="qwen2v"):
        compose_cfg("solver=qwen2v")


# -- the real command -------------------------------------------------------------------------
def run_cli(tmp_path: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    return subprocess.run([sys.executable, "-m", "comma_env.rollout", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, **kwargs)


def test_cli_from_another_directory(tmp_path):
    done = run_cli(tmp_path, "puzzles=[wire]", "episodes=5", "model=oracle")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "outputs" / "oracle"  # default out_dir, relative to the working directory
    assert len(lines(out / "episodes.jsonl")) == 5
    assert "Overall" in done.stdout and "100.0 ± 0.0" in done.stdout
    assert not (tmp_path / ".hydra").exists()
    bad = run_cli(tmp_path, "episdes=5")
    assert bad.returncode != 0 and "episdes" in bad.stderr
    bad = run_cli(tmp_path, "puzzles=[nosuch]")
    assert bad.returncode == 2 and "unknown puzzle" in bad.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_mid_run_keeps_finished_episodes(tmp_path, signum):
    out = tmp_path / "run"
    args = ["puzzles=[wire]", "episodes=5000", f"out_dir={out}", "concurrency=4"]
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
    proc = subprocess.Popen([sys.executable, "-m", "comma_env.rollout", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = out / "episodes.jsonl"
    deadline = time.time() + 60
    while time.time() < deadline and (not path.exists() or path.read_text().count("\n") < 20):
        time.sleep(0.1)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    assert "resume" in err
    records = read_episodes(path, repair=False)
    finished = len(records)
    assert 20 <= finished < 5000
    assert path.read_text().endswith("\n")  # no torn line
    saved = json.loads((out / "results.json").read_text())
    assert saved["overall"]["n"] == finished  # tables of what finished
    # resuming with a shorter list finishes only the missing seeds
    target = finished + 3
    results = rollout.run({"puzzles": ["wire"], "episodes": target, "out_dir": str(out), "progress_bar": False},
                          quiet=True)
    assert results["overall"]["n"] == target
    seeds = [r["seed"] for r in read_episodes(path)]
    assert sorted(seeds) == list(range(target)) and len(seeds) == target


def test_llm_rollout_over_http_with_key_from_env(tmp_path):
    """The whole command with a LiteLLM policy against a loopback OpenAI-compatible server."""
    from tests.support.loopback_server import Loopback

    out = tmp_path / "llm"
    with Loopback() as server:
        env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", LOOP_TEST_KEY="sk-loop-secret-4242")
        done = subprocess.run(
            [sys.executable, "-m", "comma_env.rollout", "model=openai_compat", "model.name=loopback",
             f"model.api_base={server.api_base}", "model.vision=false", "model.api_key_env=LOOP_TEST_KEY",
             "puzzles=[wire]", "episodes=4", f"out_dir={out}", "concurrency=4"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "LiteLLM completion()" not in done.stdout + done.stderr  # no INFO flood
    records = lines(out / "episodes.jsonl")
    assert len(records) == 4 and all(r["error"] is None and r["success"] for r in records)
    assert all(r["solver_model"] == "loopback" and r["tokens"] > 0 for r in records)
    assert all(r["tokens"] == sum(t["completion_tokens"] for t in r["tokens_by_role"].values()) for r in records)
    results = json.loads((out / "results.json").read_text())
    tau = sum(r["tokens"] for r in records) / 4
    assert results["overall"]["tokens"] == pytest.approx(tau)
    conciseness = 1 / (1 + tau / 1000)
    assert results["overall"]["efficiency"] == pytest.approx(2 * 1.0 * conciseness / (1.0 + conciseness))
    for path in out.rglob("*"):
        if path.is_file():
            assert "sk-loop-secret-4242" not in path.read_text(errors="replace"), path
    assert "sk-loop-secret-4242" not in done.stdout + done.stderr


def test_human_player_types_into_the_solver_role(capsys):
    import comma_env
    from comma_env.agents.factory import make_policy
    from comma_env.agents.random_policy import SilentExpert
    from comma_env.agents.runner import play
    from comma_env.puzzles.wire import wire_to_cut

    env = comma_env.make("wire")
    env.reset(seed=3)
    state = env.unwrapped.visible_state
    colors = next(v for k, v in state.items() if "color" in k)
    serial = next(v for k, v in state.items() if "serial" in k)
    answer = f"cut_wire_{wire_to_cut(colors, serial)}"
    typed = iter(["hello expert", "", answer, ""])
    policy = make_policy({"kind": "human", "name": "human"})
    policy.read_line = lambda prompt: next(typed)
    result = play(env, policy.player("solver", env, 3), SilentExpert())
    assert result.error is None and result.summary["success"] and result.summary["solved_at_turn"] == 2
    assert result.transcript[0]["solver"] == "hello expert"
    shown = capsys.readouterr().out
    assert "you are the solver" in shown and "valid actions: cut_wire_1" in shown and "current image" in shown
    # end of input abandons the episode; it is recorded with an error
    env.reset(seed=4)
    policy.read_line = lambda prompt: (_ for _ in ()).throw(EOFError())
    assert "EOFError" in play(env, policy.player("solver", env, 4), SilentExpert()).error


def test_per_role_models_and_last_memory(tmp_path):
    results = rollout.run(cfg(tmp_path, solver={"kind": "random", "name": "random"},
                              expert={"kind": "oracle", "name": "oracle"}, memory="last", episodes=3), quiet=True)
    records = lines(tmp_path / "run" / "episodes.jsonl")
    assert {(r["solver_model"], r["expert_model"], r["memory"]) for r in records} == {("random", "oracle", "last")}
    assert results["models"] == {"solver": ["random"], "expert": ["oracle"]}
    # the oracle expert answers (it asks the random solver for a description), unlike the silent random one
    assert any(t["expert"] for r in records for t in r["transcript"])
