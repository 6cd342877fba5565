"""Drawing of the Keypad module: a 2x2 grid of symbol buttons, each with a status light
that turns green once the button has been pressed correctly.

Layers: one per button (a correct press redraws only that button)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.keypad import KeypadPuzzle

BUTTON_BOXES: dict[str, tuple[int, int, int, int]] = {
    "top_left": (66, 70, 246, 250),
    "top_right": (266, 70, 446, 250),
    "bottom_left": (66, 280, 246, 460),
    "bottom_right": (266, 280, 446, 460),
}
LIGHT_OFF = (60, 64, 60)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    return canvas(KeypadPuzzle.image_size, "KEYPAD")[0]


def _paint_button(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, str, bool]) -> None:
    position, symbol, lit = key
    x0, y0, x1, y1 = BUTTON_BOXES[position]
    draw.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=3)
    light = PALETTE["green"] if lit else LIGHT_OFF
    draw.rounded_rectangle((x0 + 60, y0 + 10, x1 - 60, y0 + 24), radius=5, fill=light,
                           outline=PALETTE["frame"], width=2)
    centered_text(draw, (x0, y0 + 28, x1, y1), symbol, 96)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    lit = set(state["lit_buttons"])
    layers = {}
    for position, symbol in state["button_symbols"].items():
        x0, y0, x1, y1 = BUTTON_BOXES[position]
        # symbols are drawn at 96 px: give the glyph room beyond the button's outline
        layers[position] = Layer((x0 - 8, y0, x1 + 9, y1 + 8), (position, symbol, position in lit), _paint_button)
    return layers


draw_keypad = Scene(KeypadPuzzle.image_size, _background, _layers)
