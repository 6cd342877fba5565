"""Keypad: the manual's column rule, the press/restart mechanics, and agreement between
manuals/keypad.md and the code's tables, each with hand-written expectations."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import comma_env
from comma_env.drawing.keypad import BUTTON_BOXES, draw_keypad
from comma_env.protocol.resources import font_path, read_manual
from comma_env.puzzles.keypad import COLUMNS, POSITIONS, SYMBOL_NAMES, KeypadPuzzle, matching_columns, press_order

TL, TR, BL, BR = POSITIONS


def make_puzzle(symbols: dict[str, str]) -> KeypadPuzzle:
    puzzle = KeypadPuzzle(np.random.default_rng(0))
    puzzle.symbols = dict(symbols)
    puzzle.order = press_order(symbols)
    return puzzle


# -- the column rule -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("symbols", "expected", "why"),
    [
        ({TL: "Δ", TR: "†", BL: "∞", BR: "Ж"}, [TR, BR, BL, TL], "column 1: † Ж ∞ Δ"),
        ({TL: "Ω", TR: "§", BL: "¶", BR: "☺"}, [TL, BL, TR, BR], "column 5, although Ω and § are also in column 4"),
        ({TL: "★", TR: "Ж", BL: "Ω", BR: "§"}, [BL, TR, TL, BR], "column 4, although Ω and § are also in column 5"),
        ({TL: "☯", TR: "λ", BL: "©", BR: "☺"}, [BR, BL, TR, TL], "column 2: reverse of reading order"),
        ({TL: "♠", TR: "♪", BL: "†", BR: "♣"}, [TL, TR, BL, BR], "column 3: first four rows, reading order"),
        ({TL: "✈", TR: "€", BL: "☆", BR: "☂"}, [BL, BR, TR, TL], "column 6: skipped rows between"),
    ],
)
def test_press_order(symbols: dict[str, str], expected: list[str], why: str) -> None:
    assert press_order(symbols) == expected, why


def test_no_matching_column_is_an_error() -> None:
    with pytest.raises(ValueError):
        press_order({TL: "Ω", TR: "Ψ", BL: "λ", BR: "€"})


def test_every_four_symbols_of_a_column_match_only_that_column() -> None:
    for index, column in enumerate(COLUMNS):
        for subset in itertools.combinations(column, 4):
            assert matching_columns(dict(zip(POSITIONS, subset, strict=True))) == [index]


def test_columns_share_at_most_two_symbols_and_overlap() -> None:
    overlaps = [len(set(a) & set(b)) for a, b in itertools.combinations(COLUMNS, 2)]
    assert max(overlaps) <= 2
    assert sum(overlaps) >= 10, "columns should share symbols so the column must be found"


def test_generated_instances_have_exactly_one_column() -> None:
    columns_used = set()
    for seed in range(1000):
        puzzle = KeypadPuzzle(np.random.default_rng(seed))
        assert len(set(puzzle.symbols.values())) == 4
        (column,) = matching_columns(puzzle.symbols)
        columns_used.add(column)
    assert columns_used == set(range(len(COLUMNS)))


# -- press mechanics -------------------------------------------------------------------------
def test_correct_presses_light_buttons_and_solve() -> None:
    puzzle = make_puzzle({TL: "Δ", TR: "†", BL: "∞", BR: "Ж"})  # order TR, BR, BL, TL
    for count, position in enumerate([TR, BR, BL, TL], start=1):
        assert not puzzle.solved
        assert puzzle.apply(f"press_{position}") is True
        lit = [TR, BR, BL, TL][:count]
        assert puzzle.visible_state()["lit_buttons"] == [p for p in POSITIONS if p in lit]  # reading order
        assert puzzle.progress == count / 4
    assert puzzle.solved and puzzle.progress == 1.0


def test_wrong_press_restarts_sequence_but_keeps_best_progress() -> None:
    puzzle = make_puzzle({TL: "Δ", TR: "†", BL: "∞", BR: "Ж"})
    assert puzzle.apply("press_top_right") and puzzle.apply("press_bottom_right")
    assert puzzle.apply("press_top_left") is False  # TL is fourth, BL is due
    assert puzzle.visible_state()["lit_buttons"] == []
    assert puzzle.progress == 0.5  # best prefix so far
    assert puzzle.apply("press_bottom_left") is False  # restarted: TR is due again
    assert puzzle.apply("press_top_right") is True
    assert puzzle.progress == 0.5 and not puzzle.solved


def test_pressing_a_lit_button_again_is_a_mistake() -> None:
    puzzle = make_puzzle({TL: "Δ", TR: "†", BL: "∞", BR: "Ж"})
    assert puzzle.apply("press_top_right")
    assert puzzle.valid_actions() == [f"press_{p}" for p in POSITIONS]
    assert puzzle.apply("press_top_right") is False
    assert puzzle.visible_state()["lit_buttons"] == []


def test_first_wrong_press_is_a_mistake_without_state_change() -> None:
    puzzle = make_puzzle({TL: "Δ", TR: "†", BL: "∞", BR: "Ж"})
    version = puzzle.version
    assert puzzle.apply("press_top_left") is False
    assert puzzle.version == version and puzzle.progress == 0.0


def test_env_counts_best_prefix_within_one_message() -> None:
    env = comma_env.make("keypad")
    env.reset(seed=5)
    order = env.unwrapped.puzzle.order
    wrong = order[3]
    env.step(f"press_{order[0]}\npress_{order[1]}\npress_{wrong}\npress_{order[0]}")
    info = env.infos["solver"]
    assert info["progress"] == 0.5 and info["mistakes"] == 1
    assert [a["action"] for a in info["executed"]] == [f"press_{order[0]}", f"press_{order[1]}", f"press_{wrong}"]


def test_expert_advice_follows_manual_and_skips_lit_prefix() -> None:
    seen = {"button_symbols": {TL: "★", TR: "Ж", BL: "Ω", BR: "§"}, "lit_buttons": []}
    assert KeypadPuzzle.expert_advice(seen, {}) == ["press_bottom_left", "press_top_right", "press_top_left",
                                                    "press_bottom_right"]
    seen["lit_buttons"] = [TR, BL]
    assert KeypadPuzzle.expert_advice(seen, {}) == ["press_top_left", "press_bottom_right"]


# -- manual agrees with the code -------------------------------------------------------------
def _manual_columns(manual: str) -> list[list[tuple[str, str]]]:
    sections = re.split(r"^### Column (\d+)\s*$", manual, flags=re.M)
    columns = []
    for number, body in zip(sections[1::2], sections[2::2], strict=True):
        assert int(number) == len(columns) + 1
        items = re.findall(r"^(\d+)\. (\S) (.+?)\s*$", body, flags=re.M)
        assert [int(i) for i, _, _ in items] == list(range(1, len(items) + 1))
        columns.append([(symbol, name) for _, symbol, name in items])
    return columns


def test_manual_columns_match_code() -> None:
    columns = _manual_columns(read_manual("keypad.md"))
    assert [tuple(s for s, _ in column) for column in columns] == list(COLUMNS)
    for column in columns:
        for symbol, name in column:
            assert SYMBOL_NAMES[symbol] == name


def test_manual_symbol_table_matches_code() -> None:
    rows = re.findall(r"^\| (\S) \| ([^|]+?) \| [^|]+ \|$", read_manual("keypad.md"), flags=re.M)
    assert dict(rows) == SYMBOL_NAMES
    assert len(set(SYMBOL_NAMES.values())) == len(SYMBOL_NAMES), "names must be unique"
    assert {s for column in COLUMNS for s in column} == set(SYMBOL_NAMES)


def test_manual_names_actions() -> None:
    manual = read_manual("keypad.md")
    for position in POSITIONS:
        assert f"`press_{position}`" in manual


# -- drawing -----------------------------------------------------------------------------------
def test_every_symbol_has_a_glyph_in_bundled_font() -> None:
    ttLib = pytest.importorskip("fontTools.ttLib")
    cmap = ttLib.TTFont(str(font_path("DejaVuSans.ttf"))).getBestCmap()
    missing = [s for s in SYMBOL_NAMES if ord(s) not in cmap]
    assert not missing


def test_lit_button_shows_green_light() -> None:
    state = {"button_symbols": {TL: "Δ", TR: "†", BL: "∞", BR: "Ж"}, "lit_buttons": [TR]}
    image = draw_keypad(state)
    for position, (x0, y0, x1, _) in BUTTON_BOXES.items():
        pixel = image.getpixel(((x0 + x1) // 2, y0 + 17))
        is_green = pixel[1] > 120 and pixel[0] < 100
        assert is_green == (position == TR), position
