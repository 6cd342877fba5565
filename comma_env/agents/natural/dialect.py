"""Places and numbers in words of other languages and dialects that people mix into English ("oben links", "nach
oben", "tap row" and "twa" in Scots, "en haut à gauche", "northwest"), read as the English words by every reader
(`clean`)."""

from __future__ import annotations

import re

WORDS = {"oben links": "top left", "oben rechts": "top right", "unten links": "bottom left",
         "unten rechts": "bottom right", "links oben": "top left", "rechts oben": "top right",
         "links unten": "bottom left", "rechts unten": "bottom right", "nach oben": "up", "nach unten": "down",
         "nach links": "left", "nach rechts": "right", "oben": "top", "unten": "bottom", "rechts": "right",
         "en haut à gauche": "top left", "en haut à droite": "top right", "en bas à gauche": "bottom left",
         "en bas à droite": "bottom right", "twa": "two", "fower": "four", "zwei": "two", "drei": "three",
         "vier": "four", "sechs": "six", "doon": "down", "northwest": "top left", "north-west": "top left",
         "northeast": "top right", "north-east": "top right", "southwest": "bottom left", "south-west": "bottom left",
         "southeast": "bottom right", "south-east": "bottom right"}
"""German, French and Scots words for places, directions and numbers, and the corners of a grid by the compass;
"links" alone is left (an English word)."""
_WORD = re.compile(r"(?<![\w'])(" + "|".join(sorted(map(re.escape, WORDS), key=len, reverse=True)) + r")(?![\w'])",
                   re.IGNORECASE)
_TAP = re.compile(r"\btap(?=[\s-]+(?:left|right)'s\b|\s+row\b(?!\s*\d))|"
                  r"(?:(?<=\bat )|(?<=\bthe )|(?<=\bon )|(?<=, ))tap(?=[\s-]+(?:left|right|row(?!\s*\d))\b)", re.I)
"""Scots "tap" for "top" where a place stands ("Tap left's a Y", "Tap row:", "at tap right", ", tap left"); elsewhere
a press."""


def standard(text: str) -> str:
    """`text` with the words of `WORDS` and Scots "tap" (`_TAP`) in English, in the case they were written in."""
    text = _TAP.sub(lambda m: "Top" if m.group(0)[0].isupper() else "top", text)
    return _WORD.sub(lambda m: WORDS[m.group(1).lower()].capitalize() if m.group(1)[0].isupper()
                     else WORDS[m.group(1).lower()], text)
