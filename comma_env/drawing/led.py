"""Drawing of the LED module: the stage number in the top-left display, one coloured LED
per stage along the top (the current one ringed, cleared ones ticked), and four lettered
buttons in a 2x2 grid.

Layers: the display, one per LED, and one per button's letter (the buttons themselves are in
the background, so a new letter repaints the letter's box, not the button)."""

from __future__ import annotations

import string
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text, label_box
from comma_env.drawing.scene import Layer, Scene
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
"""LED positions along the top: 2 to 5 LEDs fill consecutive slots, centred, so every
instance has the same layout whatever its stage count (a new episode repaints the LEDs that
changed, not every LED of two layouts)."""


def led_center(index: int, count: int) -> tuple[float, float]:
    """Centre of LED `index` (0-based) of `count`: slot ``(LED_SLOTS - count) // 2 + index``."""
    x0, x1 = LED_AREA
    step = (x1 - x0) / LED_SLOTS
    return x0 + step * ((LED_SLOTS - count) // 2 + index + 0.5), LED_Y


LETTER_SIZE = 80


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The frame and the four buttons without their letters."""
    image, draw = canvas(LedPuzzle.image_size, "LED")
    for box in BUTTON_BOXES.values():
        button(draw, box, "", size=LETTER_SIZE)
    return image


def _paint_display(image: Image.Image, draw: ImageDraw.ImageDraw, stage: int) -> None:
    draw.rounded_rectangle(DISPLAY_BOX, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=3)
    centered_text(draw, DISPLAY_BOX, str(stage), 48, fill=PALETTE["display_text"], bold=True)


def _paint_led(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[float, str, bool, str] | None) -> None:
    if key is None:  # an empty slot shows the panel
        return
    x, color, ringed, label = key
    y, r = LED_Y, LED_RADIUS
    if ringed:
        draw.ellipse((x - r - 7, y - r - 7, x + r + 7, y + r + 7), outline=PALETTE["ink"], width=4)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=PALETTE[color], outline=PALETTE["frame"], width=2)
    centered_text(draw, (x - 30, y + r + 8, x + 30, y + r + 30), label, 16, fill=PALETTE["frame"], bold=True)


def _paint_letter(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, str]) -> None:
    position, letter = key
    centered_text(draw, BUTTON_BOXES[position], letter, LETTER_SIZE, bold=True)  # as `button` writes it


@lru_cache(maxsize=len(BUTTON_BOXES))
def _letter_box(position: str) -> tuple[int, int, int, int]:
    return label_box(BUTTON_BOXES[position], tuple(string.ascii_uppercase), LETTER_SIZE)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    """The layers of one state, each made once per look (`_led_layer`, `_letter_layer`: the
    scene recognises them by identity). The mapping itself is made anew: an environment asks
    for layers only when its state changed, so a cache of the latest 256 states' mappings
    found none in random play and made room for each by dropping one long out of the
    processor's caches (three alternating process pairs of a Gymnasium loop: the image step
    80.6-83.9 -> 80.5-81.3 us per learner step, its excess over the text step 18.4-20.2 ->
    18.6-19.3)."""
    colors, stage, done = state["led_colors_left_to_right"], int(state["stage_number"]), int(state["completed_stages"])
    count = len(colors)
    first = (LED_SLOTS - count) // 2
    layers = {"display": _display_layer(stage)}
    for slot in range(LED_SLOTS):
        index = slot - first
        if 0 <= index < count:
            ringed = index == stage - 1 and done < count
            layers[f"led_slot_{slot + 1}"] = _led_layer(index, count, colors[index], ringed, index < done)
        else:
            layers[f"led_slot_{slot + 1}"] = _empty_slot(slot)
    for position, letter in state["button_letters"].items():
        layers[position] = _letter_layer(position, letter)
    return layers


def _slot_box(x: float) -> tuple[int, int, int, int]:
    # the ink reaches columns x-29..x+29 and rows y-29..y+46: a wider box only adds pixels to write
    return (int(x) - 31, LED_Y - LED_RADIUS - 9, int(x) + 32, LED_Y + LED_RADIUS + 27)


@lru_cache(maxsize=LED_SLOTS)
def _empty_slot(slot: int) -> Layer:
    x0, x1 = LED_AREA
    return Layer(_slot_box(x0 + (x1 - x0) / LED_SLOTS * (slot + 0.5)), None, _paint_led)


@lru_cache(maxsize=64)
def _display_layer(stage: int) -> Layer:
    return Layer((20, 40, 101, 121), stage, _paint_display)


@lru_cache(maxsize=1024)
def _led_layer(index: int, count: int, color: str, ringed: bool, ticked: bool) -> Layer:
    """LED `index` of `count` (every state of every instance draws from a few hundred)."""
    x, _ = led_center(index, count)
    label = f"{index + 1}✓" if ticked else str(index + 1)
    return Layer(_slot_box(x), (x, color, ringed, label), _paint_led)


@lru_cache(maxsize=256)
def _letter_layer(position: str, letter: str) -> Layer:
    return Layer(_letter_box(position), (position, letter), _paint_letter)


draw_led = Scene(LedPuzzle.image_size, _background, _layers)
