"""Drawing of the Dog module: a park with 0-5 dogs (one per cell of a 3x2 grid), the countdown and
the submit button. Each dog is a map of pixel classes at the largest 1/16 scale that fits its cell."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, countdown, countdown_display, text
from comma_env.puzzles.dog import GRID, DogPuzzle

COAT_RGB = {
    "brown": (139, 90, 43),
    "black": (35, 32, 30),
    "white": (245, 243, 236),
    "golden": (222, 170, 70),
    "grey": (140, 140, 145),
    "spotted": (245, 243, 236),
}
OUTLINE = (25, 22, 20)
GRASS = (150, 200, 120)
SKY = (205, 228, 245)
PICTURE = (24, 56, 488, 376)  # x0, y0, x1, y1 of the photo area

Part = tuple[str, list[tuple[float, float]]]  # (kind, points) of one drawn part, e.g. ("ellipse", [corner, corner])


def _leg(x: float, y: float, dx: float, length: float) -> Part:
    return ("leg", [(x, y), (x + dx, y + length)])


def dog_shapes(pose: str) -> list[Part]:
    """Shapes of one dog facing right in a 100x80 box (ground at y = 78)."""
    if pose == "sitting":
        return [
            ("ellipse", [(22, 34), (62, 74)]),                   # haunch
            ("ellipse", [(44, 24), (70, 66)]),                   # chest
            _leg(60, 56, 0, 22), _leg(52, 58, 0, 20),            # front legs
            ("ellipse", [(14, 62), (46, 78)]),                   # folded hind leg
            ("tail", [(24, 60), (10, 70), (4, 64)]),
            ("ellipse", [(54, 2), (82, 28)]),                    # head
            ("ellipse", [(74, 12), (96, 26)]),                   # snout
            ("ear", [(56, 4), (64, 4), (56, 24)]),
        ]
    if pose == "lying":
        return [
            ("ellipse", [(10, 50), (78, 74)]),                   # body on the ground
            ("leg", [(64, 70), (94, 74)]), ("leg", [(56, 72), (86, 77)]),  # front legs forward
            ("ellipse", [(8, 64), (34, 78)]),                    # hind leg
            ("tail", [(12, 60), (2, 56), (-4, 60)]),
            ("ellipse", [(62, 28), (88, 54)]),                   # head
            ("ellipse", [(80, 38), (100, 52)]),                  # snout
            ("ear", [(64, 30), (72, 30), (64, 50)]),
        ]
    spread = 9 if pose == "running" else 0
    return [
        ("ellipse", [(14, 26), (76, 54)]),                       # body
        _leg(66, 46, spread, 32), _leg(58, 46, -spread * 0.5, 32),   # front legs
        _leg(26, 46, -spread, 32), _leg(18, 46, spread * 0.5, 32),   # hind legs
        ("tail", [(16, 34), (6, 24), (2, 12 if pose == "standing" else 30)]),
        ("neck", [(62, 34), (72, 14)]),
        ("ellipse", [(62, 2), (88, 28)]),                        # head
        ("ellipse", [(80, 12), (100, 26)]),                      # snout
        ("ear", [(64, 4), (72, 4), (64, 24)]),
    ]


OUTLINE_CLASS, COAT_CLASS, EAR_CLASS, EYE_CLASS = 1, 2, 3, 4
"""Pixel classes of a sprite's label map (0: not the dog); a coat's palette colours them."""
SCALE_STEPS = 16  # sprites are drawn at multiples of 1/16 of their size


@lru_cache(maxsize=256)  # placing a dog tries scale steps until one fits its cell
def _labels(pose: str, mirror: bool, spotted: bool, scale_steps: int) -> np.ndarray:
    """One dog drawn as pixel classes, cropped to its pixels (read-only)."""
    scale = scale_steps / SCALE_STEPS
    pad = 8 + math.ceil(14 * scale)  # room for outlines, leg ends and a tail behind the box
    width, height = math.ceil(100 * scale) + 2 * pad, math.ceil(80 * scale) + 2 * pad
    image = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(image)

    def at(point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        return (pad + (100 - x if mirror else x) * scale, pad + y * scale)

    def rect(a: tuple[float, float], b: tuple[float, float]) -> list[float]:
        (ax, ay), (bx, by) = at(a), at(b)
        return [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)]

    shapes = dog_shapes(pose)
    outline = max(2, round(2.2 * scale))
    thick = max(4, round(9 * scale))
    # outline pass, then fill pass: overlapping parts merge into one silhouette
    for width_extra, label in ((outline * 2, OUTLINE_CLASS), (0, COAT_CLASS)):
        for kind, pts in shapes:
            if kind == "ellipse":
                r = rect(*pts)
                draw.ellipse([r[0] - width_extra / 2, r[1] - width_extra / 2, r[2] + width_extra / 2,
                              r[3] + width_extra / 2], fill=label)
            elif kind in ("leg", "neck"):
                w = thick * (2 if kind == "neck" else 1) + width_extra
                draw.line([at(p) for p in pts], fill=label, width=int(w))
                end = at(pts[-1])
                draw.ellipse([end[0] - w / 2, end[1] - w / 2, end[0] + w / 2, end[1] + w / 2], fill=label)
            elif kind == "tail":
                draw.line([at(p) for p in pts], fill=label, width=int(max(3, 5 * scale) + width_extra), joint="curve")
            elif kind == "ear" and width_extra == 0:
                draw.polygon([at(p) for p in pts], fill=EAR_CLASS, outline=OUTLINE_CLASS)
    ellipses = [pts for kind, pts in shapes if kind == "ellipse"]
    snout, head, body = ellipses[-1], ellipses[-2], ellipses[0]
    nose = at((snout[1][0] - 2, (snout[0][1] + snout[1][1]) / 2 - 2))
    radius = max(2.5, 3.2 * scale)
    draw.ellipse([nose[0] - radius, nose[1] - radius, nose[0] + radius, nose[1] + radius], fill=OUTLINE_CLASS)
    eye = at(((head[0][0] + head[1][0]) / 2 + 5, (head[0][1] + head[1][1]) / 2 - 2))
    radius = max(2, 2.4 * scale)
    draw.ellipse([eye[0] - radius, eye[1] - radius, eye[0] + radius, eye[1] + radius], fill=EYE_CLASS)
    if spotted:
        (bx0, by0), (bx1, by1) = body
        for fx, fy, fr in ((0.3, 0.35, 0.12), (0.6, 0.55, 0.1), (0.45, 0.25, 0.07)):
            c = at((bx0 + fx * (bx1 - bx0), by0 + fy * (by1 - by0)))
            rr = fr * (bx1 - bx0) * scale * 0.6
            draw.ellipse([c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr], fill=OUTLINE_CLASS)
    labels = np.asarray(image)
    rows, columns = np.flatnonzero(labels.any(axis=1)), np.flatnonzero(labels.any(axis=0))
    labels = labels[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1].copy()
    labels.flags.writeable = False
    return labels


def _palette(coat: str) -> np.ndarray:
    """The colour of each pixel class in a coat."""
    ear = (90, 60, 35) if coat in ("white", "spotted", "golden", "grey") else (80, 75, 70)
    eye = (245, 245, 245) if coat == "black" else OUTLINE
    return np.array([(0, 0, 0), OUTLINE, COAT_RGB[coat], ear, eye], dtype=np.uint8)


_GRID_TOP = PICTURE[1] + (PICTURE[3] - PICTURE[1]) * 0.12
_CELL_WIDTH, _CELL_HEIGHT = (PICTURE[2] - PICTURE[0] - 16) / GRID[0], (PICTURE[3] - _GRID_TOP - 8) / GRID[1]


def cell_box(cell: int, dx: float, dy: float, size: float) -> tuple[float, float, float, float]:
    """Pixel box of a dog in grid cell `cell`, jittered by (dx, dy) and scaled by `size`."""
    width, height = _CELL_WIDTH, _CELL_HEIGHT
    row, column = divmod(cell, GRID[0])
    cx = PICTURE[0] + 8 + width * (column + 0.5 + dx)
    cy = _GRID_TOP + height * (row + 0.5 + dy)
    w, h = width * size, height * size
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


class Placement(NamedTuple):
    """A dog as drawn: its sprite, the sprite's top-left pixel and its size."""

    coat: str
    pose: str
    mirror: bool
    scale_steps: int
    x: int
    y: int
    width: int
    height: int


