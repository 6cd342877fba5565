"""Layers that draw only what changes: a string as one layer of cached character cells
(comma_env/drawing/cell_text.py `cell_text_layer`), whose pixels equal the string drawn on
the picture; labels and timer readings in the smallest box that holds any of them
(comma_env/drawing/common.py `label_box`, `countdown_layers`)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import ImageDraw

from comma_env.drawing import cell_text
from comma_env.drawing.wire import SERIAL_BOX, _background
from comma_env.puzzles.wire import SERIAL_CHARS


@pytest.mark.parametrize("string", ["A1", "ZZ9Q42", "0WQ8B3", SERIAL_CHARS[:8], SERIAL_CHARS[-8:]])
def test_composed_cells_equal_the_string_drawn_on_the_picture(string: str) -> None:
    (name, layer), = cell_text.cell_text_layer("serial", SERIAL_BOX, string, SERIAL_CHARS, 26, _background).items()
    drawn = _background().convert("RGB")
    layer.paint(drawn, ImageDraw.Draw(drawn), layer.key)
    x0, y0, x1, y1 = layer.box
    composed = layer.paint.pixels(layer.key)
    assert not composed.flags.writeable
    assert np.array_equal(composed, np.asarray(drawn)[y0:y1, x0:x1])
    # the layer's contract: nothing is drawn outside its box
    outside = np.asarray(drawn).copy()
    outside[y0:y1, x0:x1] = np.asarray(_background().convert("RGB"))[y0:y1, x0:x1]
    assert np.array_equal(outside, np.asarray(_background().convert("RGB")))


def test_an_empty_string_is_no_layer_and_the_cell_cache_is_bounded() -> None:
    assert cell_text.cell_text_layer("serial", SERIAL_BOX, "", SERIAL_CHARS, 26, _background) == {}
    assert cell_text._cell_pixels.cache_info().maxsize == 4096


def test_label_box_holds_every_label_and_nothing_more() -> None:
    """`label_box` (comma_env/drawing/common.py): every label drawn centred in the button
    box inks only inside it, and each of its edges is reached by some label."""
    from PIL import Image

    from comma_env.drawing.common import centered_text, label_box

    box, labels = (86, 150, 246, 310), ("A", "W", "M", "Q", "J")
    x0, y0, x1, y1 = label_box(box, labels, 80)
    edges = set()
    for label in labels:
        image = Image.new("RGB", (300, 340))
        centered_text(ImageDraw.Draw(image), box, label, 80, fill=(255, 255, 255), bold=True)
        left, top, right, bottom = image.getbbox()
        assert x0 <= left and y0 <= top and right <= x1 and bottom <= y1
        edges.update(edge for edge, hit in (("l", left == x0), ("t", top == y0), ("r", right == x1),
                                            ("b", bottom == y1)) if hit)
    assert edges == {"l", "t", "r", "b"}


def test_every_timer_reading_inks_inside_the_timer_layer() -> None:
    from PIL import Image

    from comma_env.drawing.common import TIMER_BOX, countdown_layers

    readings = [f"{seconds // 60}:{seconds % 60:02d}" for seconds in range(0, 20 * 60, 7)]
    for reading in readings:
        layer = countdown_layers(reading, False)["timer"]
        image = Image.new("RGB", (260, 520))
        layer.paint(image, ImageDraw.Draw(image), layer.key)
        left, top, right, bottom = image.getbbox()
        x0, y0, x1, y1 = layer.box
        assert x0 <= left and y0 <= top and right <= x1 and bottom <= y1, reading
    long = countdown_layers("123:45", False)["timer"]
    assert long.box == (TIMER_BOX[0], TIMER_BOX[1], TIMER_BOX[2] + 1, TIMER_BOX[3] + 1)


def test_strips_on_plain_and_patterned_backgrounds_compose_the_same_pixels() -> None:
    """On a plain background a strip's cells come from one atlas (a character drawn once,
    wherever it stands); on any other background, from cells drawn per position. Both equal
    the string drawn on the picture, for strings that repeat and reorder characters."""
    from functools import cache

    from PIL import Image

    @cache
    def striped() -> Image.Image:  # every row another grey: no plain strip
        image = Image.new("RGB", (512, 512))
        image.putdata([(row % 200, row % 200, row % 200) for row in range(512) for _ in range(512)])
        return image

    for background, plain in ((_background, True), (striped, False)):
        for string in ("A0A0Z9", "9Z0A0A", "ZZZZZZ", "Q1W2E3"):
            (_, layer), = cell_text.cell_text_layer("serial", SERIAL_BOX, string, SERIAL_CHARS, 26, background).items()
            drawn = background().convert("RGB")
            layer.paint(drawn, ImageDraw.Draw(drawn), layer.key)
            x0, y0, x1, y1 = layer.box
            composed = layer.paint.pixels(layer.key)
            assert not composed.flags.writeable and composed.flags.c_contiguous
            assert np.array_equal(composed, np.asarray(drawn)[y0:y1, x0:x1]), (plain, string)
        strip = layer.key[0]
        assert strip._plain is plain and (strip._atlas is not None) is plain
