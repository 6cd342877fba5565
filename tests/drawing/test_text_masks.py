"""How the pictures write text (comma_env/drawing/common.py `text`): FreeType's glyphs, as
Pillow renders them, each at its pen position; only where two glyphs share a pixel does it
differ from Pillow's own line (the larger coverage, where Pillow blends the two)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from comma_env.drawing.common import cell_text, centered_text, font, text

LINES = ["228 Orchard Street, Riverton", "PATIENT PROFILE", "Photo of your skin lesion", "Choose a transaction",
         "ÄÖÜ ß 12:34 Åå", "/|\\_()[]{}", "Liam Rasmussen", "III (Fitzpatrick)", "Available balance"]


def _ours(string: str, size: int, bold: bool = False, mono: bool = False, anchor: str = "la",
          xy: tuple[float, float] = (20, 20)) -> np.ndarray:
    image = Image.new("L", (640, 120), 0)
    text(ImageDraw.Draw(image), xy, string, size, fill=255, bold=bold, mono=mono, anchor=anchor)
    return np.asarray(image)


def _pillows(string: str, size: int, bold: bool = False, anchor: str = "la") -> np.ndarray:
    image = Image.new("L", (640, 120), 0)
    ImageDraw.Draw(image).text((20, 20), string, font=font(size, bold), fill=255, anchor=anchor)
    return np.asarray(image)


@pytest.mark.parametrize("bold", [False, True])
def test_text_is_pillows_but_where_glyphs_share_a_pixel(bold: bool) -> None:
    """Pillow blends two glyphs' coverage where they share a pixel (more ink than either);
    the pictures take the larger one. Everywhere else the two are the same."""
    shared = 0
    for line in LINES:
        ours, pillows = _ours(line, 15, bold), _pillows(line, 15, bold)
        differ = ours != pillows
        assert (pillows[differ] > ours[differ]).all() and differ.sum() <= 6, line
        shared += differ.sum()
    assert shared  # some glyphs did share a pixel


@pytest.mark.parametrize("string", ["1", "SUBMIT", "Thank you", "position 4", "W" * 12])
@pytest.mark.parametrize("xy", [(300, 60), (300.5, 60.5)])
def test_a_centred_line_is_centred_on_its_point(string: str, xy: tuple[float, float]) -> None:
    inked = np.argwhere(_ours(string, 22, bold=True, anchor="mm", xy=xy))
    (top, left), (bottom, right) = inked.min(axis=0), inked.max(axis=0) + 1
    assert abs((left + right) / 2 - xy[0]) <= 1.5 and abs((top + bottom) / 2 - xy[1]) <= 4


def test_lines_go_one_under_another() -> None:
    both, first, second = _ours("ab\ncd", 18), _ours("ab", 18), _ours("cd", 18, xy=(20, 20 + round(18 * 1.25)))
    assert np.array_equal(both, np.maximum(first, second)) and first.any() and second.any()


def test_text_below_the_smallest_size_is_written_at_it() -> None:
    assert np.array_equal(_ours("tiny", 8), _ours("tiny", 14))


def test_an_unknown_anchor_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        _ours("x", 14, anchor="rb")


def test_characters_the_layout_engine_refuses_draw_nothing() -> None:
    """Pillow 13's raqm layout raises on U+2029 (paragraph separator), which any model may
    emit; such a character is drawn as nothing (as Pillow 12 draws it) instead of ending
    the episode. DejaVu Sans Mono has no such glyph: it draws its missing-glyph box."""
    for bold in (False, True):
        for anchor in ("la", "mm"):
            assert np.array_equal(_ours("a\u2029b", 18, bold, anchor=anchor), _ours("ab", 18, bold, anchor=anchor))
            assert not _ours("\u2029", 18, bold, anchor=anchor).any()


def test_cell_text_puts_each_character_in_a_cell_of_its_own() -> None:
    """A serial number: every character at the same pitch, so a character's pixels do not
    depend on its neighbours."""
    image = Image.new("L", (400, 80), 0)
    cell_text(ImageDraw.Draw(image), (0, 0, 400, 80), "A1B2", "AB12", 26, fill=255)
    alone = Image.new("L", (400, 80), 0)
    cell_text(ImageDraw.Draw(alone), (0, 0, 400, 80), "AxB2".replace("x", " "), "AB12 ", 26, fill=255)
    pixels, fewer = np.asarray(image), np.asarray(alone)
    columns = np.flatnonzero(fewer.any(axis=0))
    assert columns.size and np.array_equal(pixels[:, columns], fewer[:, columns])


def test_centered_text_centres_in_a_box() -> None:
    image = Image.new("L", (200, 100), 0)
    centered_text(ImageDraw.Draw(image), (0, 0, 200, 100), "MID", 30, fill=255, bold=True)
    inked = np.argwhere(np.asarray(image))
    (top, left), (bottom, right) = inked.min(axis=0), inked.max(axis=0) + 1
    assert abs((left + right) / 2 - 100) <= 1.5 and abs((top + bottom) / 2 - 50) <= 3
