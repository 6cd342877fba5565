"""Drawing of the Color module: a 4x4 grid of coloured squares with row and column numbers,
so that the solver can name each square as press_r_c."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.puzzles.color import ColorPuzzle

_ORIGIN = (92, 92)
_CELL = 96
_GAP = 8


_OUTLINE = 3


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The row and column numbers and the squares' outlines."""
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


def draw_color(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(ColorPuzzle.image_size, "COLORS", _fixed)
    for row, colors in enumerate(state["square_colors_by_row"]):
        for column, color in enumerate(colors):
            x0, y0 = _ORIGIN[0] + column * _CELL + _OUTLINE, _ORIGIN[1] + row * _CELL + _OUTLINE
            inside = _CELL - _GAP - 2 * _OUTLINE  # the square less its outline
            draw.rectangle((x0, y0, x0 + inside, y0 + inside), fill=PALETTE.get(color, PALETTE["grey"]))
    return image
