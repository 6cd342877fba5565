"""Lesion synthesis keeps its promises: the vectorised marks against their geometry, the noise
bank's range and determinism, and whole photos against themselves when drawn again (a seed is a
picture; the pictures themselves, pixel for pixel: tests/golden/test_frames.py)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import numpy as np
import pytest

import comma_env
from comma_env.drawing.lesions import GRID, LESION_KEYS, render_lesion
from comma_env.drawing.marks import fill_ellipses, stroke_polylines
from comma_env.drawing.noise import NOISE_BANK, noise_bank


def _lesion_part(env):
    state = env.unwrapped.puzzle.visible_state()
    return {k: state[k] for k in LESION_KEYS}


def test_filled_ellipses_cover_their_area_and_stay_in_the_photo() -> None:
    photo = np.zeros((60, 80, 3), dtype=np.uint8)
    fill_ellipses(photo, np.array([[20.0, 30.0]]), np.array([[6.0, 3.0]]), (255, 0, 0))
    covered = photo[..., 0] == 255
    assert abs(covered.sum() - np.pi * 6 * 3) < 8
    ys, xs = np.nonzero(covered)
    assert xs.min() >= 14 and xs.max() <= 26 and ys.min() >= 27 and ys.max() <= 33
    fill_ellipses(photo, np.array([[-2.0, 58.0], [79.5, 0.5]]), np.array([[4.0, 4.0], [3.0, 2.0]]), (0, 255, 0))
    assert (photo[..., 1] == 255).any()  # clipped at the edges, not wrapped or raised


def test_stroked_polylines_are_two_pixels_wide_along_their_segments() -> None:
    photo = np.zeros((40, 40, 3), dtype=np.uint8)
    stroke_polylines(photo, np.array([[[5.0, 20.0], [15.0, 20.0], [15.0, 30.0]]]), (0, 0, 255))
    drawn = photo[..., 2] == 255
    assert drawn[19:21, 6:15].all() and drawn[21:30, 14:16].all()  # the horizontal, then the vertical run
    assert not drawn[:17].any() and not drawn[:, :3].any() and not drawn[:, 18:].any()
    assert drawn.sum() < 2 * 21 + 8


def testnoise_bank_is_fixed_and_normalised() -> None:
    bank = noise_bank(24, GRID)
    assert bank.shape == (NOISE_BANK, GRID, GRID) and not bank.flags.writeable
    assert bank.min() == 0.0 and np.isclose(bank.max(), 1.0)
    noise_bank.cache_clear()
    assert np.array_equal(noise_bank(24, GRID), bank)  # drawn from a fixed seed


def test_a_case_is_the_same_photo_after_thenoise_banks_are_drawn_again() -> None:
    env = comma_env.make("telehealth", solver_view="text")
    photos = []
    for seed in range(40):
        env.reset(seed=seed)
        photos.append(np.asarray(render_lesion(_lesion_part(env), 352)))
    noise_bank.cache_clear()
    for seed, photo in enumerate(photos):
        env.reset(seed=seed)
        again = np.asarray(render_lesion(_lesion_part(env), 352))
        assert again.dtype == np.uint8 and again.shape == (352, 352, 3)
        assert np.array_equal(again, photo), seed
    assert len({photo.tobytes() for photo in photos}) == len(photos)  # every case its own picture



@pytest.mark.skipif(platform.machine() != "x86_64", reason="the OpenBLAS kernels named are x86-64 ones")
def test_photos_do_not_depend_on_the_blas_kernel_of_the_cpu() -> None:
    """OpenBLAS picks a kernel per CPU, and float32 products summed in another order changed 4 of 100
    Telehealth pictures on an AVX-512 machine: the same pictures under two kernels every x86-64 CPU runs."""
    script = "from tests.golden.frames import first_hashes; print(first_hashes('telehealth', range(30)))"
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "OPENBLAS_CORETYPE": core}).stdout for core in ("Sandybridge", "Haswell")]
    assert runs[0] == runs[1] and runs[0].count("'") == 60
