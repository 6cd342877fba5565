"""Synthetic skin-lesion photos drawn from the feature words of a Telehealth case.

The real PAD-UFES-20 photos cannot ship with the package, so each case is drawn from the
words a describer would use (colours, shape, border, surface, vessels, skin tone) plus a
pattern id that fixes the random detail. Every word is rendered so that it can be seen:
an asymmetric outline is not point-symmetric, a notched border has deep notches, each named
colour covers a visible share of the lesion, and each surface has its own texture (pearly
rim and highlights, yellow-brown crust, white scales, waxy fissures with a pasted-on shadow).
Conversely no colour is drawn that the case does not list, beyond blends of listed colours,
the skin and the pearly sheen (tested over seeds 0-299). The base is computed at low
resolution with vectorised numpy and upscaled only where it is not plain skin.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

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
"""Side of the low-resolution grid the base image is computed on."""
ANGLES = np.linspace(-np.pi, np.pi, 720, endpoint=False)


def radius_px(diameter_mm: float, grid: int = GRID) -> float:
    """Lesion radius on the grid: grows with the diameter, always fits the frame."""
    return float(np.clip(14.0 + 2.4 * diameter_mm, 20.0, 0.36 * grid))


@lru_cache(maxsize=16)
def _bicubic_weights(cells: int, size: int) -> np.ndarray:
    """(size, cells) matrix W such that W @ C @ W.T is Pillow's bicubic resize of C.

    The resize is linear and separable, so resizing a matrix whose column 0 holds a unit
    impulse yields one column of W; two small matrix products then replace a Pillow call
    (and its image conversions) per noise field."""
    weights = np.empty((size, cells), dtype=np.float32)
    for i in range(cells):
        impulse = np.zeros((cells, cells), dtype=np.float32)
        impulse[i, :] = 1.0
        weights[:, i] = np.asarray(Image.fromarray(impulse, mode="F").resize((size, size), Image.BICUBIC))[:, 0]
    weights.flags.writeable = False
    return weights


def _smooth_noise(rng: np.random.Generator, cells: int, size: int) -> np.ndarray:
    """Low-frequency noise in [0, 1] on a size x size grid."""
    coarse = rng.random((cells, cells)).astype(np.float32)
    weights = _bicubic_weights(cells, size)
    array = weights @ coarse @ weights.T
    low = array.min()
    return (array - low) / max(float(array.max() - low), 1e-6)


@lru_cache(maxsize=4)
def _geometry(grid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dy, distance, angle-table index) of every grid pixel from the centre: the same
    for every lesion, so computed once."""
    centre = (grid - 1) / 2.0
    yy, xx = np.mgrid[0:grid, 0:grid].astype(np.float32)
    dx, dy = xx - centre, yy - centre
    theta, rr = np.arctan2(dy, dx), np.hypot(dx, dy)
    index = ((theta + np.pi) * (len(ANGLES) / (2 * np.pi))).astype(np.int32) % len(ANGLES)
    for array in (dx, dy, rr, index):
        array.flags.writeable = False
    return dx, dy, rr, index


