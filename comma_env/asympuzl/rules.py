"""AsymPuzl's rules: instances, clues with distractors, hypotheses, updates and feedback. A message
line ``set <position> <shape> <colour>``, ``clear <position>`` or ``clear all`` updates the hypothesis."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

SHAPES: tuple[str, ...] = (
    "circle", "oval", "triangle", "square", "rectangle", "diamond", "pentagon", "hexagon",
    "heptagon", "octagon", "nonagon", "decagon", "star", "cross", "heart", "trapezoid",
    "parallelogram", "kite", "crescent", "semicircle", "arrow", "ring", "hourglass", "chevron",
    "lightning", "teardrop", "shield", "bowtie", "house", "burst",
)
"""Every shape a piece can have (30, so N + D <= 30)."""

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (220, 30, 30), "blue": (30, 80, 220), "green": (30, 150, 50), "yellow": (245, 215, 20),
    "orange": (245, 130, 20), "purple": (120, 50, 170), "pink": (250, 150, 200), "brown": (130, 80, 35),
    "black": (15, 15, 15), "white": (252, 252, 252), "gray": (128, 128, 128), "cyan": (20, 220, 230),
    "magenta": (230, 30, 200), "lime": (160, 240, 40), "navy": (10, 25, 110), "teal": (0, 128, 128),
    "maroon": (120, 10, 30), "olive": (120, 120, 20), "gold": (212, 175, 55), "silver": (195, 195, 200),
    "beige": (235, 220, 180), "turquoise": (64, 224, 180), "violet": (190, 120, 240), "indigo": (75, 0, 130),
    "coral": (255, 120, 90), "salmon": (250, 160, 130), "khaki": (190, 180, 110), "lavender": (210, 200, 250),
    "crimson": (180, 0, 50), "mint": (170, 240, 200),
}
"""Every colour a piece can have, with the RGB the image view paints it in."""

MAX_PIECES = len(SHAPES)
UNKNOWN = "?"
FEEDBACK_MODES: tuple[str, ...] = ("none", "own", "own-detailed", "joint", "both", "both-detailed")
PARTNER_MODES: tuple[str, ...] = ("joint", "both", "both-detailed")
"""Feedback modes that tell an agent something about its partner's hypothesis."""
DISTRACTOR_SIDES: tuple[str, ...] = ("alice", "bob")
AGENTS: tuple[str, str] = ("alice", "bob")
MAX_LINE_IN_RECORD = 200

Piece = tuple[str, str]
Slot = tuple[str, str]  # (shape or "?", colour or "?")

_BULLET = re.compile(r"^(?:[-*+>]\s+|\d+[.)]\s+)?[*_`]*")
_TRAILING = "*_`.,;:!"
_TOKEN_STRIP = ".,;:!()[]{}\"'`*_"


@dataclass(frozen=True)
class Instance:
    """One puzzle: the solution and each agent's clues."""

    solution: tuple[Piece, ...]
    alice_clues: tuple[str, ...]
    bob_clues: tuple[Piece, ...]
    distractors: int
    distractor_side: str

    @property
    def n(self) -> int:
        return len(self.solution)


def check_options(n: int, distractors: int, distractor_side: str, feedback: str) -> None:
    """Raise ValueError for a setting the game cannot be built with."""
    if not 1 <= int(n) <= MAX_PIECES:
        raise ValueError(f"n must be 1..{MAX_PIECES}, got {n}")
    if int(distractors) < 0 or int(n) + int(distractors) > MAX_PIECES:
        raise ValueError(f"distractors must be >= 0 with n + distractors <= {MAX_PIECES}, got {distractors}")
    if distractor_side not in DISTRACTOR_SIDES:
        raise ValueError(f"distractor_side must be one of {DISTRACTOR_SIDES}, got {distractor_side!r}")
    if feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {FEEDBACK_MODES}, got {feedback!r}")


def generate(rng: np.random.Generator, n: int, distractors: int = 0, distractor_side: str = "alice") -> Instance:
    """A random instance; distractor pieces use shapes and colours the solution does not."""
    check_options(n, distractors, distractor_side, "none")
    shapes = [SHAPES[i] for i in rng.permutation(len(SHAPES))[: n + distractors]]
    names = list(COLOURS)
    colours = [names[i] for i in rng.permutation(len(names))[: n + distractors]]
    solution = tuple(zip(shapes[:n], colours[:n], strict=True))
    extra = list(zip(shapes[n:], colours[n:], strict=True))
    alice: list[str] = [s for s, _ in solution]
    bob: list[Piece] = list(solution)
    if distractors and distractor_side == "alice":
        slots = set(int(i) for i in rng.choice(n + distractors, size=distractors, replace=False))
        true_shapes = iter(alice)
        fake_shapes = iter(s for s, _ in extra)
        alice = [next(fake_shapes) if i in slots else next(true_shapes) for i in range(n + distractors)]
    elif distractors:
        bob.extend(extra)
    order = rng.permutation(len(bob))
    return Instance(solution, tuple(alice), tuple(bob[i] for i in order), int(distractors), distractor_side)


