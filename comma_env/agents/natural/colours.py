"""Colours as people write them (synonyms, emoji, the hedged "white or yellow"), mapped onto a palette."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

SYNONYMS: dict[str, tuple[str, ...]] = {
    "crimson": ("red",), "scarlet": ("red",), "ruby": ("red",), "cherry": ("red",), "maroon": ("red",),
    "navy": ("blue",), "azure": ("blue",), "cobalt": ("blue",), "cyan": ("blue",), "sapphire": ("blue",),
    "emerald": ("green",), "lime": ("green",), "olive": ("green",), "jade": ("green",),
    "lemon": ("yellow",), "gold": ("yellow",), "golden": ("yellow",), "mustard": ("yellow",),
    "ivory": ("white",), "snow": ("white",), "whitish": ("white",),
    "gray": ("grey",), "ebony": ("black",),
    "fuchsia": ("magenta", "purple"), "pink": ("magenta", "pink"), "violet": ("purple", "magenta"),
    "lilac": ("purple", "magenta"), "lavender": ("purple", "magenta"), "purple": ("purple", "magenta"),
    "magenta": ("magenta", "purple"), "tangerine": ("orange",),
    "reddish": ("red",), "bluish": ("blue",), "greenish": ("green",), "yellowish": ("yellow",),
    "blu": ("blue",), "grn": ("green",), "yel": ("yellow",), "ylw": ("yellow",), "blk": ("black",),
    "mag": ("magenta",), "prp": ("purple",), "purplish": ("purple", "magenta"), "pinkish": ("magenta", "pink"),
    "orangey": ("orange",), "orangish": ("orange",),
}
"""Other words for a colour, with the palette colours each can stand for, the preferred first."""

EMOJI: dict[str, str] = {
    "🟥": "red", "🔴": "red", "🟦": "blue", "🔵": "blue", "🟩": "green", "🟢": "green", "🟨": "yellow",
    "🟡": "yellow", "🟪": "purple", "🟣": "purple", "🟧": "orange", "🟠": "orange", "⬜": "white",
    "⚪": "white", "⬛": "black", "⚫": "black", "🟫": "brown", "🟤": "brown",
}

UNSURE = {"cream": ("white", "yellow"), "beige": ("white", "yellow"), "off-white": ("white", "yellow"),
          "teal": ("blue", "green"), "turquoise": ("blue", "green"), "aqua": ("blue", "green"),
          "amber": ("yellow", "orange"), "coral": ("red", "orange"), "salmon": ("red", "orange")}
"""Colour words that sit between two colours: read as either when the palette has both."""

OTHER = ("orange", "purple", "pink", "brown", "grey", "gray", "violet", "indigo", "maroon", "beige", "tan", "silver",
         "peach", "mauve", "lilac", "lavender", "cyan", "teal", "turquoise", "aqua", "cream", "amber", "olive", "lime",
         "navy", "gold", "golden", "magenta", "green", "red", "blue", "yellow", "white", "black", "fuchsia",
         "purplish", "pinkish", "orangey", "orangish", "brownish", "greyish", "grayish")
"""Colour words of English: one the palette cannot place ("teal" with blue and no green) is an unknown
colour, read as any colour of the palette, never as the nearest one."""


_UNREAD = re.compile(r"(?:(?<=[:,|])|(?<=[:,|][ \t])|(?<=\bare[ \t])|(?m:^))[ \t]*\(?"
                     r"(?:unknown(?:\s+colou?r)?|can'?t\s+(?:tell|see(?:\s+it)?)|cannot\s+(?:tell|see)|not\s+sure|unsure|"
                     r"no\s+idea|unclear|hidden|covered|obscured)\)?"
                     r"(?=[ \t]*(?:[,;|.\n]|$))", re.IGNORECASE)
"""An item of a list that says its colour cannot be told ("red, unknown colour, white", "blue, (can't tell)"): any."""
_OTHER_FACT = re.compile(r"\b(?:serial|code|digits?|label|word|display|letters?|pin|balance|timer)\b[^,;|\n]*$",
                         re.IGNORECASE)
"""Before an unread item, in the same item: it is about another fact ("Serial: not sure"), not a colour."""


@dataclass(frozen=True)
class Mention:
    """A colour mentioned at `start`..`end`: one palette colour, or several when unsure ("white or yellow")."""

    options: tuple[str, ...]
    start: int
    end: int


class Palette:
    """The colours one puzzle uses, and how to find them in text."""

    def __init__(self, colours: Sequence[str]) -> None:
        self.colours = tuple(colours)
        words: dict[str, tuple[str, ...]] = {c: (c,) for c in self.colours}
        for word, meanings in SYNONYMS.items():
            found = tuple(m for m in meanings if m in self.colours)
            if found and word not in words:
                words[word] = found[:1]
        for word, meanings in UNSURE.items():
            found = tuple(m for m in meanings if m in self.colours)
            if len(found) > 1:
                words[word] = found
        for word in OTHER:
            words.setdefault(word, self.colours)  # a colour the palette cannot place: any of them
        for emoji, colour in EMOJI.items():
            meanings = (colour,) if colour in self.colours else SYNONYMS.get(colour, ())
            found = tuple(m for m in meanings if m in self.colours)
            if found:
                words[emoji] = found[:1]
        words["?"] = self.colours  # a blank table cell (`reading.layout`) or a "?" in a list: any of them
        self.words = words
        emoji = "".join(re.escape(e) for e in words if not e.isalpha() and "-" not in e and e != "?")
        names = "|".join(sorted((re.escape(w) for w in words if w[0].isalpha()), key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![A-Za-z])(?:{names})(?:e?s)?(?![A-Za-z])" + (f"|[{emoji}]" if emoji else "")
                                  + r"|(?<![^\s:,|])\?(?![^\s,;|])", re.IGNORECASE)

    def mentions(self, text: str) -> list[Mention]:
        """Every colour in `text` in order; "X or Y", "X/Y", "X-ish Y", "Xish Y", "X, could be Y" and "X (probably
        Y)" are one mention of both."""
        found = [Mention(self._meaning(m.group(0).lower()), m.start(), m.end()) for m in self.pattern.finditer(text)]
        unread = {m.start(): Mention(self.colours, m.start(), m.end()) for m in _UNREAD.finditer(text)
                  if not _OTHER_FACT.search(text, max(0, m.start() - 30), m.start())}
        found = sorted([m for m in found if not any(u.start <= m.start < u.end for u in unread.values())]
                       + list(unread.values()), key=lambda m: m.start)
        merged: list[Mention] = []
        for mention in found:
            if merged:
                gap = text[merged[-1].end:mention.start].lower()
                if mention.start in unread and not gap.strip():  # "? (can't tell)", "red (can't tell)": one, open
                    merged.append(Mention(self.colours, merged.pop().start, mention.end))
                    continue
                between = re.search(r"\bbetween\s+$", text[:merged[-1].start].lower()) and gap.strip() == "and"
                shade = text[merged[-1].end - 3:merged[-1].end].lower() == "ish" and gap.isspace()  # "bluish violet"
                gloss = re.fullmatch(r"\s*\(\s*(?:(?:probably|maybe|perhaps|possibly|likely|or|more like|closer to|"
                                     r"i (?:think|guess))\s+)?", gap)  # "teal (probably green)": either one
                if between or shade or gloss or re.fullmatch(r"\?*\s+or\s+(?:maybe\s+|perhaps\s+|possibly\s+|else\s+)?"
                                                    r"(?:a\s+)?|\?*/|-?ish\s+|-|\s*[-,]?\s*(?:or\s+)?(?:it\s+)?"
                                                    r"(?:could|might|may)\s+(?:also\s+)?be\s+(?:an?\s+)?", gap):
                    last = merged.pop()
                    options = last.options + tuple(o for o in mention.options if o not in last.options)
                    merged.append(Mention(options, last.start, mention.end))
                    continue
            merged.append(mention)
        return merged

    def _meaning(self, word: str) -> tuple[str, ...]:
        for name in (word, word[:-1], word[:-2]):
            if name in self.words:
                return self.words[name]
        raise KeyError(word)

    def one(self, text: str) -> tuple[str, ...] | None:
        """The options of the only colour mention in `text` (None: none, or several)."""
        mentions = self.mentions(text)
        return mentions[0].options if len(mentions) == 1 else None


