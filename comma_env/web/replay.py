"""Redraw the images a solver saw, from puzzle, seed and the recorded messages.

An episode record keeps its puzzle, seed, settings and, per turn, the solver's and the
expert's messages as the environment received them, with the actions that were executed
and their outcomes. Stepping a fresh environment through those messages rebuilds every
state the solver looked at (the simulated clock of Button and Dog included), so runs store
no images. The replay checks itself: each turn's executed actions, outcomes and progress
must equal the recorded ones, otherwise the episode is marked (a record from another version
of a puzzle, for instance) and no image after the disagreement is drawn.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import comma_env

@dataclass
class Replayed:
    """Image file names (relative to the image folder) of one episode."""

    turn_images: list[str | None] = field(default_factory=list)  # the image before each turn
    final_image: str | None = None  # the state after the last turn
    audio: str | None = None  # the clip the solver heard (Sound), a WAV file name
    mismatch: str | None = None  # why the replay disagrees with the record, if it does


def image_name(puzzle: str, state: Mapping[str, Any]) -> str:
    """Content-addressed file name: equal states share one file across episodes and runs."""
    digest = hashlib.sha1(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:20]
    return f"{puzzle}-{digest}.png"


def _save(image: Any, path: Path) -> None:
    """Write a PNG atomically (parallel workers may draw the same state)."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".", suffix=".png", delete=False) as handle:
        image.convert("RGB").save(handle, format="PNG", compress_level=1)  # lossless; speed over size
    os.replace(handle.name, path)


def _write_atomic(path: Path, data: bytes) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".", suffix=path.suffix, delete=False) as handle:
        handle.write(data)
    os.replace(handle.name, path)


def replay_episode(record: Mapping[str, Any], image_dir: str | Path) -> Replayed:
    """Replay one record, writing each new state's PNG (and the clip, if any) into `image_dir`."""
    folder = Path(image_dir)
    puzzle_name = str(record.get("puzzle"))
    out = Replayed()
    try:
        env = comma_env.make(puzzle_name, solver_view="text",  # we draw ourselves, once per new state
                             max_turns=int(record.get("max_turns") or 10),
                             max_mistakes=int(record.get("max_mistakes") or 3),
                             action_matching=str(record.get("action_matching") or "exact"),
                             puzzle_options=dict(record.get("puzzle_options") or {}))
        env.reset(seed=int(record.get("seed") or 0))
    except Exception as error:  # unknown puzzle, missing dataset: the report says so
        out.mismatch = f"cannot rebuild the instance: {type(error).__name__}: {error}"
        return out
    raw = env.unwrapped

    def draw() -> str:
        state = raw.puzzle.visible_state()
        name = image_name(puzzle_name, state)
        path = folder / name
        if not path.exists():
            _save(raw.draw(state), path)
        return name

    if raw.puzzle_cls.audio_samples:
        from comma_env.audio.wav import wav_bytes

        sound = raw.observe("solver")
        data = wav_bytes(sound["audio"], int(sound["sample_rate"]))
        out.audio = f"{puzzle_name}-{hashlib.sha1(data).hexdigest()[:20]}.wav"
        if not (folder / out.audio).exists():
            _write_atomic(folder / out.audio, data)
    for turn in record.get("transcript") or []:
        if raw.end_reason is not None:
            out.mismatch = f"turn {turn.get('turn')}: the replayed episode had already ended ({raw.end_reason})"
            return out
        out.turn_images.append(draw())
        try:
            env.step(str(turn.get("solver") or ""))
        except Exception as error:
            out.mismatch = f"turn {turn.get('turn')}: the replay failed: {type(error).__name__}: {error}"
            return out
        again = raw.transcript[-1]
        for key in ("actions", "outcomes", "progress"):
            if key in turn and again[key] != turn[key]:
                out.mismatch = f"turn {turn.get('turn')}: {key} {turn[key]!r} recorded, {again[key]!r} replayed"
                return out
        if raw.end_reason is None and turn.get("expert") is not None:
            env.step(str(turn["expert"]))
    out.final_image = draw()
    if not record.get("error") and record.get("transcript") and bool(record.get("success")) != raw.puzzle.solved:
        out.mismatch = f"recorded success={bool(record.get('success'))}, replayed solved={raw.puzzle.solved}"
    return out


def _replay_chunk(args: tuple[list[Mapping[str, Any]], str]) -> list[Replayed]:
    records, folder = args
    return [replay_episode(r, folder) for r in records]


def replay_all(records: list[Mapping[str, Any]], image_dir: str | Path, workers: int | None = None) -> list[Replayed]:
    """`replay_episode` for every record, in `workers` processes (default: the CPU count)."""
    folder = Path(image_dir)
    folder.mkdir(parents=True, exist_ok=True)
    workers = max(1, workers or os.cpu_count() or 1)
    if workers == 1 or len(records) < 64:
        return _replay_chunk((records, str(folder)))
    from concurrent.futures import ProcessPoolExecutor

    needed = ("puzzle", "seed", "puzzle_options", "transcript", "success", "error", "max_turns", "max_mistakes",
              "action_matching")
    slim = [{k: r.get(k) for k in needed} for r in records]  # less to pickle per worker
    size = max(16, len(slim) // (workers * 8))
    chunks = [(slim[i:i + size], str(folder)) for i in range(0, len(slim), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [r for part in pool.map(_replay_chunk, chunks) for r in part]
