"""Build a `Policy` from a model config (``conf/model/<name>.yaml``).

The rollout knows models only through this function, so adding a way of playing means
adding a ``kind`` here. Heavy imports (LiteLLM) happen only for the kinds that need them.
"""

from __future__ import annotations

from typing import Any

from comma_env.protocol.policy import Policy

KINDS = ("random", "oracle", "realistic", "litellm", "human", "asympuzl")


def _field(cfg: Any, name: str, default: Any = None) -> Any:
    if isinstance(cfg, dict):
        return cfg.get(name, default)
    return getattr(cfg, name, default)


def make_policy(cfg: Any, seed: int = 0, log_dir: str | None = None) -> Policy:
    """The policy that `cfg` (a `comma_env.run.config.ModelConfig`, or a dict with the same
    fields) describes. `seed` seeds the policy's own randomness, not the puzzle instances;
    `log_dir` is where a policy that launches a server keeps its logs."""
    kind = str(_field(cfg, "kind", "")).lower()
    if kind == "random":
        from comma_env.agents.random_policy import RandomPolicy

        return RandomPolicy(seed=seed)
    if kind == "oracle":
        from comma_env.agents.oracle import OraclePolicy

        extra = _field(cfg, "extra", None) or {}
        return OraclePolicy(style=str(extra.get("style", "actions")), seed=seed)
    if kind == "realistic":
        from comma_env.agents.realistic import RealisticPolicy

        extra = _field(cfg, "extra", None) or {}
        return RealisticPolicy(plan_ahead=bool(extra.get("plan_ahead", True)))
    if kind == "litellm":
        from comma_env.agents.llm import LiteLLMPolicy

        if log_dir is not None:
            return LiteLLMPolicy(cfg, seed=seed, log_dir=log_dir)
        return LiteLLMPolicy(cfg, seed=seed)
    if kind == "asympuzl":  # scripted AsymPuzl pair; extra.strategy: share_all | one_piece
        from comma_env.agents.asympuzl import AsymPuzlPairPolicy

        extra = _field(cfg, "extra", None) or {}
        return AsymPuzlPairPolicy(str(extra.get("strategy", "share_all")), seed=seed)
    if kind == "human":
        from comma_env.agents.human import HumanPolicy

        return HumanPolicy()
    raise ValueError(f"unknown model kind {kind!r} in model config {_field(cfg, 'name')!r}; "
                     f"expected one of {', '.join(KINDS)}")
