"""Drawing of Lamps: a titled panel with a row of numbered lamps, each lit or dark, the
pressed one ringed in green. A function of the visible state."""

from __future__ import annotations

from typing import Any

from PIL import Image

from comma_env.drawing.common import PALETTE, canvas, centered_text

from lamps import LAMPS, LampsPuzzle

_TOP, _BOTTOM, _WIDTH, _GAP, _LEFT = 200, 290, 90, 24, 52


def draw_lamps(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(LampsPuzzle.image_size, "LAMPS")
    for number in range(1, LAMPS + 1):
        x0 = _LEFT + (number - 1) * (_WIDTH + _GAP)
        lit, pressed = state["lamps_lit"][number - 1], state["pressed_lamp"] == number
        draw.ellipse((x0, _TOP, x0 + _WIDTH, _BOTTOM), fill=PALETTE["yellow"] if lit else PALETTE["black"],
                     outline=PALETTE["green"] if pressed else PALETTE["white"], width=6)
        centered_text(draw, (x0, _BOTTOM + 10, x0 + _WIDTH, _BOTTOM + 60), str(number), 32, bold=True)
    return image
