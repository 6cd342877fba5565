"""Drawing of the Who module: a word display on top and six labelled buttons, 3 rows x 2."""

from __future__ import annotations

from typing import Any

from PIL import Image

from comma_env.drawing.common import PALETTE, button, canvas, centered_text

_COLUMNS = {"left": (70, 246), "right": (266, 442)}
_ROWS = {"top": (186, 254), "middle": (276, 344), "bottom": (366, 434)}


def draw_who(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((512, 512), "WHO")
    light = PALETTE["green"] if state["module_disarmed"] else PALETTE["frame"]
    draw.ellipse((456, 14, 488, 46), fill=light, outline=PALETTE["ink"], width=2)
    draw.rounded_rectangle((70, 60, 442, 150), radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    if state["display_text"]:
        centered_text(draw, (70, 60, 442, 150), state["display_text"], 40, fill=PALETTE["display_text"], bold=True)
    for position, label in state["button_labels"].items():
        row, column = position.split("_")
        x0, x1 = _COLUMNS[column]
        y0, y1 = _ROWS[row]
        button(draw, (x0, y0, x1, y1), label, size=26)
    return image
