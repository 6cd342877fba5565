"""Shared drawing helpers: the bundled fonts, a colour palette, and the module frame."""

from __future__ import annotations

import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from comma_env.drawing.scene import Layer
from comma_env.protocol.resources import font_path

MIN_TEXT_PX = 14
"""Smallest text size any puzzle image may use (legibility requirement)."""

PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (214, 39, 40),
    "blue": (31, 97, 212),
    "green": (44, 160, 44),
    "yellow": (240, 205, 30),
    "white": (250, 250, 250),
    "black": (20, 20, 20),
    "magenta": (214, 40, 200),
    "purple": (128, 60, 170),
    "orange": (245, 130, 20),
    "grey": (128, 128, 128),
    "panel": (196, 199, 204),
    "frame": (70, 74, 82),
    "display": (24, 40, 28),
    "display_text": (120, 250, 140),
    "button": (232, 226, 210),
    "ink": (15, 15, 15),
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu at `size` px (never below `MIN_TEXT_PX`); shipped with the package so that
    images are identical on every machine."""
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(font_path(name)), max(size, MIN_TEXT_PX))


ARRAY_KEY = "comma_env.array"
"""`Image.info` key under which `editable_copy` records the numpy buffer it draws into."""

_TEMPLATE_ARRAYS: OrderedDict[int, tuple[Image.Image, np.ndarray]] = OrderedDict()
_TEMPLATE_CACHE_SIZE = 32


def _template_array(template: Image.Image) -> np.ndarray:
    """RGBA pixels of a cached template image, converted once (a small LRU keyed by identity;
    the entry keeps the template alive, so an id cannot be reused while cached)."""
    key = id(template)
    entry = _TEMPLATE_ARRAYS.get(key)
    if entry is None or entry[0] is not template:
        entry = (template, np.asarray(template.convert("RGBA")).copy())
        _TEMPLATE_ARRAYS[key] = entry
        while len(_TEMPLATE_ARRAYS) > _TEMPLATE_CACHE_SIZE:
            _TEMPLATE_ARRAYS.popitem(last=False)
    else:
        _TEMPLATE_ARRAYS.move_to_end(key)
    return entry[1]


def editable_copy(template: Image.Image) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A copy of a cached template image whose pixels live in a numpy array.

    Images are redrawn on every state change, on the hot path of RL training, and turning a
    finished PIL image into the numpy observation costs more than drawing it. So the copy is
    made as a numpy array and Pillow draws straight into that buffer (a mapped RGBA image made
    writable); the environment then returns a view of it without converting
    (`observation_array`). Templates must be long-lived (cached) images.
    """
    array = _template_array(template).copy()
    height, width = array.shape[:2]
    image = Image.frombuffer("RGBA", (width, height), array, "raw", "RGBA", 0, 1)
    image.readonly = 0  # draw into `array` itself instead of copying on first write
    image.info[ARRAY_KEY] = (array, image.im)
    return image, ImageDraw.Draw(image)


def observation_array(picture: Image.Image) -> np.ndarray:
    """The RGB uint8 array of a finished drawing, without a copy when it came from
    `editable_copy` and was drawn in place (else through Pillow's conversion)."""
    mapped = picture.info.get(ARRAY_KEY)
    if mapped is not None and picture.im is mapped[1] and picture.mode == "RGBA":
        return mapped[0][..., :3]
    if picture.mode != "RGB":
        picture = picture.convert("RGB")
    return np.asarray(picture, dtype=np.uint8)


@lru_cache(maxsize=16)
def _blank_module(size: tuple[int, int], title: str | None) -> Image.Image:
    image = Image.new("RGB", size, PALETTE["panel"])
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rectangle((0, 0, width - 1, height - 1), outline=PALETTE["frame"], width=6)
    if title:
        text(draw, (16, 12), title, 18, fill=PALETTE["frame"], bold=True)
    return image


