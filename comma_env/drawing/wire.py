"""Drawing of the Wire module: numbered horizontal wires and a serial-number plate.

Layers: one per wire row (a cut redraws only that band) and the serial number, made of
cached character cells (`comma_env.drawing.cell_text`)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.cell_text import cell_text_layer
from comma_env.drawing.common import PALETTE, canvas, centered_text, text
from comma_env.drawing.scene import Layer, Scene
from comma_env.protocol.frozen import FrozenList
from comma_env.puzzles.wire import SERIAL_CHARS, WirePuzzle

TOP, BOTTOM = 60, 400
PLATE = (140, 424, 372, 484)


SERIAL_BOX = (150, 440, 362, 484)


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The frame and the empty serial plate."""
    image, draw = canvas(WirePuzzle.image_size, "WIRES")
    draw.rounded_rectangle(PLATE, radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    text(draw, (156, 432), "SERIAL", 14, fill=PALETTE["frame"], bold=True)
    return image


SLOTS = 6
"""Wire positions on the panel, as on the game's module: 3 to 6 wires fill consecutive slots,
centred (`first_slot`), so every instance has the same layout whatever its wire count."""


def slot_y(slot: int) -> float:
    """Centre row of wire slot `slot` (0-based, top to bottom)."""
    return TOP + (BOTTOM - TOP) / SLOTS * (slot + 0.5)


def first_slot(count: int) -> int:
    """The slot of wire 1 when there are `count` wires."""
    return (SLOTS - count) // 2


def _paint_wire(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[float, int, str, bool] | None) -> None:
    if key is None:  # an empty slot shows the panel
        return
    y, position, color, cut = key
    draw.ellipse((52, y - 10, 72, y + 10), fill=PALETTE["frame"])
    draw.ellipse((440, y - 10, 460, y + 10), fill=PALETTE["frame"])
    centered_text(draw, (10, y - 14, 46, y + 14), str(position), 22, bold=True)
    for x0, x1 in ([(62, 230), (282, 450)] if cut else [(62, 450)]):
        draw.rectangle((x0, y - 9, x1, y + 9), fill=PALETTE["ink"])
        draw.rectangle((x0 + 1, y - 7, x1 - 1, y + 7), fill=PALETTE[color])


@cache
def _slot_layer(slot: int, position: int | None, color: str | None, cut: bool) -> tuple[str, Layer]:
    """Name and layer of slot `slot` holding wire `position` (None: empty). Made once each:
    a few hundred combinations, recognised by identity."""
    y = slot_y(slot)
    band = (20, int(y) - 10, 461, int(y) + 11)  # exactly what the paint touches, for every wire (tested)
    key = None if position is None or color is None else (y, position, color, cut)
    return f"slot_{slot + 1}", Layer(band, key, _paint_wire)


@cache
def _empty_slots(count: int) -> tuple[dict[str, Layer], int]:
    """Every slot's layer, empty, in slot order, and the slot of wire 1 for `count` wires:
    `_layers` overwrites the slots that hold a wire (the order, and so the layout, stays)."""
    return dict(_slot_layer(slot, None, None, False) for slot in range(SLOTS)), first_slot(count)


@lru_cache(maxsize=256)  # for plain lists: an environment's own state keeps its mapping (`_layers`)
def _uncut_layers(colors: tuple[str, ...], serial: str) -> dict[str, Layer]:
    """Every layer of an instance with no wire cut: an episode's pictures differ only in
    which wires are cut, so a step looks up this mapping and swaps in the cut slots, instead
    of looking up every slot's layer and the serial's (`_layers` took about 2.5 µs of the
    21 µs an image step adds to a text step, in a sampling profile). The mapping is shared:
    do not modify it."""
    empty, first = _empty_slots(len(colors))
    layers = dict(empty)
    for index, color in enumerate(colors):
        name, layer = _slot_layer(first + index, index + 1, color, False)
        layers[name] = layer
    layers.update(cell_text_layer("serial", SERIAL_BOX, serial, SERIAL_CHARS, 26, _background))
    return layers


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    """The uncut instance's layers with the cut slots swapped in. An environment's state
    shares the puzzle's frozen list of colours (`comma_env.protocol.frozen`), which keeps the
    uncut layers made for it (its `memo`, with the serial): found at once, and gone with the
    puzzle, where the `_uncut_layers` cache made room for each new instance by dropping one
    unused for 256 instances, long out of the processor's caches (six alternating process
    pairs of a Gymnasium loop: image step minus text step 21.3-23.0 -> 20.0-21.9 us per
    learner step). Plain lists (a `visible_state()`) still go through that cache."""
    colors, serial = state["wire_colors_top_to_bottom"], state["serial_number"]
    if type(colors) is FrozenList:
        memo = colors.memo
        if memo is None or memo[0] != serial:
            memo = colors.memo = (serial, _uncut_layers.__wrapped__(tuple(colors), serial))
        layers = memo[1]
    else:
        layers = _uncut_layers(tuple(colors), serial)
    cut = state["cut_wires"]
    if cut:
        layers = dict(layers)
        first = first_slot(len(colors))
        for position in cut:
            name, layer = _slot_layer(first + position - 1, position, colors[position - 1], True)
            layers[name] = layer
    return layers


draw_wire = Scene(WirePuzzle.image_size, _background, _layers)
