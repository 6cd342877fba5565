"""Drawing of the Button module: a big round labelled button, the light strip to its right
(dark until the button is held) and the countdown display."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, countdown, countdown_display, text
from comma_env.puzzles.button import ButtonPuzzle

LIGHT_TEXT = {"red", "blue", "black"}
STRIP_OFF = (60, 62, 66)


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The button's housing, the strip's slot and the empty timer display."""
    draw.rounded_rectangle((40, 60, 350, 370), radius=20, fill=(160, 163, 168), outline=PALETTE["frame"], width=4)
    draw.rounded_rectangle((388, 60, 452, 370), radius=10, fill=PALETTE["frame"])
    text(draw, (392, 376), "STRIP", 14, fill=PALETTE["frame"], bold=True)
    text(draw, (44, 392), "TIME LEFT", 14, fill=PALETTE["frame"], bold=True)
    countdown_display(draw)


def draw_button(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(ButtonPuzzle.image_size, "BUTTON", _fixed)
    inset = 12 if state["button_held"] else 0  # a held button is drawn pressed in
    color = state["button_color"]
    draw.ellipse((70 + inset, 90 + inset, 320 - inset, 340 - inset), fill=PALETTE["ink"])
    draw.ellipse((76 + inset, 96 + inset, 314 - inset, 334 - inset), fill=PALETTE[color])
    ink = PALETTE["white"] if color in LIGHT_TEXT else PALETTE["ink"]
    centered_text(draw, (76, 96, 314, 334), state["button_label"], 38, fill=ink, bold=True)
    strip = state["strip_color"]
    draw.rounded_rectangle((398, 70, 442, 360), radius=8, fill=STRIP_OFF if strip == "off" else PALETTE[strip])
    countdown(draw, state["timer"], bool(state.get("module_disarmed")))
    return image
