"""The fast text paths draw exactly what the general one and Pillow draw: a left-aligned line
composed in one pass from full-line-height glyph strips equals the glyph-by-glyph
composition once drawn, and Telehealth's card values written with numpy through Pillow's
blend table equal Pillow's `ImageDraw.bitmap` of the same mask."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

import comma_env
from comma_env.drawing import common, telehealth
from comma_env.drawing.common import PALETTE, blend_table, text, text_into

STRINGS = [
    "Liam Rasmussen", "543-13-7884", "(776) 877-2580", "228 Orchard Street, Riverton", "1988-05-25",
    "III (Fitzpatrick)", "5.7 mm", "ffi Tyo AVA WAVE j,y fj", "Te Yo LT", "ÄÖÜ ß 12:34 Åå", "ʃʒ ǰ ḟ ỹ g̃ q̧",
    "一二三 مرحبا שלום", "/|\\_()[]{}", "W" * 40, "", "   ", "x", "\u200b", "tab\there", "**diagnose_bcc**",
]


def _drawn(string: str, size: int, bold: bool, mono: bool, anchor: str) -> np.ndarray:
    image = Image.new("RGB", (1400, 140), (200, 190, 180))
    text(ImageDraw.Draw(image), (60, 50), string, size, fill=(10, 20, 30), bold=bold, mono=mono, anchor=anchor)
    return np.asarray(image)


def _clear_text_caches() -> None:
    common.text_coverage.cache_clear()
    common._text_mask.cache_clear()


@pytest.mark.parametrize("size", [14, 15, 18, 40])
def test_one_pass_lines_draw_what_the_glyph_by_glyph_composition_draws(size: int, monkeypatch) -> None:
    cases = [(s, bold, mono, anchor) for s in STRINGS for bold in (False, True) for mono in (False, True)
             for anchor in ("la", "mm")]
    _clear_text_caches()
    fast = [_drawn(s, size, *rest) for s, *rest in cases]
    monkeypatch.setattr(common, "_line_strips", lambda *args: None)  # the general path only
    _clear_text_caches()
    try:
        for (s, *rest), image in zip(cases, fast, strict=True):
            assert np.array_equal(image, _drawn(s, size, *rest)), (s, size, rest)
    finally:
        _clear_text_caches()
    assert any(image.min() < 100 for image in fast)  # text was drawn at all


def test_blend_table_is_pillows_bitmap_blend() -> None:
    for background, fill in [((250, 250, 250), PALETTE["ink"]), ((24, 40, 28), (120, 250, 140)),
                             ((0, 0, 0), (255, 1, 128))]:
        table = blend_table(background, fill)
        assert table.shape == (256, 3) and table.dtype == np.uint8 and not table.flags.writeable
        assert tuple(table[0]) == background and tuple(table[255]) == fill
        image = Image.new("RGB", (16, 16), background)
        mask = Image.frombytes("L", (16, 16), bytes(range(256)))
        ImageDraw.Draw(image).bitmap((0, 0), mask, fill=fill)
        assert np.array_equal(np.asarray(image).reshape(256, 3), table)


def test_text_into_equals_pillow_and_clips_to_the_array() -> None:
    white = PALETTE["white"]
    for string in STRINGS:
        for xy in [(4, 2), (-7, -5), (150, 12)]:  # inside, cut at the top left, cut at the bottom right
            pixels = np.empty((30, 200, 3), dtype=np.uint8)
            pixels[:] = white
            text_into(pixels, xy, string, 15, background=white)
            image = Image.new("RGB", (200, 30), white)
            text(ImageDraw.Draw(image), xy, string, 15)
            assert np.array_equal(pixels, np.asarray(image)), (string, xy)


def test_card_values_are_the_painted_layer() -> None:
    """Each value's raster equals `_paint_value` drawn by Pillow on the card background, for
    real patients' values and for values an adapter might bring (unicode, empty)."""
    env = comma_env.make("telehealth", solver_view="text")
    background = telehealth._background().convert("RGB")
    keys = []
    for seed in range(30):
        env.reset(seed=seed)
        keys += [layer.key for name, layer in telehealth._layers(env.unwrapped.puzzle.visible_state()).items()
                 if name.startswith("value")]
    x, y, _ = keys[0]
    keys += [(x, y, value) for value in ("", "Zoë Ångström-Łukasiewicz", "東京都 1-2-3", "n/a")]
    for key in keys:
        x0, y0, x1, y1 = telehealth._value_box(key[0], key[1])
        image = background.copy()
        telehealth._paint_value(image, ImageDraw.Draw(image), key)
        expected = np.asarray(image)[y0:y1, x0:x1]
        pixels = telehealth._value_pixels(key)
        assert not pixels.flags.writeable and pixels.shape == expected.shape
        assert np.array_equal(pixels, expected), key


def _on_canvas(coverage: np.ndarray | None, x0: int, y0: int) -> np.ndarray:
    canvas = np.zeros((120, 900), dtype=np.uint8)
    if coverage is not None:
        canvas[40 + y0:40 + y0 + coverage.shape[0], 40 + x0:40 + x0 + coverage.shape[1]] = coverage
    return canvas


