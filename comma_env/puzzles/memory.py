"""Memory: five stages; the display picks a button by position or label, often by an earlier stage's
press (paper, Appendix A). A wrong press is a strike and sends the module back to stage 1."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

STAGES = 5
BUTTONS = 4

Kind = Literal["position", "label", "position_of_stage", "label_of_stage"]


class Rule(NamedTuple):
    """One manual entry: press the button at `position` k, the one `label`led k, or the one
    at the same position / with the same label as the button pressed in stage k."""

    kind: Kind
    value: int


class Pressed(NamedTuple):
    position: int
    label: int


RULES: dict[int, dict[int, Rule]] = {
    1: {1: Rule("position", 2), 2: Rule("position", 2), 3: Rule("position", 3), 4: Rule("position", 4)},
    2: {1: Rule("label", 4), 2: Rule("position_of_stage", 1), 3: Rule("position", 1), 4: Rule("position_of_stage", 1)},
    3: {1: Rule("label_of_stage", 2), 2: Rule("label_of_stage", 1), 3: Rule("position", 3), 4: Rule("label", 4)},
    4: {1: Rule("position_of_stage", 1), 2: Rule("position", 1),
        3: Rule("position_of_stage", 2), 4: Rule("position_of_stage", 2)},
    5: {1: Rule("label_of_stage", 1), 2: Rule("label_of_stage", 2),
        3: Rule("label_of_stage", 4), 4: Rule("label_of_stage", 3)},
}
"""Stage -> display -> rule. Earlier-stage references always point at a completed stage."""


def position_to_press(stage: int, display: int, labels: Sequence[int], history: Sequence[Pressed]) -> int:
    """The manual's rule: the 1-based position to press, from the `labels` left to right and
    `history[k - 1]`, what was pressed in stage k."""
    rule = RULES[stage][display]
    labels = [int(label) for label in labels]
    if rule.kind == "position":
        return rule.value
    if rule.kind == "label":
        return labels.index(rule.value) + 1
    earlier = history[rule.value - 1]
    if rule.kind == "position_of_stage":
        return int(earlier.position)
    return labels.index(int(earlier.label)) + 1


def action_name(position: int) -> str:
    return f"press_position_{position}"


class MemoryPuzzle(Puzzle):
    single_step = False
    task_prompt = (
        "Disarm the memory module by completing its five stages. Each stage shows a number on "
        "the display and four labelled buttons; positions are counted from the left, 1 to 4. "
        "The current stage is shown on the module. A wrong press sends it back to stage 1."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.stage = 1
        self.history: list[Pressed] = []
        self.best_completed = 0
        self._draw_stage()
        self._actions = [action_name(i + 1) for i in range(BUTTONS)]

    def _draw_stage(self) -> None:
        """A fresh display and label order, for a new stage or after a reset."""
        self.display = int(self.rng.integers(1, BUTTONS + 1))
        self.labels = [int(x) + 1 for x in self.rng.permutation(BUTTONS)]

    @property
    def answer(self) -> int:
        return position_to_press(self.stage, self.display, self.labels, self.history)

    def valid_actions(self) -> list[str]:
        return self._actions

    def apply(self, action: str) -> bool:
        if self.solved:
            return True
        position = int(action.rsplit("_", 1)[1])
        ok = position == self.answer
        if ok:
            self.history.append(Pressed(position, self.labels[position - 1]))
            self.best_completed = max(self.best_completed, len(self.history))
            if len(self.history) < STAGES:
                self.stage += 1
                self._draw_stage()
        else:
            self.stage = 1
            self.history = []
            self._draw_stage()
        self._changed()
        return ok

    @property
    def stages_completed(self) -> int:
        return len(self.history)

    @property
    def progress(self) -> float:
        return self.best_completed / STAGES

    def visible_state(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "stages_completed": self.stages_completed,
            "display_number": self.display,
            "button_labels_left_to_right": list(self.labels),
        }

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        """Apply the stage's rule; remember what was advised for later stages. A described
        stage 1 means a new run, so older records are dropped."""
        stage = int(seen["stage"])
        labels = [int(x) for x in seen["button_labels_left_to_right"]]
        if stage == 1:
            notes["pressed"] = []
        pressed: list[Pressed] = [Pressed(*p) for p in notes.get("pressed", [])][: stage - 1]
        position = position_to_press(stage, int(seen["display_number"]), labels, pressed)
        pressed.append(Pressed(position, labels[position - 1]))
        notes["pressed"] = [list(p) for p in pressed]
        return [action_name(position)]


SPEC = PuzzleSpec(
    name="memory",
    title="Memory",
    skills=("MR", "MSR"),
    rules=MemoryPuzzle,
    drawing="comma_env.drawing.memory:draw_memory",
    manual="memory.md",
    suite="comma",
    order=4,
    paper_column=4,
    paper_random=PaperRandom(psr=15.0, sr=0.0, psr_se=1.6, sr_se=0.0),
    paper_human_gpt4o=50.0,
    paper_v1_random=PaperV1Random(psr=25.0, mistakes=14.08, turns=20.00),
    phrasebook="comma_env.agents.natural.phrasebooks.memory:MemoryPhrases",
)
