"""Every registered puzzle as a Gymnasium environment for one role (`comma_env.rl.SingleRoleEnv`,
the partner inside): Gymnasium's `check_env` passes for both roles, and the papers' puzzles have
their ids (``comma/Wire-solver-v0``) in Gymnasium's registry."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.envs.registration import EnvSpec
from gymnasium.utils.env_checker import check_env

from comma_env.registry import SPECS, TITLES, env_module
from comma_env.rl import SingleRoleEnv, gym_id, gym_ids
from comma_env.rl.registration import ENTRY_POINT
from tests.support.registered import puzzles


@pytest.mark.parametrize("role", ["solver", "expert"])
@pytest.mark.parametrize("puzzle", puzzles())
def test_check_env_passes_for_both_roles(puzzle: str, role: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure too, except one:
        # Sound's constant `sample_rate` Box (low == high) is the AEC env's own space design
        warnings.filterwarnings("ignore", message=".*maximum and minimum values are equal")
        spec = EnvSpec(gym_id(puzzle, role), ENTRY_POINT, kwargs={"puzzle": puzzle, "role": role})
        env = gymnasium.make(spec, partner="oracle")  # made from its spec, registered or not
        try:
            check_env(env.unwrapped)
        finally:
            env.close()


def test_the_papers_puzzles_have_gymnasium_ids() -> None:
    papers = [name for name in puzzles() if SPECS[name].suite != "extra"]
    assert gym_ids() == [gym_id(name, role) for name in papers for role in ("solver", "expert")]
    for name in papers:
        assert TITLES[name] == env_module(name).raw_env.puzzle_cls.title
        for role in ("solver", "expert"):
            env = gymnasium.make(gym_id(name, role), partner="oracle", disable_env_checker=True)
            assert isinstance(env.unwrapped, SingleRoleEnv) and env.unwrapped.role == role
            env.close()
