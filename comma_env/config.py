"""Typed configuration of `python -m comma_env.rollout`.

The dataclasses below are the schema of the YAML tree in ``conf/``. They are registered
with Hydra's ConfigStore and used as the base of ``conf/config.yaml``, so a misspelt key
(``episdes=5``) or a mistyped value (``episodes=many``, ``memory=some``) is rejected with
Hydra's error before anything runs.

Model files (``conf/model/<name>.yaml``) fill a `ModelConfig`. The same files are
selectable per role: ``solver=<name>`` / ``expert=<name>`` (the ``solver/`` and ``expert/``
groups only re-export ``model/``); when a role is not given it follows ``model=``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional

from hydra.core.config_store import ConfigStore

from comma_env.registry import COMMA_PUZZLES


class Memory(str, Enum):
    """What each agent remembers of the dialogue (paper Table 2)."""

    full = "full"
    last = "last"


@dataclass
class ServeConfig:
    """A local OpenAI-compatible server a model needs (started by the LLM policy)."""

    launch: bool = False
    backend: str = "vllm"  # "vllm" | "llama_cpp"
    hf_model: Optional[str] = None
    port: int = 8000
    args: List[str] = field(default_factory=list)
    startup_timeout: float = 900.0


@dataclass
class ModelConfig:
    """One way of playing a role; see docs of the agreed schema in conf/model/*.yaml."""

    kind: str = "random"  # one of agents.factory.KINDS
    name: str = "random"  # display name written to outputs
    model: Optional[str] = None  # LiteLLM model string
    api_base: Optional[str] = None
    api_key_env: Optional[str] = None  # NAME of the env variable holding the key, never the key
    temperature: float = 0.0
    max_tokens: int = 512
    stop: List[str] = field(default_factory=list)
    vision: bool = True  # False: the env writes a description instead of the image
    audio: bool = False  # True: clips (Sound) go to the model as input_audio parts (WAV)
    describe_audio: bool = True  # without audio: describe the clip in words instead (False: nothing)
    timeout: float = 120.0
    max_retries: int = 5
    client: str = "auto"  # auto | aiohttp (one JSON POST per call) | litellm; see agents/llm.py
    extra: Dict[str, Any] = field(default_factory=dict)
    serve: ServeConfig = field(default_factory=ServeConfig)


@dataclass
class RewardConfig:
    """Optional reward terms (formulas: `comma_env.rewards`); 0 keeps return = partial score.
    They change each episode's recorded ``return``, never what the policies see or do."""

    success_bonus: float = 0.0
    mistake_penalty: float = 0.0
    leak_penalty: float = 0.0
    token_cost: float = 0.0  # per 1,000 tokens of every message (rule-based count, comma_env.text.count_tokens)


@dataclass
class RolloutConfig:
    """Top-level config: which models play which puzzles, for how many instances."""

    model: ModelConfig = field(default_factory=ModelConfig)
    solver: Optional[ModelConfig] = None  # None: follow `model`
    expert: Optional[ModelConfig] = None
    puzzles: List[str] = field(default_factory=lambda: list(COMMA_PUZZLES))
    episodes: int = 100
    seed: int = 0  # instance seeds seed .. seed+episodes-1
    policy_seed: int = 0  # seeds policy randomness (random solver, sampling), not the instances
    max_turns: int = 10
    max_mistakes: int = 3
    memory: Memory = Memory.full
    concurrency: int = 32
    out_dir: Optional[str] = None  # default: outputs/<solver>[-<expert>][_<non-default settings>]
    shard: int = 0
    num_shards: int = 1
    retry_errors: bool = True  # on resume, replay episodes whose last record is an error
    progress_bar: bool = True
    action_matching: str = "exact"  # "exact" (paper) | "lenient"
    report: bool = False  # also write out_dir/report/report.html (comma_env.web.report; needs the web extra)
    # per-puzzle environment options, e.g. {telehealth: {lesion_source: padufes, padufes_root: /data/pad-ufes-20}}
    puzzle_options: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    reward: RewardConfig = field(default_factory=RewardConfig)  # e.g. reward.success_bonus=1


def register_configs() -> None:
    """Make the schema known to Hydra (idempotent)."""
    cs = ConfigStore.instance()
    cs.store(name="rollout_schema", node=RolloutConfig)  # model/solver/expert are typed through it
