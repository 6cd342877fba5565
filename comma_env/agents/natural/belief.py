"""What the scripted expert believes about a puzzle it cannot see: the solver's words as a state with an
`Open` leaf per fact left open; `settle` advises only what every filling-in agrees on, else asks."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

LIMIT = 6000
"""Most completions tried; a description that leaves more open gets a question at once."""

Answers = Callable[[dict[str, Any], dict[str, Any]], Sequence[Sequence[str]]]
"""Every advice the manual accepts for a complete state and notes (most puzzles: one)."""


@dataclass(frozen=True)
class Open:
    """A fact the solver left open: one of `options`; `about` names it for a question."""

    about: str
    options: tuple[Any, ...]


@dataclass
class Decision:
    """The expert's answer: advice (action names or advice lines), or the facts it must ask for."""

    advice: list[str] | None = None
    ask: list[str] = field(default_factory=list)


def open_facts(tree: Any) -> list[Open]:
    """The `Open` leaves of a nested dict/list, in order."""
    if isinstance(tree, Open):
        return [tree]
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in open_facts(value)]
    if isinstance(tree, (list, tuple)):
        return [leaf for value in tree for leaf in open_facts(value)]
    return []


def _fill(tree: Any, values: dict[int, Any]) -> Any:
    """A copy of `tree` with each `Open` leaf replaced by ``values[id(leaf)]``."""
    if isinstance(tree, Open):
        return copy.deepcopy(values[id(tree)])
    if isinstance(tree, dict):
        return {key: _fill(value, values) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_fill(value, values) for value in tree)
    return copy.deepcopy(tree)


def settle(state: dict[str, Any], notes: dict[str, Any], answers: Answers,
           possible: Callable[[dict[str, Any], dict[str, Any]], bool] = lambda s, n: True) -> Decision:
    """Advice that holds however the open facts are filled in, or the open facts that change it."""
    leaves = open_facts(state) + open_facts(notes)
    if math.prod(len(leaf.options) for leaf in leaves) > LIMIT:
        return Decision(ask=[leaf.about for leaf in leaves])
    found: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
    for combo in itertools.product(*(range(len(leaf.options)) for leaf in leaves)):
        values = {id(leaf): leaf.options[i] for leaf, i in zip(leaves, combo, strict=True)}
        full_state, full_notes = _fill(state, values), _fill(notes, values)
        try:
            if not possible(full_state, full_notes):
                continue
            accepted = [tuple(a) for a in answers(full_state, full_notes) if a]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError):
            continue  # a filling the rules cannot apply to is not a reading of the description
        found[combo] = accepted or [()]  # no right answer in this reading: the reading still counts
    if all(accepted == [()] for accepted in found.values()):
        return Decision(ask=[leaf.about for leaf in leaves] or ["what you see"])
    first = next(iter(found.values()))
    common = [a for a in first if all(a in other for other in found.values())]
    if common:
        return Decision(advice=list(common[0]))
    return Decision(ask=[leaves[i].about for i in _mattering(leaves, found)] or [leaf.about for leaf in leaves])


def _mattering(leaves: list[Open], found: dict[tuple[int, ...], list[tuple[str, ...]]]) -> list[int]:
    """Indices of the open facts whose value alone changes the advice somewhere."""
    matter = []
    for index, leaf in enumerate(leaves):
        for combo, accepted in found.items():
            others = (combo[:index] + (alt,) + combo[index + 1:] for alt in range(len(leaf.options)))
            if any(other in found and not set(found[other]) & set(accepted) for other in others):
                matter.append(index)
                break
    return matter


def render(value: Any) -> Any:
    """A belief as plain data for ``partner_understood`` (an open fact as ``"?"`` and its options)."""
    if isinstance(value, Open):
        shown = [render(option) for option in value.options[:6]]
        return "? (" + " or ".join(map(str, shown)) + (" ..." if len(value.options) > 6 else "") + ")"
    if isinstance(value, dict):
        return {str(key): render(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [render(item) for item in value]
    return value
