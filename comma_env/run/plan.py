"""What one invocation of the rollout runs and where: the typed config made into a validated
`Plan`, and the settings fingerprint that lets a rerun resume into the same folder."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from comma_env.protocol.game import RunOptions
from comma_env.protocol.resources import conf_dir
from comma_env.registry import VERSIONS, env_module
from comma_env.run.checks import ConfigError, check_model, check_puzzle_options
from comma_env.run.config import ModelConfig, RolloutConfig, memory_name, unknown_key, unknown_keys
from comma_env.run.redact import config_secrets, scrub

NEUTRAL_MODEL_FIELDS = ("name", "timeout", "max_retries", "api_key_env", "client", "logprobs", "top_logprobs",
                        "server_ids")
"""ModelConfig fields that never change what a model answers (the name is compared on its own)."""
NEUTRAL_SERVE_FIELDS = ("launch", "startup_timeout", "stall_timeout")
AUDIO_FIELD_DEFAULTS = {"audio": False, "describe_audio": True}
"""ModelConfig fields added with the Sound puzzle: left out of the fingerprint at their
defaults, so runs recorded before they existed still resume."""


@dataclass
class Plan:
    """What this invocation runs and where it writes."""

    cfg: RolloutConfig
    solver: ModelConfig
    expert: ModelConfig
    out_dir: Path
    episodes_path: Path
    suffix: str  # "" or ".shard{i}of{k}"
    jobs: list[tuple[str, int]] = field(default_factory=list)  # (puzzle, seed) of this shard


# -- configuration ---------------------------------------------------------------------------
def to_config(cfg: Any) -> RolloutConfig:
    """A `RolloutConfig` from a Hydra DictConfig, a plain dict, or a RolloutConfig."""
    if isinstance(cfg, RolloutConfig):
        return cfg
    data = OmegaConf.to_container(cfg, resolve=False) if isinstance(cfg, DictConfig) else cfg
    stray = unknown_keys(data) if isinstance(data, dict) else []
    if stray:  # Hydra lets +key=value add any key: refuse one nobody would read
        raise ConfigError(unknown_key(stray[0]))
    base = OmegaConf.structured(RolloutConfig)
    merged = OmegaConf.merge(base, cfg if isinstance(cfg, DictConfig) else OmegaConf.create(cfg))
    return OmegaConf.to_object(merged)  # type: ignore[return-value]


def default_out_dir(cfg: RolloutConfig, solver: ModelConfig, expert: ModelConfig) -> Path:
    """outputs/<solver>[-<expert>] plus the settings that change results, so that rerunning
    the same command resumes into the same folder."""
    name = solver.name if solver.name == expert.name else f"{solver.name}-{expert.name}"
    memory = memory_name(cfg)
    parts = [name.replace("/", "_")]
    if memory != "full":
        parts.append(f"memory-{memory}")
    if cfg.max_turns != 10:
        parts.append(f"turns{cfg.max_turns}")
    if cfg.max_mistakes != 3:
        parts.append(f"mistakes{cfg.max_mistakes}")
    if cfg.policy_seed != 0:
        parts.append(f"pseed{cfg.policy_seed}")
    if cfg.action_matching != "exact":
        parts.append(cfg.action_matching)
    for puzzle in sorted(cfg.puzzle_options or {}):
        parts.append(f"{puzzle}-" + "-".join(f"{k}{v}" for k, v in sorted(dict(cfg.puzzle_options[puzzle]).items())
                                            if k != "padufes_root"))
    changed = [m for m in (solver, expert) if _file_fingerprint(m.name) not in (None, model_fingerprint(m))]
    if changed:  # e.g. solver.temperature=0.7: a folder of its own, not the model file's one
        both = "".join(model_fingerprint(m) for m in (solver, expert))
        parts.append("cfg" + hashlib.sha256(both.encode()).hexdigest()[:8])
    return Path("outputs") / "_".join(parts)


def model_fingerprint(model: ModelConfig) -> str:
    """A short hash of the model settings that can change results: secrets, the display
    name, time-outs, retries and whether a server is launched are left out."""
    data = scrub(asdict(model))
    for key in NEUTRAL_MODEL_FIELDS:
        data.pop(key, None)
    for key in NEUTRAL_SERVE_FIELDS:
        data.get("serve", {}).pop(key, None)
    for key, default in AUDIO_FIELD_DEFAULTS.items():
        if data.get(key) == default:
            data.pop(key, None)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _file_fingerprint(name: str) -> str | None:
    """The fingerprint of ``conf/model/<name>.yaml`` as written (None: no such file, so
    there are no file defaults to differ from)."""
    path = conf_dir() / "model" / f"{name}.yaml"
    if not path.is_file():
        return None
    try:
        model = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(ModelConfig), OmegaConf.load(path)))
    except Exception:  # a broken model file is reported where it is composed, not here
        return None
    return model_fingerprint(model)  # type: ignore[arg-type]


def plan(cfg: RolloutConfig) -> Plan:
    """Validate the config and list this shard's episodes."""
    unknown = [p for p in cfg.puzzles if p not in VERSIONS]
    if unknown:
        raise ValueError(f"unknown puzzle(s) {unknown}; choose from {', '.join(VERSIONS)}")
    if not cfg.puzzles:
        raise ValueError("puzzles is empty")
    stray = [p for p in (cfg.puzzle_options or {}) if p not in VERSIONS]
    if stray:
        raise ValueError(f"puzzle_options names unknown puzzle(s) {stray}; choose from {', '.join(VERSIONS)}")
    for puzzle in cfg.puzzles:
        try:
            env_module(puzzle)
        except ImportError as error:
            raise ValueError(f"puzzle {puzzle!r} is not available in this installation ({error}); "
                             f"pick others with puzzles=[...]") from error
    checks = {
        "episodes must be >= 1": cfg.episodes >= 1,
        "seed must be >= 0": cfg.seed >= 0,
        "policy_seed must be >= 0": cfg.policy_seed >= 0,
        "concurrency must be >= 1": cfg.concurrency >= 1,
        "max_turns must be >= 1": cfg.max_turns >= 1,
        "max_mistakes must be >= 1": cfg.max_mistakes >= 1,
        "num_shards must be >= 1": cfg.num_shards >= 1,
        "shard must be in 0 .. num_shards-1": 0 <= cfg.shard < max(cfg.num_shards, 1),
        "action_matching must be exact or lenient": cfg.action_matching in ("exact", "lenient"),
        "logger must be none, trackio or wandb": cfg.logger in ("none", "trackio", "wandb"),
    }
    for message, ok in checks.items():
        if not ok:
            raise ValueError(message)
    solver = cfg.solver or cfg.model
    expert = cfg.expert or cfg.model
    check_model("solver", solver)
    if expert is not solver:
        check_model("expert", expert)
    for puzzle in dict.fromkeys(cfg.puzzles):
        check_puzzle_options(puzzle, _puzzle_options(cfg, puzzle), cfg.seed)
    out_dir = Path(cfg.out_dir) if cfg.out_dir else default_out_dir(cfg, solver, expert)
    suffix = f".shard{cfg.shard}of{cfg.num_shards}" if cfg.num_shards > 1 else ""
    every = [(p, s) for p in dict.fromkeys(cfg.puzzles) for s in range(cfg.seed, cfg.seed + cfg.episodes)]
    jobs = every[cfg.shard::cfg.num_shards]
    return Plan(cfg, solver, expert, out_dir, out_dir / f"episodes{suffix}.jsonl", suffix, jobs)


