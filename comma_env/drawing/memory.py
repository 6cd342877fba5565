"""Drawing of the Memory module: a number display, a stage indicator with five stage lights,
and four labelled buttons in a row with their positions written underneath.

Layers: the display, the stage panel, and one per button."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.memory import MemoryPuzzle


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    image, draw = canvas(MemoryPuzzle.image_size, "MEMORY")
    for index in range(4):
        x0 = 56 + index * 104
        centered_text(draw, (x0, 418, x0 + 88, 444), f"position {index + 1}", 14, fill=PALETTE["frame"])
    return image


def _paint_display(image: Image.Image, draw: ImageDraw.ImageDraw, number: str) -> None:
    draw.rounded_rectangle((56, 60, 316, 240), radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    centered_text(draw, (56, 60, 316, 240), number, 110, fill=PALETTE["display_text"], bold=True)


def _paint_stage(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[Any, int]) -> None:
    stage, done = key
    draw.rounded_rectangle((336, 60, 456, 240), radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    centered_text(draw, (336, 66, 456, 92), "STAGE", 18, fill=PALETTE["frame"], bold=True)
    centered_text(draw, (336, 92, 456, 150), f"{stage} / 5", 34, bold=True)
    for index in range(5):
        x = 350 + index * 20
        draw.ellipse((x, 176, x + 14, 190), fill=PALETTE["green"] if index < done else PALETTE["grey"],
                     outline=PALETTE["ink"])
    centered_text(draw, (336, 196, 456, 230), "done", 14, fill=PALETTE["frame"])


def _paint_button(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, str]) -> None:
    x0, label = key
    button(draw, (x0, 290, x0 + 88, 410), label, size=56)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    layers = {
        "display": Layer((56, 60, 317, 241), str(state["display_number"]), _paint_display),
        "stage": Layer((336, 60, 457, 241), (state["stage"], state["stages_completed"]), _paint_stage),
    }
    for index, label in enumerate(state["button_labels_left_to_right"]):
        x0 = 56 + index * 104
        layers[f"button_{index + 1}"] = Layer((x0, 290, x0 + 89, 411), (x0, str(label)), _paint_button)
    return layers


draw_memory = Scene(MemoryPuzzle.image_size, _background, _layers)
