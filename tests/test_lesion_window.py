"""Lesion synthesis computes and upscales only a window around the lesion; beyond it the
photo is assumed plain skin. The window must hold everything the lesion changes: its border
pixels must already be plain skin with zero coverage (a window cut too tight would clip the
outline, its soft edge or a waxy lesion's shadow)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import comma_env
from comma_env.drawing.lesions import GRID, SKIN_COLORS, _lesion_part, _paint


@pytest.mark.parametrize("block", range(3))
def test_window_border_is_plain_skin(block: int) -> None:
    env = comma_env.make("telehealth", solver_view="text")
    surfaces = set()
    for seed in range(100 * block, 100 * block + 100):
        env.reset(seed=seed)
        features = _lesion_part(env.unwrapped.puzzle.visible_state())
        surfaces.add(features["lesion_surface"])
        rng = np.random.default_rng(int(features["lesion_pattern_id"]))
        colors, coverage, (lo, hi) = _paint(features, rng, GRID, GRID // math.gcd(GRID, 352))
        assert 0 <= lo < hi <= GRID and colors.shape == (hi - lo, hi - lo, 3)
        if lo == 0 and hi == GRID:
            continue  # the window is the whole grid: nothing is assumed
        border = np.ones((hi - lo, hi - lo), dtype=bool)
        border[1:-1, 1:-1] = False
        assert not coverage[lo:hi, lo:hi][border].any(), (seed, features)
        assert (colors[border] == SKIN_COLORS[features["skin_tone"]]).all(), (seed, features)
    assert any(s.startswith("waxy") for s in surfaces) or block != 0  # the shadow case is covered
