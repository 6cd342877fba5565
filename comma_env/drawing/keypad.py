"""Drawing of the Keypad module: a 2x2 grid of symbol buttons, each with a status light
that turns green once the button has been pressed correctly.

Layers: one per button's status light (a correct press redraws only that light) and one per
button's symbol; the buttons themselves are in the background."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, label_box
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.keypad import SYMBOL_NAMES, KeypadPuzzle

BUTTON_BOXES: dict[str, tuple[int, int, int, int]] = {
    "top_left": (66, 70, 246, 250),
    "top_right": (266, 70, 446, 250),
    "bottom_left": (66, 280, 246, 460),
    "bottom_right": (266, 280, 446, 460),
}
LIGHT_OFF = (60, 64, 60)


SYMBOL_SIZE = 96


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The frame and the four buttons without their lights and symbols."""
    image, draw = canvas(KeypadPuzzle.image_size, "KEYPAD")
    for box in BUTTON_BOXES.values():
        draw.rounded_rectangle(box, radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=3)
    return image


def _light_box(position: str) -> tuple[int, int, int, int]:
    x0, y0, x1, _ = BUTTON_BOXES[position]
    return (x0 + 60, y0 + 10, x1 - 60 + 1, y0 + 24 + 1)


def _paint_light(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, bool]) -> None:
    position, lit = key
    x0, y0, x1, y1 = _light_box(position)
    draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=5, fill=PALETTE["green"] if lit else LIGHT_OFF,
                           outline=PALETTE["frame"], width=2)


def _symbol_area(position: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = BUTTON_BOXES[position]
    return (x0, y0 + 28, x1, y1)


def _paint_symbol(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, str]) -> None:
    position, symbol = key
    centered_text(draw, _symbol_area(position), symbol, SYMBOL_SIZE)


@lru_cache(maxsize=len(BUTTON_BOXES))
def _symbol_box(position: str) -> tuple[int, int, int, int]:
    """Symbols are drawn at 96 px and may reach beyond the button's outline."""
    return label_box(_symbol_area(position), tuple(SYMBOL_NAMES), SYMBOL_SIZE, bold=False)


@lru_cache(maxsize=16)
def _light_layer(position: str, lit: bool) -> tuple[str, Layer]:
    """Made once per key and reused, like `_symbol_layer`: the scene and the patch cache
    recognise a layer by identity."""
    return f"{position}_light", Layer(_light_box(position), (position, lit), _paint_light)


@lru_cache(maxsize=1024)
def _symbol_layer(position: str, symbol: str) -> Layer:
    return Layer(_symbol_box(position), (position, symbol), _paint_symbol)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    lit = state["lit_buttons"]
    layers = {}
    for position, symbol in state["button_symbols"].items():
        name, light = _light_layer(position, position in lit)
        layers[name] = light
        layers[position] = _symbol_layer(position, symbol)
    return layers


draw_keypad = Scene(KeypadPuzzle.image_size, _background, _layers)
