"""AsymPuzl speed: AEC steps per second (observation read every step) in the text and image
views at several N, next to PettingZoo's connect_four_v3 and COMMA's Wire (text view)
measured in the same run, interleaved over rounds (this machine's speed drifts).

    pip install ".[bench]" && python examples/benchmark_asympuzl.py [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
from benchmark_envs import _burst, _random_comma_action, _random_connect_four_action, _stepper

import comma_env
from comma_env.asympuzl import COLOURS, SHAPES

_COLOURS = list(COLOURS)


def _steps_per_second(make: Callable[[], Any], choose: Callable[[Any, str, dict, np.random.Generator], Any],
                      seconds: float) -> float:
    """AEC steps per second of a new environment's random play (seeds 0, 1, ...) over about
    `seconds`; making it and its first reset are not timed."""
    steps = _stepper(make, choose)
    next(steps)  # makes the environment, resets it and plays the first step
    return _burst(steps, seconds)


def _random_update(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> str:
    """A short message plus one random update (sometimes malformed: position 0..N+1)."""
    position = int(rng.integers(0, info["n"] + 2))
    return f"hello\nset {position} {SHAPES[rng.integers(len(SHAPES))]} {_COLOURS[rng.integers(len(_COLOURS))]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    cases = {
        "connect_four_v3": (connect_four_v3.env, _random_connect_four_action),
        "wire_v0 (text)": (lambda: comma_env.make("wire", solver_view="text"), _random_comma_action),
    }
    for n in (5, 20):
        for view in ("text", "image"):
            cases[f"asympuzl N={n} ({view})"] = (lambda n=n, view=view: comma_env.make("asympuzl", n=n, view=view),
                                                 _random_update)
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, (make, choose) in cases.items():
            rates[name].append(_steps_per_second(make, choose, args.seconds))
    reference = statistics.median(rates["connect_four_v3"])
    wire = statistics.median(rates["wire_v0 (text)"])
    print(f"{'environment':<24}{'steps/s':>10}{'vs c4':>8}{'vs wire':>9}")
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"{name:<24}{rate:>10.0f}{rate / reference:>8.2f}{rate / wire:>9.2f}")


if __name__ == "__main__":
    main()
