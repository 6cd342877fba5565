"""Run COMMA episodes with a solver and an expert model; write episodes and result tables.

    python -m comma_env.rollout                          # random baseline, 10 puzzles x 100
    python -m comma_env.rollout model=oracle puzzles=[wire,who] episodes=20
    python -m comma_env.rollout solver=qwen2vl expert=gpt4o memory=last out_dir=runs/q
    python -m comma_env.rollout -m hydra/launcher=joblib shard=0,1 num_shards=2 out_dir=runs/r
    python -m comma_env.merge runs/r                    # tables over all shard files

Configuration is typed (`comma_env.run.config`); the YAML tree is ``conf/`` (``comma_env/conf``
in the wheel). Episodes run concurrently in asyncio tasks (``concurrency`` at a time) while
environment steps stay synchronous. Each finished episode is appended to
``out_dir/episodes.jsonl`` (``episodes.shard{i}of{k}.jsonl`` for shards) and flushed, so a
stopped run loses nothing it finished; rerunning the same command resumes, skipping
episodes already recorded (by puzzle and seed, in this shard's file), and recomputes the
tables from the file. Every record carries the settings that change results (see
`base_record`), and a folder holding another setting's episodes is refused. Each record
also keeps ``initial_state``, the redacted state of the first image, for the error judge.
Sharding and cluster launchers: docs/scaling.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import signal
import sys
import time
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import hydra  # noqa: E402
from omegaconf import DictConfig, OmegaConf  # noqa: E402

import comma_env  # noqa: E402
from comma_env.run.checks import check_key, check_model, check_puzzle_options  # noqa: E402
from comma_env.run.config import Memory, ModelConfig, RolloutConfig, register_configs  # noqa: E402
from comma_env.run import settings as run_settings  # noqa: E402
from comma_env.run.provenance import provenance  # noqa: E402
from comma_env.run.redact import UnsafeOverride, config_secrets, mask, masking_logs, scrub, shield_argv  # noqa: E402
from comma_env.registry import GAMES, VERSIONS, env_module  # noqa: E402
from comma_env.protocol.resources import conf_dir  # noqa: E402
from comma_env.run.results import (  # noqa: E402
    EpisodeWriter,
    attach_judgements,
    attach_leak_judgements,
    build_results,
    describe_mismatch,
    error_note,
    latest_per_episode,
    read_episodes,
    render_console,
    seed_ranges,
    settings_mismatch,
    write_results,
    write_text_atomic,
)
from comma_env.run.runlock import LockHeld, RunLock  # noqa: E402

NEUTRAL_MODEL_FIELDS = ("name", "timeout", "max_retries", "api_key_env", "client")
"""ModelConfig fields that never change what a model answers (the name is compared on its own)."""
NEUTRAL_SERVE_FIELDS = ("launch", "startup_timeout", "stall_timeout")
AUDIO_FIELD_DEFAULTS = {"audio": False, "describe_audio": True}
"""ModelConfig fields added with the Sound puzzle: left out of the fingerprint at their
defaults, so runs recorded before they existed still resume."""


class RolloutError(RuntimeError):
    """The run cannot start (for example a model server failed to come up)."""


class RolloutInterrupted(Exception):
    """Raised after a SIGINT/SIGTERM once finished episodes and tables are saved."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


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

    @cached_property
    def model_fingerprints(self) -> tuple[str, str]:
        """(solver, expert) `model_fingerprint`s, hashed once per run rather than per episode."""
        return model_fingerprint(self.solver), model_fingerprint(self.expert)


# -- configuration ---------------------------------------------------------------------------
def to_config(cfg: Any) -> RolloutConfig:
    """A `RolloutConfig` from a Hydra DictConfig, a plain dict, or a RolloutConfig."""
    if isinstance(cfg, RolloutConfig):
        return cfg
    base = OmegaConf.structured(RolloutConfig)
    merged = OmegaConf.merge(base, cfg if isinstance(cfg, DictConfig) else OmegaConf.create(cfg))
    return OmegaConf.to_object(merged)  # type: ignore[return-value]


