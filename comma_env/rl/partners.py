"""Turn a partner specification into a `Policy`: a Policy object, or the name of one of the
rollout's model files, so an LLM partner is the rollout's own chat policy."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from typing import Any

from omegaconf import OmegaConf

from comma_env.protocol.policy import Policy
from comma_env.protocol.resources import conf_dir
from comma_env.run.config import ModelConfig


def model_config(name: str, overrides: Mapping[str, Any] | None = None, what: str = "partner") -> ModelConfig:
    """The typed config of ``conf/model/<name>.yaml`` with `overrides` merged in (a typo or a
    wrong type is an error, as in the rollout)."""
    path = conf_dir() / "model" / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (conf_dir() / "model").glob("*.yaml"))
        near = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise ValueError(f"unknown {what} {name!r}{hint}; model configs: {', '.join(known)}")
    return model_config_from(OmegaConf.load(path), overrides)


def make_partner(partner: Any, overrides: Mapping[str, Any] | None = None,
                 seed: int = 0) -> tuple[Policy, ModelConfig | None]:
    """The partner policy and, when it came from a config, that config."""
    if isinstance(partner, Policy):
        if overrides:
            raise ValueError("partner_overrides apply to model-config names, not to Policy objects")
        return partner, None
    from comma_env.agents.factory import make_policy

    if isinstance(partner, str):
        cfg = model_config(partner, overrides)
    elif isinstance(partner, Mapping):
        cfg = model_config_from(dict(partner), overrides)
    elif is_dataclass(partner) and not isinstance(partner, type):  # a ModelConfig
        cfg = model_config_from(asdict(partner), overrides)
    else:
        raise TypeError(f"partner must be a Policy, a model-config name or a ModelConfig, not {type(partner).__name__}")
    return make_policy(cfg, seed=seed), cfg


def model_config_from(data: Any, overrides: Mapping[str, Any] | None = None) -> ModelConfig:
    merged = OmegaConf.merge(OmegaConf.structured(ModelConfig), data, dict(overrides or {}))
    return OmegaConf.to_object(merged)  # type: ignore[return-value]
