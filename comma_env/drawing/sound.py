"""Drawing of the Sound module: a speaker grille (the clip itself is heard, not shown), the
display of the symbols entered so far, and the four-button keypad ($ * & #)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, text
from comma_env.puzzles.sound import SoundPuzzle

KEYS = (("$", "press_dollar"), ("*", "press_star"), ("&", "press_ampersand"), ("#", "press_hash"))


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The speaker grille and the keypad."""
    draw.ellipse((176, 50, 336, 210), fill=PALETTE["frame"])
    for ring in range(4):
        r = 70 - ring * 16
        draw.ellipse((256 - r, 130 - r, 256 + r, 130 + r), outline=(150, 154, 160), width=4)
    centered_text(draw, (176, 212, 336, 240), "PLAYING", 16, fill=PALETTE["frame"], bold=True)
    text(draw, (110, 252), "CODE", 14, fill=PALETTE["frame"], bold=True)
    for index, (symbol, action) in enumerate(KEYS):
        x = 46 + index * 110
        draw.rounded_rectangle((x, 350, x + 90, 440), radius=10, fill=PALETTE["button"],
                               outline=PALETTE["frame"], width=4)
        centered_text(draw, (x, 350, x + 90, 440), symbol, 44, bold=True)
        centered_text(draw, (x - 10, 444, x + 100, 470), action.removeprefix("press_"), 14, fill=PALETTE["frame"])


def draw_sound(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(SoundPuzzle.image_size, "SOUND", _fixed)
    draw.rounded_rectangle((106, 270, 406, 330), radius=8, fill=PALETTE["display"])
    shown = " ".join(state["code_entered"].ljust(4, "_"))
    centered_text(draw, (106, 270, 406, 330), shown, 36, fill=PALETTE["display_text"], bold=True, mono=True)
    if state.get("module_disarmed"):
        draw.ellipse((420, 285, 450, 315), fill=PALETTE["green"], outline=PALETTE["frame"], width=2)
    return image
