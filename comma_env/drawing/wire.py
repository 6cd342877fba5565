"""Drawing of the Wire module: numbered horizontal wires and a serial-number plate."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, cell_text, centered_text, text
from comma_env.puzzles.wire import SERIAL_CHARS, WirePuzzle

TOP, BOTTOM = 60, 400
PLATE = (140, 424, 372, 484)
SERIAL_BOX = (150, 440, 362, 484)
SLOTS = 6
"""Wire positions on the panel, as on the game's module: 3 to 6 wires fill consecutive slots,
centred (`first_slot`)."""


def slot_y(slot: int) -> float:
    """Centre row of wire slot `slot` (0-based, top to bottom)."""
    return TOP + (BOTTOM - TOP) / SLOTS * (slot + 0.5)


def first_slot(count: int) -> int:
    """The slot of wire 1 when there are `count` wires."""
    return (SLOTS - count) // 2


def _wire(draw: ImageDraw.ImageDraw, y: float, position: int, color: str, cut: bool) -> None:
    draw.ellipse((52, y - 10, 72, y + 10), fill=PALETTE["frame"])
    draw.ellipse((440, y - 10, 460, y + 10), fill=PALETTE["frame"])
    centered_text(draw, (10, y - 14, 46, y + 14), str(position), 22, bold=True)
    for x0, x1 in ([(62, 230), (282, 450)] if cut else [(62, 450)]):
        draw.rectangle((x0, y - 9, x1, y + 9), fill=PALETTE["ink"])
        draw.rectangle((x0 + 1, y - 7, x1 - 1, y + 7), fill=PALETTE[color])


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The serial plate without its number."""
    draw.rounded_rectangle(PLATE, radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    text(draw, (156, 432), "SERIAL", 14, fill=PALETTE["frame"], bold=True)


def draw_wire(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(WirePuzzle.image_size, "WIRES", _fixed)
    colors = state["wire_colors_top_to_bottom"]
    first = first_slot(len(colors))
    for index, color in enumerate(colors):
        _wire(draw, slot_y(first + index), index + 1, color, index + 1 in state["cut_wires"])
    cell_text(draw, SERIAL_BOX, state["serial_number"], SERIAL_CHARS, 26)
    return image
