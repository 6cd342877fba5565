"""Synthetic skin-lesion photos drawn from the feature words of a Telehealth case (PAD-UFES-20
photos cannot ship): every word visible, no colour the case does not list."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from comma_env.drawing.marks import fill_ellipses, stroke_polylines
from comma_env.drawing.noise import NOISE_BANK, noise_bank, noise_view, product

FIELD_NONE, FIELD_BLOTCHES, FIELD_CONCENTRIC = 0, 1, 2
"""Where a lesion's colour regions come from (`Plan.field`)."""
SURFACE_PLAIN, SURFACE_PEARLY, SURFACE_CRUST, SURFACE_WAXY = 0, 1, 2, 3
"""Surfaces with a texture of their own (`Plan.surface`)."""

LESION_COLORS: dict[str, tuple[int, int, int]] = {
    "pink": (226, 128, 142),
    "red": (184, 46, 52),
    "light brown": (168, 110, 62),
    "brown": (120, 70, 38),
    "dark brown": (78, 44, 24),
    "black": (28, 22, 24),
    "blue-grey": (88, 106, 146),
    "white": (238, 236, 232),
    "yellow-brown": (204, 158, 62),
}
SKIN_COLORS: dict[str, tuple[int, int, int]] = {
    "light": (238, 204, 180),
    "medium": (206, 160, 124),
    "dark": (132, 90, 62),
}
PEARL = (246, 236, 234)
SCALE_COLOR = (246, 242, 234)
PALE_DOT = (236, 226, 200)
GRID = 128
"""Side of the grid the lesion is painted on (a coarser grid blurred colour borders into an extra colour)."""
UNIT_GRID = 128
"""Grid side on which the lengths below are given in pixels."""
ANGLES = np.linspace(-np.pi, np.pi, 720, endpoint=False, dtype=np.float32)
_COS, _SIN = np.cos(ANGLES), np.sin(ANGLES)
Window = tuple[tuple[int, int], tuple[int, int]]
"""((top, bottom), (left, right)) rows and columns of the grid, ends exclusive."""


def radius_px(diameter_mm: float, grid: int = GRID) -> float:
    """Lesion radius on the grid: grows with the diameter, always fits the frame."""
    unit = grid / UNIT_GRID
    return min(max((14.0 + 2.4 * diameter_mm) * unit, 20.0 * unit), 0.36 * grid)


def _geometry(grid: int, window: Window) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dy, distance, angle-table index) from the grid's centre of every pixel of `window`."""
    centre = (grid - 1) / 2.0
    (top, bottom), (left, right) = window
    yy, xx = np.mgrid[top:bottom, left:right].astype(np.float32)
    dx, dy = xx - centre, yy - centre
    theta, rr = np.arctan2(dy, dx), np.hypot(dx, dy)
    index = ((theta + np.pi) * (len(ANGLES) / (2 * np.pi))).astype(np.int32) % len(ANGLES)
    return dx, dy, rr, index


def _uniform(rng: np.random.Generator, low: tuple[float, ...], high: tuple[float, ...]) -> list[float]:
    """`rng.uniform(low[i], high[i])` for each i in turn, in one draw (the same numbers)."""
    return [a + (b - a) * u for a, b, u in zip(low, high, rng.random(len(low)).tolist(), strict=True)]


HARMONICS = 11
"""Highest harmonic of an outline (a notched border's ripples reach k = 11)."""
_WAVES = np.concatenate([np.stack((np.cos(k * ANGLES), np.sin(k * ANGLES))) for k in range(1, HARMONICS + 1)])
"""cos(k theta) and sin(k theta) at `ANGLES`: a sum of waves is one product with this table."""
_WAVES.flags.writeable = False
_CIRCLE = np.stack((_COS, _SIN))
_SIN_COS = np.stack((_SIN, _COS))
_SIN_COS.flags.writeable = False


