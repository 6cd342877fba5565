"""Letters spelled in the NATO/ICAO phonetic alphabet ("top left yankee", "sierra, golf, juliett"), read as the
letters, for the readers of letters (LED's buttons, Password's windows and words)."""

from __future__ import annotations

import re

LETTERS = {"alfa": "A", "alpha": "A", "bravo": "B", "charlie": "C", "delta": "D", "echo": "E", "foxtrot": "F",
           "golf": "G", "hotel": "H", "india": "I", "juliett": "J", "juliet": "J", "kilo": "K", "lima": "L",
           "mike": "M", "november": "N", "oscar": "O", "papa": "P", "quebec": "Q", "romeo": "R", "sierra": "S",
           "tango": "T", "uniform": "U", "victor": "V", "whiskey": "W", "whisky": "W", "x-ray": "X", "xray": "X",
           "yankee": "Y", "zulu": "Z"}
"""Each code word and the letter it spells; "alpha", "juliet", "whisky" and "xray" as people also write them."""
_WORD = re.compile(r"\b(?:" + "|".join(sorted(LETTERS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ONLY_CODE = frozenset("alfa bravo foxtrot juliett juliet quebec sierra tango whiskey whisky xray x-ray yankee zulu"
                       .split())
"""Code words that are rarely anything else; the rest ("golf", "hotel", "delta", "mike") are common words too."""
_RUN = re.compile(rf"{_WORD.pattern}(?:[\s,;/-]+{_WORD.pattern}){{3}}", re.IGNORECASE)
"""Four code words in a row ("papa echo lima lima"): a spelling even without a word that is only a code."""


def spelled(text: str, least: int = 2) -> str:
    """`text` with its phonetic-alphabet words as capital letters ("top left yankee" reads "top left Y") when it
    spells: `least` code words or more (one in advice that names a letter), one of them rarely anything else, or
    four in a row."""
    words = [match.group(0).lower() for match in _WORD.finditer(text)]
    if (len(words) < least or not _ONLY_CODE.intersection(words)) and not _RUN.search(text):
        return text
    return _WORD.sub(lambda match: LETTERS[match.group(0).lower()], text)
