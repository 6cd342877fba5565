"""Drawing of the Keypad module: a 2x2 grid of symbol buttons, each with a status light
that turns green once the button has been pressed correctly."""

from __future__ import annotations

from typing import Any

from PIL import Image

from comma_env.drawing.common import PALETTE, canvas, centered_text

BUTTON_BOXES: dict[str, tuple[int, int, int, int]] = {
    "top_left": (66, 70, 246, 250),
    "top_right": (266, 70, 446, 250),
    "bottom_left": (66, 280, 246, 460),
    "bottom_right": (266, 280, 446, 460),
}
LIGHT_OFF = (60, 64, 60)


def draw_keypad(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((512, 512), "KEYPAD")
    lit = set(state["lit_buttons"])
    for position, symbol in state["button_symbols"].items():
        x0, y0, x1, y1 = BUTTON_BOXES[position]
        draw.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=3)
        light = PALETTE["green"] if position in lit else LIGHT_OFF
        draw.rounded_rectangle((x0 + 60, y0 + 10, x1 - 60, y0 + 24), radius=5, fill=light, outline=PALETTE["frame"], width=2)
        centered_text(draw, (x0, y0 + 28, x1, y1), symbol, 96)
    return image
