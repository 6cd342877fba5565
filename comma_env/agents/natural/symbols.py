"""Keypad symbols as people write them: the glyph, the manual's name, or its look ("a backwards P",
"a horseshoe"); a vague word ("a star", "the round one") names several symbols."""

from __future__ import annotations

import re
from dataclasses import dataclass

SYMBOL_WORDS: dict[str, tuple[str, ...]] = {
    "Ω": ("omega", "horseshoe", "horse shoe", "ohm"),
    "Ψ": ("psi", "trident", "pitchfork", "pitch fork", "fork"),
    "λ": ("lambda", "upside-down y", "upside down y", "inverted y", "upside-down letter y"),
    "Ж": ("zhe", "bug-looking letter", "bug-like letter", "bug letter", "k glued to a mirrored k", "two ks",
          "cyrillic zh", "cyrillic ж", "bug", "insect"),
    "Я": ("backwards r", "backward r", "mirrored r", "reversed r", "mirror r", "flipped r", "reverse r",
          "r in a mirror", "mirror-image r", "cyrillic ya"),
    "¶": ("pilcrow", "paragraph mark", "paragraph sign", "paragraph symbol", "backwards p", "backward p",
          "reversed p", "mirrored p"),
    "©": ("copyright", "c in a circle", "circled c", "c inside a circle"),
    "★": ("filled star", "solid star", "black star", "filled-in star", "filled in star", "full star", "dark star",
          "shaded star", "filled-in black star", "black filled-in star", "black filled star"),
    "☆": ("hollow star", "outline star", "star outline", "outline of a star", "empty star", "white star",
          "open star", "unfilled star", "not filled star", "outlined star", "star shape outline"),
    "¿": ("upside-down question mark", "upside down question mark", "inverted question mark",
          "spanish question mark", "flipped question mark", "reversed question mark", "upside-down ?",
          "upside down ?", "inverted ?", "question mark turned upside down"),
    "♣": ("club", "clubs", "clover", "trefoil"),
    "♠": ("spade", "spades"),
    "☺": ("smiley", "smiling face", "smiley face", "happy face", "smile"),
    "☂": ("umbrella",),
    "♪": ("musical note", "music note", "eighth note", "quaver", "note symbol"),
    "∞": ("infinity", "sideways 8", "sideways eight", "figure eight lying", "lying 8", "lazy 8",
          "figure 8 on its side"),
    "§": ("section sign", "section symbol", "section mark", "section", "two s shapes", "double s", "stacked s"),
    "†": ("dagger", "cross with a long lower arm", "long cross", "obelisk", "cross"),
    "€": ("euro", "c with two lines", "c with two bars", "c with a double bar"),
    "¥": ("yen", "y with two bars", "y with two lines", "y with a double bar"),
    "⌘": ("command key", "command symbol", "command", "cmd", "mac key", "mac command", "looped square",
          "square with loops", "cloverleaf", "place of interest"),
    "Δ": ("delta", "triangle", "empty triangle"),
    "☯": ("yin-yang", "yin yang", "yin and yang", "yinyang", "taijitu", "swirl", "black and white circle"),
    "✈": ("airplane", "aeroplane", "plane", "jet", "aircraft"),
}
"""Each symbol's words, the manual's name first."""

VAGUE: dict[str, tuple[str, ...]] = {
    "star": ("★", "☆"), "round": ("☺", "☯", "©"), "circle": ("☺", "☯", "©"), "circular": ("☺", "☯", "©"),
    "russian": ("Ж", "Я"), "cyrillic": ("Ж", "Я"), "greek": ("Ω", "Ψ", "λ", "Δ"), "card suit": ("♣", "♠"),
    "playing card": ("♣", "♠"), "currency": ("€", "¥"), "money": ("€", "¥"),
}
"""Words that name a family of symbols, not one."""


@dataclass(frozen=True)
class SymbolMention:
    """Symbols one stretch of text may mean (one, or several for a vague word)."""

    options: frozenset[str]
    start: int
    end: int


_DIGITS = {"two": "2", "three": "3", "eight": "8"}


def phrase(words: str) -> str:
    """A pattern for `words`, a number word also as its digit (the readers write "two" as "2")."""
    return r"[\s-]*".join(f"(?:{part}|{_DIGITS[part]})" if part in _DIGITS else re.escape(part)
                           for part in words.split(" "))  # "command-key" too


_NAMED = sorted(((w, s) for s, ws in SYMBOL_WORDS.items() for w in ws), key=lambda p: len(p[0]), reverse=True)
_NAME_PATTERN = re.compile(r"(?<![a-z])(" + "|".join(phrase(w) for w, _ in _NAMED) + r")(?![a-z])", re.IGNORECASE)
_BY_NAME = {" ".join(_DIGITS.get(p, p) for p in re.split(r"[\s-]+", w)) if d else re.sub(r"[\s-]+", " ", w): s
            for w, s in _NAMED for d in (0, 1)}
