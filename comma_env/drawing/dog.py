"""Drawing of the Dog module: a park picture with 0-5 dog silhouettes (one per cell of a
3x2 grid, so no dog hides another), a countdown display and the submit button.

Each dog is built from simple shapes in a 100x80 box facing right (body, neck, head with a
snout and an ear, four legs, a tail), posed by moving the legs and body, then scaled and
mirrored into its cell. A dark outline keeps every coat visible on the grass.

Layers: the picture (the dogs), the timer and the lamp."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, countdown_layers, text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.dog import GRID

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

Shape = tuple[str, list[tuple[float, float]]]


def _leg(x: float, y: float, dx: float, length: float) -> Shape:
    return ("leg", [(x, y), (x + dx, y + length)])


def dog_shapes(pose: str) -> list[Shape]:
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


def _draw_dog(draw: ImageDraw.ImageDraw, dog: dict[str, Any], box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / 104, (y1 - y0) / 82)
    left = x0 + ((x1 - x0) - 100 * scale) / 2
    top = y1 - 80 * scale
    mirror = dog["facing"] == "left"

    def at(point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        return (left + (100 - x if mirror else x) * scale, top + y * scale)

    def rect(a: tuple[float, float], b: tuple[float, float]) -> list[float]:
        (ax, ay), (bx, by) = at(a), at(b)
        return [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)]

    fill = COAT_RGB[dog["coat"]]
    shapes = dog_shapes(dog["pose"])
    outline = max(2, round(2.2 * scale))
    thick = max(4, round(9 * scale))
    # outline pass, then fill pass: overlapping parts merge into one silhouette
    for width_extra, colour in ((outline * 2, OUTLINE), (0, fill)):
        for kind, pts in shapes:
            if kind == "ellipse":
                r = rect(*pts)
                draw.ellipse([r[0] - width_extra / 2, r[1] - width_extra / 2, r[2] + width_extra / 2, r[3] + width_extra / 2], fill=colour)
            elif kind in ("leg", "neck"):
                w = thick * (2 if kind == "neck" else 1) + width_extra
                draw.line([at(p) for p in pts], fill=colour, width=int(w))
                end = at(pts[-1])
                draw.ellipse([end[0] - w / 2, end[1] - w / 2, end[0] + w / 2, end[1] + w / 2], fill=colour)
            elif kind == "tail":
                draw.line([at(p) for p in pts], fill=colour, width=int(max(3, 5 * scale) + width_extra), joint="curve")
            elif kind == "ear" and width_extra == 0:
                ear = (90, 60, 35) if dog["coat"] in ("white", "spotted", "golden", "grey") else (80, 75, 70)
                draw.polygon([at(p) for p in pts], fill=ear, outline=OUTLINE)
    head = next(pts for kind, pts in reversed(shapes) if kind == "ellipse" and pts[0][1] < 40 or kind == "ellipse")
    snout = [pts for kind, pts in shapes if kind == "ellipse"][-1]
    nose = at((snout[1][0] - 2, (snout[0][1] + snout[1][1]) / 2 - 2))
    r = max(2.5, 3.2 * scale)
    draw.ellipse([nose[0] - r, nose[1] - r, nose[0] + r, nose[1] + r], fill=OUTLINE)
    eye_box = [pts for kind, pts in shapes if kind == "ellipse"][-2]
    eye = at(((eye_box[0][0] + eye_box[1][0]) / 2 + 5, (eye_box[0][1] + eye_box[1][1]) / 2 - 2))
    r = max(2, 2.4 * scale)
    eye_fill = (245, 245, 245) if dog["coat"] == "black" else OUTLINE
    draw.ellipse([eye[0] - r, eye[1] - r, eye[0] + r, eye[1] + r], fill=eye_fill)
    if dog["coat"] == "spotted":
        body = [pts for kind, pts in shapes if kind == "ellipse"][0]
        (bx0, by0), (bx1, by1) = body
        for fx, fy, fr in ((0.3, 0.35, 0.12), (0.6, 0.55, 0.1), (0.45, 0.25, 0.07)):
            c = at((bx0 + fx * (bx1 - bx0), by0 + fy * (by1 - by0)))
            rr = fr * (bx1 - bx0) * scale * 0.6
            draw.ellipse([c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr], fill=OUTLINE)
    del head


@lru_cache(maxsize=1)
def _template() -> Image.Image:
    image, draw = canvas((512, 512), "DOGS")
    x0, y0, x1, y1 = PICTURE
    horizon = y0 + (y1 - y0) * 0.32
    draw.rectangle((x0, y0, x1, horizon), fill=SKY)
    draw.rectangle((x0, horizon, x1, y1), fill=GRASS)
    draw.rectangle(PICTURE, outline=PALETTE["frame"], width=4)
    draw.rounded_rectangle((300, 400, 470, 480), radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=4)
    centered_text(draw, (300, 400, 470, 480), "SUBMIT", 28, bold=True)
    text(draw, (44, 392), "TIME LEFT", 14, fill=PALETTE["frame"], bold=True)
    return image


def cell_box(cell: int, dx: float, dy: float, size: float) -> tuple[float, float, float, float]:
    """Pixel box of a dog in grid cell `cell`, jittered by (dx, dy) and scaled by `size`."""
    columns, rows = GRID
    x0, y0, x1, y1 = PICTURE
    top = y0 + (y1 - y0) * 0.12
    width, height = (x1 - x0 - 16) / columns, (y1 - top - 8) / rows
    column, row = cell % columns, cell // columns
    cx = x0 + 8 + width * (column + 0.5 + dx)
    cy = top + height * (row + 0.5 + dy)
    w, h = width * size, height * size
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _freeze(value: Any) -> Any:
    """A hashable copy of JSON-like data (dicts become sorted item tuples)."""
    if isinstance(value, dict):
        return tuple(sorted((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    return value


def _paint_dogs(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[tuple, tuple]) -> None:
    dogs, places = key
    for dog, (cell, dx, dy, size) in zip(dogs, places):
        _draw_dog(draw, dict(dog), cell_box(int(cell), dx, dy, size))


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    x0, y0, x1, y1 = PICTURE
    return {
        "dogs": Layer((x0, y0, x1 + 1, y1 + 1), (_freeze(state["dogs"]), _freeze(state["dog_places"])), _paint_dogs),
        **countdown_layers(state["timer"], bool(state.get("module_disarmed")), lamp_x=240),
    }


draw_dog = Scene((512, 512), _template, _layers)