def canvas(size: tuple[int, int], title: str | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank module: grey panel with a dark frame and an optional title strip.

    The frame is drawn once per (size, title); each call gets an `editable_copy` of it.
    """
    return editable_copy(_blank_module(tuple(size), title))


class _Memo(dict):
    """A dict that computes a missing entry with `make` (and keeps it while it holds fewer
    than `limit`): a present key costs one C-level dict lookup, the innermost step of
    composing a new string."""

    def __init__(self, make: Callable[[Any], Any], limit: int) -> None:
        super().__init__()
        self.make, self.limit = make, limit

    def __missing__(self, key: Any) -> Any:
        value = self.make(key)
        if len(self) < self.limit:
            self[key] = value
        return value


ATLAS_COLUMNS_LIMIT = 1 << 15
"""Most glyph columns a font's atlas holds (then new glyphs take the glyph-by-glyph path)."""

ATLAS_LAYERS_LIMIT = 4
"""Most layers of overlapping glyphs a line is gathered in (more: glyph by glyph)."""


@lru_cache(maxsize=8)
def _font_box(path: str) -> tuple[int, int, int]:
    """(units per em, lowest, highest) of every glyph in the font file at `path`: the
    `head` table's bounding box, read from the file's table directory (no font library)."""
    with open(path, "rb") as stream:
        (tables,) = struct.unpack(">H", stream.read(12)[4:6])
        directory = stream.read(16 * tables)
        for index in range(tables):
            tag, _, offset, _ = struct.unpack(">4sIII", directory[16 * index:16 * index + 16])
            if tag == b"head":
                stream.seek(offset)
                head = stream.read(54)
                (units,) = struct.unpack(">H", head[18:20])
                _, y_min, _, y_max = struct.unpack(">4h", head[36:44])
                return units, y_min, y_max
    raise ValueError(f"{path}: a font without a head table")


class _FontGlyphs:
    """Per-font caches: glyph masks, pair kerning, and an atlas of glyph columns, each glyph
    drawn on its baseline in rows tall enough for any glyph of the font, from which a line
    (left-aligned or centred) is gathered in one numpy call per layer of overlapping glyphs."""

    def __init__(self, size: int, bold: bool, mono: bool) -> None:
        self.face = font(size, bold, mono)
        self.ascent, self.descent = self.face.getmetrics()
        self.line_height = self.ascent + self.descent
        self.glyphs: dict[str, tuple[np.ndarray | None, int, int, float]] = _Memo(self._glyph, 4096)
        """char -> (coverage, left, top, advance); left/top: the mask's offset from the pen on the baseline."""
        self.kerning: dict[str, float] = _Memo(self._kern, 65536)
        """two characters -> extra advance between them (negative when kerned closer)."""
        self.placements: dict[str, tuple[bytes | None, int, float, int, int, int]] = _Memo(self._place, 4096)
        """char -> (atlas columns, left, advance, width, top, bottom): see `_place`."""
        units, lowest, highest = _font_box(str(self.face.path))  # `font` opens a str path (Pillow allows files too)
        scale = self.face.size / units
        self.atlas_baseline = max(math.ceil(highest * scale) + 2, self.ascent)
        """The baseline's row in the atlas: the font's highest point above it, plus hinting's margin."""
        below = max(math.ceil(-lowest * scale) + 2, self.descent)
        self.atlas = np.zeros((self.atlas_baseline + below, 256), dtype=np.uint8)
        """Glyph columns side by side (column 0 blank); grows by doubling, its rows fixed."""
        self.atlas_used = 1
        self._atlas_lock = threading.Lock()

    def _glyph(self, char: str) -> tuple[np.ndarray | None, int, int, float]:
        try:
            # whole pixels (Pillow types a box float, for fractional stroke widths)
            left, top, right, bottom = map(int, self.face.getbbox(char, anchor="ls"))
            advance = self.face.getlength(char)
        except RuntimeError:  # the layout engine (raqm) refuses a few characters (U+2029): nothing drawn
            return None, 0, 0, 0.0
        if right <= left or bottom <= top:
            return None, 0, 0, advance
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).text((-left, -top), char, font=self.face, fill=255, anchor="ls")
        pixels = np.asarray(mask)
        pixels.flags.writeable = False
        return pixels, left, top, advance

    def _kern(self, pair: str) -> float:
        try:
            return self.face.getlength(pair) - self.glyphs[pair[0]][3] - self.glyphs[pair[1]][3]
        except RuntimeError:  # a character the layout engine refuses (see `_glyph`)
            return 0.0

    def _place(self, char: str) -> tuple[bytes | None, int, float, int, int, int]:
        """(columns, left, advance, width, top, bottom) of `char`: the atlas columns of its
        glyph as numpy indices (bytes: a line's are joined), its offset from the pen, the
        advance, the glyph's width (0 for a blank glyph), and its first and last + 1 rows
        from the baseline. Columns None when the atlas is full or the glyph leaves the atlas
        rows (rare: hinting can move a mark beyond the font's box)."""
        pixels, left, top, advance = self.glyphs[char]
        if pixels is None:
            return b"", 0, advance, 0, 0, 0
        height, width = pixels.shape
        row = self.atlas_baseline + top
        if not 0 <= row <= self.atlas.shape[0] - height:
            return None, left, advance, width, top, top + height
        with self._atlas_lock:  # readers gather only columns they placed: growing copies them
            used = self.atlas_used
            if used + width > ATLAS_COLUMNS_LIMIT:
                return None, left, advance, width, top, top + height
            if used + width > self.atlas.shape[1]:
                wider = min(max(2 * self.atlas.shape[1], used + width), ATLAS_COLUMNS_LIMIT)
                grown = np.zeros((self.atlas.shape[0], wider), dtype=np.uint8)
                grown[:, :used] = self.atlas[:, :used]
                self.atlas = grown
            self.atlas[row:row + height, used:used + width] = pixels
            self.atlas_used = used + width
        return np.arange(used, used + width, dtype=np.intp).tobytes(), left, advance, width, top, top + height


