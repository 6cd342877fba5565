"""Drawing of Lamps: a titled panel (the background) and one layer per lamp."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene

from lamps import LAMPS, LampsPuzzle

_TOP, _BOTTOM, _WIDTH, _GAP, _LEFT = 200, 290, 90, 24, 52


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    return canvas(LampsPuzzle.image_size, "LAMPS")[0]


def _paint_lamp(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, bool, bool]) -> None:
    number, lit, pressed = key
    x0 = _LEFT + (number - 1) * (_WIDTH + _GAP)
    box = (x0, _TOP, x0 + _WIDTH, _BOTTOM)
    draw.ellipse(box, fill=PALETTE["yellow"] if lit else PALETTE["black"],
                 outline=PALETTE["green"] if pressed else PALETTE["white"], width=6)
    centered_text(draw, (x0, _BOTTOM + 10, x0 + _WIDTH, _BOTTOM + 60), str(number), 32, bold=True)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    layers = {}
    for number in range(1, LAMPS + 1):
        x0 = _LEFT + (number - 1) * (_WIDTH + _GAP)
        key = (number, bool(state["lamps_lit"][number - 1]), state["pressed_lamp"] == number)
        layers[f"lamp_{number}"] = Layer((x0, _TOP, x0 + _WIDTH + 1, _BOTTOM + 61), key, _paint_lamp)
    return layers


draw_lamps = Scene(LampsPuzzle.image_size, _background, _layers)
