"""Shared drawing helpers: the bundled fonts, a colour palette, and the module frame."""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from comma_env.resources import font_path

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


@lru_cache(maxsize=4096)
def _text_mask(string: str, size: int, bold: bool, mono: bool, anchor: str) -> tuple[Image.Image | None, int, int]:
    """A rendered text mask and its offset from the anchor point.

    FreeType rendering dominates drawing time; labels repeat endlessly across steps, so each
    (text, font, anchor) is rendered once and then stamped with `ImageDraw.bitmap`.
    """
    face = font(size, bold, mono)
    left, top, right, bottom = face.getbbox(string, anchor=anchor)
    if right <= left or bottom <= top:
        return None, 0, 0
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), string, font=face, fill=255, anchor=anchor)
    return mask, left, top


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], string: str, size: int,
         fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False, mono: bool = False,
         anchor: str = "la") -> None:
    """Write `string` at `xy` (PIL anchor semantics, default left/ascender) from a cached mask."""
    for index, line in enumerate(string.split("\n")):
        mask, left, top = _text_mask(line, max(size, MIN_TEXT_PX), bold, mono, anchor)
        if mask is not None:
            y = xy[1] + index * round(size * 1.25)
            draw.bitmap((round(xy[0] + left), round(y + top)), mask, fill=fill)


def centered_text(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], string: str,
                  size: int, fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False,
                  mono: bool = False) -> None:
    """Write one line of `string` centred in `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), string, size, fill=fill, bold=bold, mono=mono, anchor="mm")


def button(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str, size: int = 22,
           fill: tuple[int, int, int] = PALETTE["button"], text_fill: tuple[int, int, int] = PALETTE["ink"]) -> None:
    """A rounded button with a centred label."""
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=PALETTE["frame"], width=3)
    if label:
        centered_text(draw, box, label, size, fill=text_fill, bold=True)


def draw_countdown(draw: ImageDraw.ImageDraw, shown: str, disarmed: bool, lamp_x: int = 250) -> None:
    """The real-time modules' (Button, Dog) timer display at the bottom left, and the green
    lamp that lights once the module is disarmed."""
    draw.rounded_rectangle((40, 412, 220, 480), radius=8, fill=PALETTE["display"])
    centered_text(draw, (40, 412, 220, 480), shown, 40, fill=PALETTE["display_text"], bold=True, mono=True)
    if disarmed:
        draw.ellipse((lamp_x, 428, lamp_x + 30, 458), fill=PALETTE["green"], outline=PALETTE["frame"], width=2)
