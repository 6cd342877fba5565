"""Drawing of the Maze module: a numbered grid of white floor and dark wall squares, the
torus in the middle, four coloured spheres, the grey mouse with a nose showing its facing,
and the round button with a labyrinth on it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, editable_copy

WIDTH = HEIGHT = 512
CELL = 44
X0, Y0 = 44, 60
BUTTON_CENTER, BUTTON_RADIUS = (474, 258), 27
WALL_FILL = (52, 56, 64)
MOUSE_FILL = (150, 150, 150)
NOSE = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}


def _center(row: int, column: int) -> tuple[float, float]:
    """Pixel centre of a 1-based (row, column) square."""
    return X0 + (column - 0.5) * CELL, Y0 + (row - 0.5) * CELL


@lru_cache(maxsize=32)
def _board(rows: tuple[str, ...], pressed: bool) -> Image.Image:
    """The static part of the picture, drawn once per maze layout."""
    image, draw = canvas((WIDTH, HEIGHT), "MAZE")
    size = len(rows)
    for index in range(size):
        centered_text(draw, (X0 + index * CELL, Y0 - 22, X0 + (index + 1) * CELL, Y0 - 2), str(index + 1), 16, bold=True)
        centered_text(draw, (8, Y0 + index * CELL, X0 - 4, Y0 + (index + 1) * CELL), str(index + 1), 16, bold=True)
    for r, row in enumerate(rows):
        for c, square in enumerate(row):
            box = (X0 + c * CELL, Y0 + r * CELL, X0 + (c + 1) * CELL - 1, Y0 + (r + 1) * CELL - 1)
            draw.rectangle(box, fill=PALETTE["white"] if square == "." else WALL_FILL, outline=(170, 174, 180))
    draw.rectangle((X0 - 3, Y0 - 3, X0 + size * CELL + 2, Y0 + size * CELL + 2), outline=PALETTE["frame"], width=3)
    _button(draw, pressed)
    return image


def _button(draw: ImageDraw.ImageDraw, pressed: bool) -> None:
    """The round button with a small labyrinth drawn on it."""
    x, y = BUTTON_CENTER
    r = BUTTON_RADIUS
    draw.ellipse((x - r, y - r, x + r, y + r), fill=PALETTE["green"] if pressed else PALETTE["button"],
                 outline=PALETTE["frame"], width=3)
    for k in (14, 8):  # two nested broken squares
        draw.line([(x - k, y - k + 5), (x - k, y + k), (x + k, y + k), (x + k, y - k), (x - k + 6, y - k)],
                  fill=PALETTE["frame"], width=2)
    draw.line([(x - 2, y), (x + 2, y)], fill=PALETTE["frame"], width=2)
    centered_text(draw, (x - 32, y + r + 4, x + 32, y + r + 22), "PRESS", 14, bold=True)


def _disc(draw: ImageDraw.ImageDraw, center: tuple[float, float], radius: float, fill: tuple[int, int, int]) -> None:
    x, y = center
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=PALETTE["ink"], width=2)


def draw_maze(state: dict[str, Any]) -> Image.Image:
    image, draw = editable_copy(_board(tuple(state["maze_rows_top_to_bottom"]), bool(state["button_pressed"])))
    mouse = tuple(state["mouse_row_column"])

    tx, ty = _center(*state["torus_row_column"])
    draw.ellipse((tx - 19, ty - 19, tx + 19, ty + 19), outline=PALETTE["ink"], width=9)
    draw.ellipse((tx - 18, ty - 18, tx + 18, ty + 18), outline=PALETTE[state["torus_color"]], width=7)

    for color, cell in state["sphere_row_column_by_color"].items():
        x, y = _center(*cell)
        _disc(draw, (x, y), 19 if tuple(cell) == mouse else 16, PALETTE[color])
        draw.ellipse((x - 9, y - 10, x - 3, y - 4), fill=(255, 255, 255))  # highlight: a sphere, not a disc

    mx, my = _center(*mouse)
    dx, dy = NOSE[state["mouse_facing"]]
    px, py = -dy, dx  # perpendicular
    _disc(draw, (mx, my), 12, MOUSE_FILL)
    nose = [(mx + dx * 21, my + dy * 21), (mx + dx * 6 + px * 8, my + dy * 6 + py * 8), (mx + dx * 6 - px * 8, my + dy * 6 - py * 8)]
    draw.polygon(nose, fill=PALETTE["ink"])
    return image
