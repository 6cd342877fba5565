"""Shared drawing helpers: the bundled fonts, a colour palette, and the module frame."""

from __future__ import annotations

from functools import lru_cache

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


def canvas(size: tuple[int, int], title: str | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank module: grey panel with a dark frame and an optional title strip."""
    image = Image.new("RGB", size, PALETTE["panel"])
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rectangle((0, 0, width - 1, height - 1), outline=PALETTE["frame"], width=6)
    if title:
        draw.text((16, 12), title, font=font(18, bold=True), fill=PALETTE["frame"])
    return image, draw


def centered_text(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str,
                  size: int, fill: tuple[int, int, int] = PALETTE["ink"], bold: bool = False,
                  mono: bool = False) -> None:
    """Write `text` centred in `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font(size, bold, mono), fill=fill, anchor="mm")


def button(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str, size: int = 22,
           fill: tuple[int, int, int] = PALETTE["button"], text_fill: tuple[int, int, int] = PALETTE["ink"]) -> None:
    """A rounded button with a centred label."""
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=PALETTE["frame"], width=3)
    if label:
        centered_text(draw, box, label, size, fill=text_fill, bold=True)
