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
        for (s, *rest), image in zip(cases, fast):
            assert np.array_equal(image, _drawn(s, size, *rest)), (s, size, rest)
    finally:
        _clear_text_caches()
    assert any(image.min() < 100 for image in fast)  # text was drawn at all


def test_blend_table_is_pillows_bitmap_blend() -> None:
    for background, fill in [((250, 250, 250), PALETTE["ink"]), ((24, 40, 28), (120, 250, 140)), ((0, 0, 0), (255, 1, 128))]:
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

    alphabet = [chr(c) for c in range(0x100, 0x180)] + [chr(c) for c in range(0x391, 0x3CA)] + [chr(c) for c in range(0x410, 0x450)]
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
        assert np.array_equal(results[line], _on_canvas(*common.text_coverage.__wrapped__(line, size, False, False, "la"))), line
