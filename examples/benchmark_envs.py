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

`--image-step` measures instead what an image observation adds to a step of a Gymnasium loop
(`SingleRoleEnv`, solver role, the previous observation held): per puzzle, the image-view
step's time minus the text-view step's, divided by the time of one frame copy, the three
measured in interleaved bursts of the same run (`--out FILE` writes the table). Beside it, two
counts that do not depend on the machine: the bytes the image step writes into observation
arrays, and the bytes that any environment alternating two arrays would have to write; and
the time of `Scene.frame` alone over the loop's recorded pictures, in frame copies, with
every cache warm and with a text-view learner step before each picture (as in the loop).
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

import comma_env
from comma_env.drawing import scene
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


def _gym_loop(puzzle: str, view: str, steps: int | None = None) -> Iterator[tuple[Any, Any, bool]]:
    """Random play of the solver role in `SingleRoleEnv` (scripted oracle expert), the way a
    Gymnasium loop runs: the previous observation stays alive while the next step (or the
    next reset) is made, as in ``observation, ... = env.step(action)``. Yields (raw
    environment, observation, whether a learner step made it) after the first reset and
    after every step and reset, for `steps` learner steps (None: endlessly). The environment
    is closed at the end, or when the generator is closed or collected."""
    from comma_env.rl import SingleRoleEnv

    env = SingleRoleEnv(puzzle, role="solver", partner="oracle", solver_view=view)
    try:  # closed also when the caller closes an endless loop (or drops it)
        rng = np.random.default_rng(0)
        seed, taken, done = 0, 0, False
        observation, info = env.reset(seed=seed)
        yield env.raw, observation, False
        while steps is None or taken < steps:
            if done:
                seed += 1
                observation, info = env.reset(seed=seed)
                done = False
                yield env.raw, observation, False
            else:
                actions = info["valid_actions"]
                action = str(actions[rng.integers(len(actions))]) if actions else ""
                observation, _, terminated, truncated, info = env.step(action)
                done, taken = terminated or truncated, taken + 1
                yield env.raw, observation, True
    finally:
        if not sys.is_finalizing():  # a loop collected at exit: nothing to close, and asyncio cannot
            env.close()


def _gym_stepper(puzzle: str, view: str) -> Iterator[None]:
    """`_gym_loop` endlessly, yielding after every learner step (what the timed bursts count)."""
    for _, _, stepped in _gym_loop(puzzle, view):
        if stepped:
            yield


def _copies(image: np.ndarray) -> Iterator[None]:
    """Endless copies of one observation (what a loop pays to keep a frame it may not share)."""
    while True:
        image.copy()
        yield


class ImageStep(NamedTuple):
    """What `image_step_in_copies` measures for one puzzle (medians over the rounds)."""

    extra: float
    """Image step minus text step, in frame copies."""
    image_rate: float
    text_rate: float
    copy_us: float
    lower: float
    upper: float
    """The lower and upper quartile of the rounds' `extra`."""
    extra_copying: float
    """`extra` with in-place repaint off (`scene.IN_PLACE_REPAINT` False: every observation
    painted on a copy of the frame): what in-place repaint saves."""


def _in_place(steps: Iterator[None], on: bool) -> Iterator[None]:
    """`steps` with `scene.IN_PLACE_REPAINT` set to `on` while each step runs (the flag is
    read at every draw, so two loops of one process can differ; restored between steps)."""
    while True:
        saved = scene.IN_PLACE_REPAINT
        scene.IN_PLACE_REPAINT = on
        try:
            next(steps)
        finally:
            scene.IN_PLACE_REPAINT = saved
        yield


