"""Training adapters: single-role Gymnasium environments, group rollouts and export. Names load
their modules on first use, so ``import comma_env`` registers the Gymnasium ids only."""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "GroupedEpisodes": "comma_env.rl.groups",
    "group_schedule": "comma_env.rl.groups",
    "gym_id": "comma_env.rl.registration",
    "gym_ids": "comma_env.rl.registration",
    "SingleRoleEnv": "comma_env.rl.single_role",
}
__all__ = ["GroupedEpisodes", "SingleRoleEnv", "group_schedule", "gym_id", "gym_ids"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'comma_env.rl' has no attribute {name!r}")
