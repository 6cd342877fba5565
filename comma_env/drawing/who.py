"""Drawing of the Who module: a word display on top and six labelled buttons, 3 rows x 2.

Layers: the status light, the display's word, and one per button's label (the display and
the buttons themselves are in the background: a new round repaints the words' boxes)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text, label_box
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.who import DISPLAY_WORDS, LABELS, WhoPuzzle

_COLUMNS = {"left": (70, 246), "right": (266, 442)}
_ROWS = {"top": (186, 254), "middle": (276, 344), "bottom": (366, 434)}
_DISPLAY = (70, 60, 442, 150)


LABEL_SIZE, WORD_SIZE = 26, 40


def _button_box(position: str) -> tuple[int, int, int, int]:
    row, column = position.split("_")
    x0, x1 = _COLUMNS[column]
    y0, y1 = _ROWS[row]
    return (x0, y0, x1, y1)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The frame, the empty display and the six buttons without their labels."""
    image, draw = canvas(WhoPuzzle.image_size, "WHO")
    draw.rounded_rectangle(_DISPLAY, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    for row in _ROWS:
        for column in _COLUMNS:
            button(draw, _button_box(f"{row}_{column}"), "", size=LABEL_SIZE)
    return image


def _paint_light(image: Image.Image, draw: ImageDraw.ImageDraw, disarmed: bool) -> None:
    draw.ellipse((456, 14, 488, 46), fill=PALETTE["green"] if disarmed else PALETTE["frame"],
                 outline=PALETTE["ink"], width=2)


def _paint_word(image: Image.Image, draw: ImageDraw.ImageDraw, word: str) -> None:
    if word:
        centered_text(draw, _DISPLAY, word, WORD_SIZE, fill=PALETTE["display_text"], bold=True)


def _paint_label(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, str]) -> None:
    position, label = key
    if label:
        centered_text(draw, _button_box(position), label, LABEL_SIZE, bold=True)  # as `button` writes it


@lru_cache(maxsize=1)
def _word_box() -> tuple[int, int, int, int]:
    return label_box(_DISPLAY, DISPLAY_WORDS, WORD_SIZE)


@lru_cache(maxsize=len(_ROWS) * len(_COLUMNS))
def _label_box(position: str) -> tuple[int, int, int, int]:
    return label_box(_button_box(position), LABELS, LABEL_SIZE)


@lru_cache(maxsize=4096)
def _label_layer(position: str, label: str) -> Layer:
    return Layer(_label_box(position), (position, label), _paint_label)


@lru_cache(maxsize=2)
def _light_layer(lit: bool) -> Layer:
    return Layer((456, 14, 489, 47), lit, _paint_light)


@lru_cache(maxsize=256)
def _word_layer(word: str) -> Layer:
    return Layer(_word_box(), word, _paint_word)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    layers = {
        "light": _light_layer(bool(state["module_disarmed"])),
        "display": _word_layer(state["display_text"]),
    }
    for position, label in state["button_labels"].items():
        layers[position] = _label_layer(position, label)
    return layers


draw_who = Scene(WhoPuzzle.image_size, _background, _layers)
