"""What a changed picture costs against the PNG encoding that follows it, per puzzle.

A model sees the solver's picture as a PNG (`comma_env.agents.chat.PngCache`, with
`comma_env.drawing.common.png_bytes`: Pillow, ``compress_level=1``), encoded once per state
change. This script draws every picture of random-play episodes with the puzzle's drawing
function and makes it the environment's array (`picture_array`), as the environment does when
the state changed, and encodes it right after, state by state, in episode order: each picture
is drawn once, as in a rollout, so whatever a drawing keeps for an instance is used the way a
rollout uses it. Prints, per puzzle, the median draw and encode times and their
ratio, over the first pictures of episodes (a new instance) and over the later ones. Run:

    python examples/benchmark_drawing.py [--seeds 60] [--turns 6]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import comma_env
from comma_env.asympuzl.drawing import draw_alice
from comma_env.asympuzl.rules import COLOURS
from comma_env.drawing.common import png_bytes
from comma_env.protocol.views import picture_array
from comma_env.registry import COMMA_PUZZLES, GAMES, SPECS, V1_PUZZLES

WARM_UP_SEED = 10_000
"""Seeds from here on load fonts and modules before anything is timed."""


def puzzle_episode(puzzle: str, seed: int, turns: int) -> Iterator[dict[str, Any]]:
    """The visible states of one random-play episode, one per state change: the solver types
    a random valid action, the expert says a word (which moves a countdown's clock)."""
    env = comma_env.make(puzzle).unwrapped
    env.reset(seed=seed)
    rng = random.Random(seed)
    shown = -1
    for _ in range(2 * turns + 1):
        if env.puzzle.version != shown:
            shown = env.puzzle.version
            yield env.visible_state
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return
        if env.agent_selection == "solver":
            env.step(rng.choice(env.infos["solver"]["valid_actions"]))
        else:
            env.step("ok")


def asympuzl_episode(seed: int, turns: int) -> Iterator[dict[str, Any]]:
    """Alice's pictures along an episode in which she sets random positions of her hypothesis."""
    env = comma_env.make("asympuzl", view="image").unwrapped
    env.reset(seed=seed)
    rng = random.Random(seed)
    state = env.visible_state
    yield state
    for _ in range(turns):
        slots = [list(slot) for slot in state["hypothesis"]]
        slots[rng.randrange(len(slots))] = [rng.choice(state["clues"]), rng.choice(list(COLOURS))]
        state = {**state, "hypothesis": slots}
        yield state


def episodes(puzzle: str, seeds: range, turns: int) -> Iterator[list[dict[str, Any]]]:
    for seed in seeds:
        yield list(asympuzl_episode(seed, turns) if puzzle == "asympuzl" else puzzle_episode(puzzle, seed, turns))


def drawing_of(puzzle: str) -> Callable[[dict[str, Any]], Any]:
    return draw_alice if puzzle == "asympuzl" else SPECS[puzzle].load_drawing()


def measure(puzzle: str, seeds: int, turns: int) -> dict[str, list[tuple[float, float]]]:
    """(draw, encode) seconds of each picture, split into first and later pictures."""
    draw = drawing_of(puzzle)
    for states in episodes(puzzle, range(WARM_UP_SEED, WARM_UP_SEED + 3), turns):
        for state in states:
            png_bytes(picture_array(draw(state)))
    timings: dict[str, list[tuple[float, float]]] = {"first": [], "later": []}
    clock = time.perf_counter
    for states in episodes(puzzle, range(seeds), turns):
        for index, state in enumerate(states):
            start = clock()
            array = picture_array(draw(state))
            drawn = clock()
            png_bytes(array)
            done = clock()
            timings["first" if index == 0 else "later"].append((drawn - start, done - drawn))
    return timings


def row(puzzle: str, timings: dict[str, list[tuple[float, float]]]) -> str:
    cells = [puzzle]
    for kind in ("first", "later"):
        pairs = timings[kind]
        if not pairs:
            cells += ["-", "-", "-"]
            continue
        draw = statistics.median(d for d, _ in pairs)
        png = statistics.median(e for _, e in pairs)
        cells += [f"{1e3 * draw:.2f}", f"{1e3 * png:.2f}", f"{draw / png:.2f}"]
    cells.append(str(sum(len(pairs) for pairs in timings.values())))
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=60, help="episodes per puzzle")
    parser.add_argument("--turns", type=int, default=6, help="conversation turns per episode")
    parser.add_argument("--puzzles", nargs="*", default=[*COMMA_PUZZLES, *V1_PUZZLES, *GAMES])
    args = parser.parse_args()
    print(f"python examples/benchmark_drawing.py --seeds {args.seeds} --turns {args.turns} "
          f"({platform.python_version()}, {platform.machine()}); times in ms, medians over pictures\n")
    print("| puzzle | first: draw | first: PNG | first: draw/PNG | later: draw | later: PNG | later: draw/PNG "
          "| pictures |")
    print("|---|---|---|---|---|---|---|---|")
    for puzzle in args.puzzles:
        print(row(puzzle, measure(puzzle, args.seeds, args.turns)), flush=True)


if __name__ == "__main__":
    main()