def outline_radius(features: dict[str, Any], theta: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Radius of the outline (relative, about 1) at angles `theta`."""
    r = np.ones_like(theta)
    shape, border = features["lesion_shape"], features["lesion_border"]
    if shape == "oval":
        r += rng.uniform(0.16, 0.24) * np.cos(2 * (theta - rng.uniform(0, np.pi)))
    elif shape == "asymmetric":
        r += rng.uniform(0.22, 0.28) * np.cos(theta - rng.uniform(0, 2 * np.pi))
        r += rng.uniform(0.2, 0.26) * np.cos(3 * theta - rng.uniform(0, 2 * np.pi))
        r += 0.08 * np.cos(2 * theta - rng.uniform(0, 2 * np.pi))
    else:
        r += 0.03 * np.cos(2 * (theta - rng.uniform(0, np.pi)))
    if border == "irregular, notched":
        for k in (7, 9, 11):
            r += rng.uniform(0.04, 0.07) * np.cos(k * theta - rng.uniform(0, 2 * np.pi))
        for _ in range(int(rng.integers(3, 6))):
            centre = rng.uniform(0, 2 * np.pi)
            gap = np.angle(np.exp(1j * (theta - centre)))
            r -= rng.uniform(0.18, 0.28) * np.exp(-(gap / 0.12) ** 2)
    elif border == "ill-defined":
        r += 0.04 * np.cos(5 * theta - rng.uniform(0, 2 * np.pi))
    return r


def _paint(features: dict[str, Any], rng: np.random.Generator, grid: int, step: int = 1
           ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The photo on the grid (uint8 RGB), the lesion's coverage (0..1), and the window
    [lo, hi) of rows and columns outside which the photo is plain skin.

    Only the window (aligned to multiples of `step`) is computed: a small lesion costs
    little. Noise fields are still drawn for the whole grid, so the random stream, and the
    picture, do not depend on the window."""
    skin = np.array(SKIN_COLORS[features["skin_tone"]], dtype=np.float32)
    radius = radius_px(float(features["diameter_mm"]), grid)
    table = outline_radius(features, ANGLES, rng)  # 1-D table: far cheaper than per pixel
    reach = radius * float(table.max()) + 8.0  # the outline, its soft edge and a waxy shadow
    centre = (grid - 1) / 2.0
    lo = max(0, int(math.floor((centre - reach) / step)) * step)
    hi = min(grid, int(math.ceil((centre + reach + 1) / step)) * step)
    window = (slice(lo, hi), slice(lo, hi))
    dx, dy, rr, index = (array[window] for array in _geometry(grid))
    edge = (radius * table).astype(np.float32)[index]
    np.maximum(edge, 1.0, out=edge)
    rel = rr / edge
    softness = 0.18 if features["lesion_border"] == "ill-defined" else 0.025
    alpha = np.clip((1.0 - rel) * np.float32(1.0 / softness), 0.0, 1.0)

    body = [c for c in features["lesion_colors"] if not (c == "white" and features["lesion_surface"].startswith("dry"))]
    colors = np.array([LESION_COLORS[c] for c in body], dtype=np.float32)  # a dry surface's white is its flakes
    if len(colors) == 1:
        layer = np.empty(alpha.shape + (3,), dtype=np.float32)
        layer[:] = colors[0]
    else:
        if features["lesion_shape"] == "asymmetric" or len(colors) >= 3:
            field = _smooth_noise(rng, 5, grid)[window]  # blotches
        else:
            field = 1.0 - np.clip(rel, 0, 1)  # concentric: symmetric with the outline
        inside = np.sort(field[alpha > 0.5])
        if inside.size:  # equal shares of the lesion per colour
            picks = (np.arange(1, len(colors)) * inside.size) // len(colors)
            cuts = inside[picks]
        else:
            cuts = np.zeros(len(colors) - 1, dtype=np.float32)
        layer = colors[np.searchsorted(cuts, field)]
    shade = _smooth_noise(rng, 24, grid)[window]
    shade *= 0.12
    shade += 0.94
    layer *= shade[..., None]

    surface = features["lesion_surface"]
    pearl = np.array(PEARL, dtype=np.float32)
    if surface.startswith("pearly"):
        rim = np.clip((rel - 0.72) * 10.0, 0, 1) * alpha
        layer += (pearl - layer) * (0.7 * rim)[..., None]
        glow = np.exp(-((dx + 0.25 * radius) ** 2 + (dy + 0.3 * radius) ** 2) / (0.05 * radius**2))
        layer += (pearl - layer) * (0.55 * glow * alpha)[..., None]
    elif surface.startswith("scaly crust"):
        crust = (_smooth_noise(rng, 7, grid)[window] > 0.45) & (rel < 0.75)
        crust_color = np.array(LESION_COLORS["yellow-brown"], dtype=np.float32)
        layer[crust] = crust_color * (0.9 + 0.2 * _smooth_noise(rng, 30, grid)[window][crust, None])
    if surface.startswith("waxy"):
        shadow = np.clip((1.0 - np.hypot(dx - 3, dy - 4) / edge) * 20.0, 0, 1)
        ring = np.clip((rel - 0.9) * 10.0, 0, 1) * alpha
        layer *= (1.0 - 0.3 * ring)[..., None]
        outside = 1.0 - alpha
        base = skin * (outside * (1.0 - 0.35 * shadow * outside))[..., None]
    else:
        base = np.broadcast_to(skin, layer.shape) * (1.0 - alpha)[..., None]
    layer *= alpha[..., None]
    base += layer
    np.clip(base, 0, 255, out=base)
    photo = np.empty((grid, grid, 3), dtype=np.uint8)
    photo[:] = SKIN_COLORS[features["skin_tone"]]
    photo[window] = base
    coverage = np.zeros((grid, grid), dtype=np.float32)
    coverage[window] = alpha
    return photo, coverage, (lo, hi)


def _details(image: Image.Image, features: dict[str, Any], rng: np.random.Generator, alpha: np.ndarray,
             scale: float) -> None:
    """Fine texture drawn at full resolution: scales, fissures, vessels."""
    draw = ImageDraw.Draw(image)
    inner = np.argwhere(alpha > 0.95)
    if inner.size == 0:
        return
    surface = features["lesion_surface"]

    def spots(count: int) -> np.ndarray:
        picks = inner[rng.integers(0, len(inner), size=count)]
        return (picks[:, ::-1] + rng.random((count, 2))) * scale

    if surface.startswith("dry"):  # white flakes: ACK cases list "white" among their colours
        for x, y in spots(70):
            w, h = rng.uniform(3, 7), rng.uniform(2, 4)
            draw.ellipse((x - w, y - h, x + w, y + h), fill=SCALE_COLOR)
    if surface.startswith("waxy"):
        dark = tuple(int(c * 0.55) for c in LESION_COLORS[features["lesion_colors"][-1]])
        for x, y in spots(9):
            points = [(x, y)]
            angle = rng.uniform(0, np.pi)
            for _ in range(3):
                angle += rng.uniform(-0.6, 0.6)
                x, y = x + 7 * np.cos(angle), y + 7 * np.sin(angle)
                points.append((x, y))
            draw.line(points, fill=dark, width=2)
        # pale dots: the lesion's own colour lightened, not a colour of their own
        own = np.array(LESION_COLORS[features["lesion_colors"][0]], dtype=np.float32)
        pale = tuple(int(c) for c in own + 0.4 * (np.array(PALE_DOT, dtype=np.float32) - own))
        for x, y in spots(10):
            draw.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=pale)
    if features.get("visible_blood_vessels"):
        for x, y in spots(4):
            points = [(x, y)]
            angle = rng.uniform(0, 2 * np.pi)
            for _ in range(5):
                angle += rng.uniform(-0.8, 0.8)
                x, y = x + 7 * np.cos(angle), y + 7 * np.sin(angle)
                points.append((x, y))
            draw.line(points, fill=(170, 20, 40), width=2)


