"""Lists and dicts that refuse changes, for the values a puzzle shares with its drawing.

`Puzzle.drawn_state` may hand the drawing the puzzle's own lists instead of copies. A drawing
that derives something costly from such a list (Dog places its dogs once per instance) can
only keep the result if the list cannot change behind its back: with a plain list it must keep
a copy and compare against it on every frame, and a cache of those results shared by every
environment of a process must be searched and trimmed. A `FrozenList` cannot change, so its
identity stands for its value, and it carries a `memo` slot where the drawing keeps what it
derived from it: found at once by the environment that owns the list, for any number of
environments in turn, and freed with the puzzle.

Both types are still a ``list`` and a ``dict``: equal to plain ones with the same items,
written by `json` the same way, pickled and copied as themselves (without the memo). Their
mutating methods raise `TypeError`. `freeze` turns nested plain lists and dicts into them; a
memo is sound only when the items are immutable too, which `freeze` ensures for JSON-like
values.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenList", "freeze"]


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"a {type(self).__name__} cannot be changed: make a list or dict of it to edit")


class FrozenList(list[Any]):
    """A list that refuses changes; `memo` is for what a drawing derived from it (None until then)."""

    memo: Any = None
    # an attribute of the instance once set, not a slot: a slot would need an __init__ written
    # in Python to start as None, one more call for every list a puzzle makes

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return FrozenList, (list(self),)

    def __repr__(self) -> str:
        return f"FrozenList({list.__repr__(self)})"


class FrozenDict(dict[Any, Any]):
    """A dict that refuses changes."""

    __slots__ = ()

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[Any, Any]]]:
        return FrozenDict, (dict(self),)

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


def freeze(value: Any) -> Any:
    """`value` with every list in it made a `FrozenList` and every dict a `FrozenDict`,
    recursively (tuples stay tuples, of frozen items); other values as they are."""
    if isinstance(value, dict):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList([freeze(item) for item in value])
    if isinstance(value, tuple):
        return tuple([freeze(item) for item in value])
    return value
