"""Drawing of the LED module: the stage display, one LED per stage (the current one ringed,
cleared ones ticked), and four lettered buttons."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.puzzles.led import LedPuzzle

BUTTON_BOXES: dict[str, tuple[int, int, int, int]] = {
    "top_left": (86, 150, 246, 310),
    "top_right": (266, 150, 426, 310),
    "bottom_left": (86, 330, 246, 490),
    "bottom_right": (266, 330, 426, 490),
}
DISPLAY_BOX = (20, 40, 100, 120)
LED_AREA = (130, 490)  # x range holding the LEDs
LED_Y, LED_RADIUS = 70, 22
LED_SLOTS = 5
"""LED positions along the top: 2 to 5 LEDs fill consecutive slots, centred."""
LETTER_SIZE = 80


def led_center(index: int, count: int) -> tuple[float, float]:
    """Centre of LED `index` (0-based) of `count`: slot ``(LED_SLOTS - count) // 2 + index``."""
    x0, x1 = LED_AREA
    step = (x1 - x0) / LED_SLOTS
    return x0 + step * ((LED_SLOTS - count) // 2 + index + 0.5), LED_Y


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The four buttons without their letters."""
    for box in BUTTON_BOXES.values():
        button(draw, box, "", size=LETTER_SIZE)


def draw_led(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(LedPuzzle.image_size, "LED", _fixed)
    stage, done = int(state["stage_number"]), int(state["completed_stages"])
    draw.rounded_rectangle(DISPLAY_BOX, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=3)
    centered_text(draw, DISPLAY_BOX, str(stage), 48, fill=PALETTE["display_text"], bold=True)
    colors = state["led_colors_left_to_right"]
    r = LED_RADIUS
    for index, color in enumerate(colors):
        x, y = led_center(index, len(colors))
        if index == stage - 1 and done < len(colors):  # the current stage's LED is ringed
            draw.ellipse((x - r - 7, y - r - 7, x + r + 7, y + r + 7), outline=PALETTE["ink"], width=4)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=PALETTE[color], outline=PALETTE["frame"], width=2)
        label = f"{index + 1}✓" if index < done else str(index + 1)
        centered_text(draw, (x - 30, y + r + 8, x + 30, y + r + 30), label, 16, fill=PALETTE["frame"], bold=True)
    for position, letter in state["button_letters"].items():
        centered_text(draw, BUTTON_BOXES[position], letter, LETTER_SIZE, bold=True)
    return image
