"""Lesion synthesis computes and upscales only a window around the lesion (its outline's
bounding box plus a margin); beyond it the photo is assumed plain skin. The window must hold
everything the lesion changes: its border pixels must already be plain skin with zero coverage
(a window cut too tight would clip the outline, its soft edge or a waxy lesion's shadow)."""

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
        painted = _paint(features, rng, GRID, GRID // math.gcd(GRID, 352))
        colors, coverage, ((top, bottom), (left, right)) = painted.colors, painted.coverage, painted.window
        assert 0 <= top < bottom <= GRID and 0 <= left < right <= GRID
        assert colors.shape == (bottom - top, right - left, 3)
        skin = SKIN_COLORS[features["skin_tone"]]
        sides = {"top": np.s_[0], "bottom": np.s_[-1], "left": np.s_[:, 0], "right": np.s_[:, -1]}
        at_frame = {"top": top == 0, "bottom": bottom == GRID, "left": left == 0, "right": right == GRID}
        for side, cut in sides.items():
            if at_frame[side]:
                continue  # the lesion reaches the frame there: nothing is assumed
            assert not coverage[top:bottom, left:right][cut].any(), (seed, side, features)
            assert (colors[cut] == skin).all(), (seed, side, features)
    assert any(s.startswith("waxy") for s in surfaces) or block != 0  # the shadow case is covered
