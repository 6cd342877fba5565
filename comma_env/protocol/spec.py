"""`PuzzleSpec`: one declaration of a puzzle's facts. Drawing and phrasebook are ``"module:attribute"``
strings resolved on first use, so ``import comma_env`` draws nothing."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal

SKILLS: tuple[str, ...] = ("MR", "MG", "MSR", "PR", "RT")
"""The paper's skills: memory recall, multimodal grounding, multi-step, privacy and real-time reasoning."""

FRAME_SIZE: tuple[int, int] = (512, 512)
"""(width, height) of a solver's image unless its puzzle says otherwise."""

Suite = Literal["comma", "v1", "game", "extra"]
"""The final paper's ten, the first paper's dropped puzzles, games with their own agents, or
anything added later (never in a default run)."""


@dataclass(frozen=True)
class PaperRandom:
    """A paper's random baseline for one puzzle, in percent, with its standard errors."""

    psr: float
    sr: float
    psr_se: float
    sr_se: float


@dataclass(frozen=True)
class PaperV1Random:
    """The first COMMA paper's random-solver row for one puzzle (seed 003)."""

    psr: float
    mistakes: float
    turns: float


@dataclass(frozen=True)
class PuzzleSpec:
    """Everything the package knows about a puzzle outside its rules and its drawing."""

    name: str
    """Short id used in env ids, module names and file names, e.g. ``"wire"``."""
    title: str
    """Display name, e.g. ``"Wire"`` (also in the Gymnasium ids)."""
    skills: tuple[str, ...]
    rules: type | None
    """The `comma_env.protocol.puzzle.Puzzle` subclass (None for games); it takes name, title and skills from here."""
    drawing: str
    """``"module:attribute"`` of the drawing: a function from the visible state to the picture."""
    manual: str | None
    """File name of the expert's manual in ``manuals/`` (None: the game has no manual)."""
    version: int = 0
    """The ``-v<k>`` of the ids; bump it when a change alters episodes for a given seed."""
    suite: Suite = "extra"
    order: int = 0
    """Position within its suite in the registry (`comma_env.registry.COMMA_PUZZLES`)."""
    paper_column: int | None = None
    """Position of the puzzle's column in the final paper's tables (None: not there)."""
    paper_random: PaperRandom | None = None
    """The final paper's random baseline (its Table 1 and Table 3, 100 episodes)."""
    paper_human_gpt4o: float | None = None
    """The final paper's PSR for a human solver with a GPT-4o expert (Table 1)."""
    paper_v1_random: PaperV1Random | None = None
    """The first paper's random row (seed 003; 20 turns, no mistake limit)."""
    phrasebook: str | None = None
    """``"module:attribute"`` of the class that words advice for ``oracle_nl``."""
    module: str | None = None
    """The versioned entry module; default ``comma_env.<name>_v<version>``."""

    def __post_init__(self) -> None:
        unknown = set(self.skills) - set(SKILLS)
        if unknown:
            raise ValueError(f"{self.name}: unknown skills {sorted(unknown)}; known: {SKILLS}")
        if not self.name.isidentifier() or not self.name.islower():
            raise ValueError(f"puzzle name must be a lower-case identifier, got {self.name!r}")
        for field_name in ("drawing", "phrasebook"):
            reference = getattr(self, field_name)
            if reference is not None and reference.count(":") != 1:
                raise ValueError(f"{self.name}: {field_name} must be 'module:attribute', got {reference!r}")
        if self.rules is not None:
            bind = getattr(self.rules, "bind_spec", None)
            if bind is None:
                raise TypeError(f"{self.name}: rules must be a Puzzle subclass, got {self.rules!r}")
            bind(self)

    @property
    def env_module(self) -> str:
        """Import name of the versioned module holding ``raw_env`` and ``env``."""
        return self.module or f"comma_env.{self.name}_v{self.version}"

    @property
    def env_id(self) -> str:
        """PettingZoo registry id, e.g. ``comma/wire-v0``."""
        return f"comma/{self.name}-v{self.version}"

    def load_drawing(self) -> Any:
        """The drawing object (imports the drawing module: PIL work happens here, not before)."""
        return resolve(self.drawing)

    def load_phrasebook(self) -> Any:
        """The phrasebook class (imports the policies' package: call only from there)."""
        if self.phrasebook is None:
            raise KeyError(f"no natural-language phrasebook for puzzle {self.name!r}")
        return resolve(self.phrasebook)


def resolve(reference: str) -> Any:
    """The object named by ``"package.module:attribute"``."""
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)
