"""Keypad: four symbol buttons pressed in the order of the one manual column holding all four
(paper, Appendix A); a wrong or repeated press is a strike and clears the lit buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

POSITIONS = ("top_left", "top_right", "bottom_left", "bottom_right")
"""Grid positions in reading order; actions are ``press_<position>``."""

SYMBOL_NAMES: dict[str, str] = {
    "Ω": "omega",
    "Ψ": "psi",
    "λ": "lambda",
    "Ж": "zhe",
    "Я": "backwards R",
    "¶": "pilcrow",
    "©": "copyright sign",
    "★": "filled star",
    "☆": "hollow star",
    "¿": "upside-down question mark",
    "♣": "club",
    "♠": "spade",
    "☺": "smiley face",
    "☂": "umbrella",
    "♪": "musical note",
    "∞": "infinity",
    "§": "section sign",
    "†": "dagger",
    "€": "euro sign",
    "¥": "yen sign",
    "⌘": "command key",
    "Δ": "delta",
    "☯": "yin-yang",
    "✈": "airplane",
}
"""Every symbol with the plain name the manual gives it (the expert reads text)."""

COLUMNS: tuple[tuple[str, ...], ...] = (
    ("†", "Ж", "Я", "Ψ", "☆", "∞", "Δ"),
    ("☺", "©", "♠", "✈", "λ", "Δ", "☯"),
    ("♠", "♪", "†", "♣", "¥", "⌘", "¿"),
    ("Ω", "Ж", "Я", "¿", "☯", "★", "§"),
    ("☂", "Ω", "¶", "⌘", "∞", "§", "☺"),
    ("☆", "☂", "♣", "¶", "★", "€", "✈"),
)
"""The manual's columns, each listed top to bottom (must match manuals/keypad.md)."""


def action_name(position: str) -> str:
    return f"press_{position}"


def matching_columns(symbols: Mapping[str, str]) -> list[int]:
    """0-based indices of the columns holding every symbol on the keypad."""
    wanted = set(symbols.values())
    return [index for index, column in enumerate(COLUMNS) if wanted <= set(column)]


def press_order(symbols: Mapping[str, str]) -> list[str]:
    """The manual's rule: positions ordered by where their symbols sit in the one column."""
    columns = matching_columns(symbols)
    if len(columns) != 1:
        raise ValueError(f"expected exactly one matching column, found {len(columns)}")
    column = COLUMNS[columns[0]]
    return sorted(symbols, key=lambda position: column.index(symbols[position]))


class KeypadPuzzle(Puzzle):
    single_step = False
    task_prompt = (
        "The keypad has four buttons in a 2x2 grid, each marked with a symbol. Press all four "
        "in the correct order. A correctly pressed button lights up; a wrong press is a "
        "mistake and turns every light off, so the sequence starts again from the first "
        "button. Buttons are named by position: top left, top right, bottom left, bottom right."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        column = COLUMNS[int(rng.integers(len(COLUMNS)))]
        rows = rng.choice(len(column), size=len(POSITIONS), replace=False)
        self.symbols = {position: column[int(row)] for position, row in zip(POSITIONS, rows, strict=False)}
        self.order = press_order(self.symbols)
        self.lit: list[str] = []
        self.best = 0  # longest correct prefix ever reached: the partial score

    def valid_actions(self) -> list[str]:
        return [action_name(position) for position in POSITIONS]

    def apply(self, action: str) -> bool:
        position = action.removeprefix("press_")
        if len(self.lit) < len(self.order) and position == self.order[len(self.lit)]:
            self.lit.append(position)
            self.best = max(self.best, len(self.lit))
            self._changed()
            return True
        if self.lit:
            self.lit = []
            self._changed()
        return False

    @property
    def progress(self) -> float:
        return self.best / len(POSITIONS)

    @property
    def solved(self) -> bool:
        return len(self.lit) == len(POSITIONS)

    def visible_state(self) -> dict[str, Any]:
        return {
            "button_symbols": dict(self.symbols),
            # the image shows which lights are on, not in what order they came on
            "lit_buttons": [position for position in POSITIONS if position in self.lit],
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        order = press_order(seen["button_symbols"])
        lit = set(seen.get("lit_buttons", []))
        # lights are always a correct prefix of the column order, so the order is known
        done = len(lit) if set(order[:len(lit)]) == lit else 0
        remaining = order[done:]
        return [action_name(position) for position in remaining]


SPEC = PuzzleSpec(
    name="keypad",
    title="Keypad",
    skills=("MG", "MSR"),
    rules=KeypadPuzzle,
    drawing="comma_env.drawing.keypad:draw_keypad",
    manual="keypad.md",
    suite="comma",
    order=2,
    paper_column=5,
    paper_random=PaperRandom(psr=18.0, sr=1.0, psr_se=2.1, sr_se=1.0),
    paper_human_gpt4o=60.0,
    paper_v1_random=PaperV1Random(psr=33.0, mistakes=14.68, turns=19.88),
    phrasebook="comma_env.agents.natural.phrasebooks.keypad:KeypadPhrases",
)
