"""Environment speed: turns/s with the random policy and ms per rendered image, per puzzle,
next to PettingZoo's connect_four_v3 measured in the same run.

A "turn" here is one AEC step of either agent (what an RL loop pays for), and every step
reads the observation with `env.last()`, so image observations are included. Run:

    python examples/benchmark_envs.py [--seconds 2] [--puzzles wire who ...]
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np

import comma_env
from comma_env.drawing.common import observation_array
from comma_env.registry import COMMA_PUZZLES, env_module


def _steps_per_second(make: Callable[[], Any], choose: Callable[[Any, str, dict, np.random.Generator], Any], seconds: float) -> tuple[float, int]:
    """AEC steps per second (observation read at every step) over about `seconds`."""
    env = make()
    rng = np.random.default_rng(0)
    steps, episodes, seed = 0, 0, 0
    env.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else choose(observation, agent, info, rng))
            steps += 1
        episodes += 1
        seed += 1
        if time.perf_counter() > deadline:
            break
        env.reset(seed=seed)
    return steps / (time.perf_counter() - start), episodes


def _random_comma_action(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> str:
    actions = info.get("valid_actions")
    return str(actions[rng.integers(len(actions))]) if agent == "solver" and actions else ""


def _random_connect_four_action(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def _ms_per_image(puzzle: str, count: int = 30) -> tuple[float, float]:
    """Mean ms to draw one image (as the numpy observation) from a visible state of a new
    instance, and to encode it as PNG (what a chat policy sends)."""
    raw = env_module(puzzle).raw_env()
    states = []
    raw.reset(seed=count)
    raw.draw(raw.puzzle.visible_state())  # warm the font and template caches
    for seed in range(count):
        raw.reset(seed=seed)
        states.append(raw.puzzle.visible_state())
    start = time.perf_counter()
    images = [raw.draw(state) for state in states]
    for image in images:
        observation_array(image)
    draw_ms = 1000 * (time.perf_counter() - start) / count
    import io

    start = time.perf_counter()
    for image in images:
        image.save(io.BytesIO(), format="PNG", compress_level=1)
    png_ms = 1000 * (time.perf_counter() - start) / count
    return draw_ms, png_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time per environment")
    parser.add_argument("--puzzles", nargs="*", default=list(COMMA_PUZZLES))
    args = parser.parse_args()

    from pettingzoo.classic import connect_four_v3

    reference, _ = _steps_per_second(connect_four_v3.env, _random_connect_four_action, args.seconds)
    print("turns/s: AEC steps per second, random solver, observation read every step;")
    print("'image' is the default solver view, 'text' is solver_view='text' (no image is drawn).")
    print(f"{'environment':<18}{'image t/s':>10}{'vs c4':>7}{'text t/s':>10}{'vs c4':>7}{'draw ms':>9}{'png ms':>8}")
    print(f"{'connect_four_v3':<18}{reference:>10.0f}{1.0:>7.2f}")
    for puzzle in args.puzzles:
        rate, _ = _steps_per_second(lambda: comma_env.make(puzzle), _random_comma_action, args.seconds)
        text_rate, _ = _steps_per_second(lambda: comma_env.make(puzzle, solver_view="text"), _random_comma_action, args.seconds)
        draw_ms, png_ms = _ms_per_image(puzzle)
        print(f"{puzzle + '_v0':<18}{rate:>10.0f}{rate / reference:>7.2f}{text_rate:>10.0f}{text_rate / reference:>7.2f}"
              f"{draw_ms:>9.2f}{png_ms:>8.2f}")


if __name__ == "__main__":
    main()