def default_out_dir(cfg: RolloutConfig, solver: ModelConfig, expert: ModelConfig) -> Path:
    """outputs/<solver>[-<expert>] plus the settings that change results, so that rerunning
    the same command resumes into the same folder."""
    name = solver.name if solver.name == expert.name else f"{solver.name}-{expert.name}"
    memory = cfg.memory.value if isinstance(cfg.memory, Memory) else str(cfg.memory)
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
        parts.append("cfg" + hashlib.sha256("".join(model_fingerprint(m) for m in (solver, expert)).encode()).hexdigest()[:8])
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
            module = env_module(puzzle)
        except ImportError as error:
            raise ValueError(f"puzzle {puzzle!r} is not available in this installation ({error}); "
                             f"pick others with puzzles=[...]") from error
        if puzzle in GAMES:  # a misspelt game option fails here, not in every episode
            try:
                module.raw_env(**_puzzle_options(cfg, puzzle))
            except (TypeError, ValueError) as error:
                raise ValueError(f"bad puzzle_options for {puzzle}: {error}") from None
    checks = {
        "episodes must be >= 0": cfg.episodes >= 0,
        "seed must be >= 0": cfg.seed >= 0,
        "concurrency must be >= 1": cfg.concurrency >= 1,
        "max_turns must be >= 1": cfg.max_turns >= 1,
        "max_mistakes must be >= 1": cfg.max_mistakes >= 1,
        "num_shards must be >= 1": cfg.num_shards >= 1,
        "shard must be in 0 .. num_shards-1": 0 <= cfg.shard < max(cfg.num_shards, 1),
        "action_matching must be exact or lenient": cfg.action_matching in ("exact", "lenient"),
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
        if puzzle not in GAMES:  # games take their options as keyword arguments, checked by their own code
            check_puzzle_options(puzzle, _puzzle_options(cfg, puzzle), cfg.seed)
    out_dir = Path(cfg.out_dir) if cfg.out_dir else default_out_dir(cfg, solver, expert)
    suffix = f".shard{cfg.shard}of{cfg.num_shards}" if cfg.num_shards > 1 else ""
    every = [(p, s) for p in dict.fromkeys(cfg.puzzles) for s in range(cfg.seed, cfg.seed + cfg.episodes)]
    jobs = every[cfg.shard::cfg.num_shards]
    return Plan(cfg, solver, expert, out_dir, out_dir / f"episodes{suffix}.jsonl", suffix, jobs)


def resolved_config(p: Plan) -> dict[str, Any]:
    """The config as run, secrets masked, with provenance (versions, git commit)."""
    data = asdict(p.cfg)
    data["memory"] = p.cfg.memory.value if isinstance(p.cfg.memory, Memory) else p.cfg.memory
    data["solver"] = asdict(p.solver)
    data["expert"] = asdict(p.expert)
    data["out_dir"] = str(p.out_dir)
    # what each puzzle ran with: a game's own rules replace the protocol's max_turns & co
    data["ran_with"] = {puzzle: run_settings.record_settings(base_record(p, puzzle, p.cfg.seed))
                        for puzzle in dict.fromkeys(p.cfg.puzzles)}
    data["provenance"] = provenance()
    return scrub(data)


def secrets_of(p: Plan) -> list[str]:
    """Every secret string the run's model configs carry or point to (masked in outputs)."""
    return config_secrets(asdict(p.solver)) + config_secrets(asdict(p.expert))


def save_config(p: Plan) -> Path:
    path = p.out_dir / f"config{p.suffix}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = mask(OmegaConf.to_yaml(OmegaConf.create(resolved_config(p))), secrets_of(p))
    write_text_atomic(path, text)
    return path


# -- episodes ----------------------------------------------------------------------------------
def _skills(puzzle: str) -> list[str]:
    try:
        return list(env_module(puzzle).raw_env.puzzle_cls.skills)
    except Exception:  # a puzzle module that fails to import is reported by the episode
        return []


def base_record(p: Plan, puzzle: str, seed: int) -> dict[str, Any]:
    cfg = p.cfg
    return {
        "puzzle": puzzle,
        "seed": seed,
        "shard": cfg.shard,
        "num_shards": cfg.num_shards,
        "solver_model": p.solver.name,
        "expert_model": p.expert.name,
        "max_turns": cfg.max_turns,
        "max_mistakes": cfg.max_mistakes,
        "memory": cfg.memory.value if isinstance(cfg.memory, Memory) else str(cfg.memory),
        "puzzle_options": _puzzle_options(cfg, puzzle),
        "action_matching": cfg.action_matching,
        "policy_seed": cfg.policy_seed,
        "solver_view": solver_view(p),
        "solver_config": p.model_fingerprints[0],
        "expert_config": p.model_fingerprints[1],
        "skills": _skills(puzzle),
        "reward": asdict(cfg.reward),
        "audio_input": audio_input(p, puzzle),
    } | (env_module(puzzle).record_settings(_puzzle_options(cfg, puzzle)) if puzzle in GAMES else {})


def audio_input(p: Plan, puzzle: str) -> str | None:
    """How the solver got a puzzle's sound: ``"audio"`` (input_audio parts), ``"description"``
    (the clip in words) or ``"none"``; None for puzzles without sound. A human hears a WAV
    file, the scripted oracle reads the words, the random solver ignores everything."""
    try:
        if not env_module(puzzle).raw_env.puzzle_cls.audio_samples:
            return None
    except Exception:  # a puzzle module that fails to import is reported by the episode
        return None
    solver = p.solver
    if solver.kind == "random":
        return "none"
    if solver.kind in ("human", "oracle"):
        return "audio" if solver.kind == "human" else "description"
    return "audio" if solver.audio else ("description" if solver.describe_audio else "none")


def solver_view(p: Plan) -> str:
    return "image" if p.solver.vision else "text"


def initial_state(env: Any) -> dict[str, Any]:
    """What the solver's first image shows (private facts redacted, drawing-only keys
    dropped): the ground truth the error judge compares the dialogue against."""
    base = env.unwrapped
    cls = base.puzzle_cls
    state = cls.redact(dict(base.visible_state))
    return {k: v for k, v in state.items() if k not in cls.drawing_only_keys}


def _puzzle_options(cfg: RolloutConfig, puzzle: str) -> dict[str, Any]:
    """The environment options of `puzzle` from ``puzzle_options`` (plain dict, JSON-able)."""
    options = (cfg.puzzle_options or {}).get(puzzle) or {}
    return {str(k): v for k, v in dict(options).items()}


ERROR_DEFAULTS: dict[str, Any] = {
    "success": False, "progress": 0.0, "mistakes": 0, "turns_played": 0, "solved_at_turn": None,
    "end_reason": "error", "privacy_leaks": [], "leaked": False, "repetition_loop": False, "repeated_mistakes": 0,
}
"""Summary fields of an episode that failed before the environment could summarise it."""


async def run_one(p: Plan, policies: dict[str, Any], puzzle: str, seed: int,
                  secrets: Sequence[str] = ()) -> dict[str, Any]:
    """Play one episode; always returns a record (errors are recorded, never raised).

    An episode that fails mid-way keeps what was played: its transcript, tokens and turns
    (``turns_played``; ``turns`` is the paper's metric: the turn of success, else the limit).
    Error texts are masked with `secrets`.
    """
    from comma_env.agents.runner import run_episode

    record = base_record(p, puzzle, seed)
    started = time.perf_counter()
    env = None
    if puzzle in GAMES:  # alice/bob testbeds: own options; the solver slot plays the first agent
        return await run_game(p, policies, puzzle, seed, record, started, secrets)
    try:
        env = comma_env.make(
            puzzle,
            max_turns=p.cfg.max_turns,
            max_mistakes=p.cfg.max_mistakes,
            memory=record["memory"],
            solver_view=record["solver_view"],
            action_matching=p.cfg.action_matching,
            puzzle_options=record["puzzle_options"],
            **record["reward"],
        )
        env.reset(seed=seed)
        record["initial_state"] = initial_state(env)
        solver = policies["solver"].player("solver", env, seed)
        expert = policies["expert"].player("expert", env, seed)
        result = await run_episode(env, solver, expert)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # env or player construction failed: still one record
        return error_record(record, exc, started, p.cfg.max_turns, env, secrets)
    return finish_record(record, result, started, secrets)


async def run_game(p: Plan, policies: dict[str, Any], puzzle: str, seed: int, record: dict[str, Any],
                   started: float, secrets: Sequence[str] = ()) -> dict[str, Any]:
    """One episode of a two-agent testbed (AsymPuzl): ``puzzle_options`` configure the env;
    the solver policy plays its first agent (alice), the expert policy the second (bob)."""
    from comma_env.agents.runner import run_episode

    env = None
    try:
        env = comma_env.make(puzzle, **record["puzzle_options"])
        env.reset(seed=seed)
        record["initial_state"] = env.unwrapped.initial_state()
        first, second = env.unwrapped.possible_agents
        players = {first: policies["solver"].player(first, env, seed),
                   second: policies["expert"].player(second, env, seed)}
        result = await run_episode(env, players)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # env or player construction failed: still one record
        return error_record(record, exc, started, record["max_turns"], env, secrets)
    return finish_record(record, result, started, secrets)


def error_record(record: dict[str, Any], exc: BaseException, started: float, turns: int, env: Any = None,
                 secrets: Sequence[str] = ()) -> dict[str, Any]:
    """`record` of an episode that failed outside the players' turns (env or player
    construction): whatever the environment had played is kept; the error text is masked."""
    record.update({**ERROR_DEFAULTS, "turns": turns, **_partial_summary(env)})
    record.update(end_reason="error", tokens=0, prompt_tokens=0, tokens_by_role={},
                  transcript=_partial_transcript(env), error=mask(f"{type(exc).__name__}: {exc}", secrets),
                  seconds=round(time.perf_counter() - started, 4))
    return _ordered(record)


def finish_record(record: dict[str, Any], result: Any, started: float, secrets: Sequence[str] = ()) -> dict[str, Any]:
    """`record` completed with an episode's summary, tokens, transcript and timing."""
    summary = dict(result.summary)
    summary.pop("puzzle", None)
    summary.pop("seed", None)
    record.update(summary)
    if result.error and not record.get("end_reason"):
        record["end_reason"] = "error"
    record.update(
        tokens=result.total_tokens,
        prompt_tokens=sum(t.get("prompt_tokens", 0) for t in result.tokens.values()),
        tokens_by_role=result.tokens,
        error=mask(result.error, secrets) if result.error else None,
        seconds=round(time.perf_counter() - started, 4),
        transcript=result.transcript,
    )
    if result.failed_message is not None:
        record["failed_message"] = result.failed_message
    return _ordered(record)


def _partial_summary(env: Any) -> dict[str, Any]:
    try:
        summary = dict(env.unwrapped.episode_summary()) if env is not None else {}
    except Exception:  # noqa: BLE001 - not even reset: nothing was played
        return {}
    summary.pop("puzzle", None)
    summary.pop("seed", None)
    return summary


def _partial_transcript(env: Any) -> list[dict[str, Any]]:
    try:
        return list(env.unwrapped.transcript) if env is not None else []
    except Exception:  # noqa: BLE001
        return []


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    """``turns_played`` (what happened) just before ``turns`` (the paper's metric)."""
    if "turns_played" not in record or "turns" not in record:
        return record
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "turns":
            out["turns_played"] = record["turns_played"]
        if key != "turns_played":
            out[key] = value
    return out


def load_done(p: Plan) -> tuple[list[dict[str, Any]], set[tuple[str, int]]]:
    """Records already in this shard's file (torn tail repaired) and the keys to skip."""
    records = read_episodes(p.episodes_path)
    latest = latest_per_episode(records)
    expected: dict[str, dict[str, Any]] = {}
    for record in latest.values():
        puzzle = str(record.get("puzzle"))
        if puzzle not in expected:
            expected[puzzle] = base_record(p, puzzle, 0)
        mismatch = settings_mismatch(record, expected[puzzle])
        if mismatch:
            details = describe_mismatch(mismatch)
            raise ValueError(f"{p.episodes_path} holds episodes of another setting ({details}); "
                             "use another out_dir to keep both")
    done = {k for k, r in latest.items() if not (p.cfg.retry_errors and r.get("error"))}
    return list(latest.values()), done


def selected(p: Plan, records: Sequence[dict[str, Any]], deduplicated: bool = False) -> list[dict[str, Any]]:
    """The records this invocation covers (its puzzles and seeds), one per episode
    (`deduplicated`: `records` already holds one per episode, as `load_done` returns)."""
    wanted = set(p.jobs)
    latest = records if deduplicated else list(latest_per_episode(records).values())
    return [r for r in latest if (r["puzzle"], int(r["seed"])) in wanted]


class RunningScore:
    """SR/PSR/errors of the episodes covered so far, kept as running sums so the progress
    bar costs the same at episode 50,000 as at episode 1."""

    def __init__(self, records: Sequence[dict[str, Any]] = ()) -> None:
        self.n = self.errors = self.successes = 0
        self.progress = 0.0
        for record in records:
            self.add(record)

    def add(self, record: dict[str, Any]) -> None:
        if record.get("error"):
            self.errors += 1
            return
        self.n += 1
        self.successes += 1 if record.get("success") else 0
        self.progress += float(record.get("progress") or 0)

    def __str__(self) -> str:
        text = f"SR {100.0 * self.successes / self.n:.1f} PSR {100.0 * self.progress / self.n:.1f}" if self.n else ""
        return f"{text} errors {self.errors}".strip() if self.errors else text


async def _close(policies: dict[str, Any]) -> None:
    for policy in {id(p): p for p in policies.values()}.values():
        closer = getattr(policy, "aclose", None)
        if closer is not None:
            try:
                await closer()
            except Exception as exc:  # closing must not hide the run's outcome
                print(f"comma_env: closing {getattr(policy, 'name', policy)} failed: {exc}", file=sys.stderr)


def launched_servers(policies: dict[str, Any]) -> list[Any]:
    """Model servers the policies started (watched while episodes run)."""
    servers = (getattr(policy, "server", None) for policy in {id(x): x for x in policies.values()}.values())
    return [s for s in servers if s is not None and callable(getattr(s, "watch", None))]


def make_policies(p: Plan) -> dict[str, Any]:
    from comma_env.agents.factory import make_policy

    logs = str(p.out_dir / "logs")
    solver = make_policy(p.solver, seed=p.cfg.policy_seed, log_dir=logs)
    expert = solver if p.expert == p.solver else make_policy(p.expert, seed=p.cfg.policy_seed, log_dir=logs)
    for me, partner in ((solver, expert), (expert, solver)):  # a person at the terminal is told who it plays with
        introduce = getattr(me, "introduce_partner", None)
        if introduce is not None and me is not partner:
            introduce(partner.name)
    return {"solver": solver, "expert": expert}


async def run_async(p: Plan, quiet: bool = False,
                    loaded: tuple[list[dict[str, Any]], set[tuple[str, int]]] | None = None) -> list[dict[str, Any]]:
    """Run this shard's missing episodes; returns every record of the shard's file.
    `loaded` is `load_done(p)` when the caller has already checked the folder."""
    records, done = loaded if loaded is not None else load_done(p)
    todo = [job for job in p.jobs if job not in done]
    covered = [r for r in selected(p, records, deduplicated=loaded is not None) if (r["puzzle"], int(r["seed"])) in done]
    if not todo:
        return records
    secrets = secrets_of(p)
    score = RunningScore(covered)
    bar = None
    policies = make_policies(p)
    interrupted: list[int] = []
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    installed = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, lambda s=signum: (interrupted.append(s), main_task and main_task.cancel()))
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread / Windows
            pass
    queue = list(reversed(todo))
    work: asyncio.Future[Any] | None = None
    watchers: list[asyncio.Future[str]] = []
    try:
        for policy in {id(x): x for x in policies.values()}.values():
            starter = getattr(policy, "start", None)
            if starter is not None:
                try:
                    await starter()
                except Exception as exc:
                    raise RolloutError(mask(f"could not start model {getattr(policy, 'name', '?')}: {exc}", secrets)) from exc
        if p.cfg.progress_bar and not quiet:  # after any server start, whose status lines it would garble
            from tqdm.auto import tqdm

            bar = tqdm(total=len(p.jobs), initial=len(p.jobs) - len(todo), unit="ep", desc="episodes",
                       dynamic_ncols=True, file=sys.stderr)
        with EpisodeWriter(p.episodes_path) as writer:

            async def worker() -> None:
                while queue:
                    puzzle, seed = queue.pop()
                    await asyncio.sleep(0)  # let signals and other episodes in between
                    record = await run_one(p, policies, puzzle, seed, secrets)
                    writer.write(record)
                    records.append(record)
                    score.add(record)
                    if bar is not None:
                        bar.update(1)
                        bar.set_postfix_str(str(score), refresh=False)

            work = asyncio.ensure_future(asyncio.gather(*(worker() for _ in range(min(p.cfg.concurrency, len(todo))))))
            watchers.extend(asyncio.ensure_future(server.watch()) for server in launched_servers(policies))
            done_first, _ = await asyncio.wait([work, *watchers], return_when=asyncio.FIRST_COMPLETED)
            problem = next((w.result() for w in watchers if w in done_first), None)
            if problem is not None and not work.done():
                raise RolloutError(mask(problem, secrets) + "; finished episodes are saved, rerun to resume")
            work.result()  # a worker's exception (e.g. a full disk) ends the run here
    except asyncio.CancelledError:
        if not interrupted:
            raise
    finally:
        for task in [work, *watchers]:
            if task is not None and not task.done():
                task.cancel()
        for task in [work, *watchers]:
            if task is not None:
                with contextlib.suppress(BaseException):
                    await task
        for signum in installed:
            loop.remove_signal_handler(signum)
        if bar is not None:
            bar.close()
        await _close(policies)
    if interrupted:
        raise RolloutInterrupted(interrupted[0])
    return records


