"""Words printed on a puzzle (Who's display and labels) in what people write: in capitals or quotes,
longest first ("YOU ARE" before "YOU"), with the spellings people use ("YOURE", "UH-HUH")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    """The printed word `word` at `start`..`end`; `quoted` when it was written in quotes."""

    word: str
    start: int
    end: int
    quoted: bool = False


class Printed:
    """A set of printed words and how to find them in text."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = sorted({w for w in words if w}, key=len, reverse=True)
        alternatives = "|".join(r"[\s-]+".join(map(re.escape, w.split(" "))).replace("'", "'?") for w in self.words)
        self.capitals = re.compile(rf"(?<![A-Za-z'])({alternatives})(?![A-Za-z'])")
        self.any_case = re.compile(rf"(?<![A-Za-z'])({alternatives})(?![A-Za-z'])", re.IGNORECASE)
        self.quoted = re.compile(r"\"([^\"\n]{1,20})\"|(?<![A-Za-z])'((?:[^'\n]|(?<=[A-Za-z])'(?=[A-Za-z])){1,20})'"
                                 r"(?![A-Za-z])")  # 'YOU'RE': an apostrophe between letters is inside

    def canonical(self, text: str) -> str | None:
        """The printed word `text` spells (any case), or None."""
        match = self.any_case.fullmatch(text.strip())
        if not match:
            return None
        squeezed = re.sub(r"[\s-]+", " ", match.group(0)).upper()
        return next((word for word in self.words if squeezed in (word, word.replace("'", ""))), None)

    def find(self, text: str, lowercase: bool = False) -> list[Found]:
        """Printed words in `text`, in order: quoted ones, then words in capitals (any case when `lowercase`)."""
        found: list[Found] = []
        spans: list[tuple[int, int]] = []
        for match in self.quoted.finditer(text):
            inner = match.group(1) if match.group(1) is not None else match.group(2)
            word = self.canonical(inner.rstrip(".,!"))
            if word is not None:
                found.append(Found(word, match.start(), match.end(), quoted=True))
                spans.append((match.start(), match.end()))
        pattern = self.any_case if lowercase else self.capitals
        for match in pattern.finditer(text):
            if any(s <= match.start() < e for s, e in spans):
                continue
            word = self.canonical(match.group(0))
            if word is not None:
                found.append(Found(word, match.start(), match.end()))
        return sorted(found, key=lambda f: f.start)

    def partial(self, text: str) -> list[list[str]]:
        """Quoted beginnings of printed words ("'uh'"): for each, the words it could start."""
        result = []
        for match in self.quoted.finditer(text):
            inner = (match.group(1) if match.group(1) is not None else match.group(2)).strip().upper()
            if inner and self.canonical(inner) is None:
                starts = [w for w in self.words if w.startswith(inner)]
                if starts:
                    result.append(starts)
        return result
