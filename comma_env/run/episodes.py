"""One episode of a rollout as a record: its settings (`base_record`), playing it (`run_one`)
through its game (`comma_env.protocol.game`), a failed one's record, and resuming (`load_done`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import comma_env
from comma_env.registry import env_module, game
from comma_env.run.config import memory_name
from comma_env.run.plan import Plan, _puzzle_options, model_fingerprint, run_options
from comma_env.run.redact import mask
from comma_env.run.results import describe_mismatch, latest_per_episode, read_episodes, settings_mismatch


def _puzzle_cls(puzzle: str) -> Any:
    """The puzzle's class, or None when its module fails to import (the episode reports why)."""
    try:
        return env_module(puzzle).raw_env.puzzle_cls
    except Exception:  # noqa: BLE001
        return None


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
        "memory": memory_name(cfg),
        "puzzle_options": _puzzle_options(cfg, puzzle),
        "action_matching": cfg.action_matching,
        "policy_seed": cfg.policy_seed,
        "solver_view": "image" if p.solver.vision else "text",
        "solver_config": model_fingerprint(p.solver),
        "expert_config": model_fingerprint(p.expert),
        "skills": list(getattr(_puzzle_cls(puzzle), "skills", [])),
        "reward": asdict(cfg.reward),
        "audio_input": audio_input(p, puzzle),
    } | _game_settings(p, puzzle)


def _game_settings(p: Plan, puzzle: str) -> dict[str, Any]:
    """The settings the puzzle's game records; none when it cannot be loaded (its episodes say why)."""
    try:
        return game(puzzle).record_settings(run_options(p, puzzle))
    except Exception:  # noqa: BLE001 - a game that fails to load or build is reported by the episode
        return {}


def audio_input(p: Plan, puzzle: str) -> str | None:
    """How the solver got a puzzle's sound: ``"audio"``, ``"description"`` (in words) or ``"none"``;
    None for puzzles without sound."""
    if not getattr(_puzzle_cls(puzzle), "audio_samples", None):
        return None
    solver = p.solver
    scripted = {"random": "none", "human": "audio", "oracle": "description"}.get(solver.kind)
    return scripted or ("audio" if solver.audio else ("description" if solver.describe_audio else "none"))


ERROR_DEFAULTS: dict[str, Any] = {
    "success": False, "progress": 0.0, "mistakes": 0, "turns_played": 0, "solved_at_turn": None,
    "end_reason": "error", "privacy_leaks": [], "privacy_unsure": [], "leaked": False, "repetition_loop": False,
    "repeated_mistakes": 0,
}
"""Summary fields of an episode that failed before the environment could summarise it."""


async def run_one(p: Plan, policies: dict[str, Any], puzzle: str, seed: int,
                  secrets: Sequence[str] = ()) -> dict[str, Any]:
    """Play one episode; always returns a record (errors are recorded with `secrets` masked, never
    raised), and a failed episode keeps what was played."""
    from comma_env.agents.runner import run_episode

    record = base_record(p, puzzle, seed)
    started = time.perf_counter()
    env = None
    try:
        played = game(puzzle)
        env = comma_env.make(puzzle, **played.env_options(run_options(p, puzzle)))
        env.reset(seed=seed)
        record["initial_state"] = env.unwrapped.initial_state()
        players = {agent: policies[slot].player(agent, env, seed) for slot, agent in played.slots.items()}
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
    record.update({k: v for k, v in result.summary.items() if k not in ("puzzle", "seed")})
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
        summary = env.unwrapped.episode_summary() if env is not None else {}
    except Exception:  # noqa: BLE001 - not even reset: nothing was played
        return {}
    return {k: v for k, v in summary.items() if k not in ("puzzle", "seed")}


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
