"""Every rule of manuals/wire.md, one hand-written case per branch."""

from __future__ import annotations

import pytest

from comma_env.protocol.resources import read_manual
from comma_env.puzzles.wire import wire_to_cut

R, W, B, Y, K = "red", "white", "blue", "yellow", "black"


@pytest.mark.parametrize(
    ("colors", "serial", "expected", "rule"),
    [
        ([B, W, B], "AAAAA1", 2, "3: no red -> second"),
        ([R, B, W], "AAAAA1", 3, "3: last white -> last"),
        ([B, R, B], "AAAAA1", 3, "3: >1 blue -> last blue"),
        ([B, B, R], "AAAAA2", 2, "3: >1 blue -> last blue (not last wire)"),
        ([R, Y, K], "AAAAA1", 3, "3: otherwise last"),
        ([R, B, R, W], "AAAAA3", 3, "4: >1 red and odd -> last red"),
        ([R, B, R, W], "AAAAA4", 1, "4: >1 red but even -> falls to one blue -> first"),
        ([B, W, K, Y], "AAAAA1", 1, "4: last yellow, no red -> first"),
        ([W, B, R, K], "AAAAA1", 1, "4: exactly one blue -> first"),
        ([Y, R, W, Y], "AAAAA1", 4, "4: >1 yellow -> last"),
        ([R, W, K, K], "AAAAA1", 2, "4: otherwise second"),
        ([R, W, B, Y, K], "AAAAA7", 4, "5: last black and odd -> fourth"),
        ([R, Y, Y, W, K], "AAAAA8", 1, "5: one red, >1 yellow -> first"),
        ([R, R, B, W, W], "AAAAA1", 2, "5: no black -> second"),
        ([R, R, K, W, W], "AAAAA1", 1, "5: otherwise first"),
        ([R, W, B, B, K, W], "AAAAA9", 3, "6: no yellow and odd -> third"),
        ([Y, W, W, B, R, K], "AAAAA9", 4, "6: one yellow, >1 white -> fourth"),
        ([Y, Y, W, B, B, K], "AAAAA9", 6, "6: no red -> last"),
        ([R, W, B, B, K, W], "AAAAA2", 4, "6: otherwise fourth"),
    ],
)
def test_wire_rule(colors: list[str], serial: str, expected: int, rule: str) -> None:
    assert wire_to_cut(colors, serial) == expected, rule


def test_manual_mentions_every_colour_and_action() -> None:
    manual = read_manual("wire.md").lower()
    for word in ("red", "white", "blue", "yellow", "black", "serial", "cut_wire_k", "odd"):
        assert word in manual