@lru_cache(maxsize=64)
def _font_glyphs(size: int, bold: bool, mono: bool) -> _FontGlyphs:
    return _FontGlyphs(size, bold, mono)


@lru_cache(maxsize=4096)
def _text_mask(string: str, size: int, bold: bool, mono: bool, anchor: str) -> tuple[Image.Image | None, int, int]:
    """`text_coverage` as a Pillow mask (for `ImageDraw.bitmap`), cached alike."""
    coverage, x0, y0 = text_coverage(string, size, bold, mono, anchor)
    if coverage is None:
        return None, 0, 0
    return Image.frombuffer("L", (coverage.shape[1], coverage.shape[0]), coverage, "raw", "L", 0, 1), x0, y0


@lru_cache(maxsize=4096)
def text_coverage(string: str, size: int, bold: bool, mono: bool, anchor: str) -> tuple[np.ndarray | None, int, int]:
    """A rendered one-line text mask (read-only uint8 coverage) and its offset from the
    anchor point ("la": left/ascender, "mm": middle/middle).

    FreeType rendering dominates drawing time, and per-instance strings (a serial number, a
    patient's address) never repeat, so a line is composed from cached glyph masks placed at
    the font's advances plus pair kerning, pen positions rounded to whole pixels as Pillow
    does (Pillow's own rendering but for ligatures such as "ff" and, rarely, a glyph one
    pixel apart). Whole lines are cached too: labels repeat endlessly. A line is gathered
    from the font's glyph atlas (`_line_strips`); only a full atlas or a pile of overlapping
    glyphs (stacked combining marks) takes the glyph-by-glyph path.
    """
    if anchor not in ("la", "mm"):
        raise ValueError(f"unsupported text anchor {anchor!r}")
    return _compose(_font_glyphs(size, bold, mono), string, mono, anchor)


def _compose(fonts: _FontGlyphs, string: str, mono: bool, anchor: str) -> tuple[np.ndarray | None, int, int]:
    """`text_coverage` in `fonts`: from the atlas, else glyph by glyph."""
    line = _line_strips(fonts, string, mono, anchor)
    return line if line is not None else _glyph_by_glyph(fonts, string, mono, anchor)


def _glyph_by_glyph(fonts: _FontGlyphs, string: str, mono: bool, anchor: str) -> tuple[np.ndarray | None, int, int]:
    """`text_coverage` as every glyph's mask combined into the line's box by maximum, one by
    one: the reference composition, and the path for what the atlas cannot gather."""
    glyphs, kerning = fonts.glyphs, fonts.kerning
    placed = []
    pen, previous = 0.0, ""
    for char in string:
        if previous and not mono:  # monospaced faces do not kern
            pen += kerning[previous + char]
        pixels, left, top, advance = glyphs[char]
        if pixels is not None:
            placed.append((pixels, pen, left, top))
        pen += advance
        previous = char
    if not placed:
        return None, 0, 0
    shift = 0.5 - round(pen / 2) if anchor == "mm" else 0.5
    baseline = round((fonts.ascent - fonts.descent) / 2) if anchor == "mm" else fonts.ascent
    boxes = [(pixels, math.floor(pen_x + shift) + left, baseline + top) for pixels, pen_x, left, top in placed]
    x0, y0 = min(x for _, x, _ in boxes), min(y for _, _, y in boxes)
    x1 = max(x + pixels.shape[1] for pixels, x, _ in boxes)
    y1 = max(y + pixels.shape[0] for pixels, _, y in boxes)
    coverage = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    for pixels, x, y in boxes:
        target = coverage[y - y0:y - y0 + pixels.shape[0], x - x0:x - x0 + pixels.shape[1]]
        np.maximum(target, pixels, out=target)
    coverage.flags.writeable = False
    return coverage, x0, y0