def placement(coat: str, pose: str, facing: str, cell: int, dx: float, dy: float, size: float) -> Placement:
    """Where a dog is drawn: its sprite at the largest scale step that fits its cell with a pixel
    to spare, centred and standing on the cell's bottom edge."""
    x0, y0, x1, y1 = cell_box(cell, dx, dy, size)
    left, top, right, bottom = math.ceil(x0 + 1), math.ceil(y0 + 1), math.floor(x1 - 1), math.floor(y1 - 1)
    mirror, spotted = facing == "left", coat == "spotted"
    steps = round(min((x1 - x0) / 104, (y1 - y0) / 82) * SCALE_STEPS)
    while steps > 1:
        height, width = _labels(pose, mirror, spotted, steps).shape
        if width <= right - left and height <= bottom - top:
            break
        steps -= 1
    height, width = _labels(pose, mirror, spotted, steps).shape
    return Placement(coat, pose, mirror, steps, left + (right - left - width) // 2, bottom - height, width, height)


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The park without dogs, the submit button and the empty timer display."""
    x0, y0, x1, y1 = PICTURE
    horizon = y0 + (y1 - y0) * 0.32
    draw.rectangle((x0, y0, x1, horizon), fill=SKY)
    draw.rectangle((x0, horizon, x1, y1), fill=GRASS)
    draw.rectangle(PICTURE, outline=PALETTE["frame"], width=4)
    draw.rounded_rectangle((300, 400, 470, 480), radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=4)
    centered_text(draw, (300, 400, 470, 480), "SUBMIT", 28, bold=True)
    text(draw, (44, 392), "TIME LEFT", 14, fill=PALETTE["frame"], bold=True)
    countdown_display(draw)


def draw_dog(state: dict[str, Any]) -> np.ndarray:
    image, draw = canvas(DogPuzzle.image_size, "DOGS", _fixed)
    countdown(draw, state["timer"], bool(state.get("module_disarmed")), lamp_x=240)
    pixels = np.array(image)
    for dog, (cell, dx, dy, size) in zip(state["dogs"], state["dog_places"], strict=True):
        where = placement(dog["coat"], dog["pose"], dog["facing"], int(cell), dx, dy, size)
        labels = _labels(where.pose, where.mirror, where.coat == "spotted", where.scale_steps)
        region = pixels[where.y:where.y + where.height, where.x:where.x + where.width]
        on_dog = labels > 0
        region[on_dog] = _palette(where.coat)[labels[on_dog]]
    return pixels
