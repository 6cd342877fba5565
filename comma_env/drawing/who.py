"""Drawing of the Who module: a word display on top and six labelled buttons, 3 rows x 2."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.puzzles.who import WhoPuzzle

_COLUMNS = {"left": (70, 246), "right": (266, 442)}
_ROWS = {"top": (186, 254), "middle": (276, 344), "bottom": (366, 434)}
_DISPLAY = (70, 60, 442, 150)
LABEL_SIZE, WORD_SIZE = 26, 40


def _button_box(position: str) -> tuple[int, int, int, int]:
    row, column = position.split("_")
    x0, x1 = _COLUMNS[column]
    y0, y1 = _ROWS[row]
    return (x0, y0, x1, y1)


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The empty display and the six buttons without their labels."""
    draw.rounded_rectangle(_DISPLAY, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    for row in _ROWS:
        for column in _COLUMNS:
            button(draw, _button_box(f"{row}_{column}"), "", size=LABEL_SIZE)


def draw_who(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(WhoPuzzle.image_size, "WHO", _fixed)
    draw.ellipse((456, 14, 488, 46), fill=PALETTE["green"] if state["module_disarmed"] else PALETTE["frame"],
                 outline=PALETTE["ink"], width=2)
    if state["display_text"]:
        centered_text(draw, _DISPLAY, state["display_text"], WORD_SIZE, fill=PALETTE["display_text"], bold=True)
    for position, label in state["button_labels"].items():
        if label:
            centered_text(draw, _button_box(position), label, LABEL_SIZE, bold=True)
    return image