_Glyph = tuple[int, bytes, int]
"""A glyph on a line: (x, its atlas columns as numpy index bytes, width)."""

_Layout = tuple[list[bytes], int | None, int | None, list[list[_Glyph]], float, int, int]
"""A line's glyphs in the atlas: (the first layer's atlas indices, column by column from its
start, as bytes to join; that start; its end (both None for a line that draws nothing);
further layers of glyphs, each sharing no column and in x order; the pen's end; the first
and last + 1 rows from the baseline)."""


def _arrange(fonts: _FontGlyphs, string: str, mono: bool, anchor: str) -> _Layout | None:
    """Where each glyph of a line goes (x from the left-aligned pen) and which atlas columns
    it shows, in one Python pass (no numpy call per glyph). Glyphs go to the first layer
    they do not overlap: antialiased edges often share a column (two layers), a combining
    mark sits on its letter (a layer over it). The rows are the glyphs' own for a centred
    line and the line height, widened for glyphs that leave it, for a left-aligned one (see
    `_line_strips`). None when a glyph is not in the atlas or the glyphs pile up in more
    than `ATLAS_LAYERS_LIMIT` layers (stacked combining marks)."""
    placements, kerning, floor, blank = fonts.placements, fonts.kerning, math.floor, _blank
    parts: list[bytes] = []  # the first layer (most lines have no other), gaps as blank column 0
    layers: list[list[_Glyph]] = []
    pen, previous = 0.0, ""
    start: int | None = None  # the first layer's first and last + 1 columns
    end: int | None = None
    # a centred line's rows are its glyphs' own: start from the atlas's rows, which hold every placed glyph
    low, high = ((fonts.atlas.shape[0] - fonts.atlas_baseline, -fonts.atlas_baseline) if anchor == "mm"
                 else (-fonts.ascent, fonts.descent))
    for char in string:
        if previous and not mono:  # monospaced faces do not kern
            pen += kerning[previous + char]
        previous = char
        columns, left, advance, width, top, bottom = placements[char]
        if width:
            if columns is None:
                return None
            if top < low:
                low = top
            if bottom > high:
                high = bottom
            x = floor(pen + 0.5) + left
            if end is None:
                start = x
                parts.append(columns)
                end = x + width
            elif x >= end:
                if x > end:
                    parts.append(blank(x - end))
                parts.append(columns)
                end = x + width
            else:
                for layer in layers:
                    if x >= layer[-1][0] + layer[-1][2]:
                        layer.append((x, columns, width))
                        break
                else:
                    if len(layers) + 1 >= ATLAS_LAYERS_LIMIT:
                        return None
                    layers.append([(x, columns, width)])
        pen += advance
    return parts, start, end, layers, pen, low, high


