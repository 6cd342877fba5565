"""The puzzle interface: rules and state of one instance, kept apart from drawing and dialogue
(docs/adding-a-puzzle.md)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from comma_env.protocol.spec import FRAME_SIZE, PuzzleSpec


class Puzzle(ABC):
    """One puzzle instance, generated from an RNG in `__init__`; everything is a deterministic
    function of it. The environment only talks to a puzzle through this interface."""

    spec: ClassVar[PuzzleSpec]
    """The puzzle's declaration (set by `bind_spec` when its ``SPEC`` is made)."""
    name: ClassVar[str]
    """Short id used in env ids and file names, e.g. ``"wire"`` (from the spec)."""
    title: ClassVar[str]
    """Human-readable name, e.g. ``"Wire"`` (from the spec)."""
    skills: ClassVar[tuple[str, ...]]
    """Subset of `SKILLS` (from the spec)."""
    single_step: ClassVar[bool]
    """True when one correct action solves it (then PSR equals SR)."""
    image_size: ClassVar[tuple[int, int]] = FRAME_SIZE
    """(width, height) of the solver's image; fixed per puzzle so the space is a Box."""
    task_prompt: ClassVar[str]
    """What the solver is told about its goal, in addition to the generic solver prompt."""
    drawing_only_keys: ClassVar[frozenset[str]] = frozenset()
    """Keys of `visible_state()` that only steer the drawing (a texture seed, a photo file)
    and mean nothing to a reader: left out of written descriptions."""
    uses_clock: ClassVar[bool] = False
    """True for real-time puzzles with a countdown on the simulated clock (`comma_env.protocol.clock`):
    the protocol then charges every message's time and accepts ``wait N`` lines."""
    audio_samples: ClassVar[int] = 0
    """Length of the clip the solver hears (0: no audio); fixed per puzzle so the
    observation space is a Box."""
    sample_rate: ClassVar[int] = 16000

    @classmethod
    def bind_spec(cls, spec: PuzzleSpec) -> None:
        """Take name, title and skills from `spec` (called once, by the spec itself), so that
        the spec is the only place they are written."""
        bound = cls.__dict__.get("spec")
        if bound is not None and bound is not spec:
            raise ValueError(f"{cls.__qualname__} already has a spec ({bound.name!r})")
        cls.spec = spec
        cls.name = spec.name
        cls.title = spec.title
        cls.skills = tuple(spec.skills)

    @classmethod
    def manual_for(cls, manual: str, options: dict[str, Any]) -> str:
        """The manual the expert reads when the puzzle runs with `options` (its constructor's
        keyword arguments): a puzzle whose options change a rule rewrites that rule here."""
        return manual

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.version = 0  # bumped by `_changed()`: the environment draws a new picture

    # -- what subclasses implement -------------------------------------------------------
    @abstractmethod
    def valid_actions(self) -> list[str]:
        """Action names the solver may type right now, in a stable order."""

    @abstractmethod
    def apply(self, action: str) -> bool:
        """Execute a valid action; return False when it was a mistake (a strike)."""

    @property
    @abstractmethod
    def progress(self) -> float:
        """Partial score in [0, 1]; 1.0 exactly when solved."""

    @abstractmethod
    def visible_state(self) -> dict[str, Any]:
        """JSON-serialisable dict of everything the solver's image shows, nothing more (for
        puzzles with sound, also what the clip sounds like, in words: not drawn)."""

    @classmethod
    @abstractmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        """Apply the manual to a state as the solver described it (`seen`, keys of `visible_state()`),
        with the expert's own `notes` kept across turns; returns the action names to type, in order."""

    # -- optional hooks ------------------------------------------------------------------
    @property
    def solved(self) -> bool:
        return self.progress >= 1.0

    def private_facts(self) -> dict[str, str]:
        """Private field name -> value the solver must not reveal (PR puzzles)."""
        return {}

    def expert_view_of_action(self, action: str) -> str:
        """How a solver's line looks when relayed to the expert: unchanged unless it must be masked
        (ATM masks PIN keys)."""
        return action

    @classmethod
    def redact(cls, state: dict[str, Any]) -> dict[str, Any]:
        """The part of a visible state a careful solver would tell the expert (private
        facts removed). The scripted oracle solver describes this, not the whole state."""
        return state

    @classmethod
    def expand_advice(cls, line: str, state: dict[str, Any]) -> list[str]:
        """How a careful solver turns one line of the expert's advice into action names,
        given what it sees. Default: the line is an action name. PR puzzles override it so
        that advice like "enter your PIN" becomes key presses only the solver can know."""
        return [line]

    def elapse(self, seconds: int) -> None:  # noqa: B027 (optional hook: only clocked puzzles need it)
        """Simulated time passes (called by the protocol only when `uses_clock`)."""

    @property
    def time_up(self) -> bool:
        """True once the countdown has run out (the module exploded)."""
        return False

    def audio(self) -> np.ndarray | None:
        """The clip the solver hears, float32 in [-1, 1] of `audio_samples` samples at
        `sample_rate` (None when the puzzle has no sound)."""
        return None

    def audio_description(self) -> str | None:
        """The clip in words, for solvers that cannot hear (text models)."""
        return None

    @classmethod
    def plan_ahead(cls, seen: dict[str, Any], typed: list[str], notes: dict[str, Any]) -> list[str]:
        """Advice for the stage after `typed` on the last described state `seen`, from what the expert was
        told alone; [] means the expert must ask what the solver sees now (the realistic pair)."""
        return []

    def state_key(self) -> str:
        """Identity of the current state, for rule-based repetition-loop detection."""
        return json.dumps(self.visible_state(), sort_keys=True)

    def _changed(self) -> None:
        """Call after every state change so the image is redrawn."""
        self.version += 1
