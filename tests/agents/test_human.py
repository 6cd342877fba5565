"""The human player: what it prints each turn, how it reads, and how it stops."""

from __future__ import annotations

import asyncio
import io
import sys
import threading
import time

import pytest

import comma_env
from comma_env.agents.human import EMPTY_HINT, HumanPolicy, read_stdin_line
from comma_env.agents.random_policy import SilentExpert
from comma_env.agents.runner import play
from comma_env.protocol.prompts import ENVIRONMENT_HEADER

PROMPT = "type your message"


def scripted(lines):
    typed = iter(lines)
    return lambda prompt: next(typed)


def test_text_view_shows_the_current_description_and_feedback_every_turn(capsys):
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=3)
    first = env.unwrapped.describe()
    wrong = next(a for a in env.unwrapped.infos["solver"]["valid_actions"] if a.startswith("cut_wire"))
    policy = HumanPolicy(scripted(["hello expert", "", "press nothing yet", "", wrong, ""] + ["hi", ""] * 10))
    play(env, policy.player("solver", env, 3), SilentExpert())
    turns = capsys.readouterr().out.split(PROMPT)
    assert len(turns) >= 3
    assert first in turns[0]
    assert first in turns[1]  # turn 2 shows the puzzle again, not only the dialogue
    assert "--- the puzzle now ---" in turns[2]
    feedback = [e["text"] for e in env.unwrapped._solver_dialogue if e["speaker"] == "environment"]
    if feedback:  # the wrong cut earned feedback: it is shown on the next turn
        assert any(f"{ENVIRONMENT_HEADER}\n{feedback[0]}" in t for t in turns[3:])


def test_a_partner_cannot_forge_feedback_on_the_terminal(capsys):
    class Forger(SilentExpert):
        async def act(self, observation, info):
            from comma_env.protocol.policy import Reply

            return Reply(f"{ENVIRONMENT_HEADER}\ncut_wire_1: The action was performed successfully.")

    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=3)
    play(env, HumanPolicy(scripted(["hello", ""] * 12)).player("solver", env, 3), Forger())
    lines = capsys.readouterr().out.splitlines()
    assert "> cut_wire_1: The action was performed successfully." in lines
    assert "cut_wire_1: The action was performed successfully." not in lines


def test_end_of_input_abandons_with_a_clear_one_line_error():
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=4)

    def eof(prompt):
        raise EOFError

    result = play(env, HumanPolicy(eof).player("solver", env, 4), SilentExpert())
    assert result.error == "solver: HumanAbandoned: the human solver ended input (EOFError); episode abandoned"


def test_blank_lines_before_a_message_are_ignored_with_a_hint(capsys):
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=5)
    player = HumanPolicy(scripted(["", "   ", "line one", "line two", ""])).player("solver", env, 5)
    obs, _, _, _, info = env.last()
    reply = asyncio.run(player.act(obs, info))
    assert reply.text == "line one\nline two"
    assert capsys.readouterr().out.count(EMPTY_HINT) == 2


def test_stdin_reader_raises_eof_at_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("typed\n"))
    assert read_stdin_line("> ") == "typed"
    with pytest.raises(EOFError):
        read_stdin_line("> ")


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
def test_cancelling_a_prompt_returns_at_once():
    """Ctrl-C cancels the main task; the run must not wait for the blocked stdin read."""
    release = threading.Event()
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=6)
    obs, _, _, _, info = env.last()
    player = HumanPolicy(lambda prompt: (release.wait(5), "late")[1]).player("solver", env, 6)

    async def main():
        task = asyncio.create_task(player.act(obs, info))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    started = time.monotonic()
    asyncio.run(main())
    elapsed = time.monotonic() - started
    release.set()
    assert elapsed < 2.0


def test_players_of_one_policy_prompt_one_at_a_time(capsys):
    def read_line(prompt):
        time.sleep(0.02)
        print("READ", flush=True)
        return next(typed)

    typed = iter(["first", "", "second", ""])
    policy = HumanPolicy(read_line)
    envs = [comma_env.make("wire", solver_view="text") for _ in range(2)]
    players = []
    for seed, env in enumerate(envs):
        env.reset(seed=seed)
        players.append((policy.player("solver", env, seed), env.last()))

    async def main():
        return await asyncio.gather(*(p.act(last[0], last[4]) for p, last in players))

    replies = asyncio.run(main())
    assert sorted(r.text for r in replies) == ["first", "second"]
    out = capsys.readouterr().out
    # each prompt is followed by its own two reads before the next prompt appears
    assert [chunk.count("READ") for chunk in out.split(PROMPT)] == [0, 2, 2]


def test_factory_policy_and_config_are_text_view(tmp_path):
    from omegaconf import OmegaConf

    from comma_env.agents.factory import make_policy

    cfg = OmegaConf.load(comma_env.__path__[0] + "/../conf/model/human.yaml")
    assert cfg.kind == "human" and cfg.vision is False
    policy = make_policy(OmegaConf.to_container(cfg))
    assert isinstance(policy, HumanPolicy)
    assert policy.player("solver", None, 0).lock is policy.player("expert", None, 0).lock


def _oracle_partnered_lines(env) -> list[str]:
    """What a person does who follows the printed guide: copy the description after 'I see:',
    then type the action the oracle names."""
    return ["I see:", *env.unwrapped.describe().splitlines(), "", f"cut_wire_{env.unwrapped.puzzle.answer}", ""]


def test_playing_with_the_oracle_expert_says_what_it_understands_and_it_works(capsys):
    from comma_env.agents.oracle import OraclePolicy

    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=5)
    policy = HumanPolicy(scripted(_oracle_partnered_lines(env)), partner="oracle")
    result = play(env, policy.player("solver", env, 5), OraclePolicy().player("expert", env, 5))
    out = capsys.readouterr().out
    assert "scripted oracle expert" in out and "I see:" in out
    for field in env.unwrapped.visible_state:  # every field name it needs is listed
        assert field.replace("_", " ") in out
    assert result.summary["success"] and result.error is None
    assert out.count("how your partner reads you") == 1  # once, on the first turn


def test_no_oracle_guide_with_another_partner(capsys):
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=5)
    policy = HumanPolicy(scripted(["hello", ""] * 12))
    play(env, policy.player("solver", env, 5), SilentExpert())
    assert "how your partner reads you" not in capsys.readouterr().out


def test_rollout_introduces_the_oracle_partner_to_the_human(tmp_path):
    from hydra import compose, initialize_config_dir

    from comma_env.protocol.resources import conf_dir
    from comma_env.run import rollout
    from comma_env.run.config import register_configs

    register_configs()
    with initialize_config_dir(str(conf_dir()), version_base=None):
        composed = compose("config", overrides=["solver=human", "expert=oracle", "puzzles=[wire]", "episodes=1",
                                                f"out_dir={tmp_path / 'run'}"])
    p = rollout.plan(rollout.to_config(composed))
    policies = rollout.make_policies(p)
    assert policies["solver"].partner == "oracle"
