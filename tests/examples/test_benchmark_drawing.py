"""`examples/benchmark_drawing.py` measures what it says: every picture of its episodes is a
state the environment showed, drawn by the puzzle's drawing and encoded as the rollout
encodes it."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.drawing.common import png_bytes
from comma_env.protocol.views import picture_array
from tests.support.script_files import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "benchmark_drawing.py"


@pytest.fixture(scope="module")
def script():
    return load_script(SCRIPT)


@pytest.mark.parametrize("puzzle", ["wire", "dog", "asympuzl"])
def test_the_pictures_are_the_environments_and_encode_as_pngs(script, puzzle: str) -> None:
    states = next(script.episodes(puzzle, range(3, 4), 3))
    assert len(states) >= 2 and all(a != b for a, b in zip(states, states[1:], strict=False))
    if puzzle != "asympuzl":  # the first picture is the environment's own, after the same reset
        env = comma_env.make(puzzle)
        env.reset(seed=3)
        assert np.array_equal(picture_array(script.drawing_of(puzzle)(states[0])), env.unwrapped.image())
    png = png_bytes(picture_array(script.drawing_of(puzzle)(states[-1])))
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_a_row_gives_draw_and_encode_medians_and_their_ratio(script) -> None:
    timings = script.measure("who", seeds=2, turns=2)
    assert timings["first"] and timings["later"]
    cells = script.row("who", timings).strip("|").split("|")
    assert cells[0].strip() == "who" and float(cells[3]) == pytest.approx(float(cells[1]) / float(cells[2]), rel=0.05)
