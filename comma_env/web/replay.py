"""Redraw the images a solver saw from puzzle, seed and the recorded messages; a turn that does not
reproduce its record marks the episode. Data folders come only from the command line."""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import comma_env
from comma_env.drawing.common import png_bytes
from comma_env.run.results import write_atomic

DATA_ROOT_OPTIONS = ("padufes_root",)
"""puzzle_options keys that name a folder to read; only the command line may set them."""


@dataclass
class Replayed:
    """Image file names (relative to the image folder) of one episode."""

    turn_images: list[str | None] = field(default_factory=list)  # the image before each turn
    final_image: str | None = None  # the state after the last turn
    audio: str | None = None  # the clip the solver heard (Sound), a WAV file name
    mismatch: str | None = None  # why the replay disagrees with the record, if it does


@dataclass
class Walk:
    """The states of one replayed episode, undrawn: enough to draw any turn later."""

    puzzle: str
    draw: Callable[[dict[str, Any]], Any] | None = None  # the puzzle's drawing function
    turn_states: list[dict[str, Any]] = field(default_factory=list)  # the state before each turn
    final_state: dict[str, Any] | None = None
    audio: bytes | None = None  # WAV bytes of the clip the solver heard
    mismatch: str | None = None
    summary: dict[str, Any] | None = None  # the environment's episode summary where the replay stopped


def image_name(puzzle: str, state: Mapping[str, Any]) -> str:
    """Content-addressed file name: equal states share one file across episodes and runs."""
    digest = hashlib.sha1(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:20]
    return f"{puzzle}-{digest}.png"