def _upscale(base: np.ndarray, window: tuple[int, int], skin: tuple[int, int, int], size: int) -> Image.Image:
    """Bilinear upscale of the grid to `size`, computed only over the window (outside it
    the grid is plain skin, and so is its upscale)."""
    grid = base.shape[0]
    lo, hi = window
    photo = Image.new("RGB", (size, size), skin)
    if hi <= lo:
        return photo
    scale = size / grid
    start, stop = round(lo * scale), round(hi * scale)
    patch = Image.fromarray(base, "RGB").resize((stop - start, stop - start), Image.BILINEAR, box=(lo, lo, hi, hi))
    photo.paste(patch, (start, start))
    return photo


def _key(features: dict[str, Any]) -> str:
    return json.dumps({k: features[k] for k in sorted(features)}, sort_keys=True)


@lru_cache(maxsize=64)
def _render(key: str, size: int) -> tuple[Image.Image, np.ndarray, np.ndarray]:
    features = json.loads(key)
    rng = np.random.default_rng(int(features["lesion_pattern_id"]))
    step = GRID // math.gcd(GRID, size)  # grid pixels per whole number of photo pixels
    base, alpha, window = _paint(features, rng, GRID, step)
    image = _upscale(base, window, SKIN_COLORS[features["skin_tone"]], size)
    _details(image, features, rng, alpha, size / GRID)
    alpha.flags.writeable = False
    pixels = np.asarray(image)
    pixels.flags.writeable = False
    return image, alpha, pixels


def render_lesion(features: dict[str, Any], size: int = 320) -> Image.Image:
    """The photo of a lesion described by `features` (keys of the Telehealth visible state)."""
    return _render(_key(_lesion_part(features)), size)[0].copy()


def lesion_pixels(features: dict[str, Any], size: int = 320) -> np.ndarray:
    """`render_lesion` as a read-only RGB array (cached with the photo)."""
    return _render(_key(_lesion_part(features)), size)[2]


def lesion_mask(features: dict[str, Any], size: int = 320, level: float = 0.5) -> np.ndarray:
    """Where the lesion covers more than `level` of `render_lesion(features, size)`
    (boolean; for tests, not hot)."""
    alpha = _render(_key(_lesion_part(features)), size)[1]
    scaled = Image.fromarray((alpha * 255).astype(np.uint8), "L").resize((size, size), Image.BILINEAR)
    return np.asarray(scaled) > round(255 * level)


LESION_KEYS = ("lesion_colors", "lesion_shape", "lesion_border", "lesion_surface", "visible_blood_vessels",
               "skin_tone", "lesion_pattern_id", "diameter_mm")


def _lesion_part(state: dict[str, Any]) -> dict[str, Any]:
    return {k: state[k] for k in LESION_KEYS}
