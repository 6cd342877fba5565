"""Fine marks of the lesion photos, rasterised for many copies at once: filled ellipses
(flakes, dots) and stroked polylines (fissures, vessels), each pixel whose centre lies inside."""

from __future__ import annotations

import numpy as np


def fill_ellipses(photo: np.ndarray, centres: np.ndarray, half_axes: np.ndarray, color: tuple[int, ...]) -> None:
    """Fill axis-aligned ellipses (centres and half axes in pixels, x before y): every pixel
    whose centre lies inside. All ellipses are tested at once over one shared box size."""
    centres, half_axes = np.asarray(centres, dtype=np.float64), np.asarray(half_axes, dtype=np.float64)
    reach = np.ceil(half_axes.max(axis=0)).astype(int) + 1
    corner = np.floor(centres).astype(int) - reach
    span = [np.arange(2 * r + 2) for r in reach]
    xs = corner[:, 0, None] + span[0]  # (n, bx) pixel columns
    ys = corner[:, 1, None] + span[1]  # (n, by) pixel rows
    u = ((xs + 0.5 - centres[:, 0, None]) / half_axes[:, 0, None]) ** 2
    v = ((ys + 0.5 - centres[:, 1, None]) / half_axes[:, 1, None]) ** 2
    inside = v[:, :, None] + u[:, None, :] <= 1.0
    _set(photo, inside, ys, xs, color)


def stroke_polylines(photo: np.ndarray, points: np.ndarray, color: tuple[int, ...], width: float = 2.0) -> None:
    """Draw polylines (n, k, 2) of `width`: every pixel whose centre lies within width / 2 of
    a segment (round joins, like a pen). All segments are tested at once."""
    starts = points[:, :-1].reshape(-1, 2)
    ends = points[:, 1:].reshape(-1, 2)
    half = width / 2.0
    low = np.floor(np.minimum(starts, ends) - half).astype(int)
    size = int(np.ceil((np.maximum(starts, ends) - np.minimum(starts, ends)).max() + 2 * half)) + 2
    span = np.arange(size)
    xs, ys = low[:, 0, None] + span, low[:, 1, None] + span  # (m, size)
    direction = ends - starts
    length2 = np.maximum((direction**2).sum(axis=1), 1e-9)
    px = (xs + 0.5 - starts[:, 0, None])[:, None, :]  # (m, 1, size)
    py = (ys + 0.5 - starts[:, 1, None])[:, :, None]  # (m, size, 1)
    along = np.clip((px * direction[:, 0, None, None] + py * direction[:, 1, None, None])
                    / length2[:, None, None], 0, 1)
    off_x = px - along * direction[:, 0, None, None]
    off_y = py - along * direction[:, 1, None, None]
    _set(photo, off_x**2 + off_y**2 <= half * half, ys, xs, color)


def _set(photo: np.ndarray, inside: np.ndarray, ys: np.ndarray, xs: np.ndarray, color: tuple[int, ...]) -> None:
    """photo[ys[k, i], xs[k, j]] = color where inside[k, i, j], clipped to the photo."""
    height, width = photo.shape[:2]
    if ys.min() < 0 or ys.max() >= height or xs.min() < 0 or xs.max() >= width:  # rare: near the frame
        inside = inside & ((ys >= 0) & (ys < height))[:, :, None] & ((xs >= 0) & (xs < width))[:, None, :]
    at = (ys[:, :, None] * width + xs[:, None, :])[inside]
    pixels = np.reshape(photo, (-1, 3), copy=False)  # a view: raises rather than write to a copy
    for channel in range(3):
        pixels[:, channel][at] = color[channel]
