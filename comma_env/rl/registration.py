"""Gymnasium ids of the single-role environments, ``comma/<Title>-<role>-v<k>``, registered on
``import comma_env`` (entry points only)."""

from __future__ import annotations

import gymnasium

from comma_env.registry import COMMA_PUZZLES, SPECS, V1_PUZZLES, VERSIONS, puzzle_title
from comma_env.rl import vector as _vector  # noqa: F401  (UnicodeText in async vector envs' shared memory)

ENTRY_POINT = "comma_env.rl.single_role:SingleRoleEnv"
ROLES = ("solver", "expert")


def gym_id(puzzle: str, role: str) -> str:
    """``comma/Wire-solver-v0`` for ``("wire", "solver")``."""
    return f"comma/{puzzle_title(puzzle)}-{role}-v{VERSIONS[puzzle]}"


def role_puzzles() -> tuple[str, ...]:
    """Every registered puzzle played by a solver and an expert (not AsymPuzl and other games)."""
    return tuple(name for name, spec in SPECS.items() if spec.rules is not None)


def gym_ids() -> list[str]:
    """Every single-role id registered with Gymnasium, solver first."""
    return [gym_id(puzzle, role) for puzzle in COMMA_PUZZLES + V1_PUZZLES for role in ROLES]


def register_single_role_envs() -> None:
    for puzzle in COMMA_PUZZLES + V1_PUZZLES:
        for role in ROLES:
            env_id = gym_id(puzzle, role)
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"puzzle": puzzle, "role": role})