def finish(p: Plan, records: Sequence[dict[str, Any]], seconds: float | None = None) -> dict[str, Any]:
    """Recompute and write the tables of everything this shard's file holds (every
    episode of the folder's one setting, not only this invocation's puzzles and seeds, so
    a quick run into a full run's folder never replaces its tables with a smaller one)."""
    latest = list(latest_per_episode(records).values())
    mine = selected(p, latest, deduplicated=True)
    ran = run_settings.per_puzzle(latest) or {q: run_settings.record_settings(base_record(p, q, p.cfg.seed))
                                              for q in dict.fromkeys(p.cfg.puzzles)}
    meta: dict[str, Any] = {
        "solver": p.solver.name, "expert": p.expert.name, **run_settings.summary(ran),
        "seeds": seed_ranges(latest),
        "episodes_in_folder": len(latest),
        "this_run": {"puzzles": list(dict.fromkeys(p.cfg.puzzles)),
                     "seeds": f"{p.cfg.seed}..{p.cfg.seed + p.cfg.episodes - 1}",
                     "episodes_planned": len(p.jobs), "episodes_recorded": len(mine)},
    }
    if p.cfg.num_shards > 1:
        meta["shard"] = f"{p.cfg.shard} of {p.cfg.num_shards}"
    if seconds is not None:
        meta["wall_seconds"] = round(seconds, 2)
    meta["provenance"] = provenance()
    results = build_results(attach_leak_judgements(attach_judgements(latest, p.out_dir), p.out_dir), meta)
    write_results(p.out_dir, results, stem=f"results{p.suffix}")
    if p.cfg.num_shards > 1:
        merge_if_complete(p)
    return results