def test_atlas_grows_and_threads_compose_the_same_lines(monkeypatch) -> None:
    """Hundreds of new glyphs make the font's atlas grow (columns copied, old indices kept);
    lines composed by several threads at once, while it grows, equal the general path's."""
    import threading

    alphabet = ([chr(c) for c in range(0x100, 0x180)] + [chr(c) for c in range(0x391, 0x3CA)]
                + [chr(c) for c in range(0x410, 0x450)])
    lines = ["".join(alphabet[i:i + 23]) for i in range(0, len(alphabet), 7)]
    size = 16  # a size no other test uses: its atlas starts empty here
    fonts = common._font_glyphs(size, False, False)
    width_before = fonts.atlas.shape[1]
    results: dict[str, np.ndarray] = {}
    fast: list[str] = []

    def compose(part: list[str]) -> None:
        for line in part:
            if common._line_strips(fonts, line, False) is not None:
                fast.append(line)
            results[line] = _on_canvas(*common.text_coverage.__wrapped__(line, size, False, False, "la"))

    threads = [threading.Thread(target=compose, args=(lines[k::4],)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert fonts.atlas.shape[1] > width_before and len(results) == len(lines) and len(fast) > len(lines) // 2
    monkeypatch.setattr(common, "_line_strips", lambda *args: None)  # the general path only
    for line in lines:
        assert np.array_equal(results[line],
                              _on_canvas(*common.text_coverage.__wrapped__(line, size, False, False, "la"))), line


TALL = ["Å", "ÿ", "ÉÊ Ḟḟ", "Åland ÿ", "ÄÖÜ É", "g̃ q̧ Å̊ ñ̃", "ǰ ḟ Ǻ", "一二三 日本", "😀🎉 ok 🙂"]
"""Glyphs that leave the line height (accented capitals at 14 px, "ḟ"), combining marks,
CJK and emoji (drawn with DejaVu's missing-glyph box) and glyphs that draw nothing."""
OVERLAPPING = ["AVA WAVE", "Te Yo LT", "fj ffi", "W" * 30, "/|\\_", "r,y.V,", "VAVAVAV"]


def _drawn_pixels(result: tuple[np.ndarray | None, int, int]) -> tuple[bytes, tuple[int, ...], int, int] | None:
    """What a mask draws at an integer anchor point: its inked box's pixels and place
    (blank rows and columns around the ink draw nothing)."""
    coverage, x0, y0 = result
    if coverage is None or not coverage.any():
        return None
    rows, columns = np.flatnonzero(coverage.any(axis=1)), np.flatnonzero(coverage.any(axis=0))
    inked = coverage[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
    return inked.tobytes(), inked.shape, x0 + columns[0], y0 + rows[0]


def test_the_atlas_composes_centred_tall_and_overlapping_lines_as_glyph_by_glyph() -> None:
    """Every line, centred or left-aligned, with overlapping glyphs or glyphs beyond the
    line height, is gathered from the atlas and draws what the glyph-by-glyph composition
    draws; a centred line's mask is the same array at the same offsets (callers round
    fractional centres, so the offsets matter beyond the ink)."""
    tall = overlaps = centred_overlaps = 0
    for size in (14, 15, 22, 40):
        for bold in (False, True):
            for mono in (False, True):
                fonts = common._font_glyphs(size, bold, mono)
                for string in TALL + OVERLAPPING + STRINGS:
                    for anchor in ("la", "mm"):
                        layout = common._arrange(fonts, string, mono, anchor)
                        fast = common._line_strips(fonts, string, mono, anchor)
                        assert layout is not None and fast is not None, (string, size, bold, mono, anchor)
                        reference = common._glyph_by_glyph(fonts, string, mono, anchor)
                        case = (string, size, bold, mono, anchor)
                        if anchor == "mm":
                            assert fast[1:] == reference[1:], case
                            assert (fast[0] is None and reference[0] is None) \
                                or np.array_equal(fast[0], reference[0]), case
                        else:
                            assert _drawn_pixels(fast) == _drawn_pixels(reference), case
                        low, high = layout[5], layout[6]
                        tall += low < -fonts.ascent or high > fonts.descent
                        overlaps += bool(layout[3])
                        centred_overlaps += bool(layout[3]) and anchor == "mm"
    assert tall > 20 and overlaps > 50 and centred_overlaps > 25  # each kind of line was met


def test_text_draws_centred_lines_at_fractional_centres_as_glyph_by_glyph(monkeypatch) -> None:
    """Box centres are often halves (a wire's number, a key's label): drawn there, centred
    lines land on the same pixels from either composer."""
    cases = [(s, size, bold) for s in TALL + OVERLAPPING + STRINGS[:8] for size in (14, 22) for bold in (False, True)]

    def drawn(string: str, size: int, bold: bool) -> list[np.ndarray]:
        images = []
        for xy in [(300.5, 60.5), (301.5, 61.5), (300.25, 60.75)]:
            image = Image.new("L", (900, 130), 0)
            text(ImageDraw.Draw(image), xy, string, size, fill=255, bold=bold, anchor="mm")
            images.append(np.asarray(image))
        return images

    _clear_text_caches()
    fast = [drawn(*case) for case in cases]
    monkeypatch.setattr(common, "_line_strips", lambda *args: None)  # the glyph-by-glyph path only
    _clear_text_caches()
    try:
        for case, images in zip(cases, fast, strict=True):
            assert all(np.array_equal(a, b) for a, b in zip(images, drawn(*case), strict=True)), case
    finally:
        _clear_text_caches()


def test_stacked_combining_marks_take_the_glyph_by_glyph_path() -> None:
    """More overlapping layers than `ATLAS_LAYERS_LIMIT` (a letter under a pile of combining
    marks): the atlas declines, the line is still drawn, in time linear in its length."""
    fonts = common._font_glyphs(18, False, False)
    for string in ["a" + "\u0301\u0302\u0303\u0304\u0308" * 3, "Z̷̢̛a̵͎l̶g̸o" * 5]:
        assert common._line_strips(fonts, string, False, "mm") is None
        for anchor in ("la", "mm"):
            composed = common.text_coverage.__wrapped__(string, 18, False, False, anchor)
            assert composed[0] is not None
            assert _drawn_pixels(composed) == _drawn_pixels(common._glyph_by_glyph(fonts, string, False, anchor))


def test_a_full_atlas_leaves_new_glyphs_to_the_glyph_by_glyph_path(monkeypatch) -> None:
    """Once the atlas holds `ATLAS_COLUMNS_LIMIT` columns, lines with new glyphs are composed
    glyph by glyph, lines of placed glyphs still from the atlas, and all draw the same."""
    monkeypatch.setattr(common, "ATLAS_COLUMNS_LIMIT", 300)
    fonts = common._FontGlyphs(17, True, False)  # a private font cache: the shared ones stay full-sized
    alphabet = [chr(c) for c in range(0x41, 0x5B)] + [chr(c) for c in range(0x100, 0x140)]
    lines = ["".join(alphabet[i:i + 9]) for i in range(0, len(alphabet), 4)]
    declined = []
    for line in lines:
        for anchor in ("la", "mm"):
            if common._line_strips(fonts, line, False, anchor) is None:
                declined.append(line)
            composed = common._compose(fonts, line, False, anchor)
            assert _drawn_pixels(composed) == _drawn_pixels(common._glyph_by_glyph(fonts, line, False, anchor)), line
    assert fonts.atlas_used <= 300 and fonts.atlas.shape[1] == 300
    assert lines[0] not in declined and lines[-1] in declined


def test_the_atlas_rows_hold_the_glyphs_of_the_bundled_fonts() -> None:
    """The atlas is as tall as the font's bounding box (`head` table) at that size: the
    glyphs of the three bundled faces fit, at the smallest and a large size, but for the
    rare mark hinting moves beyond the box (DejaVu Sans Mono's breve below at 14 px), whose
    lines are composed glyph by glyph."""
    from fontTools.ttLib import TTFont

    for bold, mono in [(False, False), (True, False), (False, True)]:
        face = common.font(14, bold, mono)
        assert common._font_box(face.path)[0] == TTFont(face.path)["head"].unitsPerEm
        chars = [chr(code) for code in sorted(TTFont(face.path).getBestCmap())][::3]
        for size in (14, 40):
            fonts = common._FontGlyphs(size, bold, mono)
            outside = []
            for char in chars:
                pixels, _, top, _ = fonts.glyphs[char]
                row = fonts.atlas_baseline + top
                if pixels is not None and not (0 <= row and row + pixels.shape[0] <= fonts.atlas.shape[0]):
                    outside.append(char)
            assert len(outside) <= 3, (size, bold, mono, outside)
            for char in outside:
                line = f"H{char}x"
                assert common._line_strips(fonts, line, mono) is None
                assert _drawn_pixels(common._compose(fonts, line, mono, "la")) == _drawn_pixels(
                    common._glyph_by_glyph(fonts, line, mono, "la"))


def test_characters_the_layout_engine_refuses_draw_nothing() -> None:
    """Pillow 13's raqm layout raises on U+2029 (paragraph separator), which any model may
    emit; such a character is drawn as nothing (as Pillow 12 draws it) instead of ending
    the episode. DejaVu Sans Mono has no such glyph: it draws its missing-glyph box."""
    for bold, mono in [(False, False), (True, False), (False, True)]:
        for anchor in ("la", "mm"):
            coverage = common.text_coverage.__wrapped__("a\u2029b \u2029", 18, bold, mono, anchor)[0]
            assert coverage is not None
            if not mono:
                assert coverage.shape == common.text_coverage.__wrapped__("ab", 18, bold, mono, anchor)[0].shape
                assert common.text_coverage.__wrapped__("\u2029", 18, bold, mono, anchor) == (None, 0, 0)
