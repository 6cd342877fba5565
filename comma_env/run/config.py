"""Typed configuration of `python -m comma_env.rollout`: the schema of ``conf/``, registered with
Hydra so that a misspelt key or mistyped value fails before anything runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, field, fields
from enum import Enum
from typing import Any

from comma_env.registry import COMMA_PUZZLES


class Memory(str, Enum):
    """What each agent remembers of the dialogue (paper Table 2)."""

    full = "full"
    last = "last"


def memory_name(cfg: Any) -> str:
    """``"full"`` or ``"last"`` (a config built in Python may hold the enum or its value)."""
    return cfg.memory.value if isinstance(cfg.memory, Memory) else str(cfg.memory)


def _f(default: Any = None, help: str = "", factory: Any = None) -> Any:
    """A dataclass field with its ``--help`` text (`field_help` prints them)."""
    if factory is not None:
        return field(default_factory=factory, metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class ServeConfig:
    """A local OpenAI-compatible server a model needs (started by the LLM policy)."""

    launch: bool = _f(False, "start the server before the first episode and stop it at the end")
    backend: str = _f("vllm", "vllm (GPU) or llama_cpp (CPU)")
    hf_model: str | None = _f(None, "what to serve: a Hugging Face id (vllm), a GGUF path or pkg:<package> (llama_cpp)")
    port: int = _f(8000, "port to serve on; 0 picks a free one")
    args: list[str] = _f(help="extra command-line flags for the server", factory=list)
    startup_timeout: float = _f(900.0, "seconds to wait for the server to answer before giving up")
    stall_timeout: float = _f(120.0, "a launched server that answers nothing for this long stops the run (stalled)")


@dataclass
class ModelConfig:
    """One way of playing a role; see docs of the agreed schema in conf/model/*.yaml."""

    kind: str = _f("random", "random, oracle, realistic, litellm, human or asympuzl (agents.factory.KINDS)")
    name: str = _f("random", "display name written to outputs (and the served model name for openai_compat)")
    model: str | None = _f(None, "LiteLLM model string, e.g. openai/gpt-4o-2024-05-13 or hosted_vllm/<id>")
    api_base: str | None = _f(None, "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 "
                                    "(credentials in it are masked in outputs)")
    api_key_env: str | None = _f(None, "NAME of the environment variable holding the API key, never the key")
    temperature: float = _f(0.0, "sampling temperature (finite, >= 0; 0 is greedy)")
    max_tokens: int = _f(512, "most tokens generated per message")
    stop: list[str] = _f(help="stop sequences", factory=list)
    vision: bool = _f(True, "false: the solver gets a written description instead of the image (solver_view=text)")
    audio: bool = _f(False, "true: clips (Sound) go to the model as input_audio parts (WAV)")
    describe_audio: bool = _f(True, "without audio: describe the clip in words instead (false: nothing)")
    timeout: float = _f(120.0, "seconds per model call attempt, a total deadline (> 0)")
    max_retries: int = _f(5, "retries of a failed call (timeouts, 429, 5xx, malformed answers)")
    client: str = _f("auto", "auto | aiohttp (one JSON POST per call) | litellm; see comma_env/agents/llm.py")
    logprobs: bool = _f(False, "ask the server for each generated token's log-probability and record them "
                               "(transcript <role>_logprobs; the rl export aligns them to token ids)")
    top_logprobs: int = _f(0, "with logprobs: also record this many most likely alternatives per token (0..20)")
    server_ids: bool = _f(False, "ask the server for the prompt's and the reply's token ids (vLLM's return_token_ids) "
                                 "and record them (transcript <role>_token_ids; the rl export uses them verbatim)")
    extra: dict[str, Any] = _f(help="other request arguments (+model.extra.<key>=...); credentials are refused here",
                               factory=dict)
    serve: ServeConfig = _f(help="a local server to launch (serve.launch=true)", factory=ServeConfig)


@dataclass
class RewardConfig:
    """Optional reward terms (formulas: `comma_env.protocol.rewards`); 0 keeps return = partial score.
    They change each episode's recorded ``return``, never what the policies see or do."""

    success_bonus: float = _f(0.0, "added to the reward of the step that solves the puzzle")
    mistake_penalty: float = _f(0.0, "subtracted per mistake")
    leak_penalty: float = _f(0.0, "subtracted per newly leaked private field")
    leak_unsure_penalty: float = _f(0.0, "subtracted per private field the leak detector is unsure about")
    token_cost: float = _f(0.0, "subtracted per 1,000 tokens of every message (comma_env.protocol.text.count_tokens)")


@dataclass
class RolloutConfig:
    """Top-level config: which models play which puzzles, for how many instances."""

    model: ModelConfig = _f(help="the model of both roles (model=<file in conf/model>)", factory=ModelConfig)
    solver: ModelConfig | None = _f(None, "the solver's model (solver=<name>); unset: follows model")
    expert: ModelConfig | None = _f(None, "the expert's model (expert=<name>); unset: follows model")
    puzzles: list[str] = _f(help="puzzles to run, e.g. [wire,who]", factory=lambda: list(COMMA_PUZZLES))
    episodes: int = _f(100, "episodes per puzzle")
    seed: int = _f(0, "first instance seed: seeds seed .. seed+episodes-1 (the paper's 100 instances: 0..99)")
    policy_seed: int = _f(0, "seeds the policies' randomness (random baseline, LLM sampling), not the instances")
    max_turns: int = _f(10, "conversation turns before an episode is cut off")
    max_mistakes: int = _f(3, "mistakes that end an episode as failed")
    memory: Memory = _f(Memory.full, "full | last (Table 2: each agent sees only the latest message)")
    concurrency: int = _f(32, "episodes in flight at once")
    out_dir: str | None = _f(None, "output folder; default outputs/<solver>[-<expert>][_<settings>]; rerun to resume")
    shard: int = _f(0, "this process runs shard `shard` of `num_shards` (episode j goes to shard j mod num_shards)")
    num_shards: int = _f(1, "how many shards the run is split into")
    retry_errors: bool = _f(True, "on resume, replay episodes whose last record is an error")
    progress_bar: bool = _f(True, "tqdm bar with running SR/PSR")
    action_matching: str = _f("exact", "exact (paper) | lenient (also accepts markdown around action names)")
    report: bool = _f(False, "also write out_dir/report/report.html (comma_env.web.report; needs the web extra)")
    logger: str = _f("none", "none | trackio | wandb: log the metrics and results table there (the track extra)")
    logger_project: str = _f("comma_env", "the trackio or W&B project the run is logged to")
    puzzle_options: dict[str, dict[str, Any]] = _f(
        help="per-puzzle environment options, e.g. +puzzle_options.telehealth.lesion_source=padufes", factory=dict)
    reward: RewardConfig = _f(help="optional reward terms recorded as each episode's return, e.g. "
                                   "reward.success_bonus=1", factory=RewardConfig)
    leak_judge: Any = _f(None, "a conf/model name (or a model block): the LLM leak judge reads, during the run, "
                               "the ATM/Telehealth episodes with a field the leak detector is unsure about")
    leak_judge_all: bool = _f(False, "with leak_judge: judge every episode with private facts, not only the unsure")


FREE_FORM = ("puzzle_options", "extra")
"""Fields whose keys are the user's to choose (environment options, request arguments)."""

NESTED: dict[str, type] = {"ModelConfig": ModelConfig, "ServeConfig": ServeConfig, "RewardConfig": RewardConfig}
"""The type name of a nested config -> its dataclass."""


def _nested_schema(item: Field[Any]) -> type | None:
    """The nested config dataclass of a field annotated ``X`` or ``X | None`` (annotations are strings)."""
    return NESTED.get(str(item.type).removesuffix(" | None"))


def schema_field(path: Sequence[str], schema: type | None = None) -> Any:
    """The dataclass field at dotted `path` (None: the schema has no such key; the string
    ``"free"`` for a key inside a free-form mapping)."""
    schema = schema or RolloutConfig
    for depth, name in enumerate(path):
        match = {f.name: f for f in fields(schema)}.get(name)
        if match is None:
            return None
        if name in FREE_FORM:
            return "free"
        if depth == len(path) - 1:
            return match
        schema = _nested_schema(match)
        if schema is None:
            return None
    return None


def unknown_keys(data: Mapping[Any, Any], schema: type | None = None, prefix: str = "") -> list[str]:
    """Dotted keys of `data` that `schema` does not define (keys compared as strings: OmegaConf
    may hold int or enum keys)."""
    schema = schema or RolloutConfig
    known = {f.name: f for f in fields(schema)}
    out = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        match = known.get(str(key))
        if match is None:
            out.append(name)
            continue
        nested = _nested_schema(match)
        if nested is not None and isinstance(value, Mapping) and key not in FREE_FORM:
            out += unknown_keys(value, nested, name + ".")
    return out


def unknown_key(name: str) -> str:
    """The error for a dotted key the schema does not define, with the nearest key it does define."""
    import difflib

    parts = name.split(".")
    schema: type | None = RolloutConfig
    for part in parts[:-1]:
        match = {f.name: f for f in fields(schema)}.get(part) if schema else None
        schema = _nested_schema(match) if match else None
    found = difflib.get_close_matches(parts[-1], [f.name for f in fields(schema)], n=1) if schema else []
    near = ".".join([*parts[:-1], found[0]]) if found else None
    hint = f" (did you mean {near}?)" if near and near != name else ""
    return (f"unknown key {name!r}{hint}; keys of your own go under puzzle_options.<puzzle>. or "
            "model.extra. (solver.extra., expert.extra.)")


def field_help(schema: type = RolloutConfig, prefix: str = "") -> list[tuple[str, str, str]]:
    """(dotted name, default, help) of every field of `schema`, nested configs expanded."""
    rows: list[tuple[str, str, str]] = []
    for item in fields(schema):
        name = prefix + item.name
        nested = NESTED.get(str(item.type))  # `X | None` (solver, expert: unset follows model) stays one line
        if nested is not None:
            rows.append((name, "", item.metadata.get("help", "")))
            rows.extend(field_help(nested, name + "."))
            continue
        if item.default is not MISSING:
            default = item.default.value if isinstance(item.default, Enum) else item.default
        else:  # `_f` gives every field a default or a factory
            made = item.default_factory()  # type: ignore[operator]
            default = "[...]" if isinstance(made, list) and len(made) > 3 else made
        rows.append((name, "null" if default is None else str(default), item.metadata.get("help", "")))
    return rows


def render_field_help(columns: int = 100) -> str:
    """The field list shown by ``python -m comma_env.rollout --help``, wrapped to `columns`."""
    import textwrap

    rows = field_help()
    width = max(len(name) for name, _, _ in rows)
    lines = []
    for name, default, text in rows:
        shown = f" (default {default})" if default != "" else ""
        lines += textwrap.wrap(f"{text}{shown}", columns, initial_indent=f"  {name.ljust(width)}  ",
                               subsequent_indent=" " * (width + 4), break_on_hyphens=False)
    return "\n".join(lines)


def register_configs() -> None:
    """Make the schema known to Hydra (idempotent)."""
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    cs.store(name="rollout_schema", node=RolloutConfig)  # model/solver/expert are typed through it
