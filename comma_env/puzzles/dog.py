"""Dog (COMMA v1): count the 0-5 dogs, then press `submit` when the countdown's last digit equals
the count (on the simulated clock); a submit at any other moment is a strike."""

from __future__ import annotations

from typing import Any

import numpy as np

from comma_env.protocol.clock import Countdown, format_timer, parse_timer, wait_line
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperV1Random, PuzzleSpec

COATS = ("brown", "black", "white", "golden", "grey", "spotted")
POSES = ("standing", "sitting", "running", "lying")
FACINGS = ("left", "right")
MAX_DOGS = 5
GRID = (3, 2)  # picture cells (columns, rows): one dog per cell, so none can hide another
START_SECONDS = (240, 600)  # the countdown starts between 4:00 and 9:59
SUBMIT = "submit"
ADVICE = "submit when the timer ends in "


def seconds_to_wait(time_left: int, digit: int) -> int:
    """Seconds until the countdown's last digit is `digit` (0 if it already is)."""
    return (time_left - digit) % 10


class DogPuzzle(Countdown, Puzzle):
    single_step = True
    uses_clock = True
    task_prompt = (
        "A picture of some dogs and a countdown timer are shown. Press `submit` at the right "
        "moment. Time is simulated: every message costs one second plus one second per started ten "
        "characters, and a line `wait N` lets N seconds pass before the next line. When the "
        "countdown reaches 0:00 the puzzle is lost."
    )
    drawing_only_keys = frozenset({"dog_places"})

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        count = int(rng.integers(0, MAX_DOGS + 1))
        cells = rng.permutation(GRID[0] * GRID[1])[:count]
        dogs = [
            {"coat": COATS[int(rng.integers(len(COATS)))], "pose": POSES[int(rng.integers(len(POSES)))],
             "facing": FACINGS[int(rng.integers(2))]}
            for _ in range(count)
        ]
        # cell, jitter in the cell and size (fractions of the cell; size/2 + jitter <= 1/2, so
        # boxes never overlap): drawing only
        places = [[int(c), round(float(rng.uniform(-0.08, 0.08)), 3), round(float(rng.uniform(-0.06, 0.06)), 3),
                   round(float(rng.uniform(0.7, 0.84)), 3)] for c in cells]
        self.dogs = dogs
        self.places = places
        self.time_left = int(rng.integers(*START_SECONDS))
        self.submitted = False

    @property
    def count(self) -> int:
        return len(self.dogs)

    def valid_actions(self) -> list[str]:
        return [SUBMIT]

    def apply(self, action: str) -> bool:
        ok = self.time_left % 10 == self.count
        self.submitted = self.submitted or ok
        self._changed()
        return ok

    @property
    def progress(self) -> float:
        return 1.0 if self.submitted else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {"timer": format_timer(self.time_left), "dogs": [dict(dog) for dog in self.dogs],
                "dog_places": [list(place) for place in self.places], "module_disarmed": self.submitted}

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        return [f"{ADVICE}{len(seen.get('dogs') or [])}"]

    @classmethod
    def expand_advice(cls, line: str, state: dict[str, Any]) -> list[str]:
        """"submit when the timer ends in 3" becomes a wait until it does, then `submit`."""
        if not line.startswith(ADVICE):
            return [line]
        wait = seconds_to_wait(parse_timer(state["timer"]), int(line[len(ADVICE):]))
        return ([wait_line(wait)] if wait else []) + [SUBMIT]


SPEC = PuzzleSpec(
    name="dog",
    title="Dog",
    skills=("MG", "RT"),
    rules=DogPuzzle,
    drawing="comma_env.drawing.dog:draw_dog",
    manual="dog.md",
    suite="v1",
    order=1,
    paper_v1_random=PaperV1Random(psr=100.0, mistakes=3.21, turns=4.21),
    phrasebook="comma_env.agents.natural.phrasebooks.dog:DogPhrases",
)