def image_step_in_copies(puzzle: str, rounds: int, seconds: float) -> ImageStep:
    """The image step's cost over the text step in the Gymnasium loop of `_gym_stepper`, with
    this interpreter's in-place repaint and with it off: bursts of the three loops (image,
    text, image copying) and of frame copies interleaved (median of `rounds`; each round's ratio uses
    that round's own copy time; the loops run in reverse order every other round, so a
    machine speeding up or slowing down favours none)."""
    env = comma_env.make(puzzle)
    env.reset(seed=0)
    image = np.array(env.unwrapped.image())
    loops = {"image": _gym_stepper(puzzle, "image"), "text": _gym_stepper(puzzle, "text"),
             "copying": _in_place(_gym_stepper(puzzle, "image"), on=False)}
    copies = _copies(image)
    for steps in [*loops.values(), copies]:  # warm up
        _burst(steps, seconds)
    ratios, copying, image_rates, text_rates, copy_us = [], [], [], [], []
    for round_ in range(rounds):
        rates = {name: _burst(loops[name], seconds) for name in (list(loops) if round_ % 2 else reversed(loops))}
        copy_rate = _burst(copies, seconds)
        ratios.append((1 / rates["image"] - 1 / rates["text"]) * copy_rate)
        copying.append((1 / rates["copying"] - 1 / rates["text"]) * copy_rate)
        image_rates.append(rates["image"])
        text_rates.append(rates["text"])
        copy_us.append(1e6 / copy_rate)
    lower, _, upper = statistics.quantiles(ratios, n=4) if rounds > 1 else (ratios[0],) * 3
    return ImageStep(statistics.median(ratios), statistics.median(image_rates), statistics.median(text_rates),
                     statistics.median(copy_us), lower, upper, statistics.median(copying))


BYTES_STEPS = 3000
"""Learner steps of the counted (untimed) pass of `--image-step`."""


def image_step_bytes(puzzle: str, steps: int) -> tuple[float, float]:
    """(bytes the environment wrote into observation arrays per step; bytes that differ
    between each picture and the one its array showed before, two pictures back), both in
    frames, over `steps` learner steps of the `_gym_loop` (resets included, as they
    are in the timed bursts). Counted, not timed: the same on every machine.

    The second is what any environment handing out two arrays in turn must write; the first
    is what this one writes (whole layer boxes, not just the pixels that changed)."""
    pictures: list[np.ndarray] = []  # the last three pictures, oldest first
    changed, written_before, frame_bytes = 0, 0, 1
    drawing: scene.Scene | None = None
    for raw, observation, _ in _gym_loop(puzzle, "image", steps):
        image = observation["image"]
        if drawing is None:
            drawing, frame_bytes = raw.draw, image.nbytes
            written_before = drawing.bytes_written
        pictures = [*pictures[-2:], image.copy()]
        if len(pictures) == 3:
            new, old = pictures[2], pictures[0]
            channels = [new[..., channel] != old[..., channel] for channel in range(3)]
            changed += 3 * int(np.count_nonzero(channels[0] | channels[1] | channels[2]))  # pixels, as RGB bytes
    assert drawing is not None  # _gym_loop yields after its first reset
    written = drawing.bytes_written - written_before
    return written / steps / frame_bytes, changed / steps / frame_bytes


class Recording(NamedTuple):
    """The pictures of a loop, as `frame_in_copies` draws them again."""

    puzzle: str
    drawing: scene.Scene
    states: list[dict[str, Any]]


def record_pictures(puzzle: str, steps: int = 300) -> Recording:
    """The state of every picture of `steps` learner steps of the `_gym_loop` (resets included)."""
    states: list[dict[str, Any]] = []
    drawing: scene.Scene | None = None
    for raw, _, _ in _gym_loop(puzzle, "image", steps):
        drawing = raw.draw
        # visible_state, not the drawn_state() the environment draws from: that may share the
        # puzzle's own lists, which later steps of the recording could change (equal states)
        states.append(raw.visible_state)
    assert drawing is not None  # _gym_loop yields after its first reset
    return Recording(puzzle, drawing, states)


