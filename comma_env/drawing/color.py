"""Drawing of the Color module: a 4x4 grid of coloured squares with row and column numbers,
so that the solver can name each square as press_r_c.

Layers: one per square's inside, whose pixels are one cached array per colour (the squares'
ink outlines, the same in every colour, are in the background: a recoloured square writes
its inside only)."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import chain
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.color import ColorPuzzle

_ORIGIN = (92, 92)
_CELL = 96
_GAP = 8


@lru_cache(maxsize=1)
def _board() -> Image.Image:
    """Frame, title and the row/column numbers: the same in every state, drawn once."""
    image, draw = canvas(ColorPuzzle.image_size, "COLORS")
    x_origin, y_origin = _ORIGIN
    for index in range(4):
        x = x_origin + index * _CELL + (_CELL - _GAP) / 2
        y = y_origin + index * _CELL + (_CELL - _GAP) / 2
        centered_text(draw, (x - 20, 52, x + 20, 86), str(index + 1), 24, bold=True)
        centered_text(draw, (44, y - 20, 84, y + 20), str(index + 1), 24, bold=True)
    for row in range(4):
        for column in range(4):
            x0, y0 = x_origin + column * _CELL, y_origin + row * _CELL
            draw.rectangle((x0, y0, x0 + _CELL - _GAP, y0 + _CELL - _GAP), outline=PALETTE["ink"], width=_OUTLINE)
    return image


_OUTLINE = 3
_INSIDE = _CELL - _GAP + 1 - 2 * _OUTLINE
"""Width in pixels of a square's inside (its layer's box is the square less the outline)."""


def _paint_square(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, int, str]) -> None:
    x0, y0, color = key
    draw.rectangle((x0, y0, x0 + _INSIDE - 1, y0 + _INSIDE - 1), fill=PALETTE.get(color, PALETTE["grey"]))


@cache
def _square_pixels(color: str) -> np.ndarray:
    """A square's inside in `color`: the same wherever it stands (it fills its whole box), so
    one read-only array per colour serves all sixteen squares."""
    pixels = np.empty((_INSIDE, _INSIDE, 3), dtype=np.uint8)
    pixels[...] = PALETTE.get(color, PALETTE["grey"])
    pixels.flags.writeable = False
    return pixels


def _square_layer_pixels(key: tuple[int, int, str]) -> np.ndarray:
    return _square_pixels(key[2])


_paint_square.pixels = _square_layer_pixels  # type: ignore[attr-defined]  # the scene copies these instead of painting


@cache
def _square_layer(row: int, column: int, color: str) -> tuple[str, Layer]:
    """The name and layer of one square in one colour (16 squares x a few colours, made
    once: every step of a stage change rebuilds the layer table)."""
    x0 = _ORIGIN[0] + column * _CELL + _OUTLINE
    y0 = _ORIGIN[1] + row * _CELL + _OUTLINE
    return f"square_{row + 1}_{column + 1}", Layer((x0, y0, x0 + _INSIDE, y0 + _INSIDE), (x0, y0, color), _paint_square)


@lru_cache(maxsize=4096)
def _row_layers(row: int, colors: tuple[str, ...]) -> tuple[tuple[str, Layer], ...]:
    """The names and layers of one row of squares (a few colours to the fourth power per row:
    a new instance finds most rows made, where it would look up sixteen squares)."""
    return tuple(_square_layer(row, column, color) for column, color in enumerate(colors))


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    return dict(chain.from_iterable(_row_layers(row, tuple(colors))
                                    for row, colors in enumerate(state["square_colors_by_row"])))


draw_color = Scene(ColorPuzzle.image_size, _board, _layers)
