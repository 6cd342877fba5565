"""Drawing of the Maze module: a numbered grid of white floor and dark wall squares, the
torus in the middle, four coloured spheres, the grey mouse with a nose showing its facing,
and the round button with a labyrinth on it.

Layers: one per square (a move redraws the two squares the mouse leaves and enters), the
numbers and frame of the grid (four layers around the squares, so that each square is drawn from
its own key alone: one cached raster per kind of square), and the button."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.maze import MazePuzzle

WIDTH, HEIGHT = MazePuzzle.image_size
CELL = 44
X0, Y0 = 44, 60
BUTTON_CENTER, BUTTON_RADIUS = (474, 258), 27
WALL_FILL = (52, 56, 64)
MOUSE_FILL = (150, 150, 150)
NOSE = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}


def _center(row: int, column: int) -> tuple[float, float]:
    """Pixel centre of a 1-based (row, column) square."""
    return X0 + (column - 0.5) * CELL, Y0 + (row - 0.5) * CELL


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    return canvas((WIDTH, HEIGHT), "MAZE")[0]


def _paint_grid(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, str]) -> None:
    """One side of the grid's frame, with the row numbers (left) or column numbers (top):
    four layers around the squares, so that no layer overlaps a square and each square's
    pixels depend on its own key alone (`_cell_pixels`)."""
    size, side = key
    end = size * CELL  # the squares span X0..X0+end-1 and Y0..Y0+end-1; the frame is 3 px outside
    frame = PALETTE["frame"]
    if side == "top":
        for index in range(size):
            centered_text(draw, (X0 + index * CELL, Y0 - 22, X0 + (index + 1) * CELL, Y0 - 2), str(index + 1), 16,
                          bold=True)
        draw.rectangle((X0 - 3, Y0 - 3, X0 + end + 2, Y0 - 1), fill=frame)
    elif side == "left":
        for index in range(size):
            centered_text(draw, (8, Y0 + index * CELL, X0 - 4, Y0 + (index + 1) * CELL), str(index + 1), 16,
                          bold=True)
        draw.rectangle((X0 - 3, Y0, X0 - 1, Y0 + end - 1), fill=frame)
    elif side == "right":
        draw.rectangle((X0 + end, Y0, X0 + end + 2, Y0 + end - 1), fill=frame)
    else:
        draw.rectangle((X0 - 3, Y0 + end, X0 + end + 2, Y0 + end + 2), fill=frame)


def _grid_boxes(size: int) -> dict[str, tuple[int, int, int, int]]:
    end = size * CELL
    return {"top": (8, Y0 - 22, X0 + end + 3, Y0), "left": (8, Y0, X0, Y0 + end),
            "right": (X0 + end, Y0, X0 + end + 3, Y0 + end), "bottom": (X0 - 3, Y0 + end, X0 + end + 3, Y0 + end + 3)}


def _paint_button(image: Image.Image, draw: ImageDraw.ImageDraw, pressed: bool) -> None:
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


CellKey = tuple[int, int, bool, "str | None", "str | None", "str | None"]
"""(row, column, floor?, torus colour, sphere colour, mouse facing) of one square."""


def _paint_cell(image: Image.Image, draw: ImageDraw.ImageDraw, key: CellKey) -> None:
    row, column, floor, torus, sphere, facing = key
    box = (X0 + (column - 1) * CELL, Y0 + (row - 1) * CELL, X0 + column * CELL - 1, Y0 + row * CELL - 1)
    draw.rectangle(box, fill=PALETTE["white"] if floor else WALL_FILL, outline=(170, 174, 180))
    x, y = _center(row, column)
    if torus is not None:
        draw.ellipse((x - 19, y - 19, x + 19, y + 19), outline=PALETTE["ink"], width=9)
        draw.ellipse((x - 18, y - 18, x + 18, y + 18), outline=PALETTE[torus], width=7)
    if sphere is not None:
        _disc(draw, (x, y), 19 if facing is not None else 16, PALETTE[sphere])
        draw.ellipse((x - 9, y - 10, x - 3, y - 4), fill=(255, 255, 255))  # highlight: a sphere, not a disc
    if facing is not None:
        dx, dy = NOSE[facing]
        px, py = -dy, dx  # perpendicular
        _disc(draw, (x, y), 12, MOUSE_FILL)
        nose = [(x + dx * 21, y + dy * 21), (x + dx * 6 + px * 8, y + dy * 6 + py * 8),
                (x + dx * 6 - px * 8, y + dy * 6 - py * 8)]
        draw.polygon(nose, fill=PALETTE["ink"])


@lru_cache(maxsize=512)
def _cell_raster(floor: bool, torus: str | None, sphere: str | None, facing: str | None) -> np.ndarray:
    """A square's pixels: the same in every square (each is drawn relative to its own whole-
    pixel box, which it fills), so the few kinds of square are drawn once each."""
    x0, y0, x1, y1 = _cell_box(1, 1)
    image = Image.new("RGB", (x1, y1))
    _paint_cell(image, ImageDraw.Draw(image), (1, 1, floor, torus, sphere, facing))
    pixels = np.asarray(image)[y0:y1, x0:x1].copy()
    pixels.flags.writeable = False
    return pixels


def _cell_pixels(key: CellKey) -> np.ndarray:
    return _cell_raster(*key[2:])


_paint_cell.pixels = _cell_pixels  # type: ignore[attr-defined]  # the scene copies these instead of painting


def _cell_box(r: int, c: int) -> tuple[int, int, int, int]:
    return X0 + (c - 1) * CELL, Y0 + (r - 1) * CELL, X0 + c * CELL, Y0 + r * CELL


@lru_cache(maxsize=16)
def _square_layers(size: int) -> tuple[dict[str, Layer], list[str], list[tuple[Layer, Layer]]]:
    """The grid's layers, and each square's name and (wall, floor) layers without objects, in
    reading order: built once per maze size, since every reset draws a new maze."""
    grid = {f"grid_{side}": Layer(box, (size, side), _paint_grid) for side, box in _grid_boxes(size).items()}
    squares = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    names = [f"cell_{r}_{c}" for r, c in squares]

    def variant(r: int, c: int, floor: bool) -> Layer:
        return Layer(_cell_box(r, c), (r, c, floor, None, None, None), _paint_cell)

    variants = [(variant(r, c, False), variant(r, c, True)) for r, c in squares]
    return grid, names, variants


@lru_cache(maxsize=64)
def _empty_layers(rows: tuple[str, ...]) -> dict[str, Layer]:
    """The grid and every square without objects: the same for every state of one maze."""
    grid, names, variants = _square_layers(len(rows))
    floors = [square == "." for line in rows for square in line]
    if len(floors) != len(names):
        raise ValueError(f"a maze must be square, not {len(rows)} rows of {len(rows[0])}")
    return {**grid, **{name: pair[floor] for name, pair, floor in zip(names, variants, floors, strict=True)}}


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    rows = tuple(state["maze_rows_top_to_bottom"])
    layers = dict(_empty_layers(rows))
    torus = tuple(state["torus_row_column"])
    mouse = tuple(state["mouse_row_column"])
    spheres = {tuple(cell): color for color, cell in state["sphere_row_column_by_color"].items()}
    for cell in {torus, mouse, *spheres}:
        r, c = cell
        name, layer = _object_layer((r, c, rows[r - 1][c - 1] == ".", state["torus_color"] if cell == torus else None,
                                     spheres.get(cell), state["mouse_facing"] if cell == mouse else None))
        layers[name] = layer
    layers["button"] = _button_layer(bool(state["button_pressed"]))
    return layers


@lru_cache(maxsize=4096)
def _object_layer(key: CellKey) -> tuple[str, Layer]:
    """Name and layer of a square holding the torus, a sphere or the mouse: the same object
    while it stays, so the scene sees it unchanged by identity, without comparing keys."""
    return f"cell_{key[0]}_{key[1]}", Layer(_cell_box(key[0], key[1]), key, _paint_cell)


@lru_cache(maxsize=2)
def _button_layer(pressed: bool) -> Layer:
    x, y = BUTTON_CENTER
    return Layer((x - 33, y - BUTTON_RADIUS - 1, x + 34, y + BUTTON_RADIUS + 24), pressed, _paint_button)


draw_maze = Scene((WIDTH, HEIGHT), _background, _layers)
