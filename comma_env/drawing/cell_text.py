"""Per-instance strings (a serial number) drawn from cached character cells.

A serial never repeats, so drawing it as one picture renders a new line of text on every
reset and fills the patch cache with pictures nobody asks for again (Wire spent about 12%
of a random-play step on it). Its characters do repeat: laid out on a fixed grid of
whole-pixel cells, each (cell, character) is drawn once and then copied. The cells are at
least as wide as any glyph of the allowed characters, so no glyph paints outside its cell's
box (the layer contract of `comma_env.drawing.scene`). `cell_text_layers` makes one scene
layer per character; `cell_text_layer` one layer whose pixels are the cached cells side by
side (one patch to write per new string instead of one per character).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, font, text
from comma_env.drawing.scene import Box, Layer


@lru_cache(maxsize=32)
def _cell_metrics(size: int, mono: bool, charset: str) -> tuple[int, int, int]:
    """(cell width, ascent, descent) for `charset` at `size`: the width is the advance
    rounded up, widened if a glyph would reach past its cell."""
    face = font(size, bold=False, mono=mono)
    ascent, descent = face.getmetrics()
    width = math.ceil(max(face.getlength(char) for char in charset))
    for char in charset:
        left, _, right, _ = face.getbbox(char, anchor="ls")
        if left < 0:
            raise ValueError(f"{char!r} reaches left of its pen position; not a cell font")
        width = max(width, int(right))  # whole pixels (Pillow types a box float, for stroke widths)
    return width, ascent, descent


def _paint_character(image: Image.Image, draw: ImageDraw.ImageDraw,
                     key: tuple[int, int, str, int, bool, tuple[int, int, int]]) -> None:
    x, y, char, size, mono, fill = key
    text(draw, (x, y), char, size, fill=fill, mono=mono)


def cell_text_layers(prefix: str, box: Box, string: str, charset: str, size: int, *, mono: bool = True,
                     fill: tuple[int, int, int] = PALETTE["ink"]) -> dict[str, Layer]:
    """`string` centred in `box` (its baseline where `centered_text` puts it), one layer
    per character named ``f"{prefix}_{i}"``; every character must be in `charset`."""
    return dict(_character_layer(prefix, box, len(string), index, char, charset, size, mono, fill)
                for index, char in enumerate(string))


@lru_cache(maxsize=65536)
def _character_layer(prefix: str, box: Box, length: int, index: int, char: str, charset: str, size: int, mono: bool,
                     fill: tuple[int, int, int]) -> tuple[str, Layer]:
    """Name and layer of character `index` of a `length`-character string (made once per
    position and character: each reset asks for a new serial's)."""
    if char not in charset:
        raise ValueError(f"{char!r} is not in the cell font's character set")
    width, ascent, descent = _cell_metrics(size, mono, charset)
    x0, y0, x1, y1 = box
    x = round((x0 + x1) / 2 - length * width / 2) + index * width
    top = round((y0 + y1) / 2) + round((ascent - descent) / 2) - ascent
    return f"{prefix}_{index}", Layer((x, top, x + width, top + ascent + descent), (x, top, char, size, mono, fill),
                                      _paint_character)


class _Strip:
    """Where a string of `length` characters goes (one per configuration, from `_strip`):
    the cells' geometry, and their pixels per (position, character) once drawn. A layer's key
    holds the strip, hashed by identity, and the string: a new serial costs one dictionary
    lookup per character, not a cache key of every cell."""

    def __init__(self, box: Box, length: int, charset: str, size: int, mono: bool, fill: tuple[int, int, int],
                 background: Callable[[], Image.Image]) -> None:
        self.args = (box, length, charset, size, mono, fill, background)
        self.width, ascent, descent = _cell_metrics(size, mono, charset)
        x0, y0, x1, y1 = box
        self.x = round((x0 + x1) / 2 - length * self.width / 2)
        self.top = round((y0 + y1) / 2) + round((ascent - descent) / 2) - ascent
        self.height = ascent + descent
        self.size, self.mono, self.fill, self.background = size, mono, fill, background
        self.charset = frozenset(charset)
        self._cells: dict[tuple[int, str], np.ndarray] = {}  # at most length x len(charset)
        self._atlas: np.ndarray | None = None  # on a plain background: (height, characters, width, 3)
        self._slot: dict[str, int] = {}  # character -> its column in the atlas, once drawn
        self._plain: bool | None = None  # whether the background under the strip is one colour
        self._lock = threading.Lock()  # guards additions to the atlas

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _strip, self.args  # the receiving process's own strip, without the drawn cells

    def cell(self, index: int, char: str) -> np.ndarray:
        """Character `char` at position `index`: the background under its cell with it drawn."""
        found = self._cells.get((index, char))
        if found is None:
            found = self._cells[(index, char)] = _cell_pixels(self.character(index, char), self.width,
                                                              self.background)
        return found

    def pixels(self, string: str) -> np.ndarray:
        """`string`'s cells side by side (read-only). On a plain background a character's cell
        is the same at every position, so the cells are columns of one atlas and a string is
        gathered in one `np.take` (a serial costs a few microseconds, not a concatenation of
        cells scattered in memory)."""
        if self._plain is None:
            under = np.asarray(self.background().convert("RGB"))[
                self.top:self.top + self.height, self.x:self.x + self.width * self.args[1]]
            self._plain = bool(under.size) and bool((under == under[0, 0]).all())
        if not self._plain:
            pixels = np.concatenate([self.cell(index, char) for index, char in enumerate(string)], axis=1)
            pixels.flags.writeable = False
            return pixels
        slot = self._slot
        try:
            columns = [slot[char] for char in string]
        except KeyError:  # a character not drawn yet
            columns = [self._add_to_atlas(char) for char in string]
        assert self._atlas is not None
        # the method, not np.take, whose Python wrapper cost 0.5 of its 1.8 µs
        pixels = self._atlas.take(columns, axis=1).reshape(self.height, self.width * len(string), 3)
        pixels.flags.writeable = False
        return pixels

    def _add_to_atlas(self, char: str) -> int:
        """Draw `char`'s cell into the atlas (at most once per character); its column. A column
        is published in `_slot` only once drawn, so readers never see a half-drawn one."""
        with self._lock:
            found = self._slot.get(char)
            if found is not None:
                return found
            if self._atlas is None:
                self._atlas = np.empty((self.height, len(self.charset), self.width, 3), dtype=np.uint8)
            column = len(self._slot)
            self._atlas[:, column] = self.cell(0, char)
            self._slot[char] = column
            return column

    def character(self, index: int, char: str) -> Cell:
        """The key `_paint_character` draws `char` at position `index` with."""
        return (self.x + index * self.width, self.top, char, self.size, self.mono, self.fill)


@lru_cache(maxsize=64)
def _strip(box: Box, length: int, charset: str, size: int, mono: bool, fill: tuple[int, int, int],
           background: Callable[[], Image.Image]) -> _Strip:
    return _Strip(box, length, charset, size, mono, fill, background)


@lru_cache(maxsize=64)  # the same string on every step of an episode
def cell_text_layer(name: str, box: Box, string: str, charset: str, size: int,
                    background: Callable[[], Image.Image], *, mono: bool = True,
                    fill: tuple[int, int, int] = PALETTE["ink"]) -> dict[str, Layer]:
    """`string` as `cell_text_layers` draws it, as one layer named `name` over its cells,
    whose pixels are the cached cells side by side (`background` is the scene's cached
    background, under the cells).

    A new string is then one patch to write, and to catch up with in the other frame of a
    Gymnasium loop, instead of one per character, and no patch cache entry (the cells are
    cached, the string is not). The returned mapping is shared: do not modify it."""
    if not string:
        return {}
    strip = _strip(box, len(string), charset, size, mono, fill, background)
    if not strip.charset.issuperset(string):
        raise ValueError(f"{string!r} has characters outside the cell font's character set")
    return {name: Layer((strip.x, strip.top, strip.x + strip.width * len(string), strip.top + strip.height),
                        (strip, string), _paint_cells)}


def _paint_cells(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[_Strip, str]) -> None:
    """The full-redraw path: each character drawn where its cell is."""
    strip, string = key
    for index, char in enumerate(string):
        _paint_character(image, draw, strip.character(index, char))


Cell = tuple[int, int, str, int, bool, tuple[int, int, int]]
"""A character's layer key: (x, top, character, size, mono, fill)."""


def _cells_pixels(key: tuple[_Strip, str]) -> np.ndarray:
    """The read-only pixels of the layer's box: its cells, side by side."""
    strip, string = key
    return strip.pixels(string)


@lru_cache(maxsize=4096)
def _cell_pixels(cell: tuple[int, int, str, int, bool, tuple[int, int, int]], width: int,
                 background: Callable[[], Image.Image]) -> np.ndarray:
    """One character's cell: the background under it with the character drawn (at whole
    pixels, so the same pixels as drawing it on the whole picture)."""
    x, top, char, size, mono, fill = cell
    ascent, descent = font(size, bold=False, mono=mono).getmetrics()
    image = background().crop((x, top, x + width, top + ascent + descent)).convert("RGB")
    _paint_character(image, ImageDraw.Draw(image), (0, 0, char, size, mono, fill))
    pixels = np.asarray(image).copy()
    pixels.flags.writeable = False
    return pixels


_paint_cells.pixels = _cells_pixels  # type: ignore[attr-defined]  # the scene copies these instead of painting
