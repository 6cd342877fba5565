"""Drawing of the Button module: a big round labelled button, the light strip to its right
(dark until the button is held) and the countdown display.

Layers: the button, the strip, the timer and the lamp."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, countdown_display, countdown_layers, text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.button import ButtonPuzzle

LIGHT_TEXT = {"red", "blue", "black"}
STRIP_OFF = (60, 62, 66)


@lru_cache(maxsize=1)
def _template() -> Image.Image:
    image, draw = canvas(ButtonPuzzle.image_size, "BUTTON")
    draw.rounded_rectangle((40, 60, 350, 370), radius=20, fill=(160, 163, 168), outline=PALETTE["frame"], width=4)
    draw.rounded_rectangle((388, 60, 452, 370), radius=10, fill=PALETTE["frame"])
    text(draw, (392, 376), "STRIP", 14, fill=PALETTE["frame"], bold=True)
    text(draw, (44, 392), "TIME LEFT", 14, fill=PALETTE["frame"], bold=True)
    countdown_display(draw)
    return image


def _paint_button(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[bool, str, str]) -> None:
    held, color, label = key
    inset = 12 if held else 0  # a held button is drawn pressed in
    draw.ellipse((70 + inset, 90 + inset, 320 - inset, 340 - inset), fill=PALETTE["ink"])
    draw.ellipse((76 + inset, 96 + inset, 314 - inset, 334 - inset), fill=PALETTE[color])
    ink = PALETTE["white"] if color in LIGHT_TEXT else PALETTE["ink"]
    centered_text(draw, (76, 96, 314, 334), label, 38, fill=ink, bold=True)


def _paint_strip(image: Image.Image, draw: ImageDraw.ImageDraw, strip: str) -> None:
    draw.rounded_rectangle((398, 70, 442, 360), radius=8, fill=STRIP_OFF if strip == "off" else PALETTE[strip])


@lru_cache(maxsize=256)
def _button_layer(held: bool, color: str, label: str) -> Layer:
    """The button: the same object while it looks the same (the timer changes on every step)."""
    return Layer((70, 90, 321, 341), (held, color, label), _paint_button)  # the ellipse's pixels, no more


@lru_cache(maxsize=16)
def _strip_layer(strip: str) -> Layer:
    return Layer((398, 70, 443, 361), strip, _paint_strip)


@lru_cache(maxsize=2048)
def _countdown(shown: str, disarmed: bool) -> dict[str, Layer]:
    return countdown_layers(shown, disarmed)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    return {
        "button": _button_layer(bool(state["button_held"]), state["button_color"], state["button_label"]),
        "strip": _strip_layer(state["strip_color"]),
        **_countdown(state["timer"], bool(state.get("module_disarmed"))),
    }


draw_button = Scene(ButtonPuzzle.image_size, _template, _layers)