def _line_strips(fonts: _FontGlyphs, string: str, mono: bool, anchor: str = "la"
                 ) -> tuple[np.ndarray | None, int, int] | None:
    """`text_coverage` gathered from the font's atlas: one `take` per layer of `_arrange`
    (combined by maximum). A centred line is the left-aligned one moved by half its advance
    (pen positions are exact multiples of 1/64: the shift commutes with the rounding). The
    mask spans the glyphs' columns; its rows are the glyphs' own for a centred line and the
    line height for a left-aligned one: the offsets callers have always rounded fractional
    anchor points with (Python rounds halves to even, so a mask one row taller would move
    such a line by a pixel). None when `_arrange` declines."""
    layout = _arrange(fonts, string, mono, anchor)
    if layout is None:
        return None
    parts, start, stop, layers, pen, low, high = layout
    if start is None or stop is None:
        return None, 0, 0
    if layers:  # the further layers may reach beyond the first one
        first, last = start, stop
        for layer in layers:
            start, stop = min(start, layer[0][0]), max(stop, layer[-1][0] + layer[-1][2])
        parts = [_blank(first - start), *parts, _blank(stop - last)]
    baseline = fonts.atlas_baseline
    rows = fonts.atlas[baseline + low:baseline + high]  # the atlas taken after every placement holds all their columns
    coverage = rows.take(np.frombuffer(b"".join(parts), dtype=np.intp), axis=1)
    for layer in layers:
        np.maximum(coverage, rows.take(_gather_indices(layer, start, stop), axis=1), out=coverage)
    coverage.flags.writeable = False
    if anchor == "mm":
        return coverage, start - round(pen / 2), round((fonts.ascent - fonts.descent) / 2) + low
    return coverage, start, fonts.ascent + low


_INDEX_BYTES = np.dtype(np.intp).itemsize
_GAP_WIDTHS = 256
_GAPS = tuple(bytes(_INDEX_BYTES * width) for width in range(_GAP_WIDTHS))
"""Blank runs of columns (atlas column 0) as numpy index bytes, by width."""


def _blank(width: int) -> bytes:
    """A blank run of `width` columns as numpy index bytes (short ones shared, not rebuilt)."""
    return _GAPS[width] if width < _GAP_WIDTHS else bytes(_INDEX_BYTES * width)


def _gather_indices(glyphs: list[_Glyph], start: int, stop: int) -> np.ndarray:
    """For each column `start` .. `stop` of a line, the atlas column it shows (0, blank,
    between glyphs), given non-overlapping glyphs in x order: bytes joined and read by
    numpy, no per-column Python and no numpy call per glyph."""
    parts, at = [], start
    for x, columns, width in glyphs:
        if x > at:
            parts.append(_blank(x - at))
        parts.append(columns)
        at = x + width
    if stop > at:
        parts.append(_blank(stop - at))
    return np.frombuffer(b"".join(parts), dtype=np.intp)


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], string: str, size: int,
         fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False, mono: bool = False,
         anchor: str = "la") -> None:
    """Write `string` at `xy` (PIL anchor semantics, default left/ascender) from a cached mask."""
    for index, line in enumerate(string.split("\n")):
        mask, left, top = _text_mask(line, max(size, MIN_TEXT_PX), bold, mono, anchor)
        if mask is not None:
            y = xy[1] + index * round(size * 1.25)
            draw.bitmap((round(xy[0] + left), round(y + top)), mask, fill=fill)


@lru_cache(maxsize=64)
def blend_table(background: tuple[int, int, int], fill: tuple[int, int, int]) -> np.ndarray:
    """(256, 3) uint8: the colour `ImageDraw.bitmap` gives a `background` pixel under mask
    value m with ink `fill`, indexed by m (Pillow's own rounding: drawn by Pillow, once)."""
    image = Image.new("RGB", (256, 1), background)
    ImageDraw.Draw(image).bitmap((0, 0), Image.frombytes("L", (256, 1), bytes(range(256))), fill=fill)
    table = np.asarray(image)[0].copy()
    table.flags.writeable = False
    return table


def text_into(pixels: np.ndarray, xy: tuple[float, float], string: str, size: int, background: tuple[int, int, int],
              fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False, mono: bool = False) -> None:
    """`text` written straight into an RGB array whose pixels under the text are all
    `background` (a plain panel): each pixel is looked up from its coverage in
    `blend_table`, so the result equals Pillow's drawing without a Pillow image (a card of
    new values per episode is drawn this way). Clipped to the array."""
    table = blend_table(tuple(background), tuple(fill))
    height, width = pixels.shape[:2]
    for index, line in enumerate(string.split("\n")):
        coverage, left, top = text_coverage(line, max(size, MIN_TEXT_PX), bold, mono, "la")
        if coverage is None:
            continue
        x, y = round(xy[0] + left), round(xy[1] + index * round(size * 1.25) + top)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + coverage.shape[1], width), min(y + coverage.shape[0], height)
        if x0 < x1 and y0 < y1:
            np.take(table, coverage[y0 - y:y1 - y, x0 - x:x1 - x], axis=0, out=pixels[y0:y1, x0:x1])


