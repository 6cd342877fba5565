"""Compiled (numba) rasterisers of the lesion photo: the same arithmetic as the numpy path in
`lesions.py`, pixel by pixel, in a few loops.

Why: after vectorising, the numpy path still costs ~0.7 ms a photo, almost all of it numpy's
per-call overhead on small arrays and two small matrix products for the bilinear upscale;
one compiled loop over the lesion's window and one over the photo pixels it changes do the
same work several times faster, and release the GIL (a rollout's threads draw photos in
parallel). This module imports numba at import time: `lesions.py` imports it only when
numba is installed (`pip install -e ".[fast]"`) and falls back to numpy otherwise.

The float32 operations follow the numpy path's order, so the two agree to within one grey
level on a few pixels (different rounding of the upscale's sums and of `exp`); the random
numbers are drawn once, in Python, by `lesions.plan_lesion`. Kernels are compiled on first
use and cached on disk (numba's `cache=True`), so only the first process pays for it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from comma_env.drawing.lesion_codes import FIELD_BLOTCHES, FIELD_NONE, SURFACE_CRUST, SURFACE_PEARLY, SURFACE_WAXY

_KERNEL = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}


@njit(**_KERNEL)
def _noise_layout(bank: np.ndarray, pick: int) -> tuple[int, int, int]:
    """(offset, row step, column step) of `lesions._noise_view(bank, pick)` in the flat
    bank: its pixel (row, column) is flat[offset + row * row_step + column * column_step]."""
    side = bank.shape[1]
    offset = (pick >> 3) * side * side
    row_step, column_step = side, 1
    if pick & 1:  # rows reversed
        offset += (side - 1) * side
        row_step = -side
    if pick & 2:  # columns reversed
        offset += side - 1
        column_step = -1
    if pick & 4:  # then transposed
        row_step, column_step = column_step, row_step
    return offset, row_step, column_step


@njit(**_KERNEL)
def paint_window(coverage: np.ndarray, padded: np.ndarray, dx: np.ndarray, dy: np.ndarray, rr: np.ndarray,
                 index: np.ndarray, top: int, left: int, edges: np.ndarray, softness: float, radius: float,
                 unit: float, surface: int, lut: np.ndarray, field: int, blotch_bank: np.ndarray, blotches: int,
                 shade_bank: np.ndarray, shade: int, crust_bank: np.ndarray, crust: int,
                 grain_bank: np.ndarray, grain: int, skin: np.ndarray, pearl: np.ndarray) -> None:
    """`lesions._paint`'s colours into the inside of `padded` ((rows + 2, columns + 2, 3)
    float32, the window at grid (`top`, `left`)) and its alpha into `coverage` (the grid)."""
    rows, columns = padded.shape[0] - 2, padded.shape[1] - 2
    grid = coverage.shape[1]
    one, zero, soft = np.float32(1.0), np.float32(0.0), np.float32(softness)
    inverse = np.empty(edges.shape[0], dtype=np.float32)
    for k in range(edges.shape[0]):
        inverse[k] = one / edges[k]
    flat_index, flat_alpha = index.ravel(), coverage.ravel()
    # the distance over the outline's radius, the coverage, and the single-channel weights of
    # the numpy path (body colour x body + skin x skin_weight (+ pearl x pearl_weight)) as
    # shaded and unshaded; then each surface changes them in a simple loop of its own (one
    # loop with every surface's branches ran 4x slower)
    size = rows * columns
    rel = np.empty(size, dtype=np.float32)
    body, skin_weight = np.empty(size, dtype=np.float32), np.empty(size, dtype=np.float32)
    shades, (shade_offset, shade_row, shade_column) = shade_bank.ravel(), _noise_layout(shade_bank, shade)
    for i in range(rows):
        y, out = top + i, i * columns
        distances, angles = rr[y, left:left + columns], index[y, left:left + columns]
        alphas, shade_at = coverage[y, left:left + columns], shade_offset + y * shade_row + left * shade_column
        for j in range(columns):
            r = inverse[angles[j]] * distances[j]
            a = min(max((one - r) / soft, zero), one)
            rel[out + j], alphas[j] = r, a
            body[out + j] = shades[shade_at + j * shade_column] * a
            skin_weight[out + j] = one - a
    body_colors = lut.shape[0] - (1 if surface == SURFACE_CRUST else 0)
    region = np.zeros(size, dtype=np.int8)  # which colour of `lut` each pixel takes
    if field != FIELD_NONE:
        _colour_regions(region, rel, flat_alpha, grid, top, left, columns, body_colors, field,
                        blotch_bank, blotches)
    pearl_weight = np.zeros(size if surface == SURFACE_PEARLY else 0, dtype=np.float32)
    if surface == SURFACE_PEARLY:  # a pearly rim, then a highlight up-left: one blend towards the pearl
        scale = np.float32(0.05 * radius * radius)
        glow_x, glow_y = np.float32(0.25 * radius), np.float32(0.3 * radius)
        flat_dx, flat_dy = dx.ravel(), dy.ravel()
        for i in range(rows):
            at, out = (top + i) * grid + left, i * columns
            for j in range(columns):
                a, r = flat_alpha[at + j], rel[out + j]
                if a == zero:
                    continue  # keep = 1 exactly: nothing to blend (and no exp)
                rim = min(max((r - np.float32(0.72)) * np.float32(10.0), zero), one) * a
                gx, gy = flat_dx[at + j] + glow_x, flat_dy[at + j] + glow_y
                glow = np.exp(-(gx * gx + gy * gy) / scale)
                keep = (one - np.float32(0.7) * rim) * (one - np.float32(0.55) * glow * a)
                body[out + j] *= keep
                pearl_weight[out + j] = (one - keep) * a
    elif surface == SURFACE_CRUST:  # yellow-brown crust (unshaded, its own grain): colour `body_colors`
        crusts, (crust_offset, crust_row, crust_column) = crust_bank.ravel(), _noise_layout(crust_bank, crust)
        grains, (grain_offset, grain_row, grain_column) = grain_bank.ravel(), _noise_layout(grain_bank, grain)
        for i in range(rows):
            y, out = top + i, i * columns
            for j in range(columns):
                x = left + j
                if (crusts[crust_offset + y * crust_row + x * crust_column] > np.float32(0.45)
                        and rel[out + j] < np.float32(0.75)):
                    grain_value = grains[grain_offset + y * grain_row + x * grain_column]
                    body[out + j] = (np.float32(0.9) + np.float32(0.2) * grain_value) * flat_alpha[y * grid + x]
                    region[out + j] = body_colors
    elif surface == SURFACE_WAXY:  # a darker ring inside, a shadow on the skin beside it
        shadow_x, shadow_y = np.float32(3 * unit), np.float32(4 * unit)
        flat_dx, flat_dy = dx.ravel(), dy.ravel()
        for i in range(rows):
            at, out = (top + i) * grid + left, i * columns
            for j in range(columns):
                sx, sy = np.float64(flat_dx[at + j] - shadow_x), np.float64(flat_dy[at + j] - shadow_y)
                distance = np.float32(math.sqrt(sx * sx + sy * sy))  # hypotf, as glibc computes it
                shadow = min(max((one - distance / edges[flat_index[at + j]]) * np.float32(20.0), zero), one)
                ring = min(max((rel[out + j] - np.float32(0.9)) * np.float32(10.0), zero), one) * flat_alpha[at + j]
                body[out + j] *= one - np.float32(0.3) * ring
                weight = skin_weight[out + j]
                skin_weight[out + j] = weight * (one - np.float32(0.35) * shadow * weight)
    flat_padded, colours = padded.reshape(rows + 2, (columns + 2) * 3), lut.ravel()
    skin_red, skin_green, skin_blue = skin[0], skin[1], skin[2]
    pearl_red, pearl_green, pearl_blue = pearl[0], pearl[1], pearl[2]
    for i in range(rows):
        row = flat_padded[i + 1, 3:3 * (columns + 1)]
        for j in range(columns):
            k = i * columns + j
            b, w, c = body[k], skin_weight[k], 3 * region[k]
            red, green, blue = colours[c] * b, colours[c + 1] * b, colours[c + 2] * b
            if surface == SURFACE_PEARLY:
                p = pearl_weight[k]
                red, green, blue = red + p * pearl_red, green + p * pearl_green, blue + p * pearl_blue
            row[3 * j], row[3 * j + 1], row[3 * j + 2] = (red + w * skin_red, green + w * skin_green,
                                                          blue + w * skin_blue)


@njit(**_KERNEL)
def _colour_regions(region: np.ndarray, rel: np.ndarray, alpha: np.ndarray, grid: int, top: int, left: int,
                    columns: int, colours: int, field: int, blotch_bank: np.ndarray, blotches: int) -> None:
    """Each window pixel's colour (into `region`): the number of cuts its field value lies
    above, the cuts being the field's quantiles inside the lesion (alpha > 0.5), taken on
    every other row and column (as numpy's partition does in `lesions._paint`)."""
    rows = rel.shape[0] // columns
    values = np.empty(rel.shape[0], dtype=np.float32)
    if field == FIELD_BLOTCHES:
        noise, (offset, row_step, column_step) = blotch_bank.ravel(), _noise_layout(blotch_bank, blotches)
        for i in range(rows):
            at = offset + (top + i) * row_step + left * column_step
            for j in range(columns):
                values[i * columns + j] = noise[at + j * column_step]
    else:  # concentric: symmetric with the outline
        for k in range(rel.shape[0]):
            values[k] = -rel[k]
    sample = np.empty(((rows + 1) // 2) * ((columns + 1) // 2), dtype=np.float32)
    count = 0
    for i in range(0, rows, 2):
        for j in range(0, columns, 2):
            if alpha[(top + i) * grid + left + j] > np.float32(0.5):
                sample[count] = values[i * columns + j]
                count += 1
    cuts = np.zeros(colours - 1, dtype=np.float32)
    if count:
        for c in range(1, colours):
            cuts[c - 1] = select(sample[:count], (c * count) // colours)
    for cut in cuts:  # the number of cuts below: one comparison pass per cut
        for k in range(rel.shape[0]):
            region[k] += values[k] > cut


@njit(**_KERNEL)
def upscale_into(photo: np.ndarray, padded: np.ndarray, cells: int, pixels: int, top: int, left: int) -> None:
    """Bilinear upscale (Pillow's convention, edges clamped) of the inside of `padded` by
    pixels / cells, rounded into `photo` at pixel (`top`, `left`): `lesions._upscale_padded`
    plus the rounding, as a column pass then a row pass (each output a blend of two inputs;
    the column pass, across the interleaved axis, runs on the smaller image)."""
    height, width = padded.shape[0] - 2, padded.shape[1] - 2
    out_rows, out_columns = height * pixels // cells, width * pixels // cells
    for i in range(1, height + 1):  # the border: the edge pixels (Pillow's clamping)
        for channel in range(3):
            padded[i, 0, channel] = padded[i, 1, channel]
            padded[i, width + 1, channel] = padded[i, width, channel]
    for j in range(width + 2):
        for channel in range(3):
            padded[0, j, channel] = padded[1, j, channel]
            padded[height + 1, j, channel] = padded[height, j, channel]
    first = np.empty(pixels, dtype=np.int64)  # per output pixel of a block: its first input, weights
    near = np.empty(pixels, dtype=np.float32)
    far = np.empty(pixels, dtype=np.float32)
    for o in range(pixels):
        at = (o + 0.5) * cells / pixels - 0.5
        low = math.floor(at)
        first[o] = low + 1
        near[o] = 1.0 - (at - low)
        far[o] = at - low
    source = np.empty(out_columns, dtype=np.int64)  # per output column: its first input value, weights
    column_near = np.empty(out_columns, dtype=np.float32)
    column_far = np.empty(out_columns, dtype=np.float32)
    for x in range(out_columns):
        block = x // pixels
        o = x - block * pixels
        source[x] = (block * cells + first[o]) * 3
        column_near[x], column_far[x] = near[o], far[o]
    flat = padded.reshape(height + 2, (width + 2) * 3)
    wide = np.empty((height + 2, out_columns * 3), dtype=np.float32)
    for i in range(height + 2):
        row, out = flat[i], wide[i]
        for x in range(out_columns):
            s, w_near, w_far = source[x], column_near[x], column_far[x]
            out[3 * x] = w_near * row[s] + w_far * row[s + 3]
            out[3 * x + 1] = w_near * row[s + 1] + w_far * row[s + 4]
            out[3 * x + 2] = w_near * row[s + 2] + w_far * row[s + 5]
    target = photo.reshape(photo.shape[0], photo.shape[1] * 3)
    half, top_value = np.float32(0.5), np.float32(255.0)
    for y in range(out_rows):
        block = y // pixels
        o = y - block * pixels
        above = block * cells + first[o]
        a, b, w_near, w_far = wide[above], wide[above + 1], near[o], far[o]
        d = target[top + y, 3 * left:3 * (left + out_columns)]
        for k in range(out_columns * 3):
            d[k] = np.uint8(min(w_near * a[k] + w_far * b[k] + half, top_value))


@njit(**_KERNEL)
def select(values: np.ndarray, k: int) -> float:
    """The k-th smallest of `values` (0-based; `np.partition(values, k)[k]`), by quickselect
    on a copy: numba's own `np.partition` takes ~6 s to compile."""
    work = values.copy()
    low, high = 0, work.shape[0] - 1
    while low < high:
        a, b, c = work[low], work[(low + high) // 2], work[high]
        pivot = max(min(a, b), min(max(a, b), c))  # the median of three
        i, j = low, high
        while i <= j:  # Hoare's partition: left of i nothing above the pivot, right of j nothing below
            while work[i] < pivot:
                i += 1
            while work[j] > pivot:
                j -= 1
            if i <= j:
                work[i], work[j] = work[j], work[i]
                i += 1
                j -= 1
        if k <= j:
            high = j
        elif k >= i:
            low = i
        else:
            return work[k]  # between j and i: equal to the pivot
    return work[k]


@njit(**_KERNEL)
def inner_points(coverage: np.ndarray, top: int, bottom: int, left: int, right: int, level: float) -> np.ndarray:
    """(x, y) of the grid pixels inside the window whose coverage exceeds `level`, in
    row-major order (`np.argwhere` over the window, columns swapped, offset to the grid)."""
    count = 0
    for y in range(top, bottom):
        for x in range(left, right):
            count += coverage[y, x] > level
    points = np.empty((count, 2), dtype=np.int64)
    n = 0
    for y in range(top, bottom):
        for x in range(left, right):
            if coverage[y, x] > level:
                points[n, 0], points[n, 1] = x, y
                n += 1
    return points


@njit(**_KERNEL)
def fill_ellipses_into(photo: np.ndarray, centres: np.ndarray, half_axes: np.ndarray, color: np.ndarray) -> None:
    """`lesions.fill_ellipses`: every pixel whose centre lies inside an ellipse, clipped."""
    height, width = photo.shape[0], photo.shape[1]
    for n in range(centres.shape[0]):
        cx, cy, ax, ay = centres[n, 0], centres[n, 1], half_axes[n, 0], half_axes[n, 1]
        for y in range(max(0, math.floor(cy - ay) - 1), min(height, math.ceil(cy + ay) + 1)):
            v = ((y + 0.5 - cy) / ay) ** 2
            for x in range(max(0, math.floor(cx - ax) - 1), min(width, math.ceil(cx + ax) + 1)):
                if v + ((x + 0.5 - cx) / ax) ** 2 <= 1.0:
                    photo[y, x, 0], photo[y, x, 1], photo[y, x, 2] = color[0], color[1], color[2]


@njit(**_KERNEL)
def stroke_polylines_into(photo: np.ndarray, points: np.ndarray, color: np.ndarray, width: float) -> None:
    """`lesions.stroke_polylines`: every pixel whose centre lies within width / 2 of a
    segment, clipped."""
    height, photo_width = photo.shape[0], photo.shape[1]
    half = width / 2.0
    for n in range(points.shape[0]):
        for k in range(points.shape[1] - 1):
            sx, sy, ex, ey = points[n, k, 0], points[n, k, 1], points[n, k + 1, 0], points[n, k + 1, 1]
            ux, uy = ex - sx, ey - sy
            length2 = max(ux * ux + uy * uy, 1e-9)
            for y in range(max(0, math.floor(min(sy, ey) - half)), min(height, math.ceil(max(sy, ey) + half) + 1)):
                py = y + 0.5 - sy
                for x in range(max(0, math.floor(min(sx, ex) - half)),
                               min(photo_width, math.ceil(max(sx, ex) + half) + 1)):
                    px = x + 0.5 - sx
                    along = min(max((px * ux + py * uy) / length2, 0.0), 1.0)
                    off_x, off_y = px - along * ux, py - along * uy
                    if off_x * off_x + off_y * off_y <= half * half:
                        photo[y, x, 0], photo[y, x, 1], photo[y, x, 2] = color[0], color[1], color[2]
