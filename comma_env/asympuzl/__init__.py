"""AsymPuzl (Cadet, Koh and Chin, 2025): a two-agent shape-colour puzzle under information
asymmetry, as the AEC environment ``comma/asympuzl-v0`` (agents ``alice`` and ``bob``). The
names below load their modules when first used, so reading `spec` imports no drawing."""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "AsymPuzlEnv": "comma_env.asympuzl.env",
    "env": "comma_env.asympuzl.env",
    "raw_env": "comma_env.asympuzl.env",
    "turn_limit": "comma_env.asympuzl.env",
    "COLOURS": "comma_env.asympuzl.rules",
    "FEEDBACK_MODES": "comma_env.asympuzl.rules",
    "SHAPES": "comma_env.asympuzl.rules",
}
__all__ = ["AsymPuzlEnv", "env", "raw_env", "turn_limit", "COLOURS", "FEEDBACK_MODES", "SHAPES"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value  # ``env`` the function, not the submodule bound by its import
        return value
    raise AttributeError(f"module 'comma_env.asympuzl' has no attribute {name!r}")
