"""The simulated clock of the real-time puzzles: message costs, `wait N`, running out of
time, and bad waits (a billion seconds, endless digits, garbage) with defined outcomes."""

from __future__ import annotations

import pytest

import comma_env
from comma_env.protocol.clock import FOREVER, format_timer, message_seconds, parse_timer, parse_wait
from tests.support.timing import cpu_seconds


@pytest.mark.parametrize(("line", "seconds"), [
    ("wait", 1), ("wait 5", 5), ("wait_5", 5), ("WAIT 12 seconds", 12), ("wait 3s", 3), ("wait 007", 7),
    ("wait 0", 0), ("wait 1000000000", FOREVER), ("wait " + "9" * 100_000, FOREVER),
    ("waiting", None), ("wait five", None), ("wait -3", None), ("please wait 3", None), ("", None),
])
def test_parse_wait(line: str, seconds: int | None) -> None:
    assert parse_wait(line) == seconds


def test_parse_wait_is_linear_time() -> None:
    lines = ("wait " + "1" * 200_000 + "x", "wait " + " " * 200_000 + "1")
    assert cpu_seconds(lambda: [parse_wait(line) for line in lines]) < 1.0  # CPU, not wall time


def test_message_cost_and_timer_format() -> None:
    assert [message_seconds(t) for t in ("", "a", "abcdefghij", "abcdefghijk")] == [1, 2, 2, 3]
    assert format_timer(125) == "2:05" and parse_timer("2:05") == 125 and format_timer(-4) == "0:00"


def _env(puzzle: str = "dog", seed: int = 0):
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    return env, env.unwrapped.puzzle


def test_messages_and_waits_advance_the_clock() -> None:
    env, puzzle = _env()
    start = puzzle.time_left
    message = "hello there"  # 11 characters: 1 + 2 seconds
    env.step(message)
    assert puzzle.time_left == start - 3
    env.step("")  # the expert's empty reply: 1 second
    assert puzzle.time_left == start - 4
    env.step("wait 7")
    assert puzzle.time_left == start - 4 - 7 - message_seconds("wait 7")
    info = env.unwrapped.infos["solver"]  # the solver's own info (last() is the expert's now)
    assert info["executed"] == [{"action": "wait 7", "ok": True}]


def test_actions_happen_at_the_time_shown() -> None:
    env, puzzle = _env()
    digit = puzzle.count
    wait = (puzzle.time_left - digit) % 10
    env.step("I count the dogs now, they are right here in the park.\n" + f"wait {wait}\nsubmit")
    _, _, terminated, _, info = env.last()
    assert terminated and info["episode"]["success"]


def test_a_billion_second_wait_runs_the_timer_out() -> None:
    for puzzle_name in ("dog", "button"):
        env, puzzle = _env(puzzle_name)
        env.step("wait 1000000000\nsubmit\nhold\ntap")
        info = env.unwrapped.infos["solver"]
        assert env.unwrapped.terminations["solver"] and not info["episode"]["success"]
        assert info["episode"]["end_reason"] == "time_up" and puzzle.time_left == 0
        assert info["episode"]["mistakes"] == 0 and [a["action"] for a in info["executed"]] == ["wait 1000000000"]


def test_endless_digits_and_garbage_waits() -> None:
    env, puzzle = _env()
    start = puzzle.time_left
    env.step("wait five minutes\nwait -3\nwait ∞\n<wait 3>")  # prose: no wait, no mistake
    info = env.unwrapped.infos["solver"]  # the solver's own info (last() is the expert's now)
    assert info["executed"] == [] and info["mistakes"] == 0 and puzzle.time_left < start
    env.step("")
    env.step("wait " + "7" * 50_000)
    assert env.unwrapped.end_reason == "time_up"


def test_long_expert_message_can_run_the_timer_out() -> None:
    env, puzzle = _env()
    env.step("hi")
    env.step("x" * 7990)  # 800 seconds of talking: more than any countdown
    assert env.unwrapped.end_reason == "time_up" and not env.agents or env.terminations["solver"]


def test_puzzles_without_a_clock_ignore_waits() -> None:
    env, puzzle = _env("wire")
    env.step("wait 5")
    info = env.unwrapped.infos["solver"]  # the solver's own info (last() is the expert's now)
    assert info["executed"] == [] and env.unwrapped.end_reason is None