def safe_options(record: Mapping[str, Any], data_roots: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record's puzzle options with every data folder replaced by the command line's
    (or dropped: a PAD-UFES episode then cannot be rebuilt, and says so)."""
    options = record.get("puzzle_options")
    options = dict(options) if isinstance(options, Mapping) else {}
    for key in DATA_ROOT_OPTIONS:
        options.pop(key, None)
        if data_roots and data_roots.get(key):
            options[key] = str(data_roots[key])
    return options


def walk(record: Mapping[str, Any], data_roots: Mapping[str, str] | None = None) -> Walk:
    """Replay one record without drawing; never raises (a failure is the walk's mismatch)."""
    puzzle_name = str(record.get("puzzle"))
    out = Walk(puzzle_name)
    try:
        env = comma_env.make(puzzle_name, solver_view="text",  # drawing happens later, once per new state
                             memory="last",  # the same dynamics, without copying the dialogue each step
                             max_turns=int(record.get("max_turns") or 10),
                             max_mistakes=int(record.get("max_mistakes") or 3),
                             action_matching=str(record.get("action_matching") or "exact"),
                             puzzle_options=safe_options(record, data_roots))
        env.reset(seed=int(record.get("seed") or 0))
        raw = env.unwrapped
        out.draw = raw.draw
    except Exception as error:  # unknown puzzle, missing dataset: the report says so
        out.mismatch = f"cannot rebuild the instance: {type(error).__name__}: {error}"
        return out
    try:
        if raw.puzzle_cls.audio_samples:
            from comma_env.audio.wav import wav_bytes

            sound = raw.observe("solver")
            out.audio = wav_bytes(sound["audio"], int(sound["sample_rate"]))
        _steps(record, env, raw, out)
        out.summary = dict(raw.episode_summary())
    except Exception as error:  # noqa: BLE001 - a record no replay can follow is reported, not raised
        out.mismatch = out.mismatch or f"the replay failed: {type(error).__name__}: {error}"
    return out


def _steps(record: Mapping[str, Any], env: Any, raw: Any, out: Walk) -> None:
    transcript = record.get("transcript") or []
    for index, turn in enumerate(transcript):
        if raw.end_reason is not None:
            out.mismatch = f"turn {turn.get('turn')}: the replayed episode had already ended ({raw.end_reason})"
            return
        out.turn_states.append(copy.deepcopy(raw.puzzle.visible_state()))  # later steps may mutate it
        try:
            env.step(str(turn.get("solver") or ""))
        except Exception as error:
            out.mismatch = f"turn {turn.get('turn')}: the replay failed: {type(error).__name__}: {error}"
            return
        again = raw._turns[-1]  # the last entry only: `raw.transcript` copies them all
        for key in ("actions", "outcomes", "progress"):
            if key in turn and again[key] != turn[key]:
                out.mismatch = f"turn {turn.get('turn')}: {key} {turn[key]!r} recorded, {again[key]!r} replayed"
                return
        if raw.end_reason is None and turn.get("expert") is not None:
            env.step(str(turn["expert"]))
        elif raw.end_reason is None and index + 1 < len(transcript):  # only an episode's last turn may lack it
            out.mismatch = f"turn {turn.get('turn')}: the expert's reply is missing"
            return
    out.final_state = copy.deepcopy(raw.puzzle.visible_state())
    if not record.get("error") and record.get("transcript") and bool(record.get("success")) != raw.puzzle.solved:
        out.mismatch = f"recorded success={bool(record.get('success'))}, replayed solved={raw.puzzle.solved}"


def replay_episode(record: Mapping[str, Any], image_dir: str | Path,
                   data_roots: Mapping[str, str] | None = None) -> Replayed:
    """Replay one record, writing each new state's PNG (and the clip, if any) into `image_dir`."""
    folder = Path(image_dir)
    walked = walk(record, data_roots)
    out = Replayed(mismatch=walked.mismatch)
    draw = walked.draw  # a local, so that the check below holds inside `save`
    if draw is None:
        return out

    def save(state: dict[str, Any]) -> str:
        name = image_name(walked.puzzle, state)
        path = folder / name
        if not path.is_file() or path.is_symlink():
            write_atomic(path, png_bytes(draw(state)))
        return name

    try:
        out.turn_images = [save(s) for s in walked.turn_states]
        out.final_image = save(walked.final_state) if walked.final_state is not None else None
        if walked.audio is not None:
            out.audio = f"{walked.puzzle}-{hashlib.sha1(walked.audio).hexdigest()[:20]}.wav"
            if not (folder / out.audio).is_file() or (folder / out.audio).is_symlink():
                write_atomic(folder / out.audio, walked.audio)
    except Exception as error:  # noqa: BLE001 - a state the drawing rejects: the page says so
        out.mismatch = out.mismatch or f"drawing failed: {type(error).__name__}: {error}"
    return out


REPLAY_KEYS = ("puzzle", "seed", "puzzle_options", "transcript", "success", "error", "max_turns", "max_mistakes",
               "action_matching")
"""What a replay reads of a record."""


def in_processes(chunk: Callable[..., list[Any]], records: Sequence[Mapping[str, Any]], keys: Sequence[str],
                 *args: Any, workers: int | None = None) -> list[Any]:
    """``chunk(records, *args)``, split over `workers` processes (default: the CPU count) from 64
    records on; a worker is sent only the `keys` of each record."""
    workers = max(1, workers or os.cpu_count() or 1)
    if workers == 1 or len(records) < 64:
        return chunk(records, *args)
    from concurrent.futures import ProcessPoolExecutor

    slim = [{k: r[k] for k in keys if k in r} for r in records]
    size = max(16, len(slim) // (workers * 8))
    parts = [slim[i:i + size] for i in range(0, len(slim), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [x for part in pool.map(chunk, parts, *([arg] * len(parts) for arg in args)) for x in part]


def _replay_chunk(records: Sequence[Mapping[str, Any]], folder: str, roots: dict[str, str] | None) -> list[Replayed]:
    return [replay_episode(r, folder, roots) for r in records]


def replay_all(records: Sequence[Mapping[str, Any]], image_dir: str | Path, workers: int | None = None,
               data_roots: Mapping[str, str] | None = None) -> list[Replayed]:
    """`replay_episode` for every record, in `workers` processes (default: the CPU count)."""
    folder = Path(image_dir)
    folder.mkdir(parents=True, exist_ok=True)
    roots = dict(data_roots) if data_roots else None
    return in_processes(_replay_chunk, records, REPLAY_KEYS, str(folder), roots, workers=workers)
