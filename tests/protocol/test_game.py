"""The two families of `Game` (`comma_env.protocol.game`) seat their own agents and record
their own settings (that every registered puzzle plays through the protocol:
tests/registry/test_game_protocol.py)."""

from __future__ import annotations

from comma_env.protocol.game import RunOptions
from comma_env.registry import game


def test_the_games_seat_their_own_agents_and_record_their_own_settings():
    comma, asympuzl = game("wire"), game("asympuzl")
    assert dict(comma.slots) == {"solver": "solver", "expert": "expert"}
    assert dict(asympuzl.slots) == {"solver": "alice", "expert": "bob"}
    options = RunOptions(max_turns=7, max_mistakes=2, memory="full", solver_view="text",
                         puzzle_options={"n": 4, "view": "image"})
    assert comma.record_settings(options) == {"max_turns": 7, "max_mistakes": 2, "memory": "full",
                                              "solver_view": "text"}
    assert asympuzl.record_settings(options) == {  # T = 3N, no mistake limit, its own memory and view
        "max_turns": 12, "max_mistakes": None, "memory": "last", "solver_view": "image",
        "success_check": "end_of_turn", "partner_feedback": "previous"}
    assert asympuzl.env_options(options) == {"n": 4, "view": "image"}
    assert comma.results([{"puzzle": "wire"}]) is None