def merge_if_complete(p: Plan) -> bool:
    """After a shard: once every shard's file covers its episodes, write the merged
    results.json / results.md (whichever shard finishes last does it)."""
    from comma_env.run.merge import merge

    cfg = p.cfg
    covered: set[tuple[str, int]] = set()
    files = [p.out_dir / f"episodes.shard{shard}of{cfg.num_shards}.jsonl" for shard in range(cfg.num_shards)]
    for path in files:
        covered |= set(latest_per_episode(read_episodes(path, repair=False)))
    wanted = {(q, s) for q in cfg.puzzles for s in range(cfg.seed, cfg.seed + cfg.episodes)}
    if not wanted <= covered:
        return False
    merge([p.out_dir], quiet=True, files=files)  # this run's shards only, not a stale episodes.jsonl
    return True


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


def preflight(p: Plan) -> None:
    """One call per model server the run will use, before the first episode."""
    from comma_env.agents.preflight import check_servers

    check_key("solver", p.solver)
    check_key("expert", p.expert)
    asyncio.run(check_servers([("solver", p.solver), ("expert", p.expert)]))


def _resume_note(p: Plan, loaded: tuple[list[dict[str, Any]], set[tuple[str, int]]]) -> str | None:
    records, done = loaded
    already = sum(1 for job in p.jobs if job in done)
    retry = sum(1 for r in selected(p, records, deduplicated=True) if r.get("error") and (r["puzzle"], int(r["seed"])) not in done)
    if not records:
        return None
    parts = [f"resuming {p.episodes_path}: {already} of {len(p.jobs)} episodes already done"]
    if retry:
        parts.append(f"{retry} error episode(s) to retry")
    parts.append(f"{len(p.jobs) - already} to run")
    return ", ".join(parts)


