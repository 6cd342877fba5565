"""Drawing of the Wire module: numbered horizontal wires and a serial-number plate."""

from __future__ import annotations

from typing import Any

from PIL import Image

from comma_env.drawing.common import PALETTE, canvas, centered_text, text


def draw_wire(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((512, 512), "WIRES")
    colors = state["wire_colors_top_to_bottom"]
    cut = set(state["cut_wires"])
    top, bottom = 60, 400
    step = (bottom - top) / len(colors)
    for index, color in enumerate(colors):
        y = top + step * (index + 0.5)
        position = index + 1
        draw.ellipse((52, y - 10, 72, y + 10), fill=PALETTE["frame"])
        draw.ellipse((440, y - 10, 460, y + 10), fill=PALETTE["frame"])
        centered_text(draw, (10, y - 14, 46, y + 14), str(position), 22, bold=True)
        segments = [(62, 450)] if position not in cut else [(62, 230), (282, 450)]
        for x0, x1 in segments:
            draw.rectangle((x0, y - 9, x1, y + 9), fill=PALETTE["ink"])
            draw.rectangle((x0 + 1, y - 7, x1 - 1, y + 7), fill=PALETTE[color])
    draw.rounded_rectangle((140, 424, 372, 484), radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    text(draw, (156, 432), "SERIAL", 14, fill=PALETTE["frame"], bold=True)
    centered_text(draw, (150, 440, 362, 484), state["serial_number"], 26, bold=True, mono=True)
    return image
