"""Build a `Policy` from a model config (``conf/model/<name>.yaml``): its ``kind`` names a class in
`KINDS`, imported on first use, which builds itself (`Policy.from_config`)."""

from __future__ import annotations

import importlib
from typing import Any

from comma_env.protocol.policy import Policy

KINDS: dict[str, str] = {
    "random": "comma_env.agents.random_policy:RandomPolicy",
    "oracle": "comma_env.agents.oracle:OraclePolicy",
    "realistic": "comma_env.agents.realistic:RealisticPolicy",
    "litellm": "comma_env.agents.llm:LiteLLMPolicy",
    "human": "comma_env.agents.human:HumanPolicy",
    "asympuzl": "comma_env.agents.asympuzl:AsymPuzlPairPolicy",  # AsymPuzl's scripted pairs (extra.strategy)
}
"""Model ``kind`` -> ``"module:PolicyClass"``."""


def _field(cfg: Any, name: str, default: Any = None) -> Any:
    if isinstance(cfg, dict):
        return cfg.get(name, default)
    return getattr(cfg, name, default)


def make_policy(cfg: Any, seed: int = 0, log_dir: str | None = None) -> Policy:
    """The policy that `cfg` (a `ModelConfig` or a dict of its fields) describes."""
    kind = str(_field(cfg, "kind", "")).lower()
    if kind not in KINDS:
        raise ValueError(f"unknown model kind {kind!r} in model config {_field(cfg, 'name')!r}; "
                         f"expected one of {', '.join(KINDS)}")
    module, _, name = KINDS[kind].partition(":")
    policy: Policy = getattr(importlib.import_module(module), name).from_config(cfg, seed=seed, log_dir=log_dir)
    return policy