def drop_negated(text: str, palette: Palette) -> str:
    """`text` without the colours it denies or passes over ("white, not yellow", "isn't red", "skip the black")."""
    names = rf"(?:{palette.pattern.pattern})(?:\s+(?:ones?|wires?)\b)?"
    return re.sub(rf"\b(?:not|isn'?t|aren'?t|never|no|skip|except)\s+(?:a\s+|an\s+|the\s+|any\s+)?{names}"
                  rf"(?:\s*,?\s*(?:or|and|nor)?\s+(?:the\s+)?{names}|\s*,\s*{names})*", " ", text, flags=re.IGNORECASE)


_NAMES = ("red", "blue", "green", "yellow", "white", "black", "magenta", "pink", "purple", "orange")
_READ = re.compile("(?:" + "|".join(f"(?<={w})" for w in (*_NAMES, "is", "are", ",")) + r")(\s*)read"
                   r"(?=\s*(?:[,.;!)]|$|(?:and|then|second|third|fourth|fifth|sixth|last|bottom|" + "|".join(_NAMES)
                   + r")\b))", re.IGNORECASE)


def sounds_like(text: str) -> str:
    """`text` with colours spelled as words that sound the same put right: "blew" always, "read" where a colour
    stands (after a colour, "is" or a comma, before the list goes on or ends)."""
    return _READ.sub(r"\1red", re.sub(r"(?<![A-Za-z])blew(?![A-Za-z])", "blue", text, flags=re.IGNORECASE))