def secrets_of(p: Plan) -> list[str]:
    """Every secret string the run's model configs carry or point to (masked in outputs)."""
    return config_secrets(asdict(p.solver)) + config_secrets(asdict(p.expert))


def run_options(p: Plan, puzzle: str) -> RunOptions:
    """The options `puzzle` is played under in this run (`comma_env.protocol.game`)."""
    cfg = p.cfg
    return RunOptions(max_turns=cfg.max_turns, max_mistakes=cfg.max_mistakes,
                      memory=memory_name(cfg),
                      solver_view="image" if p.solver.vision else "text", action_matching=cfg.action_matching,
                      reward=asdict(cfg.reward), puzzle_options=_puzzle_options(cfg, puzzle))


def _puzzle_options(cfg: RolloutConfig, puzzle: str) -> dict[str, Any]:
    """The environment options of `puzzle` from ``puzzle_options`` (plain dict, JSON-able)."""
    options = (cfg.puzzle_options or {}).get(puzzle) or {}
    return {str(k): v for k, v in dict(options).items()}


class OutputError(RuntimeError):
    """out_dir cannot be written (a file, read-only, full disk)."""


def prepare_out_dir(p: Plan) -> None:
    """Make out_dir, or fail with one line saying why it cannot hold the run."""
    if p.out_dir.exists() and not p.out_dir.is_dir():
        raise OutputError(f"out_dir {p.out_dir} exists and is not a folder; choose another out_dir")
    try:
        p.out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create out_dir {p.out_dir}: {error.strerror or error}") from None
    if not os.access(p.out_dir, os.W_OK | os.X_OK):
        raise OutputError(f"out_dir {p.out_dir} is not writable; choose another out_dir")