def centered_text(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], string: str,
                  size: int, fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False,
                  mono: bool = False) -> None:
    """Write one line of `string` centred in `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), string, size, fill=fill, bold=bold, mono=mono, anchor="mm")


@lru_cache(maxsize=256)
def label_box(box: tuple[int, int, int, int], labels: tuple[str, ...], size: int, bold: bool = True,
              mono: bool = False) -> tuple[int, int, int, int]:
    """The smallest box (x1/y1 exclusive) holding every pixel `centered_text` draws in `box`
    for any of `labels`: the box of a scene layer that draws only a label over a body kept
    in the background (a button whose letter changes repaints the letter, not the button)."""
    x0, y0, x1, y1 = box
    canvas_ = Image.new("RGB", (x1 + 2, y1 + 2))
    left, top, right, bottom = x1, y1, x0, y0
    for label in labels:
        canvas_.paste((0, 0, 0), (0, 0) + canvas_.size)
        centered_text(ImageDraw.Draw(canvas_), box, label, size, fill=(255, 255, 255), bold=bold, mono=mono)
        inked = canvas_.getbbox()
        if inked is not None:
            left, top = min(left, inked[0]), min(top, inked[1])
            right, bottom = max(right, inked[2]), max(bottom, inked[3])
    if left >= right:
        return (x0, y0, x0, y0)
    return left, top, right, bottom


def button(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str, size: int = 22,
           fill: tuple[int, int, int] = PALETTE["button"], text_fill: tuple[int, int, int] = PALETTE["ink"]) -> None:
    """A rounded button with a centred label."""
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=PALETTE["frame"], width=3)
    if label:
        centered_text(draw, box, label, size, fill=text_fill, bold=True)


TIMER_BOX = (40, 412, 220, 480)


TIMER_SIZE = 40


def countdown_display(draw: ImageDraw.ImageDraw) -> None:
    """The empty timer display, drawn in the background of a module using `countdown_layers`."""
    draw.rounded_rectangle(TIMER_BOX, radius=8, fill=PALETTE["display"])


def _paint_timer(image: Image.Image, draw: ImageDraw.ImageDraw, shown: str) -> None:
    centered_text(draw, TIMER_BOX, shown, TIMER_SIZE, fill=PALETTE["display_text"], bold=True, mono=True)


@lru_cache(maxsize=1)
def _reading_box() -> tuple[int, int, int, int]:
    """The box holding any ``M:SS`` or ``MM:SS`` reading (a monospaced font: every digit at
    every place, in ten readings of each length)."""
    readings = tuple(f"{d}:{d}{d}" for d in "0123456789") + tuple(f"{d}{d}:{d}{d}" for d in "0123456789")
    return label_box(TIMER_BOX, readings, TIMER_SIZE, bold=True, mono=True)


def _paint_lamp(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[int, bool]) -> None:
    lamp_x, disarmed = key
    if disarmed:
        draw.ellipse((lamp_x, 428, lamp_x + 30, 458), fill=PALETTE["green"], outline=PALETTE["frame"], width=2)


def countdown_layers(shown: str, disarmed: bool, lamp_x: int = 250) -> dict[str, Layer]:
    """The real-time modules' (Button, Dog) timer reading at the bottom left, and the green
    lamp that lights once the module is disarmed, as scene layers (the timer changes on
    every step of the clock; nothing else has to be redrawn for it, and only the reading's
    box: the display itself is in the background, `countdown_display`). A longer reading
    than ``MM:SS`` gets the whole display's box."""
    x0, y0, x1, y1 = TIMER_BOX
    return {
        "timer": Layer(_reading_box() if len(shown) <= 5 else (x0, y0, x1 + 1, y1 + 1), shown, _paint_timer),
        "lamp": _lamp_layer(lamp_x, disarmed),
    }


@lru_cache(maxsize=16)
def _lamp_layer(lamp_x: int, disarmed: bool) -> Layer:
    """The lamp, one object per look. Made anew with every reading of the timer, the lamps
    were as many equal objects as readings; the patch cache indexes at most
    `scene.LAYERS_PER_KEY` objects of a key, so a lamp that went on or off was found by
    hashing its key and indexed again, on 40% of Button's and 22% of Dog's learner steps in
    random play."""
    return Layer((lamp_x, 428, lamp_x + 31, 459), (lamp_x, disarmed), _paint_lamp)

