"""Shared drawing helpers: the bundled fonts and their text, a colour palette, the module frame,
buttons and the countdown display."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

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

def png_bytes(picture: Image.Image | np.ndarray) -> bytes:
    """A picture (PIL or an RGB array) as the PNG every consumer sends or stores (fast, lossless)."""
    image = picture if isinstance(picture, Image.Image) else Image.fromarray(np.asarray(picture, dtype=np.uint8))
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in pixels."""


@lru_cache(maxsize=64)  # opening a font file: once per face and size
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu at `size` px (never below `MIN_TEXT_PX`); shipped with the package so that
    images are identical on every machine."""
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(font_path(name)), max(size, MIN_TEXT_PX))


Glyph = tuple["np.ndarray | None", int, int, float]
"""A character as `text` places it: its coverage mask (None: nothing drawn), the mask's
offset (left, top) from the pen on the baseline, and the pen's advance."""


@lru_cache(maxsize=8192)  # FreeType renders each character of a face once
def _glyph(char: str, size: int, bold: bool, mono: bool) -> Glyph:
    face = font(size, bold, mono)
    try:
        # whole pixels (Pillow types a box float, for fractional stroke widths)
        left, top, right, bottom = map(int, face.getbbox(char, anchor="ls"))
        advance = face.getlength(char)
    except RuntimeError:  # the layout engine (raqm) refuses a few characters (U+2029): nothing drawn
        return None, 0, 0, 0.0
    if right <= left or bottom <= top:
        return None, 0, 0, advance
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), char, font=face, fill=255, anchor="ls")
    return np.asarray(mask), left, top, advance


@lru_cache(maxsize=65536)  # the layout engine measures each pair of characters once
def _kerning(pair: str, size: int, bold: bool, mono: bool) -> float:
    """The extra advance between two characters (negative when kerned closer)."""
    try:
        length = font(size, bold, mono).getlength(pair)
    except RuntimeError:  # a character the layout engine refuses (see `_glyph`)
        return 0.0
    return length - _glyph(pair[0], size, bold, mono)[3] - _glyph(pair[1], size, bold, mono)[3]


@lru_cache(maxsize=4096)  # labels recur on every picture
def _line_mask(line: str, size: int, bold: bool, mono: bool, anchor: str) -> tuple[Image.Image | None, int, int]:
    """One line of text as a coverage mask and its offset from the anchor ("la" or "mm"); not
    `ImageDraw.text`, whose composition differs from the one the pictures are defined by."""
    if anchor not in ("la", "mm"):
        raise ValueError(f"unsupported text anchor {anchor!r}")
    placed = []
    pen, previous = 0.0, ""
    for char in line:
        if previous and not mono:  # monospaced faces do not kern
            pen += _kerning(previous + char, size, bold, mono)
        previous = char
        pixels, left, top, advance = _glyph(char, size, bold, mono)
        if pixels is not None:
            placed.append((pixels, math.floor(pen + 0.5) + left, top))
        pen += advance
    if not placed:
        return None, 0, 0
    ascent, descent = font(size, bold, mono).getmetrics()
    x0 = min(x for _, x, _ in placed)
    x1 = max(x + pixels.shape[1] for pixels, x, _ in placed)
    low = min(top for _, _, top in placed)
    high = max(top + pixels.shape[0] for pixels, _, top in placed)
    if anchor == "la":
        low, high = min(low, -ascent), max(high, descent)
    coverage = np.zeros((high - low, x1 - x0), dtype=np.uint8)
    for pixels, x, top in placed:
        target = coverage[top - low:top - low + pixels.shape[0], x - x0:x - x0 + pixels.shape[1]]
        np.maximum(target, pixels, out=target)
    mask = Image.fromarray(coverage)
    if anchor == "mm":
        return mask, x0 - round(pen / 2), round((ascent - descent) / 2) + low
    return mask, x0, ascent + low


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], string: str, size: int,
         fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False, mono: bool = False,
         anchor: str = "la") -> None:
    """Write `string` at `xy` (PIL anchor semantics, default left/ascender), line by line."""
    for index, line in enumerate(string.split("\n")):
        mask, left, top = _line_mask(line, max(size, MIN_TEXT_PX), bold, mono, anchor)
        if mask is not None:
            y = xy[1] + index * round(size * 1.25)
            draw.bitmap((round(xy[0] + left), round(y + top)), mask, fill=fill)


