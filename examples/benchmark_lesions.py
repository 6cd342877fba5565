"""Time to synthesise one Telehealth lesion photo, per way of drawing it, as interleaved medians.

Subjects: this tree's numpy path (`lesions._render_numpy`), its compiled path
(`lesions._render_compiled`, needs `pip install -e ".[fast]"`), and, with `--against REV`,
the lesion module of a git revision (loaded from `git show REV:comma_env/drawing/lesions.py`;
`--against fd9da92` is the synthesis the speed issue was filed against). Each round draws the
photos of the same cases (seeds 0..N-1, the photo cache bypassed) once per subject, in
alternating order; the medians over rounds and the ratios within each round are printed, so
a busy machine slows every subject alike. Also prints how far the two paths of this tree
agree (grey levels, share of pixels). Run:

    python examples/benchmark_lesions.py [--seeds 300] [--rounds 7] [--against fd9da92]
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from comma_env.drawing import lesions
from comma_env.puzzles.telehealth import TelehealthPuzzle

SIZE = 352  # the photo's side in the Telehealth screen (drawing/telehealth.PHOTO)


def revision_module(revision: str) -> ModuleType:
    """`comma_env/drawing/lesions.py` as it was at `revision`, imported under its own name."""
    source = subprocess.run(["git", "show", f"{revision}:comma_env/drawing/lesions.py"], check=True,
                            capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1]).stdout
    path = Path(tempfile.mkdtemp()) / f"lesions_{revision}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def subjects(states: list[dict[str, Any]], against: str | None) -> dict[str, Callable[[int], Any]]:
    """name -> draw(i): the photo of case i, uncached."""
    features = [dict(lesions._key(state)) for state in states]
    found: dict[str, Callable[[int], Any]] = {}
    if against:
        old = revision_module(against)
        keys = [old._key(old._lesion_part(state)) for state in states]
        found[against] = lambda i: old._render.__wrapped__(keys[i], SIZE)
    found["numpy"] = lambda i: lesions._render_numpy(dict(features[i]), SIZE)
    if lesions.compiled_kernels() is not None:
        found["compiled"] = lambda i: lesions._render_compiled(dict(features[i]), SIZE)
    else:
        print("numba is not installed (pip install -e '.[fast]'): the compiled path is not measured")
    return found


def agreement(states: list[dict[str, Any]]) -> str:
    """How far the compiled photos are from the numpy ones."""
    levels, shares, same = 0, [], 0
    for state in states:
        features = dict(lesions._key(state))
        numpy_photo = lesions._render_numpy(dict(features), SIZE)[0].astype(np.int16)
        compiled_photo = lesions._render_compiled(dict(features), SIZE)[0].astype(np.int16)
        difference = np.abs(numpy_photo - compiled_photo)
        levels = max(levels, int(difference.max()))
        shares.append(float((difference > 0).any(axis=2).mean()))
        same += not difference.any()
    return (f"compiled vs numpy: {same}/{len(states)} photos identical, at most {levels} grey level(s) apart, "
            f"at most {max(shares):.1e} of a photo's pixels differ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", help="a git revision whose lesion module is timed too (e.g. fd9da92)")
    args = parser.parse_args()
    states = [TelehealthPuzzle(np.random.default_rng(seed)).visible_state() for seed in range(args.seeds)]
    draws = subjects(states, args.against)
    for draw in draws.values():  # compile, build noise banks, fill glyph caches: not timed
        for i in range(min(40, len(states))):
            draw(i)
    times: dict[str, list[float]] = {name: [] for name in draws}
    for round_ in range(args.rounds):
        for name in list(draws) if round_ % 2 == 0 else list(draws)[::-1]:
            start = time.perf_counter()
            for i in range(len(states)):
                draws[name](i)
            times[name].append((time.perf_counter() - start) / len(states) * 1e3)
    reference = next(iter(draws))
    print(f"lesion photo ({SIZE} px), seeds 0-{args.seeds - 1}, {args.rounds} interleaved rounds, "
          f"{platform.machine()} {platform.processor() or ''}".rstrip())
    for name, values in times.items():
        ratio = statistics.median(r / v for r, v in zip(times[reference], values, strict=True))
        print(f"  {name:>10}: {statistics.median(values):.3f} ms per photo  ({reference}/{name}: {ratio:.2f}x)")
    if "compiled" in draws:
        print(" ", agreement(states[:min(len(states), 300)]))


if __name__ == "__main__":
    main()