def run(cfg: Any, quiet: bool = False) -> dict[str, Any]:
    """Run (or resume) a rollout from a config; returns results.json's content.

    Everything that can fail before an episode does, in this order: the config (`plan`),
    the folder, its lock (one run per episode file), the episodes already there (another
    setting's are refused), the model servers (one call each). Raises
    `RolloutInterrupted` after SIGINT/SIGTERM, once the tables of the finished episodes are
    written.
    """
    p = plan(to_config(cfg))
    prepare_out_dir(p)
    with RunLock(p.out_dir / f".rollout{p.suffix}.lock") as lock:
        if lock.stale and not quiet:
            print(f"comma_env: taking over the lock of a run that is no longer running "
                  f"(pid {lock.stale.get('pid')} on {lock.stale.get('host')}, started {lock.stale.get('started')})",
                  file=sys.stderr)
        loaded = load_done(p)  # refuses a folder of another setting before anything is written
        note = _resume_note(p, loaded)
        if note and not quiet:
            print(f"comma_env: {note}", file=sys.stderr)
        if any(job not in loaded[1] for job in p.jobs):
            preflight(p)
        save_config(p)
        started = time.perf_counter()
        try:
            with masking_logs(secrets_of(p)):
                records = asyncio.run(run_async(p, quiet=quiet, loaded=loaded))
        except (RolloutInterrupted, RolloutError):
            saved = read_episodes(p.episodes_path)
            if saved:
                finish(p, saved)
            raise
        results = finish(p, records, time.perf_counter() - started)
        if p.cfg.report:
            write_run_report(p, quiet)
    if not quiet:
        print(render_console(results))
        banner = error_note(results)
        if banner:
            print(banner, file=sys.stderr)
        extra = " (merge shards: python -m comma_env.merge {})".format(p.out_dir) if p.cfg.num_shards > 1 else ""
        print(f"episodes: {p.episodes_path}  tables: {p.out_dir / ('results' + p.suffix + '.md')}{extra}")
    return results


