"""Memory of an environment's observation spaces: what each new environment allocates, and
what all environments of a puzzle share (the bound arrays of the image Box). Writes
docs/_generated/space_memory.md (included by docs/performance-notes.md). Run:

    python examples/space_memory.py [--count 200]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tracemalloc
from pathlib import Path

import numpy as np

import comma_env
from comma_env.registry import COMMA_PUZZLES

OUT = Path(__file__).resolve().parent.parent / "docs" / "_generated" / "space_memory.md"


def measure(puzzle: str, count: int) -> tuple[float, float, int]:
    """(bytes per new environment, bytes per instance's own spaces, bytes shared by all)."""
    raw_env = comma_env.make(puzzle).unwrapped.__class__  # warm: modules, manual, templates
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    envs = [raw_env() for _ in range(count)]
    per_env = (tracemalloc.get_traced_memory()[0] - start) / count
    start = tracemalloc.get_traced_memory()[0]
    spaces = [raw_env._own_observation_spaces("image") for _ in range(count)]
    per_spaces = (tracemalloc.get_traced_memory()[0] - start) / count
    tracemalloc.stop()
    image = envs[0].observation_space("solver")["image"]
    shared = sum(a.nbytes for a in (image.low, image.high, image.bounded_below, image.bounded_above)
                 if isinstance(a, np.ndarray))
    del envs, spaces
    return per_env, per_spaces, shared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    rows = [(puzzle, *measure(puzzle, args.count)) for puzzle in COMMA_PUZZLES]
    lines = [
        f"Written by `python examples/space_memory.py --count {args.count}` "
        f"({platform.machine()}, Python {sys.version.split()[0]}, numpy {np.__version__}, "
        f"comma_env {comma_env.__version__}).",
        "",
        "| Puzzle | Bytes per new environment | of which its own observation spaces "
        "| Bound arrays shared by all (MiB) |",
        "|---|---:|---:|---:|",
    ]
    for puzzle, per_env, per_spaces, shared in rows:
        lines.append(f"| {puzzle} | {per_env:,.0f} | {per_spaces:,.0f} | {shared / 2**20:.2f} |")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
