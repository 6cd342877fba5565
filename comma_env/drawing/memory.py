"""Drawing of the Memory module: a number display, a stage indicator with five stage lights,
and four labelled buttons in a row with their positions written underneath."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.puzzles.memory import MemoryPuzzle

DISPLAY = (56, 60, 316, 240)
LABEL_SIZE, NUMBER_SIZE = 56, 110


def _button_box(index: int) -> tuple[int, int, int, int]:
    x0 = 56 + index * 104
    return (x0, 290, x0 + 88, 410)


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The four buttons without their labels, their positions, and the empty display."""
    for index in range(4):
        x0 = 56 + index * 104
        centered_text(draw, (x0, 418, x0 + 88, 444), f"position {index + 1}", 14, fill=PALETTE["frame"])
        button(draw, _button_box(index), "", size=LABEL_SIZE)
    draw.rounded_rectangle(DISPLAY, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)


def draw_memory(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(MemoryPuzzle.image_size, "MEMORY", _fixed)
    centered_text(draw, DISPLAY, str(state["display_number"]), NUMBER_SIZE, fill=PALETTE["display_text"], bold=True)
    draw.rounded_rectangle((336, 60, 456, 240), radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    centered_text(draw, (336, 66, 456, 92), "STAGE", 18, fill=PALETTE["frame"], bold=True)
    centered_text(draw, (336, 92, 456, 150), f"{state['stage']} / 5", 34, bold=True)
    for index in range(5):
        x = 350 + index * 20
        lit = index < state["stages_completed"]
        draw.ellipse((x, 176, x + 14, 190), fill=PALETTE["green"] if lit else PALETTE["grey"], outline=PALETTE["ink"])
    centered_text(draw, (336, 196, 456, 230), "done", 14, fill=PALETTE["frame"])
    for index, label in enumerate(state["button_labels_left_to_right"]):
        centered_text(draw, _button_box(index), str(label), LABEL_SIZE, bold=True)
    return image