_VAGUE_PATTERN = re.compile(r"(?<![a-z])(" + "|".join(phrase(w) for w in sorted(VAGUE, key=len, reverse=True))
                            + r")(?![a-z])", re.IGNORECASE)
_GLYPHS = re.compile("[" + "".join(SYMBOL_WORDS) + "]")

_LOOKS = ((r"\bcapital\s+(?=[a-z]\b)", ""),
          (r"\b([a-z])\s+(?:flipped|reflected|turned|seen)\s+(?:in\s+a\s+mirror|horizontally|around)", r"mirrored \1"),
          (r"\b(\w+)\s+(?:lying|laid|tipped|turned|knocked)\s+(?:over\s+)?on\s+(?:its|his)\s+side\b", r"sideways \1"),
          (r"\b([a-z])\s+(?:facing|turned|pointing)\s+(?:backwards?|the\s+(?:other|wrong)\s+way)", r"mirrored \1"),
          (r"\bupside(?![\s-]*down)\b", "upside-down"), (r"\b(?:2|two)\s+s'?s?\s+stacked\b", "stacked s"),
          (r"\bloop(?:y|ed)\s+square\b|\bsquare,?\s+(?:with\s+)?loop(?:s|ed)(?:\s+corners)?\b", "square with loops"),
          (r"\b(?:bottom|lowest)\s+arm\b", "lower arm"), (r"\b(?:little|small|tiny|curly|curvy|swirly)\s+", ""),
          (r"\b(?:5|five)[\s-]*point(?:ed)?\s+(?=star)", ""),
          (r"\bstar,?\s+(?:filled(?:[\s-]+in)?|solid|shaded)(?:\s+(?:in|solid|black))?\b(?!\s*(?:or|/|star\b))",
           "filled star"), (r"\bstar,?\s+(?:only\s+)?(?:the\s+)?(?:outline|outlined|hollow|empty|unfilled)\b"
                            r"(?:,?\s+not\s+filled(?:[\s-]+in)?\b)?(?!\s*(?:or|/|star\b))", "hollow star"))
"""A look said another way ("a capital R flipped in a mirror", "an 8 lying on its side") in the words above; not
"star, filled" across two items ("hollow star, filled star")."""


def looks(text: str) -> str:
    """`text` with each look said another way in the words of `SYMBOL_WORDS`, before `mentions` reads it."""
    for pattern, words in _LOOKS:
        text = re.sub(pattern, words, text, flags=re.IGNORECASE)
    return text


def mentions(text: str) -> list[SymbolMention]:
    """Every symbol named in `text`, in order; a glyph and its name or look written together are one."""
    text = re.sub(r"\(\s*not\s+filled(?:-in)?\s*\)", lambda m: "hollow".ljust(len(m.group(0))), text,
                  flags=re.IGNORECASE)  # "white (not filled) star", same length: positions stay
    found: list[SymbolMention] = []
    taken: list[tuple[int, int]] = []
    for match in _GLYPHS.finditer(text):
        found.append(SymbolMention(frozenset({match.group(0)}), match.start(), match.end()))
        taken.append((match.start(), match.end()))
    for match in _NAME_PATTERN.finditer(text):
        key = re.sub(r"[\s-]+", " ", match.group(1).lower())
        found.append(SymbolMention(frozenset({_BY_NAME[key]}), match.start(), match.end()))
        taken.append((match.start(), match.end()))
    for match in _VAGUE_PATTERN.finditer(text):
        if not any(s <= match.start() < e or match.start() <= s < match.end() for s, e in taken):
            key = re.sub(r"\s+", " ", match.group(1).lower())
            found.append(SymbolMention(frozenset(VAGUE[key]), match.start(), match.end()))
    return _merged(text, sorted(found, key=lambda m: m.start))


def _merged(text: str, found: list[SymbolMention]) -> list[SymbolMention]:
    """Mentions of one symbol with only punctuation, "looks like" or a short phrase (no comma, no "then") between
    them, as one; one symbol named twice in a clause ("the command key, the square with loops") is one key."""
    merged: list[SymbolMention] = []
    for mention in found:
        if merged:
            last = merged[-1]
            gap = text[last.end:mention.start]
            common = last.options & mention.options
            if common and (re.fullmatch(r"[\s(`'\";:,\-]*(?:(?:a|an|the|like|looks|it|symbol|sign|one|little|"
                                        r"of|i|think|maybe|on|in|from|as)[\s(`'\";:,\-]*)*", gap, re.IGNORECASE)
                           or len(gap) <= 40 and not re.search(r"[,;.\n>→]|\bthen\b", gap)
                           or len(common) == 1 == len(last.options)
                           and not re.search(r"[:;.\n>→]|\b(?:then|top|bottom|left|right|upper|lower)\b", gap)):
                merged[-1] = SymbolMention(common, last.start, mention.end)  # also "a circle split into a swirl"
                continue
        merged.append(mention)
    return merged
