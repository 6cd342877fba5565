"""The numpy pieces of lesion synthesis against what they replace or promise: the block
upscale against Pillow's bilinear resize, the chunked matrix product against `@`, the
vectorised marks against their geometry, the noise bank's range and determinism, and whole
photos against themselves when drawn again (a seed is a picture)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.drawing import lesions
from comma_env.drawing.lesions import GRID, _lesion_part, _upscale_into, render_lesion
from comma_env.drawing.marks import fill_ellipses, stroke_polylines
from comma_env.drawing.noise import NOISE_BANK, SERIAL_BLAS_WORK, noise_bank, serial_matmul


@pytest.mark.parametrize(("cells", "pixels"), [(4, 11), (2, 5), (1, 1), (1, 4), (11, 16)])
def test_block_upscale_is_pillows_bilinear_resize(cells: int, pixels: int) -> None:
    rng = np.random.default_rng(cells * 100 + pixels)
    side = 8 * cells
    base = (rng.random((side, side + 4 * cells, 3)) * 255).astype(np.float32)
    padded = np.zeros((side + 2, base.shape[1] + 2, 3), dtype=np.float32)
    padded[1:-1, 1:-1] = base
    size = (base.shape[1] * pixels // cells, side * pixels // cells)
    photo = np.zeros((size[1] + 3, size[0] + 5, 3), dtype=np.uint8)
    _upscale_into(photo, padded, cells, pixels, 2, 4)
    mine = photo[2:-1, 4:-1].astype(np.float32)
    assert not photo[:2].any() and not photo[-1].any() and not photo[:, :4].any() and not photo[:, -1].any()
    theirs = np.stack([np.asarray(Image.fromarray(base[..., c], "F").resize(size, Image.BILINEAR))
                       for c in range(3)], axis=2)
    assert np.abs(mine - theirs).max() <= 0.51  # the same weights and clamped edges, rounded


def test_serial_matmul_equals_the_product_in_any_chunking() -> None:
    rng = np.random.default_rng(0)
    for rows, inner, columns in [(128, 24, 128), (5, 3, 7), (1000, 30, 90), (1, 1, 1)]:
        a = rng.random((rows, inner)).astype(np.float32)
        b = rng.random((inner, columns)).astype(np.float32)
        assert np.allclose(serial_matmul(a, b), a @ b, rtol=1e-5, atol=1e-4)
    assert SERIAL_BLAS_WORK >= 65536


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
        photos.append(np.asarray(render_lesion(_lesion_part(env.unwrapped.puzzle.visible_state()), 352)))
    noise_bank.cache_clear()
    for seed, photo in enumerate(photos):
        env.reset(seed=seed)
        again = np.asarray(render_lesion(_lesion_part(env.unwrapped.puzzle.visible_state()), 352))
        assert again.dtype == np.uint8 and again.shape == (352, 352, 3)
        assert np.array_equal(again, photo), seed
    assert len({photo.tobytes() for photo in photos}) == len(photos)  # every case its own picture


def test_uniform_pairs_are_numpys_uniform_draws() -> None:
    low, high = (0.04, 0.0, 0.18, -3.0), (0.07, 2 * np.pi, 0.28, 5.0)
    mine = lesions._uniform(np.random.default_rng(7), low, high)
    rng = np.random.default_rng(7)
    assert mine == [rng.uniform(a, b) for a, b in zip(low, high, strict=True)]  # the same numbers, bit for bit


def test_pattern_stream_is_fixed_per_id_and_thread() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def draws(pattern: int) -> list[float]:
        return lesions._pattern_rng(pattern).random(5).tolist()

    here = [draws(p) for p in (0, 1, 2, 12345, 0)]
    assert here[0] == here[4] and len({tuple(d) for d in here}) == 4  # same id, same stream; ids differ
    with ThreadPoolExecutor(4) as pool:  # no state shared between threads
        assert list(pool.map(draws, (0, 1, 2, 12345, 0))) == here


@pytest.mark.parametrize("shape", ["round", "oval", "asymmetric"])
@pytest.mark.parametrize("border", ["irregular, notched", "smooth, regular", "ill-defined"])
def test_outline_is_its_harmonics_and_gaussian_notches(shape: str, border: str) -> None:
    """The table product equals the sum of a cos(k theta - phase) written out, and the
    notches (2 (1 - cos gap) for gap^2) equal Gaussians of the wrapped angle to 1e-3 (of a
    radius of at most 46 grid pixels: a twentieth of a pixel)."""
    features = {"lesion_shape": shape, "lesion_border": border}
    mine = lesions.outline_radius(features, np.random.default_rng(11))
    rng = np.random.default_rng(11)
    theta = lesions.ANGLES.astype(np.float64)
    if shape == "oval":
        amplitude, half_phase = rng.uniform(0.16, 0.24), rng.uniform(0, np.pi)
        waves = [(amplitude, 2, 2 * half_phase)]
    elif shape == "asymmetric":
        a1, p1 = rng.uniform(0.22, 0.28), rng.uniform(0, 2 * np.pi)
        a3, p3 = rng.uniform(0.2, 0.26), rng.uniform(0, 2 * np.pi)
        waves = [(a1, 1, p1), (a3, 3, p3), (0.08, 2, rng.uniform(0, 2 * np.pi))]
    else:
        waves = [(0.03, 2, 2 * rng.uniform(0, np.pi))]
    notches = []
    if border == "irregular, notched":
        for k in (7, 9, 11):
            amplitude = rng.uniform(0.04, 0.07)
            waves.append((amplitude, k, rng.uniform(0, 2 * np.pi)))
        for _ in range(int(rng.integers(3, 6))):
            centre = rng.uniform(0, 2 * np.pi)
            notches.append((centre, rng.uniform(0.18, 0.28)))
    elif border == "ill-defined":
        waves.append((0.04, 5, rng.uniform(0, 2 * np.pi)))
    expected = 1.0 + sum(a * np.cos(k * theta - phase) for a, k, phase in waves)
    for centre, depth in notches:
        gap = np.mod(theta - centre + np.pi, 2 * np.pi) - np.pi
        expected -= depth * np.exp(-(gap / 0.12) ** 2)
    assert mine.shape == theta.shape and mine.dtype == np.float32
    assert np.abs(mine - expected).max() < 1e-3
    if notches:  # the notches are deep: the outline dips well below its harmonics there
        assert (1.0 + sum(a * np.cos(k * theta - phase) for a, k, phase in waves) - mine).max() > 0.15
