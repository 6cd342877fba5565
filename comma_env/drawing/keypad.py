"""Drawing of the Keypad module: a 2x2 grid of symbol buttons, each with a status light
that turns green once the button has been pressed correctly."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.puzzles.keypad import KeypadPuzzle

BUTTON_BOXES: dict[str, tuple[int, int, int, int]] = {
    "top_left": (66, 70, 246, 250),
    "top_right": (266, 70, 446, 250),
    "bottom_left": (66, 280, 246, 460),
    "bottom_right": (266, 280, 446, 460),
}
LIGHT_OFF = (60, 64, 60)
SYMBOL_SIZE = 96


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The four buttons without their lights and symbols."""
    for box in BUTTON_BOXES.values():
        draw.rounded_rectangle(box, radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=3)


def draw_keypad(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(KeypadPuzzle.image_size, "KEYPAD", _fixed)
    for position, symbol in state["button_symbols"].items():
        x0, y0, x1, y1 = BUTTON_BOXES[position]
        lit = position in state["lit_buttons"]
        draw.rounded_rectangle((x0 + 60, y0 + 10, x1 - 60, y0 + 24), radius=5,
                               fill=PALETTE["green"] if lit else LIGHT_OFF, outline=PALETTE["frame"], width=2)
        centered_text(draw, (x0, y0 + 28, x1, y1), symbol, SYMBOL_SIZE)  # may reach beyond the button
    return image
