"""comma_env: the COMMA benchmark as PettingZoo AEC environments. Importing it registers every puzzle
(``comma/wire-v0`` ...) in PettingZoo's registry; the versioned modules load lazily."""

from __future__ import annotations

import importlib
from typing import Any

from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES, env_id, make, register_all
from comma_env.rl.registration import register_single_role_envs

__version__ = "0.3.0"  # the only place the version is written (pyproject.toml reads it)
__all__ = ["COMMA_PUZZLES", "V1_PUZZLES", "env_id", "make", "__version__"]

register_all()
register_single_role_envs()


def __getattr__(name: str) -> Any:
    """``comma_env.wire_v0`` works without importing every puzzle up front."""
    if name.endswith(tuple(f"_v{i}" for i in range(10))):
        try:
            return importlib.import_module(f"comma_env.{name}")
        except ModuleNotFoundError as error:
            raise AttributeError(name) from error
    raise AttributeError(f"module 'comma_env' has no attribute {name!r}")
