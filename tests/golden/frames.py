"""Hashes of the solver's pictures, as the golden-frame test and its recorder compute them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import numpy as np

import comma_env

GAME_OPTIONS: dict[str, dict[str, Any]] = {"asympuzl": {"view": "image"}}
"""Options that give a two-agent game a picture (AsymPuzl draws Alice's view)."""


def frame_hash(image: np.ndarray) -> str:
    """The picture's shape, type and pixels, hashed."""
    array = np.ascontiguousarray(image)
    digest = hashlib.sha256(f"{array.shape}{array.dtype}".encode())
    digest.update(array.tobytes())
    return digest.hexdigest()[:24]


def make(puzzle: str, **settings: Any) -> Any:
    """The environment of `puzzle`, drawing pictures for `render`."""
    return comma_env.make(puzzle, render_mode="rgb_array", **GAME_OPTIONS.get(puzzle, {}), **settings)


def first_hashes(puzzle: str, seeds: Iterable[int]) -> list[str]:
    """The first picture of each seed's instance."""
    env = make(puzzle)
    hashes = []
    for seed in seeds:
        env.reset(seed=seed)
        hashes.append(frame_hash(env.render()))
    return hashes


def episode_hashes(episode: dict[str, Any]) -> list[str]:
    """Every picture of a recorded episode: after the reset, then after each message the
    environment accepted (the solver's, then the expert's, which moves a clock)."""
    if episode["puzzle"] in GAME_OPTIONS:  # a game takes its options as keyword arguments
        env = make(episode["puzzle"], max_turns=episode["max_turns"],
                   **{k: v for k, v in episode["puzzle_options"].items() if k not in GAME_OPTIONS[episode["puzzle"]]})
    else:
        env = make(episode["puzzle"], max_turns=episode["max_turns"], max_mistakes=episode["max_mistakes"],
                   puzzle_options=episode["puzzle_options"])
    env.reset(seed=episode["seed"])
    hashes = [frame_hash(env.render())]
    for solver, expert in episode["turns"]:
        for message in (solver, expert):
            if message is None or not env.agents or env.terminations[env.agent_selection] \
                    or env.truncations[env.agent_selection]:
                break
            env.step(message)
            hashes.append(frame_hash(env.render()))
    return hashes
