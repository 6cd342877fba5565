"""Password: five letter windows, each cycling through three consecutive letters; exactly one
combination spells a word of the manual's list (paper, Appendix A)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.spec import PaperRandom, PaperV1Random, PuzzleSpec

WORDS: tuple[str, ...] = (
    "about", "after", "again", "below", "could", "every", "first", "found", "great", "house",
    "large", "learn", "never", "other", "place", "plant", "point", "right", "small", "sound",
    "spell", "still", "study", "their", "there", "these", "thing", "think", "three", "water",
    "where", "which", "world", "would", "write",
)
"""The 35 possible passwords of the paper's manual."""

POSITIONS = 5
CYCLE_LENGTH = 3
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SUBMIT = "submit"

Cycle = tuple[str, str, str]


def cycle_from(start: str) -> Cycle:
    """The three consecutive letters starting at `start` (never past Z: no wrap-around)."""
    index = ALPHABET.index(start.upper())
    if index > len(ALPHABET) - CYCLE_LENGTH:
        raise ValueError(f"a cycle cannot start at {start!r}: it would run past Z")
    return ALPHABET[index], ALPHABET[index + 1], ALPHABET[index + 2]  # CYCLE_LENGTH letters


def step_letter(cycle: Sequence[str], letter: str, direction: int) -> str:
    """The manual's cycling rule: up (+1) shows the next letter of the alphabet, and from
    the last letter of the cycle wraps to the first; down (-1) is the reverse."""
    return cycle[(list(cycle).index(letter) + direction) % len(cycle)]


def formable_words(letter_sets: Sequence[Sequence[str]]) -> list[str]:
    """Words of the list whose every letter is available at its position."""
    sets = [{c.lower() for c in letters} for letters in letter_sets]
    return [w for w in WORDS if all(w[i] in sets[i] for i in range(POSITIONS))]


@cache
def unique_cycle_sets(word: str) -> tuple[tuple[Cycle, ...], ...]:
    """Every choice of five cycles that contains `word` and lets no other word be formed: each
    cycle lets through the words whose letter at its position it holds."""
    options = []
    for position, letter in enumerate(word.upper()):
        index = ALPHABET.index(letter)
        starts = range(max(0, index - CYCLE_LENGTH + 1), min(index, len(ALPHABET) - CYCLE_LENGTH) + 1)
        cycles = [cycle_from(ALPHABET[s]) for s in starts]
        options.append([(c, frozenset(w for w in WORDS if w[position].upper() in c)) for c in cycles])
    return tuple(tuple(c for c, _ in combo) for combo in itertools.product(*options)
                 if frozenset.intersection(*(words for _, words in combo)) == {word})


def action_up(position: int) -> str:
    return f"cycle_up_{position}"


def action_down(position: int) -> str:
    return f"cycle_down_{position}"


ACTIONS: tuple[str, ...] = tuple(
    [action_up(p) for p in range(1, POSITIONS + 1)] + [action_down(p) for p in range(1, POSITIONS + 1)] + [SUBMIT]
)


def moves_between(current: str, target: str) -> list[int]:
    """Shortest presses (+1 up, -1 down) from `current` to `target` of the same three-letter cycle."""
    diff = ALPHABET.index(target.upper()) - ALPHABET.index(current.upper())
    return {0: [], 1: [1], -1: [-1], 2: [-1], -2: [1]}[diff]


class PasswordPuzzle(Puzzle):
    single_step = True
    image_size = (512, 384)
    task_prompt = (
        "Set the password and submit it. Five letter windows are numbered 1 to 5 from the "
        "left; the button above a window shows its next letter, the button below its "
        "previous one. Each window offers a few letters, only one of which is shown at a time."
    )

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.answer = WORDS[int(rng.integers(len(WORDS)))]
        choices = unique_cycle_sets(self.answer)
        self.cycles: list[Cycle] = list(choices[int(rng.integers(len(choices)))])
        # every window starts away from the password's letter, so no word is set at the start
        self.shown: list[str] = []
        for cycle, letter in zip(self.cycles, self.answer.upper(), strict=False):
            others = [c for c in cycle if c != letter]
            self.shown.append(others[int(rng.integers(len(others)))])
        self.submitted: list[str] = []

    def valid_actions(self) -> list[str]:
        return list(ACTIONS)

    def apply(self, action: str) -> bool:
        if action == SUBMIT:
            word = "".join(self.shown).lower()
            self.submitted.append(word)
            self._changed()
            return word == self.answer
        kind, position = action.rsplit("_", 1)
        index = int(position) - 1
        self.shown[index] = step_letter(self.cycles[index], self.shown[index], 1 if kind == "cycle_up" else -1)
        self._changed()
        return True

    @property
    def progress(self) -> float:
        return 1.0 if self.answer in self.submitted else 0.0

    def visible_state(self) -> dict[str, Any]:
        return {"letters_shown_left_to_right": list(self.shown)}

    @classmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        """Cycle every window up, remembering the letters seen, until exactly one listed word can
        be spelt from them: that word is the password."""
        shown = [str(c).upper() for c in seen["letters_shown_left_to_right"]]
        known: list[list[str]] = notes.setdefault("letters_seen", [[] for _ in range(POSITIONS)])
        for letters, letter in zip(known, shown, strict=False):
            if letter not in letters:
                letters.append(letter)
        candidates = formable_words(known)
        if len(candidates) != 1:
            return [action_up(p) for p in range(1, POSITIONS + 1)]
        actions: list[str] = []
        for position, (current, target) in enumerate(zip(shown, candidates[0].upper(), strict=False), start=1):
            actions += [action_up(position) if d > 0 else action_down(position) for d in moves_between(current, target)]
        return actions + [SUBMIT]


SPEC = PuzzleSpec(
    name="password",
    title="Password",
    skills=("MG", "MSR"),
    rules=PasswordPuzzle,
    drawing="comma_env.drawing.password:draw_password",
    manual="password.md",
    suite="comma",
    order=5,
    paper_column=6,
    paper_random=PaperRandom(psr=0.0, sr=0.0, psr_se=0.0, sr_se=0.0),
    paper_human_gpt4o=80.0,
    paper_v1_random=PaperV1Random(psr=0.0, mistakes=2.04, turns=20.00),
    phrasebook="comma_env.agents.natural.phrasebooks.password:PasswordPhrases",
)
