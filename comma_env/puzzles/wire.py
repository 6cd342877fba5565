"""Wire: cut the one correct wire of 3-6, chosen by count, colours and the serial's last digit
(paper, Appendix A). A wrong cut is a strike; wires stay cuttable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

COLORS = ("red", "white", "blue", "yellow", "black")
SERIAL_CHARS = "ABCDEFGHIJKLMNPQRSTUVWXZ0123456789"
SERIAL_LENGTH = 6
"""Characters in a serial: five of SERIAL_CHARS, then a digit."""


def _last(colors: Sequence[str], color: str) -> int:
    return max(i for i, c in enumerate(colors) if c == color) + 1


def wire_to_cut(colors: Sequence[str], serial: str) -> int:
    """The manual's rule: 1-based position (from the top) of the wire to cut."""
    n = len(colors)
    count = {c: sum(1 for x in colors if x == c) for c in COLORS}
    odd = int(serial[-1]) % 2 == 1
    last = colors[-1]
    if n == 3:
        if count["red"] == 0:
            return 2
        if last == "white":
            return n
        if count["blue"] > 1:
            return _last(colors, "blue")
        return n
    if n == 4:
        if count["red"] > 1 and odd:
            return _last(colors, "red")
        if last == "yellow" and count["red"] == 0:
            return 1
        if count["blue"] == 1:
            return 1
        if count["yellow"] > 1:
            return n
        return 2
    if n == 5:
        if last == "black" and odd:
            return 4
        if count["red"] == 1 and count["yellow"] > 1:
            return 1
        if count["black"] == 0:
            return 2
        return 1
    if n == 6:
        if count["yellow"] == 0 and odd:
            return 3
        if count["yellow"] == 1 and count["white"] > 1:
            return 4
        if count["red"] == 0:
            return n
        return 4
    raise ValueError(f"a wire module has 3 to 6 wires, not {n}")


def action_name(position: int) -> str:
    return f"cut_wire_{position}"


class WirePuzzle(Puzzle):
    single_step = True
    task_prompt = (
        "Disarm the wire module by cutting exactly the right wire. Wires are numbered from "
        "the top, starting at 1. A serial number is printed on the module."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        count = int(rng.integers(3, 7))
        self.colors = [COLORS[i] for i in rng.integers(0, len(COLORS), size=count)]
        chars = [SERIAL_CHARS[i] for i in rng.integers(0, len(SERIAL_CHARS), size=SERIAL_LENGTH - 1)]
        self.serial = "".join(chars) + str(int(rng.integers(0, 10)))
        self.answer = wire_to_cut(self.colors, self.serial)
        self.cut: list[int] = []
        self._actions = [action_name(i + 1) for i in range(count)]

    def valid_actions(self) -> list[str]:
        return self._actions

    def apply(self, action: str) -> bool:
        position = int(action.rsplit("_", 1)[1])
        if position not in self.cut:
            self.cut.append(position)
            self._changed()
        return position == self.answer

    @property
    def progress(self) -> float:
        return 1.0 if self.answer in self.cut else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {"wire_colors_top_to_bottom": list(self.colors), "serial_number": self.serial,
                "cut_wires": sorted(self.cut)}

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        return [action_name(wire_to_cut(seen["wire_colors_top_to_bottom"], seen["serial_number"]))]


SPEC = PuzzleSpec(
    name="wire",
    title="Wire",
    skills=("MG",),
    rules=WirePuzzle,
    drawing="comma_env.drawing.wire:draw_wire",
    manual="wire.md",
    suite="comma",
    order=0,
    paper_column=0,
    paper_random=PaperRandom(psr=57.0, sr=57.0, psr_se=5.0, sr_se=5.0),
    paper_human_gpt4o=100.0,
    paper_v1_random=PaperV1Random(psr=100.0, mistakes=2.80, turns=3.80),
    phrasebook="comma_env.agents.natural.phrasebooks.wire:WirePhrases",
)
