"""The image view of Alice's side: her clue shapes in their places above her working hypothesis,
a pure function of `visible_state`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from comma_env.asympuzl.rules import COLOURS, UNKNOWN
from comma_env.drawing.common import canvas, centered_text, text

PER_ROW = 10
CELL_W, CELL_H = 80, 104
MARGIN, HEADER = 16, 40
WIDTH = MARGIN * 2 + PER_ROW * CELL_W
OUTLINE = (70, 74, 82)
UNKNOWN_FILL = (220, 222, 226)


def _rows(count: int) -> int:
    return max(1, math.ceil(count / PER_ROW))


def image_size(clue_count: int, n: int) -> tuple[int, int]:
    """(width, height) of the picture for `clue_count` clues and `n` hypothesis slots."""
    return WIDTH, HEADER * 2 + (_rows(clue_count) + _rows(n)) * CELL_H + MARGIN


def _regular(sides: int, rotation: float = -math.pi / 2, scale_y: float = 1.0) -> list[tuple[float, float]]:
    return [(math.cos(rotation + 2 * math.pi * k / sides), scale_y * math.sin(rotation + 2 * math.pi * k / sides))
            for k in range(sides)]


def _star(points: int, inner: float) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        radius = 1.0 if k % 2 == 0 else inner
        angle = -math.pi / 2 + math.pi * k / points
        out.append((radius * math.cos(angle), radius * math.sin(angle)))
    return out


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int = 24) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(start + (end - start) * k / steps), cy + r * math.sin(start + (end - start) * k / steps))
            for k in range(steps + 1)]


OUTLINES: dict[str, list[tuple[float, float]]] = {
    "circle": _regular(48),
    "oval": [(x, 0.6 * y) for x, y in _regular(48)],
    "triangle": _regular(3),
    "square": [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)],
    "rectangle": [(-1, -0.55), (1, -0.55), (1, 0.55), (-1, 0.55)],
    "diamond": [(0, -1), (0.65, 0), (0, 1), (-0.65, 0)],
    "pentagon": _regular(5),
    "hexagon": _regular(6),
    "heptagon": _regular(7),
    "octagon": _regular(8, -math.pi / 8),
    "nonagon": _regular(9),
    "decagon": _regular(10),
    "star": _star(5, 0.42),
    "burst": _star(12, 0.65),
    "cross": [(-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1),
              (-0.3, 1), (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)],
    "heart": (_arc(-0.45, -0.35, 0.5, math.pi * 0.8, math.pi * 2)
              + _arc(0.45, -0.35, 0.5, math.pi, math.pi * 2.2) + [(0, 0.95)]),
    "trapezoid": [(-0.5, -0.6), (0.5, -0.6), (1, 0.6), (-1, 0.6)],
    "parallelogram": [(-0.5, -0.6), (1, -0.6), (0.5, 0.6), (-1, 0.6)],
    "kite": [(0, -1), (0.6, -0.35), (0, 1), (-0.6, -0.35)],
    "crescent": (_arc(0, 0, 1, math.pi * 0.3, math.pi * 1.7)
                 + _arc(0.45, 0, 0.75, math.pi * 1.25, math.pi * 0.75, 24)),
    "semicircle": _arc(0, 0.35, 1, math.pi, math.pi * 2),
    "arrow": [(-1, -0.25), (0.2, -0.25), (0.2, -0.65), (1, 0), (0.2, 0.65), (0.2, 0.25), (-1, 0.25)],
    "ring": _arc(0, 0, 1, 0, 2 * math.pi, 40) + _arc(0, 0, 0.55, 2 * math.pi, 0, 40),
    "hourglass": [(-0.7, -1), (0.7, -1), (0.08, 0), (0.7, 1), (-0.7, 1), (-0.08, 0)],
    "chevron": [(-1, -0.8), (-0.3, -0.8), (0.5, 0), (-0.3, 0.8), (-1, 0.8), (-0.2, 0)],
    "lightning": [(0.2, -1), (-0.6, 0.15), (-0.05, 0.15), (-0.3, 1), (0.6, -0.2), (0.05, -0.2), (0.4, -1)],
    "teardrop": [(0, -1)] + _arc(0, 0.3, 0.65, -math.pi * 0.15, math.pi * 1.15),
    "shield": [(-0.85, -0.9), (0.85, -0.9), (0.85, 0.1), (0, 1), (-0.85, 0.1)],
    "bowtie": [(-1, -0.7), (0, -0.15), (1, -0.7), (1, 0.7), (0, 0.15), (-1, 0.7)],
    "house": [(0, -1), (0.85, -0.2), (0.85, 0.9), (-0.85, 0.9), (-0.85, -0.2)],
}
"""Each shape as a polygon in [-1, 1]^2 (y downwards)."""


def _draw_piece(draw: ImageDraw.ImageDraw, x: int, y: int, shape: str, colour: str, index: int) -> None:
    cx, cy, radius = x + CELL_W / 2, y + 42, 28
    centered_text(draw, (x, y, x + CELL_W, y + 14), str(index), 14, fill=OUTLINE)
    if shape == UNKNOWN:
        draw.rectangle((cx - radius, cy - radius, cx + radius, cy + radius), outline=OUTLINE, width=2)
        centered_text(draw, (cx - radius, cy - radius, cx + radius, cy + radius), "?", 28, fill=OUTLINE)
    else:
        points = [(cx + radius * px, cy + radius * py) for px, py in OUTLINES[shape]]
        fill = COLOURS.get(colour, UNKNOWN_FILL)
        draw.polygon(points, fill=fill, outline=OUTLINE, width=2)
    centered_text(draw, (x, y + 76, x + CELL_W, y + 98), colour, 14, fill=OUTLINE)  # UNKNOWN reads "?"


def _grid(draw: ImageDraw.ImageDraw, top: int, slots: Sequence[tuple[str, str]]) -> None:
    for i, (shape, colour) in enumerate(slots):
        row, column = divmod(i, PER_ROW)
        _draw_piece(draw, MARGIN + column * CELL_W, top + row * CELL_H, shape, colour, i + 1)


def draw_alice(state: dict[str, Any]) -> Image.Image:
    """Alice's picture: her clue rows, then her working hypothesis."""
    clues = tuple(state["clues"])
    hypothesis = [tuple(slot) for slot in state["hypothesis"]]
    picture, draw = canvas(image_size(len(clues), len(hypothesis)))
    text(draw, (MARGIN, 12), f"Your clues ({len(clues)} shapes, colours unknown)", 16, fill=OUTLINE, bold=True)
    _grid(draw, HEADER, [(shape, UNKNOWN) for shape in clues])
    second = HEADER + _rows(len(clues)) * CELL_H
    text(draw, (MARGIN, second + 12), f"Your working hypothesis ({len(hypothesis)} positions)", 16, fill=OUTLINE,
         bold=True)
    _grid(draw, second + HEADER, hypothesis)
    return picture
