"""Environment speed: turns/s with the random policy, per puzzle and view, as a ratio over
PettingZoo's connect_four_v3 measured in the same run, interleaved.

This machine's speed drifts (connect_four alone ranged 1,568 to 5,206 turns/s across runs),
so a reference measured once is worthless. The reference and the subject run alternately in
short bursts (`--burst` seconds each); each subject burst is divided by the mean of the
reference bursts on either side, and the median over `--rounds` rounds is reported.

A "turn" is one AEC step of either agent (what an RL loop pays for), and every step reads
the observation with `env.last()`, so image observations are included. Also reported: the
cost of a new environment (make + reset + first image), of copying one observation and of
`np.stack` of 8, and of drawing a picture from scratch. Run (pygame comes with the extra):

    pip install -e ".[bench]"
    python examples/benchmark_envs.py [--rounds 7] [--burst 0.25] [--puzzles wire who ...]

With ``--markdown`` the table is written to ``docs/_generated/speed.md`` (included by the
performance page) under a line naming the machine and the versions.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import comma_env
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES, env_module


def _stepper(make: Callable[[], Any], choose: Callable[[Any, str, dict, np.random.Generator], Any]) -> Iterator[None]:
    """Endless random play of new episodes; yields after every AEC step."""
    env = make()
    rng = np.random.default_rng(0)
    seed = 0
    while True:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else choose(observation, agent, info, rng))
            yield
        seed += 1


def _burst(steps: Iterator[None], seconds: float) -> float:
    """Steps per second of `steps` over about `seconds`."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(16):
            next(steps)
        count += 16
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def interleaved(reference: Iterator[None], subject: Iterator[None], rounds: int,
                seconds: float) -> tuple[float, float, float]:
    """(median subject rate, median reference rate, median ratio) over `rounds` rounds of
    reference, subject, reference bursts (consecutive rounds share a reference burst)."""
    # warm up: imports, fonts, and the puzzles' own caches (Password's word table, Maze's
    # layouts) fill during the first episodes; an RL run amortises them, so must the benchmark
    _burst(reference, seconds), _burst(subject, max(1.0, 4 * seconds))
    before = _burst(reference, seconds)
    ratios, rates, references = [], [], [before]
    for _ in range(rounds):
        rate = _burst(subject, seconds)
        after = _burst(reference, seconds)
        ratios.append(rate / ((before + after) / 2))
        rates.append(rate)
        references.append(after)
        before = after
    return statistics.median(rates), statistics.median(references), statistics.median(ratios)


def _random_comma_action(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> str:
    actions = info.get("valid_actions")
    return str(actions[rng.integers(len(actions))]) if agent == "solver" and actions else ""


def _random_connect_four_action(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def _median_ms(work: Callable[[], Any], repeats: int = 9, number: int = 5) -> float:
    """Median over `repeats` of the mean ms of `number` calls."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            work()
        samples.append(1000 * (time.perf_counter() - start) / number)
    return statistics.median(samples)


def costs(puzzle: str) -> dict[str, float]:
    """ms of: make + reset + first image of a new image-view environment; copying one
    observation; np.stack of 8 observations; one picture drawn from scratch."""
    seeds = iter(range(10**9))

    def make_reset() -> None:
        env = comma_env.make(puzzle)
        env.reset(seed=next(seeds))
        env.unwrapped.image()

    make_reset()
    env = comma_env.make(puzzle)
    env.reset(seed=0)
    image = env.unwrapped.image()
    raw = env.unwrapped
    states = []
    for seed in range(20):
        raw.reset(seed=1000 + seed)
        states.append(raw.puzzle.visible_state())
    state_iter = iter(states * 1000)
    return {
        "make_reset_ms": _median_ms(make_reset),
        "copy_ms": _median_ms(image.copy, number=50),
        "stack8_ms": _median_ms(lambda: np.stack([image] * 8), number=10),
        "full_draw_ms": _median_ms(lambda: raw.draw(next(state_iter)), number=2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds per subject (median reported)")
    parser.add_argument("--burst", type=float, default=0.25, help="seconds per burst")
    parser.add_argument("--puzzles", nargs="*", default=list(COMMA_PUZZLES + V1_PUZZLES),
                        help="puzzle names (default: the ten COMMA puzzles and the v1 button, dog, sound)")
    parser.add_argument("--markdown", action="store_true",
                        help="write the docs table docs/_generated/speed.md (and print it)")
    args = parser.parse_args()

    from pettingzoo.classic import connect_four_v3

    load_before = os.getloadavg()[0]

    reference = _stepper(connect_four_v3.env, _random_connect_four_action)
    rows = []
    for puzzle in args.puzzles:
        env_module(puzzle)  # import outside the timed bursts
        make_image = functools.partial(comma_env.make, puzzle)
        make_text = functools.partial(comma_env.make, puzzle, solver_view="text")
        image = interleaved(reference, _stepper(make_image, _random_comma_action), args.rounds, args.burst)
        text = interleaved(reference, _stepper(make_text, _random_comma_action), args.rounds, args.burst)
        rows.append((puzzle, image, text, costs(puzzle)))
        if not args.markdown:
            c = rows[-1][3]
            print(f"{puzzle + '_v0':<15} image {image[0]:>7.0f} t/s {image[2]:>5.2f}x (c4 {image[1]:>6.0f})   "
                  f"text {text[0]:>7.0f} t/s {text[2]:>5.2f}x (c4 {text[1]:>6.0f})   "
                  f"make+reset {c['make_reset_ms']:.2f} ms  copy {c['copy_ms']:.3f} ms  "
                  f"stack8 {c['stack8_ms']:.2f} ms  full draw {c['full_draw_ms']:.2f} ms", flush=True)
    machine = f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}"
    print(f"\nmedian of {args.rounds} interleaved rounds of {args.burst} s bursts; {machine}")
    if args.markdown:
        lines = ["| environment | image view: turns/s (x connect_four) | text view: turns/s (x connect_four) "
                 "| make+reset ms | copy obs ms | np.stack 8 ms | full redraw ms |",
                 "|---|---|---|---|---|---|---|"]
        for puzzle, image, text, c in rows:
            lines.append(f"| {puzzle}_v0 | {image[0]:,.0f} ({image[2]:.2f}x) | {text[0]:,.0f} ({text[2]:.2f}x) | "
                         f"{c['make_reset_ms']:.2f} | {c['copy_ms']:.3f} | {c['stack8_ms']:.2f} | "
                         f"{c['full_draw_ms']:.2f} |")
        references = [r for _, image, text, _ in rows for r in (image[1], text[1])]
        lines.append(f"\nconnect_four_v3 during the run: {min(references):,.0f} to {max(references):,.0f} turns/s "
                     "(median per subject).")
        from doc_tables import write_table  # examples/ is on sys.path when run as a script

        path = write_table("speed", "\n".join(lines),
                           note=f"Median of {args.rounds} interleaved rounds of {args.burst} s bursts; "
                                f"load average {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after "
                                f"(other jobs on the machine lower the ratios).")
        print("\n".join(lines))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