def write_run_report(p: Plan, quiet: bool) -> None:
    """``report=true``: the HTML report of this folder (shards: run the report after merging)."""
    if p.cfg.num_shards > 1:
        print(f"comma_env.rollout: report after merging the shards: python -m comma_env.report {p.out_dir}",
              file=sys.stderr)
        return
    from comma_env.web.report import write_report

    write_report([p.out_dir], quiet=quiet)


register_configs()


@hydra.main(config_path=str(conf_dir()), config_name="config", version_base=None)
def _hydra_main(cfg: DictConfig) -> None:
    from comma_env.agents.preflight import PreflightError

    try:
        run(cfg)
    except RolloutInterrupted as stop:
        print(f"\nstopped by signal {stop.signum}; finished episodes are saved. "
              "Rerun the same command to resume.", file=sys.stderr)
        sys.exit(128 + stop.signum)
    except ValueError as error:  # bad configuration (ConfigError is one)
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(2)
    except (RolloutError, PreflightError, LockHeld, OutputError) as error:
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(1)
    except OSError as error:  # writing outputs failed (full disk, read-only, removed folder)
        where = f" ({error.filename})" if error.filename else ""
        print(f"comma_env.rollout: cannot write outputs{where}: {error.strerror or error}", file=sys.stderr)
        sys.exit(1)


def main() -> None:
    """The command line: secret-bearing overrides are moved into environment variables
    before Hydra reads them (see `comma_env.run.redact.shield_argv`), then Hydra runs."""
    try:
        sys.argv[1:] = shield_argv(sys.argv[1:])
    except UnsafeOverride as error:
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(2)
    _hydra_main()
