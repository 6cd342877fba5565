"""Drawing of the Password module: five numbered letter windows, an up button above and a
down button below each, and a SUBMIT button."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.puzzles.password import PasswordPuzzle

WIDTH, HEIGHT = PasswordPuzzle.image_size
WINDOW_W, GAP = 76, 14
LEFT = (WIDTH - 5 * WINDOW_W - 4 * GAP) // 2
LETTER_SIZE = 58


def _arrow(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], up: bool) -> None:
    """A button with a triangle pointing up or down."""
    draw.rounded_rectangle(box, radius=8, fill=PALETTE["button"], outline=PALETTE["frame"], width=3)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tip, base = (cy - 9, cy + 9) if up else (cy + 9, cy - 9)
    draw.polygon([(cx, tip), (cx - 13, base), (cx + 13, base)], fill=PALETTE["frame"])


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """Everything but the letters."""
    for index in range(5):
        x0 = LEFT + index * (WINDOW_W + GAP)
        x1 = x0 + WINDOW_W
        _arrow(draw, (x0 + 8, 52, x1 - 8, 92), up=True)
        _arrow(draw, (x0 + 8, 216, x1 - 8, 256), up=False)
        centered_text(draw, (x0, 262, x1, 290), str(index + 1), 20, fill=PALETTE["frame"], bold=True)
        draw.rectangle((x0, 104, x1, 204), fill=PALETTE["display"], outline=PALETTE["frame"], width=3)
    button(draw, (176, 306, 336, 360), "SUBMIT", 24)


def draw_password(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((WIDTH, HEIGHT), "PASSWORD", _fixed)
    for index, letter in enumerate(state["letters_shown_left_to_right"]):
        x0 = LEFT + index * (WINDOW_W + GAP)
        centered_text(draw, (x0, 104, x0 + WINDOW_W, 204), str(letter), LETTER_SIZE, fill=PALETTE["display_text"],
                      bold=True, mono=True)
    return image
