"""How the natural-language partners say numbers, ordinals, counts, positions and connectors, varied by seed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen", "twenty")
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def choose(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def say_ordinal(n: int, rng: np.random.Generator | None = None) -> str:
    """"third" (or "3rd" now and then)."""
    if rng is not None and rng.random() < 0.3 or n > len(ORDINALS):
        return f"{n}{_SUFFIX.get(n % 10 if n % 100 not in (11, 12, 13) else 0, 'th')}"
    return ORDINALS[n - 1]


def say_number(n: int, rng: np.random.Generator | None = None) -> str:
    """"three" or "3"."""
    if rng is not None and rng.random() < 0.5 and 0 <= n < len(NUMBER_WORDS):
        return NUMBER_WORDS[n]
    return str(n)


def times(n: int, rng: np.random.Generator) -> str:
    """How often: "once", "twice", "three times"."""
    if n == 1:
        return choose(rng, ("once", "one time"))
    if n == 2:
        return choose(rng, ("twice", "two times"))
    return f"{say_number(n, rng)} times"


def position_words(position: str, rng: np.random.Generator) -> str:
    """"top_left" as "top left", "top-left" or "upper left"."""
    row, col = position.split("_")
    row = {"top": choose(rng, ("top", "upper")), "bottom": choose(rng, ("bottom", "lower"))}.get(row, row)
    return row + choose(rng, (" ", "-")) + col


def with_connector(sentence: str, index: int, total: int, rng: np.random.Generator) -> str:
    """Prefix the `index`-th of `total` instructions with a varied sequencing word."""
    if total == 1:
        prefix = choose(rng, ("", "", "Just this: "))
    elif index == 0:
        prefix = choose(rng, ("", "First, ", "To start, ", "Start like this: "))
    elif index == total - 1 and total > 2:
        prefix = choose(rng, ("Finally, ", "Last, ", "Then "))
    else:
        prefix = choose(rng, ("Then ", "Next, ", "After that, ", "And then "))
    if prefix and sentence[:1].isupper() and sentence[1:2].islower():
        sentence = sentence[0].lower() + sentence[1:]
    return prefix + sentence


def which_one(noun: str, keys: Iterable[str], shown: dict[str, str]) -> str:
    """A question back naming each of `keys` by position and what it shows."""
    named = " or the ".join(f"{key.replace('_', ' ')} one ({shown[key]})" for key in sorted(keys))
    return f"Which {noun} do you mean: the {named}?"
