"""Drawing of the Memory module: a number display, a stage indicator with five stage lights,
and four labelled buttons in a row with their positions written underneath.

Layers: the display's number, the stage panel, and one per button's label (the display and
the buttons themselves are in the background: a new stage repaints the digits, not the
buttons)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, centered_text, label_box
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.memory import MemoryPuzzle


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    image, draw = canvas(MemoryPuzzle.image_size, "MEMORY")
    for index in range(4):
        x0 = 56 + index * 104
        centered_text(draw, (x0, 418, x0 + 88, 444), f"position {index + 1}", 14, fill=PALETTE["frame"])
        button(draw, _button_box(index), "", size=LABEL_SIZE)
    draw.rounded_rectangle(DISPLAY, radius=8, fill=PALETTE["display"], outline=PALETTE["frame"], width=4)
    return image


DISPLAY = (56, 60, 316, 240)
LABEL_SIZE, NUMBER_SIZE = 56, 110
DIGITS = tuple("0123456789")


def _button_box(index: int) -> tuple[int, int, int, int]:
    x0 = 56 + index * 104
    return (x0, 290, x0 + 88, 410)


def _paint_number(image: Image.Image, draw: ImageDraw.ImageDraw, number: str) -> None:
    centered_text(draw, DISPLAY, number, NUMBER_SIZE, fill=PALETTE["display_text"], bold=True)


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


def _paint_label(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, str]) -> None:
    index, label = key
    centered_text(draw, _button_box(index), label, LABEL_SIZE, bold=True)  # as `button` writes it


@lru_cache(maxsize=8)
def _label_box(index: int) -> tuple[int, int, int, int]:
    return label_box(_button_box(index), DIGITS, LABEL_SIZE)


@lru_cache(maxsize=1)
def _number_box() -> tuple[int, int, int, int]:
    return label_box(DISPLAY, DIGITS, NUMBER_SIZE)


# Each layer is made once per key and reused: the scene and the patch cache recognise an
# unchanged layer, and find a changed one's patch, by identity (no key to hash).
@lru_cache(maxsize=64)
def _display_layer(number: str) -> Layer:
    return Layer(_number_box(), number, _paint_number)


@lru_cache(maxsize=64)
def _stage_layer(stage: Any, done: int) -> Layer:
    return Layer((336, 60, 457, 241), (stage, done), _paint_stage)


@lru_cache(maxsize=256)
def _label_layer(index: int, label: str) -> tuple[str, Layer]:
    return f"button_{index + 1}", Layer(_label_box(index), (index, label), _paint_label)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    layers = {
        "display": _display_layer(str(state["display_number"])),
        "stage": _stage_layer(state["stage"], state["stages_completed"]),
    }
    for index, label in enumerate(state["button_labels_left_to_right"]):
        name, layer = _label_layer(index, str(label))
        layers[name] = layer
    return layers


draw_memory = Scene(MemoryPuzzle.image_size, _background, _layers)
