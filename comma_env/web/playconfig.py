"""Typed settings of `python -m comma_env.play` (``key=value`` arguments, as in the rollout)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from comma_env.run.config import Memory, ModelConfig, RolloutConfig

ROLES = ("solver", "expert")


@dataclass
class PlayConfig:
    """What a play server offers. A misspelt key or a wrong type is an error at start."""

    puzzle: str = "wire"
    role: str = "solver"  # the role of the person who opens the first link
    partner: str = "oracle"  # a model config name (conf/model/<name>.yaml), or "human" for two tabs
    partner_config: dict[str, Any] = field(default_factory=dict)  # overrides of the model file, e.g. api_base
    seed: int | None = None  # None: a seed not yet played in out_dir (see seed_order)
    seed_order: str = "random"  # "random" (players cannot guess it) or "sequential" from first_seed
    first_seed: int = 0
    policy_seed: int = 0
    max_turns: int = 10
    max_mistakes: int = 3
    memory: Memory = Memory.full
    action_matching: str = "exact"
    puzzle_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    out_dir: str | None = None  # default: outputs/play_<solver>-<expert>[_<settings>]
    host: str = "127.0.0.1"
    port: int = 8765
    allowed_hosts: list[str] = field(default_factory=lambda: ["127.0.0.1", "localhost", "::1"])  # Host/Origin names
    max_sessions: int = 1000  # unfinished sessions (and waiting participants) at once, in total
    max_creations_per_client: int = 20  # new sessions or lobby joins per client address per window
    creation_window_seconds: float = 600.0
    idle_expire_seconds: float = 1800.0  # an unfinished session nobody moves in ends as abandoned
    leave_after_seconds: float = 90.0  # study: a player whose page stopped polling has left
    max_body_bytes: int = 256 * 1024
    request_timeout_seconds: float = 20.0  # a request (headers and body) arrives whole within this, or is closed
    max_connections_per_client: int = 64  # open connections per client address (trusted proxies: no cap)
    trusted_proxies: list[str] = field(default_factory=list)  # whose X-Forwarded-For is believed (none by default)
    open_browser: bool = False
    # -- collection mode (`python -m comma_env.play collect OUT_DIR ...`) --
    puzzles: list[str] = field(default_factory=list)  # the study's puzzles
    games_per_puzzle: int = 10
    seeds: list[int] | None = None  # the study's seeds (one game per puzzle and seed); None: random, secret
    instructions_file: str | None = None  # Markdown shown before the lobby (default: the built-in text)
    consent_file: str | None = None  # Markdown a participant agrees to (default: the built-in text)
    pair_same_address_after_seconds: float = 30.0  # two waiting from one address are paired only after this


def parse_args(argv: Sequence[str]) -> PlayConfig:
    """``puzzle=wire role=expert partner_config.api_base=...`` into a checked `PlayConfig`."""
    bad = [a for a in argv if "=" not in a]
    if bad:
        raise ValueError(f"arguments are key=value pairs, got {bad}")
    base = OmegaConf.structured(PlayConfig)
    cfg: PlayConfig = OmegaConf.to_object(OmegaConf.merge(base, OmegaConf.from_dotlist(list(argv))))  # type: ignore[assignment]
    from comma_env.registry import VERSIONS

    for puzzle in [cfg.puzzle, *cfg.puzzles]:
        if puzzle not in VERSIONS:
            near = difflib.get_close_matches(puzzle, list(VERSIONS), n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise ValueError(f"no puzzle {puzzle!r}{hint}; choose from {', '.join(VERSIONS)}")
    if cfg.role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, got {cfg.role!r}")
    if not 0 <= cfg.port <= 65535:
        raise ValueError("port must be 0..65535")
    if cfg.seed_order not in ("random", "sequential"):
        raise ValueError(f"seed_order must be random or sequential, got {cfg.seed_order!r}")
    if not cfg.allowed_hosts:
        raise ValueError("allowed_hosts is empty: list the names this server is reached by")
    for key in ("idle_expire_seconds", "leave_after_seconds", "creation_window_seconds", "request_timeout_seconds",
                "max_connections_per_client"):
        if getattr(cfg, key) <= 0:
            raise ValueError(f"{key} must be > 0")
    return cfg


def human_model() -> ModelConfig:
    """A person in the browser: the solver sees the image (solver_view="image")."""
    return ModelConfig(kind="human", name="human", vision=True)


def partner_model(cfg: PlayConfig) -> ModelConfig:
    """The model file ``conf/model/<partner>.yaml`` with `partner_config` applied."""
    from comma_env.rl.partners import model_config

    if cfg.partner == "human":
        return human_model()
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", cfg.partner):
        raise ValueError(f"partner must be a model config name, got {cfg.partner!r}")
    model = model_config(cfg.partner, cfg.partner_config)
    return human_model() if model.kind == "human" else model


def rollout_config(cfg: PlayConfig, puzzle: str, role: str, seed: int) -> RolloutConfig:
    """The rollout settings one play session corresponds to (its records match the rollout's)."""
    partner = partner_model(cfg)
    human = human_model()
    solver, expert = (human, partner) if role == "solver" else (partner, human)
    return RolloutConfig(model=human, solver=solver, expert=expert, puzzles=[puzzle], episodes=1, seed=seed,
                         policy_seed=cfg.policy_seed, max_turns=cfg.max_turns, max_mistakes=cfg.max_mistakes,
                         memory=cfg.memory, concurrency=1, out_dir=cfg.out_dir, progress_bar=False,
                         action_matching=cfg.action_matching, puzzle_options=dict(cfg.puzzle_options))


def default_out_dir(cfg: PlayConfig) -> Path:
    """outputs/play_<solver>-<expert> plus the settings that change results, as the rollout names its folders."""
    from comma_env.run.plan import default_out_dir as rollout_out_dir

    rc = rollout_config(cfg, cfg.puzzle, cfg.role, 0)
    name = re.sub(r"_cfg[0-9a-f]{8}$", "", rollout_out_dir(rc, rc.solver, rc.expert).name)  # type: ignore[arg-type]
    return Path("outputs") / f"play_{name}"
