"""What each agent of `comma_env.protocol.core.CommaEnv` is shown: its spaces, the picture and
clip as observations, the dialogue it remembers, and the solver's message as the expert reads it."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from PIL import Image

from comma_env.protocol.contracts import DialogueEntry
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spaces import UnicodeText
from comma_env.protocol.text import candidate_lines


def solver_space(puzzle_cls: type[Puzzle], solver_view: str) -> spaces.Dict:
    """The solver's observation space: its prompt text, the picture (image view) and the clip."""
    solver: dict[str, spaces.Space[Any]] = {"text": UnicodeText()}
    if solver_view == "image":
        width, height = puzzle_cls.image_size
        solver["image"] = spaces.Box(0, 255, (height, width, 3), np.uint8)
    if puzzle_cls.audio_samples:  # the clip the solver hears, in either view
        solver["audio"] = spaces.Box(-1.0, 1.0, (puzzle_cls.audio_samples,), np.float32)
        rate = puzzle_cls.sample_rate
        solver["sample_rate"] = spaces.Box(rate, rate, (), np.int32)
    return spaces.Dict(solver)


def picture_array(picture: Image.Image | np.ndarray) -> np.ndarray:
    """A drawing's result as a read-only, contiguous RGB uint8 array."""
    if isinstance(picture, Image.Image):
        picture = np.asarray(picture if picture.mode == "RGB" else picture.convert("RGB"))
    array = np.ascontiguousarray(picture, dtype=np.uint8)
    array.flags.writeable = False
    return array


def audio_observation(clip: Any, samples: int, rate: int) -> dict[str, np.ndarray]:
    """The solver's clip, cut or padded to `samples`, clipped to [-1, 1] and read-only, with its rate."""
    clip = np.clip(np.asarray(clip, dtype=np.float32).reshape(-1)[:samples], -1.0, 1.0)
    if clip.size < samples:
        clip = np.pad(clip, (0, samples - clip.size))
    clip.flags.writeable = False
    return {"audio": clip, "sample_rate": np.asarray(rate, dtype=np.int32)}


def dialogue_window(dialogue: list[DialogueEntry], viewer: str, memory: str) -> list[DialogueEntry]:
    """The part of the dialogue `viewer` remembers: all of it, or (``"last"``) what arrived since it last spoke."""
    start = 0
    if memory != "full":
        start = len(dialogue)
        while start > 0 and dialogue[start - 1]["speaker"] != viewer:
            start -= 1
    return [entry.copy() for entry in dialogue[start:]]


def as_action(line: str, lenient: bool) -> str:
    """One line of a message as the action name it would match ("" for a blank line)."""
    return next(iter(candidate_lines(line, lenient)), "")


def expert_view(puzzle: Puzzle, message: str, executed: list[str], lenient: bool) -> str:
    """The solver's message as relayed to the expert: executed action lines, and any other line
    the puzzle masks, pass through `Puzzle.expert_view_of_action` (ATM hides PIN digits)."""
    pending = list(executed)
    lines = []
    changed = False
    for line in message.splitlines():
        stripped = as_action(line, lenient)
        if pending and stripped == pending[0]:
            pending.pop(0)
            lines.append(puzzle.expert_view_of_action(stripped))
            changed = True
            continue
        masked = puzzle.expert_view_of_action(stripped) if stripped else stripped
        changed = changed or masked != stripped
        lines.append(masked if masked != stripped else line)
    return "\n".join(lines) if changed else message
