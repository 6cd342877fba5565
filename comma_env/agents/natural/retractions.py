"""Corrections in plain English: the phrases that take back what was said before ("no wait", "scratch that",
"hold on, don't -"), where a message is cut by them, what is left once they are read, and the one value a short
correction gives ("sorry, four", "blue, not red")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from comma_env.agents.natural.colours import OTHER
from comma_env.agents.natural.reading import PLACED

UNDO = re.compile(r"\b(?:sorry|oops|correction|i mean|i meant|no wait|actually|my bad|misread|mis-?typed|typo|"
                  r"scratch that|not (?:the |an? )?\w+,? but|instead|rather|looked again|listened again|recounted|"
                  r"(?:ignore|disregard|forget) (?:that|this|what i (?:said|wrote))|wait no(?= *[-,!:;.])|"
                  r"(?:^|(?<=[.!?;,:(\n-])|(?<=[.!?;,:(-]\s)|(?<=\bno\s)|(?<=\boh\s))"
                  r"(?:wait|hold on|don'?t(?=\s*(?:-|\.\.\.)))"
                  r"(?=\s*[-,!:;.]))(?!\w)", re.IGNORECASE | re.MULTILINE)
"""Phrases that take back what was said before (a later statement replaces an earlier one); "wait", "hold on"
and a bare "don't -" only where a clause starts."""
_QUOTED = re.compile(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|(?<!\w)'[^'\n]*'(?!\w)")
_OPENING = re.compile(r"[\s,.!:;\u2013\u2014\u2026-]*(?:(?:no(?=\s*[-,!:;.])|oh|ok(?:ay)?|hm+|um+|uh+|ah+)\b"
                      r"[\s,.!:;\u2013\u2014\u2026-]*)*", re.IGNORECASE)


def retractions(text: str) -> list[re.Match[str]]:
    """The phrases of `text` that take back what came before (`UNDO`), skipping labels in capitals ("HOLD ON" on
    Who's display, "WAIT") and quoted text, which are what is said, not a correction."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    return [match for match in UNDO.finditer(text) if not re.fullmatch(r"\s*[A-Z][A-Z' ]+", match.group(0))
            and not any(a <= match.start() < b for a, b in quoted)]


def retracts(text: str) -> re.Match[str] | None:
    """The first phrase of `text` that takes back what came before (`retractions`), or None."""
    return next(iter(retractions(text)), None)


def split_at_retractions(text: str) -> list[str]:
    """`text` cut where a sentence opens by taking back what came before ("Press A, then B. Scratch that: press C"),
    so that each part is read as a later message; a slip trailing off ("one... no wait, four") is `corrected`."""
    cuts = [m.start() for m in retractions(text) if text[:m.start()].strip() and
            re.search(r"(?:(?<!\.)[.!?]|\n)\s*(?:(?:hm+|um+|uh+|ah+|oh|ok(?:ay)?)[,.!\s]*)?$", text[:m.start()], re.I)]
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def after_retraction(text: str) -> str:
    """`text` without the phrases it opens with to take back what came before: "hold on, don't - it's the D" reads
    "it's the D", "not the second but the fourth" reads "the fourth"."""
    while (match := retracts(text)) and _OPENING.fullmatch(text[:match.start()]):
        text = _OPENING.sub("", text[match.end():], count=1)
    return text


NAMES_NO_KEY = frozenset(
    "a an the and or but if so then than to of in on at by for from with into onto up down out over is are was "
    "were be been it its it's this that these those there here i me my we us you your he she they them what "
    "which who when where why how all any each every some no not yes ok okay just only also too very now don "
    "one two tap tip top pin pan per pen red rod bed led lead read reed see sea sir say says said start stare "
    "hole holy lift loft while write whole block blur wise wide wipe wife cute cat let lot lie dress prose price "
    "pride pretty bit sort side sure same seem bold told fold cold gold held help tell sell wall well will wish "
    "show slow snow glow grow blow flow know knew new own must many may dot dots rest test text next nest best "
    "last list lost past post most more move mode made make take tale tile time tone tune turn torn born worn "
    "word work world would could should wait want went west what whats rate date gate late mate note vote "
    "line lime like life live five fine mine nine wine ring rung sing song long along among nice tree threw forth "
    "fire tend sever fort tent skip eleven twelve twenty thirty forty fifty sixty seventy eighty ninety none".split())
"""Words that name no fact and no key: what a correction or an item of a list says besides them names one."""
NAMES_NOTHING = frozenset("something anything wrong mistake misread misspoke mixed got had said wrote".split())
"""Words of a correction that do not say what it corrects ("hold on, I got something wrong")."""
SWAP = re.compile(r"\bnot\s+(?:an?\s+|the\s+)?(?P<was>[A-Za-z]+),?\s+but\s+(?:an?\s+|the\s+)?(?P<but>[A-Za-z]+)\b|"
                  r"\b(?!(?:is|are|was|were|it|that|and|but|just|still|also|do|does|did)\b)(?P<new>[A-Za-z]+),?\s+"
                  r"not\s+(?:an?\s+|the\s+)?(?P<old>[A-Za-z]+)\b", re.IGNORECASE)
"""A correction of one value: "blue, not red" or "not red but blue"."""
_NUMBER = re.compile(r"\b(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\b", re.IGNORECASE)
_COLOUR = re.compile(rf"\b(?:{'|'.join(OTHER)})\b", re.IGNORECASE)
_NOT_WAS = re.compile(r",?\s*(?:and\s+)?not\s+(?:an?\s+|the\s+)?(\w+)", re.IGNORECASE)  # "it's 4, not 5": the slip


def bare_value(text: str) -> tuple[str, str | None] | None:
    """The one number or colour a short correction consists of ("wait, no - four", "sorry, it's black"), naming
    no place (`PLACED`), and the slip it names, if any ("it's 4, not 5")."""
    rest = after_retraction(text)
    was, rest = _NOT_WAS.search(rest), _NOT_WAS.sub("", rest)
    values = _NUMBER.findall(rest) + _COLOUR.findall(rest)
    bare = len(values) == 1 and len(rest.split()) <= 5 and not PLACED.search(rest)
    return (values[0], was.group(1) if was else None) if bare else None


def same_kind(value: str, text: str) -> Iterator[re.Match[str]]:
    """The numbers of `text` if `value` is a number, else its colours: what a bare correction may replace."""
    return (_NUMBER if _NUMBER.fullmatch(value) else _COLOUR).finditer(text)
