"""Drawing of the Who module: a word display on top and six labelled buttons, 3 rows x 2.

Layers: the status light, the display, and one per button."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.who import WhoPuzzle

_COLUMNS = {"left": (70, 246), "right": (266, 442)}
_ROWS = {"top": (186, 254), "middle": (276, 344), "bottom": (366, 434)}
_DISPLAY = (70, 60, 442, 150)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    return canvas(WhoPuzzle.image_size, "WHO")[0]


def _paint_light(image: Image.Image, draw: ImageDraw.ImageDraw, disarmed: bool) -> None:
    draw.ellipse((456, 14, 488, 46), fill=PALETTE["green"] if disarmed else PALETTE["frame"],
                 outline=PALETTE["ink"], width=2)


def _paint_display(image: Image.Image, draw: ImageDraw.ImageDraw, word: str) -> None:
    draw.rounded_rectangle(_DISPLAY, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    if word:
        centered_text(draw, _DISPLAY, word, 40, fill=PALETTE["display_text"], bold=True)


def _paint_button(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[tuple[int, int, int, int], str]) -> None:
    box, label = key
    button(draw, box, label, size=26)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    layers = {
        "light": Layer((456, 14, 489, 47), bool(state["module_disarmed"]), _paint_light),
        "display": Layer((70, 60, 443, 151), state["display_text"], _paint_display),
    }
    for position, label in state["button_labels"].items():
        row, column = position.split("_")
        x0, x1 = _COLUMNS[column]
        y0, y1 = _ROWS[row]
        layers[position] = Layer((x0, y0, x1 + 1, y1 + 1), ((x0, y0, x1, y1), label), _paint_button)
    return layers


draw_who = Scene(WhoPuzzle.image_size, _background, _layers)
