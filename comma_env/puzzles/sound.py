"""Sound (COMMA v1): the solver hears a clip (or reads it in words), the expert's list names the
sound's four-symbol code, and the solver enters it on a keypad. A wrong symbol is a strike and
clears the entry."""

from __future__ import annotations

from typing import Any

import numpy as np

from comma_env.audio.synth import SAMPLE_RATE, SAMPLES, SIGNATURES, synthesize
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PuzzleSpec

SYMBOL_ACTIONS = {"$": "press_dollar", "*": "press_star", "&": "press_ampersand", "#": "press_hash"}
ACTIONS = list(SYMBOL_ACTIONS.values())
CODE_LENGTH = 4


def code_for(description: str) -> str | None:
    """The option list: the code of the sound that a listener described (None if unknown)."""
    for signature in SIGNATURES:
        if signature.description == description or signature.name.lower() == description.strip().lower():
            return signature.code
    return None


def code_actions(code: str) -> list[str]:
    return [SYMBOL_ACTIONS[symbol] for symbol in code]


class SoundPuzzle(Puzzle):
    single_step = False
    audio_samples = SAMPLES
    sample_rate = SAMPLE_RATE
    task_prompt = (
        "The module plays a short sound clip (you receive it as audio, or in words if you "
        "cannot hear). Identify the sound with the expert, then enter its four-symbol code on "
        "the keypad: press_dollar ($), press_star (*), press_ampersand (&), press_hash (#)."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.signature = SIGNATURES[int(rng.integers(len(SIGNATURES)))]
        self.clip = synthesize(self.signature, rng)
        self.entered = ""
        self.best = 0

    def valid_actions(self) -> list[str]:
        return ACTIONS

    def apply(self, action: str) -> bool:
        symbol = next(s for s, a in SYMBOL_ACTIONS.items() if a == action)
        self._changed()
        if len(self.entered) < CODE_LENGTH and self.signature.code[len(self.entered)] == symbol:
            self.entered += symbol
            self.best = max(self.best, len(self.entered))
            return True
        self.entered = ""  # a wrong symbol (or one after the code is complete) clears the entry
        return False

    @property
    def solved(self) -> bool:
        return self.best >= CODE_LENGTH

    @property
    def progress(self) -> float:
        return self.best / CODE_LENGTH

    def audio(self) -> np.ndarray:
        return self.clip

    def audio_description(self) -> str:
        return self.signature.description

    def visible_state(self) -> dict[str, Any]:
        return {
            "sound_heard": self.signature.description,  # what the solver hears (not drawn)
            "code_entered": self.entered,
            "module_disarmed": self.solved,
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        code = code_for(str(seen.get("sound_heard", "")))
        if code is None:
            return []
        entered = str(seen.get("code_entered", ""))
        return code_actions(code[len(entered):] if code.startswith(entered) else code)


SPEC = PuzzleSpec(
    name="sound",
    title="Sound",
    skills=("MG",),
    rules=SoundPuzzle,
    drawing="comma_env.drawing.sound:draw_sound",
    manual="sound.md",
    suite="v1",
    order=2,
    phrasebook="comma_env.agents.natural.phrasebooks.sound:SoundPhrases",
)
