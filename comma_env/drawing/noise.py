"""Smooth noise fields for the lesion photos: banks of coarse random grids enlarged bicubically
(as Pillow does) from a fixed seed, each used in one of eight mirrorings and rotations."""

from __future__ import annotations

from functools import cache

import numpy as np
from PIL import Image


def bicubic_weights(cells: int, size: int) -> np.ndarray:
    """(size, cells) matrix W such that W @ C @ W.T is Pillow's bicubic resize of C."""
    weights = np.empty((size, cells), dtype=np.float32)
    for i in range(cells):
        impulse = np.zeros((cells, cells), dtype=np.float32)
        impulse[i, :] = 1.0
        resized = Image.fromarray(impulse, mode="F").resize((size, size), Image.Resampling.BICUBIC)
        weights[:, i] = np.asarray(resized)[:, 0]
    weights.flags.writeable = False
    return weights


def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b as float32, computed in float64: BLAS sums float32 in an order its CPU kernel picks, which could
    change a picture from one machine to the next; float64 rounded back does not."""
    return (np.asarray(a, np.float64) @ np.asarray(b, np.float64)).astype(np.float32)


NOISE_BANK = 64
"""Noise fields per (cells, grid); a lesion takes one in one of its 8 mirrorings (512 per kind)."""


@cache  # four banks (blotches, shading, crust, grain): a table, drawn once per process
def noise_bank(cells: int, grid: int, affine: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
    """NOISE_BANK fields on a grid x grid grid (read-only), mapped to offset + scale * field: random
    numbers on a cells x cells grid, enlarged bicubically."""
    rng = np.random.default_rng([cells, grid])
    weights = bicubic_weights(cells, grid)
    bank = np.empty((NOISE_BANK, grid, grid), dtype=np.float32)
    for field in bank:
        field[:] = product(product(weights, rng.random((cells, cells)).astype(np.float32)), weights.T)
        field -= field.min()
        field *= np.float32(affine[1] / max(float(field.max()), 1e-6))
        field += np.float32(affine[0])
    bank.flags.writeable = False
    return bank


def noise_view(bank: np.ndarray, pick: int) -> np.ndarray:
    """Field `pick >> 3` of `bank` (a view), rows reversed (bit 0), columns reversed (bit 1), transposed (bit 2)."""
    field = bank[pick >> 3]
    if pick & 1:
        field = field[::-1]
    if pick & 2:
        field = field[:, ::-1]
    return field.T if pick & 4 else field