def outline_radius(features: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """Radius of the outline (about 1) at `ANGLES`: harmonics and, for a notched border, Gaussian notches."""
    shape, border = features["lesion_shape"], features["lesion_border"]
    waves: list[tuple[float, int, float]] = []  # (amplitude, k, phase)
    if shape == "oval":
        amplitude, half_phase = _uniform(rng, (0.16, 0.0), (0.24, np.pi))
        waves.append((amplitude, 2, 2 * half_phase))
    elif shape == "asymmetric":
        a1, p1, a3, p3, p2 = _uniform(rng, (0.22, 0.0, 0.2, 0.0, 0.0), (0.28, 2 * np.pi, 0.26, 2 * np.pi, 2 * np.pi))
        waves += [(a1, 1, p1), (a3, 3, p3), (0.08, 2, p2)]
    else:
        waves.append((0.03, 2, 2 * np.pi * rng.random()))
    notches = None  # (count, 2): centre, depth
    if border == "irregular, notched":
        ripples = _uniform(rng, (0.04, 0.0) * 3, (0.07, 2 * np.pi) * 3)
        waves += [(ripples[2 * i], k, ripples[2 * i + 1]) for i, k in enumerate((7, 9, 11))]
        count = int(rng.integers(3, 6))
        notches = _uniform(rng, (0.0, 0.18) * count, (2 * np.pi, 0.28) * count)
    elif border == "ill-defined":
        waves.append((0.04, 5, 2 * np.pi * rng.random()))
    coefficients = [0.0] * (2 * HARMONICS)
    for amplitude, k, phase in waves:
        coefficients[2 * k - 2] += amplitude * math.cos(phase)
        coefficients[2 * k - 1] += amplitude * math.sin(phase)
    r = product(np.array(coefficients, dtype=np.float32), _WAVES)
    r += np.float32(1.0)
    if notches is not None:
        # a Gaussian of the angle to each notch, exp(-(gap / 0.12)^2), with 2 (1 - cos gap)
        # for gap^2 (periodic); cos(theta - c) = cos c cos theta + sin c sin theta
        centres, depths = notches[0::2], notches[1::2]
        gap = product(np.array([(math.cos(c), math.sin(c)) for c in centres], dtype=np.float32), _CIRCLE)
        gap -= np.float32(1.0)
        gap *= np.float32(2.0 / 0.12**2)
        r -= product(np.array(depths, dtype=np.float32), np.exp(gap, out=gap))
    return r


class Plan(NamedTuple):
    """Everything random or case-specific about a lesion, decided before any pixel."""

    radius: float
    edges: np.ndarray
    """The outline's radius in grid pixels at `ANGLES` (float32, at least 1)."""
    window: Window
    softness: float
    surface: int
    """The surface's texture: SURFACE_PLAIN, SURFACE_PEARLY, SURFACE_CRUST or SURFACE_WAXY."""
    lut: np.ndarray
    """The body's colours (n, 3) float32; a crust adds yellow-brown as colour n."""
    field: int
    """FIELD_NONE (one colour), FIELD_BLOTCHES (noise field `blotches`) or FIELD_CONCENTRIC."""
    blotches: int
    shade: int
    crust: tuple[int, int] | None
    """Picks of the crust's extent and of its grain (see CRUST_CELLS, GRAIN_CELLS), or None."""


_SURFACE_CODES = (("pearly", SURFACE_PEARLY), ("scaly crust", SURFACE_CRUST), ("waxy", SURFACE_WAXY))
"""The SURFACE_* code of a surface by the start of its words (else SURFACE_PLAIN)."""


CRUST_CELLS, GRAIN_CELLS, BLOTCH_CELLS, SHADE_CELLS = 7, 30, 5, 24
_SHADE = (0.94, 0.12)
"""Shading: noise mapped to [0.94, 1.06]."""


def _noise_pick(rng: np.random.Generator) -> int:
    """One field of a noise bank in one of its 8 mirrorings (`noise.noise_view`)."""
    return int(rng.integers(0, 8 * NOISE_BANK))


def plan_lesion(features: dict[str, Any], rng: np.random.Generator, grid: int, step: int = 1) -> Plan:
    """Draw the lesion's random numbers in their fixed order and fix its window (the outline's
    bounding box plus a margin, aligned to `step`); outside it the photo is plain skin."""
    radius = radius_px(float(features["diameter_mm"]), grid)
    table = outline_radius(features, rng)
    # coverage ends a pixel past the outline; a waxy lesion's shadow reaches 5 px further
    unit = grid / UNIT_GRID
    surface = features["lesion_surface"]
    kind = next((code for start, code in _SURFACE_CODES if surface.startswith(start)), SURFACE_PLAIN)
    margin = (8.0 if kind == SURFACE_WAXY else 2.0) * unit
    edges = np.maximum(radius * table, 1.0).astype(np.float32)  # the outline's radius per angle
    centre = (grid - 1) / 2.0
    extents = np.multiply(edges, _SIN_COS)  # rows (y down), then columns
    bounds = []
    for lowest, highest in zip(extents.min(axis=1).tolist(), extents.max(axis=1).tolist(), strict=True):
        low = max(0, int(math.floor((centre + lowest - margin) / step)) * step)
        bounds.append((low, min(grid, int(math.ceil((centre + highest + margin + 1) / step)) * step)))
    softness = 0.18 if features["lesion_border"] == "ill-defined" else 0.025
    body = [c for c in features["lesion_colors"] if not (c == "white" and surface.startswith("dry"))]
    lut = np.array([LESION_COLORS[c] for c in body], dtype=np.float32)  # a dry surface's white is its flakes
    field, blotches = FIELD_NONE, 0
    if len(lut) > 1:
        if features["lesion_shape"] == "asymmetric" or len(lut) >= 3:
            field, blotches = FIELD_BLOTCHES, _noise_pick(rng)
        else:
            field = FIELD_CONCENTRIC  # symmetric with the outline
    shade = _noise_pick(rng)
    crust = (_noise_pick(rng), _noise_pick(rng)) if kind == SURFACE_CRUST else None
    if crust is not None:
        lut = np.vstack((lut, np.array(LESION_COLORS["yellow-brown"], dtype=np.float32)))
    return Plan(radius, edges, (bounds[0], bounds[1]), softness, kind, lut, field, blotches, shade, crust)


class Painted(NamedTuple):
    """The lesion painted on the grid: the window's colours inside a one-pixel border (`padded`),
    its alpha over the whole grid (`coverage`), and where it lies (`window`)."""

    padded: np.ndarray
    coverage: np.ndarray
    window: Window


def _paint(features: dict[str, Any], rng: np.random.Generator, grid: int, step: int = 1) -> Painted:
    """The lesion painted over its window (noise fields are picked for the whole grid, so the
    picture does not depend on the window): one weighted sum per channel."""
    plan = plan_lesion(features, rng, grid, step)
    radius, edges, lut = plan.radius, plan.edges, plan.lut
    (top, bottom), (left, right) = plan.window
    window = (slice(top, bottom), slice(left, right))
    unit = grid / UNIT_GRID
    dx, dy, rr, index = _geometry(grid, plan.window)
    rel = (np.float32(1.0) / edges)[index]  # reciprocals per angle, not per pixel
    rel *= rr  # distance over the outline's radius
    alpha = np.subtract(np.float32(1.0), rel)
    alpha /= np.float32(plan.softness)
    np.clip(alpha, 0.0, 1.0, out=alpha)

    body_colors = len(lut) - (plan.surface == SURFACE_CRUST)
    region = None  # which colour of `lut` each pixel takes (None: the only one)
    if plan.field != FIELD_NONE:
        if plan.field == FIELD_BLOTCHES:
            field = noise_view(noise_bank(BLOTCH_CELLS, grid), plan.blotches)[window]
        else:
            field = np.negative(rel)  # concentric: symmetric with the outline
        # equal shares per colour: the field's quantiles inside the lesion, on every other row and column
        inside = field[::2, ::2][alpha[::2, ::2] > 0.5]
        if inside.size:
            picks = (np.arange(1, body_colors) * inside.size) // body_colors
            cuts = np.partition(inside, picks)[picks].tolist()
        else:
            cuts = [0.0] * (body_colors - 1)
        region = np.greater(field, cuts[0]).view(np.int8)  # the number of cuts below each value
        for cut in cuts[1:]:
            region = region + np.greater(field, cut).view(np.int8)
    shade = noise_view(noise_bank(SHADE_CELLS, grid, _SHADE), plan.shade)[window]  # in [0.94, 1.06]
    body_weight = shade * alpha  # A: the lesion's own colour, shaded, over its coverage
    skin_weight = np.subtract(np.float32(1.0), alpha)  # B: the skin around it
    pearl_weight = None  # P: a pearly rim and highlight
    if plan.surface == SURFACE_PEARLY:
        # a pearly rim, then a highlight up-left, each a blend towards the pearl: one blend
        rim = np.clip((rel - 0.72) * 10.0, 0, 1) * alpha
        exponent = -((dx + 0.25 * radius) ** 2 + (dy + 0.3 * radius) ** 2) / (0.05 * radius**2)
        glow = np.exp(exponent.astype(np.float64)).astype(np.float32)  # correctly rounded (float32 exp is not)
        keep = (1.0 - 0.7 * rim) * (1.0 - 0.55 * glow * alpha)
        body_weight *= keep
        pearl_weight = (1.0 - keep) * alpha
    elif plan.crust is not None:  # SURFACE_CRUST, the only surface `plan_lesion` gives crust picks
        # yellow-brown crust (unshaded, its own grain) over the inner lesion: one more colour
        crust = (noise_view(noise_bank(CRUST_CELLS, grid), plan.crust[0])[window] > 0.45) & (rel < 0.75)
        grain = noise_view(noise_bank(GRAIN_CELLS, grid), plan.crust[1])[window]
        body_weight[crust] = ((0.9 + 0.2 * grain[crust]) * alpha[crust])
        if region is None:
            region = np.zeros(alpha.shape, dtype=np.int8)
        region[crust] = body_colors
    elif plan.surface == SURFACE_WAXY:
        shadow = np.clip((1.0 - np.hypot(dx - 3 * unit, dy - 4 * unit) / edges[index]) * 20.0, 0, 1)
        ring = np.clip((rel - 0.9) * 10.0, 0, 1) * alpha
        body_weight *= 1.0 - 0.3 * ring
        skin_weight *= 1.0 - 0.35 * shadow * skin_weight  # the shadow darkens the skin beside it
    padded = np.empty((bottom - top + 2, right - left + 2, 3), dtype=np.float32)
    inner, term = padded[1:-1, 1:-1], np.empty(alpha.shape, dtype=np.float32)
    skin = SKIN_COLORS[features["skin_tone"]]
    for channel in range(3):
        if region is None:
            np.multiply(body_weight, lut[0, channel], out=term)
        else:
            np.take(lut[:, channel], region, out=term)
            term *= body_weight
        if pearl_weight is not None:
            term += pearl_weight * np.float32(PEARL[channel])
        np.add(term, skin_weight * np.float32(skin[channel]), out=inner[..., channel])
    coverage = np.zeros((grid, grid), dtype=np.float32)
    coverage[window] = alpha
    return Painted(padded, coverage, plan.window)  # within [0, 253): colours x shade <= 1.06, blends


def _blend_weights(cells: int, pixels: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pillow's bilinear weights from `cells` grid pixels to `pixels` photo pixels: per photo pixel,
    the first of the two grid pixels it blends (border included) and their weights."""
    first = np.empty(pixels, dtype=np.intp)
    near = np.empty(pixels, dtype=np.float32)
    far = np.empty(pixels, dtype=np.float32)
    for out in range(pixels):
        at = (out + 0.5) * cells / pixels - 0.5
        low = math.floor(at)
        first[out], near[out], far[out] = low + 1, 1.0 - (at - low), at - low
    return first, near, far


def _clamp_edges(padded: np.ndarray) -> None:
    """Fill the one-pixel border of `padded` with its edge pixels (Pillow's edge clamping)."""
    padded[1:-1, 0], padded[1:-1, -1] = padded[1:-1, 1], padded[1:-1, -2]
    padded[0], padded[-1] = padded[1], padded[-2]


def _upscale_into(photo: np.ndarray, padded: np.ndarray, cells: int, pixels: int, top: int, left: int) -> None:
    """Bilinear upscale of the inside of `padded` (float32 RGB with a one-pixel border, filled here)
    by pixels / cells, rounded into `photo` (uint8) at (`top`, `left`): columns, then rows."""
    _clamp_edges(padded)
    first, near, far = _blend_weights(cells, pixels)
    rows, columns = (padded.shape[0] - 2) * pixels // cells, (padded.shape[1] - 2) * pixels // cells
    block, out = np.divmod(np.arange(columns), pixels)
    # along the columns, on rows of interleaved RGB: each output value blends two of a row's values
    source = (3 * (block * cells + first[out])[:, None] + np.arange(3)).ravel()
    flat = padded.reshape(padded.shape[0], -1)
    wide = flat[:, source]
    wide *= np.repeat(near[out], 3)
    right = flat[:, source + 3]
    right *= np.repeat(far[out], 3)
    wide += right
    block, out = np.divmod(np.arange(rows), pixels)
    above = block * cells + first[out]
    blended = wide[above]
    blended *= near[out][:, None]
    below = wide[above + 1]
    below *= far[out][:, None]
    blended += below
    blended += np.float32(0.5)
    np.minimum(blended, np.float32(255.0), out=blended)
    target = photo[top:top + rows, left:left + columns]
    np.copyto(target, blended.reshape(target.shape), casting="unsafe")  # truncated: rounded half up


def inner_points(alpha: np.ndarray, window: Window, level: float = 0.95) -> np.ndarray:
    """(x, y) grid points of the window where the lesion's coverage exceeds `level`, row-major."""
    (top, bottom), (left, right) = window
    return np.argwhere(alpha[top:bottom, left:right] > level)[:, ::-1] + (left, top)


def _details(photo: np.ndarray, features: dict[str, Any], rng: np.random.Generator, alpha: np.ndarray,
             scale: float, window: Window) -> None:
    """Fine texture drawn at full resolution into `photo`: scales, fissures, vessels."""
    surface = features["lesion_surface"]
    if not (surface.startswith(("dry", "waxy")) or features.get("visible_blood_vessels")):
        return
    inner = inner_points(alpha, window)
    if inner.size == 0:
        return

    def spots(count: int) -> np.ndarray:
        at = inner[rng.integers(0, len(inner), size=count)] + rng.random((count, 2))
        at *= scale
        return at

    if surface.startswith("dry"):  # white flakes: ACK cases list "white" among their colours
        centres = spots(70)
        fill_ellipses(photo, centres, _flake_sizes(rng, 70), SCALE_COLOR)
    if surface.startswith("waxy"):
        dark = tuple(int(c * 0.55) for c in LESION_COLORS[features["lesion_colors"][-1]])
        starts = spots(9)
        draws = rng.random((9, 4))  # per fissure: its heading in [0, pi), then 3 turns in [-0.6, 0.6)
        turns = -0.6 + 1.2 * draws[:, 1:]
        turns[:, 0] += np.pi * draws[:, 0]
        stroke_polylines(photo, _walk(starts, turns, 7.0), dark)
        # pale dots: the lesion's own colour lightened, not a colour of their own
        own = np.array(LESION_COLORS[features["lesion_colors"][0]], dtype=np.float32)
        pale = tuple(int(c) for c in own + 0.4 * (np.array(PALE_DOT, dtype=np.float32) - own))
        fill_ellipses(photo, spots(10), np.full((10, 2), 2.5), pale)
    if features.get("visible_blood_vessels"):
        starts = spots(4)
        draws = rng.random((4, 6))  # per vessel: its heading in [0, 2 pi), then 5 turns in [-0.8, 0.8)
        turns = -0.8 + 1.6 * draws[:, 1:]
        turns[:, 0] += 2 * np.pi * draws[:, 0]
        stroke_polylines(photo, _walk(starts, turns, 7.0), (170, 20, 40))


def _walk(starts: np.ndarray, turns: np.ndarray, length: float) -> np.ndarray:
    """(n, k + 1, 2) points of n random walks of k steps of `length`, each turning by `turns`."""
    headings = np.cumsum(turns, axis=1)
    steps = length * np.stack((np.cos(headings), np.sin(headings)), axis=2)
    return np.concatenate((starts[:, None, :], starts[:, None, :] + np.cumsum(steps, axis=1)), axis=1)


def _flake_sizes(rng: np.random.Generator, count: int) -> np.ndarray:
    """(half width, half height) of `count` flakes: widths in [3, 7), heights in [2, 4)."""
    sizes = rng.random((count, 2))
    sizes *= (4.0, 2.0)
    sizes += (3.0, 2.0)
    return sizes


_GOLDEN = 0x9E3779B97F4A7C15F39CC0605CEDC835
"""An odd 128-bit constant (the golden ratio's bits): seeds times it spread over PCG64's state."""
_INCREMENT = (_GOLDEN << 1 | 1) % (1 << 128)
"""PCG64's stream constant (odd), fixed."""


def _pattern_rng(pattern: int) -> np.random.Generator:
    """The random stream of one pattern id, the same in any process."""
    generator = np.random.Generator(np.random.PCG64(0))
    generator.bit_generator.state = {"bit_generator": "PCG64", "has_uint32": 0, "uinteger": 0,
                                     "state": {"state": (pattern * _GOLDEN + 1) % (1 << 128), "inc": _INCREMENT}}
    return generator


def _render(features: dict[str, Any], size: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo (uint8 RGB, size x size) and the lesion's coverage on the grid."""
    rng = _pattern_rng(int(features["lesion_pattern_id"]))
    common = math.gcd(GRID, size)
    cells, pixels = GRID // common, size // common  # a block of `cells` grid pixels is `pixels` photo pixels
    padded, alpha, window = _paint(features, rng, GRID, cells)
    photo = np.empty((size, size, 3), dtype=np.uint8)
    photo[0] = SKIN_COLORS[features["skin_tone"]]
    photo[1:] = photo[0]
    (top, bottom), (left, right) = window
    if bottom > top and right > left:
        _upscale_into(photo, padded, cells, pixels, top // cells * pixels, left // cells * pixels)
    _details(photo, features, rng, alpha, size / GRID, window)
    return photo, alpha


def render_lesion(features: dict[str, Any], size: int = 320) -> Image.Image:
    """The photo of a lesion described by `features` (keys of the Telehealth visible state)."""
    return Image.fromarray(_render(features, size)[0], "RGB")


LESION_KEYS = ("lesion_colors", "lesion_shape", "lesion_border", "lesion_surface", "visible_blood_vessels",
               "skin_tone", "lesion_pattern_id", "diameter_mm")
