"""The puzzle interface: rules and state of one instance, apart from drawing and dialogue."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from comma_env.protocol.spec import FRAME_SIZE, PuzzleSpec


class Puzzle(ABC):
    """One puzzle instance, a deterministic function of the RNG given to `__init__`."""

    spec: ClassVar[PuzzleSpec]
    """The puzzle's declaration; `name`, `title` and `skills` come from it (`bind_spec`)."""
    name: ClassVar[str]
    title: ClassVar[str]
    skills: ClassVar[tuple[str, ...]]
    single_step: ClassVar[bool]
    """True when one correct action solves it (then PSR equals SR)."""
    image_size: ClassVar[tuple[int, int]] = FRAME_SIZE
    """(width, height) of the solver's image; fixed per puzzle so the space is a Box."""
    task_prompt: ClassVar[str]
    """What the solver is told about its goal, in addition to the generic solver prompt."""
    drawing_only_keys: ClassVar[frozenset[str]] = frozenset()
    """Keys of `visible_state()` that only steer the drawing: left out of written descriptions."""
    uses_clock: ClassVar[bool] = False
    """True for real-time puzzles on the simulated clock (`comma_env.protocol.clock`)."""
    audio_samples: ClassVar[int] = 0
    """Length of the clip the solver hears (0: no audio); fixed so the space is a Box."""
    sample_rate: ClassVar[int] = 16000

    @classmethod
    def bind_spec(cls, spec: PuzzleSpec) -> None:
        """Take name, title and skills from `spec` (called by the spec itself)."""
        bound = cls.__dict__.get("spec")
        if bound is not None and bound is not spec:
            raise ValueError(f"{cls.__qualname__} already has a spec ({bound.name!r})")
        cls.spec = spec
        cls.name = spec.name
        cls.title = spec.title
        cls.skills = tuple(spec.skills)

    @classmethod
    def manual_for(cls, manual: str, options: dict[str, Any]) -> str:
        """The manual under the constructor's `options` (an option that changes a rule rewrites it)."""
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
        """JSON-serialisable dict of everything the solver's image shows (and a clip, in words)."""

    @classmethod
    @abstractmethod
    def expert_advice(cls, seen: dict[str, Any], notes: dict[str, Any]) -> list[str]:
        """The action names the manual gives for a described state `seen` (`notes` persist across turns)."""

    # -- optional hooks ------------------------------------------------------------------
    @property
    def solved(self) -> bool:
        return self.progress >= 1.0

    def private_facts(self) -> dict[str, str]:
        """Private field name -> value the solver must not reveal (PR puzzles)."""
        return {}

    def expert_view_of_action(self, action: str) -> str:
        """A solver's line as relayed to the expert (ATM masks PIN keys)."""
        return action

    @classmethod
    def redact(cls, state: dict[str, Any]) -> dict[str, Any]:
        """The part of a visible state a careful solver would tell the expert (no private facts)."""
        return state

    @classmethod
    def expand_advice(cls, line: str, state: dict[str, Any]) -> list[str]:
        """How a careful solver turns a line of advice into action names ("enter your PIN" in ATM)."""
        return [line]

    def elapse(self, seconds: int) -> None:  # noqa: B027 (optional hook: only clocked puzzles need it)
        """Simulated time passes (called by the protocol only when `uses_clock`)."""

    @property
    def time_up(self) -> bool:
        """True once the countdown has run out (the module exploded)."""
        return False

    def audio(self) -> np.ndarray | None:
        """The clip the solver hears, float32 in [-1, 1] (None when the puzzle has no sound)."""
        return None

    def audio_description(self) -> str | None:
        """The clip in words, for solvers that cannot hear (text models)."""
        return None

    @classmethod
    def plan_ahead(cls, seen: dict[str, Any], typed: list[str], notes: dict[str, Any]) -> list[str]:
        """Advice for the stage after `typed` on `seen`; [] means the expert must ask (the realistic pair)."""
        return []

    def state_key(self) -> str:
        """Identity of the current state, for rule-based repetition-loop detection."""
        return json.dumps(self.visible_state(), sort_keys=True)

    def _changed(self) -> None:
        """Call after every state change so the image is redrawn."""
        self.version += 1