def frame_in_copies(recording: Recording, text_steps_between: bool, repeats: int = 7) -> float:
    """`Scene.frame` per picture, in frame copies: the recorded pictures of a loop, drawn
    again in order (the latest array held, as a loop holds its observation), only the drawing
    timed; the fastest of `repeats` passes over the fastest copy measured around them.

    Alone, every cache is warm: what finding and writing the changes costs in Python when
    nothing waits for memory. With a text-view learner step of another environment before
    each picture (the rest of a loop's step), the same drawing once that step has pushed its
    code and data out of the processor's caches: the part of the image step that is drawing,
    as a loop pays for it."""
    drawing, states = recording.drawing, recording.states
    sample = drawing.full_array(states[-1])  # a picture to copy: the reference unit
    frame, spare = drawing.frame(states[0]), None
    text_steps = _gym_stepper(recording.puzzle, "text") if text_steps_between else None
    clock = time.perf_counter

    def draw_all() -> float:
        nonlocal frame, spare
        held = frame.array
        seconds = 0.0
        for state in states:
            if text_steps is not None:
                next(text_steps)
            start = clock()
            drawn = drawing.frame(state, frame, spare)
            if drawn.array is not frame.array:
                spare = frame
            frame, held = drawn, drawn.array  # noqa: F841  (held: the observation a loop keeps)
            seconds += clock() - start
        return seconds

    copy = sample.copy
    copy_seconds, draw_seconds = [], []
    for _ in range(repeats):
        copy_seconds.append(min(timeit.repeat(copy, number=20, repeat=3)) / 20)
        draw_seconds.append(draw_all() / len(states))
    return min(draw_seconds) / min(copy_seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds per subject (median reported)")
    parser.add_argument("--burst", type=float, default=0.25, help="seconds per burst")
    parser.add_argument("--puzzles", nargs="*", default=list(COMMA_PUZZLES + V1_PUZZLES),
                        help="puzzle names (default: the ten COMMA puzzles and the v1 button, dog, sound)")
    parser.add_argument("--markdown", action="store_true",
                        help="write the docs table docs/_generated/speed.md (and print it)")
    parser.add_argument("--image-step", action="store_true",
                        help="only the image step's extra cost over the text step, in frame copies, per puzzle")
    parser.add_argument("--out", help="with --image-step: also write the table here (docs/_generated/image_step.md)")
    args = parser.parse_args()
    if args.image_step:
        print_image_step(args)
        return

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


def print_image_step(args: argparse.Namespace) -> None:
    """The image step's cost over the text step, in frame copies (Gymnasium loop); with
    `--out`, also written as a Markdown table."""
    machine = (f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}, "
               f"numpy {np.__version__}")
    load_before = os.getloadavg()[0]
    lines = [f"Written by `python examples/benchmark_envs.py --image-step --rounds {args.rounds} --burst {args.burst}` "
             f"on {machine}. Solver role of `SingleRoleEnv` (scripted oracle expert), random valid "
             f"actions, the previous observation held during each step; median of {args.rounds} interleaved "
             "rounds, and the middle half of the rounds (this machine's speed drifts while it runs). "
             f"This interpreter {'repaints' if scene.IN_PLACE_REPAINT else 'does not repaint'} frames in place; "
             "the last column turns that off (`scene.IN_PLACE_REPAINT = False`), so that every step paints "
             "a copy of the frame.", "",
             "| environment | image view: steps/s | text view: steps/s | one frame copy (µs) "
             "| image step minus text step (frame copies) | middle half of the rounds "
             "| written per step (frames) | changed per step (frames) "
             "| `Scene.frame`, caches warm (frame copies) "
             "| `Scene.frame` between text steps (frame copies) "
             "| in-place repaint off: image step minus text step (frame copies) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines[2:]))
    for puzzle in args.puzzles:
        env_module(puzzle)
        step = image_step_in_copies(puzzle, args.rounds, args.burst)
        written, changed = image_step_bytes(puzzle, BYTES_STEPS)
        recording = record_pictures(puzzle)
        warm, between = frame_in_copies(recording, False), frame_in_copies(recording, True)
        lines.append(f"| {puzzle}_v0 | {step.image_rate:,.0f} | {step.text_rate:,.0f} | {step.copy_us:.0f} "
                     f"| {step.extra:.2f} | {step.lower:.2f}-{step.upper:.2f} | {written:.3f} | {changed:.3f} "
                     f"| {warm:.2f} | {between:.2f} | {step.extra_copying:.2f} |")
        print(lines[-1], flush=True)
    lines[0] += (f" Load average {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after (other jobs on "
                 "the machine raise it, and they share its caches: much of the image step's cost is its code and "
                 "data coming back into them).")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text("\n".join(lines) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
