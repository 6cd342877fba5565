"""AsymPuzl's facts (`comma_env.protocol.spec.PuzzleSpec`): a game with its own agents, so
no `Puzzle` rules class, manual or phrasebook; its environment is `comma_env.asympuzl.env`."""

from __future__ import annotations

from comma_env.protocol.spec import PuzzleSpec

SPEC = PuzzleSpec(
    name="asympuzl",
    title="AsymPuzl",
    skills=(),
    rules=None,
    drawing="comma_env.asympuzl.drawing:draw_alice",
    manual=None,
    suite="game",
    order=0,
)