# -- hypotheses and updates ----------------------------------------------------------------
@dataclass
class UpdateResult:
    """What one agent's message did: applied and ignored update lines, and the message left."""

    message: str
    outcomes: list[dict[str, str]] = field(default_factory=list)

    @property
    def malformed(self) -> int:
        return sum(1 for o in self.outcomes if o["outcome"] != "applied")


def empty_hypothesis(n: int) -> list[Slot]:
    return [(UNKNOWN, UNKNOWN)] * n


def _update_words(line: str) -> list[str] | None:
    """The words of a line if it is an update attempt (first word set/clear), else None."""
    body = _BULLET.sub("", line.strip(), count=1)
    if not body[:6].lower().startswith(("set", "clear")):
        return None
    words = [w for w in (token.strip(_TOKEN_STRIP).lower() for token in body.rstrip(_TRAILING).split()) if w]
    if not words or words[0] not in ("set", "clear"):
        return None
    return words


def _position(word: str, n: int) -> int | None:
    """1-based position from a word of at most a few digits (endless digits never reach int())."""
    word = word.lstrip("#")
    if not word.isascii() or not word.isdigit() or len(word) > 4:
        return None
    value = int(word)
    return value if 1 <= value <= n else None


def apply_line(hypothesis: list[Slot], words: list[str]) -> str:
    """Apply one update (its words) in place; returns "applied" or "ignored: <reason>"."""
    n = len(hypothesis)
    clear = words[0] == "clear"
    if clear and len(words) != 2:
        return "ignored: expected 'clear <position>' or 'clear all'"
    if clear and words[1] == "all":
        hypothesis[:] = empty_hypothesis(n)
        return "applied"
    if not clear and len(words) != 4:
        return "ignored: expected 'set <position> <shape> <colour>'"
    position = _position(words[1], n)
    if position is None:
        return f"ignored: position must be a number from 1 to {n}"
    shape, colour = (UNKNOWN, UNKNOWN) if clear else (words[2], words[3])
    if shape != UNKNOWN and shape not in SHAPES:
        return f"ignored: unknown shape {shape[:40]!r}"
    if colour != UNKNOWN and colour not in COLOURS:
        return f"ignored: unknown colour {colour[:40]!r}"
    hypothesis[position - 1] = (shape, colour)
    return "applied"


def apply_updates(hypothesis: list[Slot], message: str) -> UpdateResult:
    """Apply every update line of `message` to `hypothesis` (in place, in order); the returned
    message keeps the other lines, which the partner reads."""
    kept: list[str] = []
    outcomes: list[dict[str, str]] = []
    for line in message.splitlines():
        words = _update_words(line)
        if words is None:
            kept.append(line)
            continue
        outcomes.append({"line": line.strip()[:MAX_LINE_IN_RECORD], "outcome": apply_line(hypothesis, words)})
    return UpdateResult("\n".join(kept).strip(), outcomes)


def wrong_positions(hypothesis: Iterable[Slot], solution: Iterable[Piece]) -> list[int]:
    """1-based positions where the hypothesis differs from the solution."""
    return [i for i, (slot, piece) in enumerate(zip(hypothesis, solution, strict=True), start=1)
            if tuple(slot) != tuple(piece)]


# -- feedback ------------------------------------------------------------------------------
def _verdict(wrong: list[int], detailed: bool, whose: str) -> str:
    if not wrong:
        return f"{whose} hypothesis is correct."
    if detailed:
        return f"{whose} hypothesis is not correct; wrong positions: {', '.join(map(str, wrong))}."
    return f"{whose} hypothesis is not correct."


def feedback_text(mode: str, agent: str, wrong: dict[str, list[int]]) -> str:
    """The feedback `agent` reads in `mode`: none; own (its hypothesis right?); own-detailed (its
    wrong positions); joint (solved?); both (each right?); both-detailed (both's wrong positions)."""
    other = "bob" if agent == "alice" else "alice"
    if mode == "none":
        return ""
    if mode in ("own", "own-detailed"):
        return _verdict(wrong[agent], mode == "own-detailed", "Your")
    if mode == "joint":
        solved = not wrong[agent] and not wrong[other]
        return "The puzzle is solved." if solved else "The puzzle is not solved yet."
    detailed = mode == "both-detailed"
    return _verdict(wrong[agent], detailed, "Your") + " " + _verdict(wrong[other], detailed, f"{other.title()}'s")