def centered_text(draw: ImageDraw.ImageDraw, box: Box, string: str, size: int,
                  fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False, mono: bool = False) -> None:
    """Write one line of `string` centred in `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), string, size, fill=fill, bold=bold, mono=mono, anchor="mm")


def cell_text(draw: ImageDraw.ImageDraw, box: Box, string: str, charset: str, size: int,
              fill: tuple[int, int, int] = PALETTE["ink"]) -> None:
    """Write `string` centred in `box` on a grid of equal monospaced cells, one character per
    cell, each cell as wide as the widest glyph of `charset` (a serial number, a PIN)."""
    width = 0
    for char in charset:
        pixels, left, _, advance = _glyph(char, size, False, True)
        width = max(width, math.ceil(advance), left + pixels.shape[1] if pixels is not None else 0)
    ascent, descent = font(size, mono=True).getmetrics()
    x0, y0, x1, y1 = box
    x = round((x0 + x1) / 2 - len(string) * width / 2)
    top = round((y0 + y1) / 2) + round((ascent - descent) / 2) - ascent
    for index, char in enumerate(string):
        text(draw, (x + index * width, top), char, size, fill=fill, mono=True)


def canvas(size: tuple[int, int], title: str | None = None,
           fixed: Callable[[ImageDraw.ImageDraw], None] | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A module to draw a state on: a grey panel with a dark frame, an optional title strip,
    and what `fixed` draws on it (the parts that no state changes)."""
    image = _panel(tuple(size), title, fixed).copy()
    return image, ImageDraw.Draw(image)


@lru_cache(maxsize=32)  # a puzzle's fixed parts, the same on every picture
def _panel(size: tuple[int, int], title: str | None, fixed: Callable[[ImageDraw.ImageDraw], None] | None
           ) -> Image.Image:
    image = Image.new("RGB", size, PALETTE["panel"])
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rectangle((0, 0, width - 1, height - 1), outline=PALETTE["frame"], width=6)
    if title:
        text(draw, (16, 12), title, 18, fill=PALETTE["frame"], bold=True)
    if fixed is not None:
        fixed(draw)
    return image


def button(draw: ImageDraw.ImageDraw, box: Box, label: str, size: int = 22,
           fill: tuple[int, int, int] = PALETTE["button"], text_fill: tuple[int, int, int] = PALETTE["ink"]) -> None:
    """A rounded button with a centred label."""
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=PALETTE["frame"], width=3)
    if label:
        centered_text(draw, box, label, size, fill=text_fill, bold=True)


TIMER_BOX = (40, 412, 220, 480)
TIMER_SIZE = 40


def countdown_display(draw: ImageDraw.ImageDraw) -> None:
    """The real-time modules' (Button, Dog) timer display at the bottom left, empty."""
    draw.rounded_rectangle(TIMER_BOX, radius=8, fill=PALETTE["display"])


def countdown(draw: ImageDraw.ImageDraw, shown: str, disarmed: bool, lamp_x: int = 250) -> None:
    """The timer's reading `shown` on its display, and the green lamp beside the display once
    the module is disarmed."""
    centered_text(draw, TIMER_BOX, shown, TIMER_SIZE, fill=PALETTE["display_text"], bold=True, mono=True)
    if disarmed:
        draw.ellipse((lamp_x, 428, lamp_x + 30, 458), fill=PALETTE["green"], outline=PALETTE["frame"], width=2)
