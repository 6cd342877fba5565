"""Redraw the images a solver saw, from puzzle, seed and the executed actions.

An episode record keeps its puzzle, seed, puzzle options and, per turn, the actions that
were executed with their outcomes. Replaying those actions on a fresh instance rebuilds
every state the solver looked at, so runs store no images. The replay checks itself: each
action's outcome and each turn's progress must equal the recorded ones, otherwise the
episode is marked (a record from another version of a puzzle, for instance) and no image
after the disagreement is drawn.
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


def replay_episode(record: Mapping[str, Any], image_dir: str | Path) -> Replayed:
    """Replay one record, writing each new state's PNG into `image_dir`."""
    folder = Path(image_dir)
    puzzle_name = str(record.get("puzzle"))
    out = Replayed()
    try:
        env = comma_env.make(puzzle_name, puzzle_options=dict(record.get("puzzle_options") or {}))
        env.reset(seed=int(record.get("seed") or 0))
    except Exception as error:  # unknown puzzle, missing dataset: the report says so
        out.mismatch = f"cannot rebuild the instance: {type(error).__name__}: {error}"
        return out
    raw = env.unwrapped
    puzzle = raw.puzzle

    def draw() -> str:
        state = puzzle.visible_state()
        name = image_name(puzzle_name, state)
        path = folder / name
        if not path.exists():
            _save(raw.draw(state), path)
        return name

    best = puzzle.progress
    for turn in record.get("transcript") or []:
        out.turn_images.append(draw())
        for action, recorded in zip(turn.get("actions") or [], turn.get("outcomes") or []):
            if action not in puzzle.valid_actions():
                out.mismatch = f"turn {turn.get('turn')}: {action!r} is not a valid action in the replay"
                return out
            ok = bool(puzzle.apply(action))
            best = max(best, puzzle.progress)
            if ok != bool(recorded):
                out.mismatch = (f"turn {turn.get('turn')}: {action!r} was recorded as "
                                f"{'correct' if recorded else 'a mistake'} but replays as {'correct' if ok else 'a mistake'}")
                return out
        best = max(best, puzzle.progress)
        if "progress" in turn and abs(float(turn["progress"]) - best) > 1e-9:
            out.mismatch = f"turn {turn.get('turn')}: progress {turn['progress']} recorded, {best} replayed"
            return out
    out.final_image = draw()
    if not record.get("error") and record.get("transcript") and bool(record.get("success")) != puzzle.solved:
        out.mismatch = f"recorded success={bool(record.get('success'))}, replayed solved={puzzle.solved}"
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

    needed = ("puzzle", "seed", "puzzle_options", "transcript", "success", "error")
    slim = [{k: r.get(k) for k in needed} for r in records]  # less to pickle per worker
    size = max(16, len(slim) // (workers * 8))
    chunks = [(slim[i:i + size], str(folder)) for i in range(0, len(slim), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [r for part in pool.map(_replay_chunk, chunks) for r in part]
