"""Reading helpers shared by the plain-English partners: cleaning a message, numbers as words, typos,
ordinals, hedges and slips fixed in place (retractions.py has corrections in a later sentence or message).
Every reader is linear in its input: a partner may be sent anything."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from comma_env.agents.natural.dialect import standard
from comma_env.agents.natural.english import COMMON, same_word
from comma_env.agents.natural.tables import tables
from comma_env.agents.natural.words import ORDINALS
from comma_env.protocol.text import strip_thinking

MAX_CHARS = 4000
"""Longer messages are read up to here, so a reader stays fast on anything a learner sends."""

_INVISIBLE = dict.fromkeys(map(ord, "\ufe0f\ufe0e\u20e3\u200d\u200b\u2060"), None)
_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u00b4": "'",
                             "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
                             "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": " - ",
                             "\u2015": " - ", "\u2212": "-", "\u00d7": "x", "\u2026": "...", "\u00a0": " ",
                             "\u2192": " -> ", "\u27f6": " -> ", "\u2794": " -> ", "\u27a1": " -> ",
                             "\u21d2": " -> ", "\u2190": " <- ", "\u2b05": " <- ", "`": ""})
_KEYCAP = re.compile(r"([0-9#*])\ufe0f?\u20e3")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(?=[^\n]*[^\W_])", re.MULTILINE)  # not a row of "# . #"
_EMPHASIS = re.compile(r"\*\*|__")
_SPACES = re.compile(r"[ \t]+")
_JSON_KEY = re.compile(r"([\"'])([A-Za-z][\w ]{0,40})\1\s*:(?:\s*([\"'])([^\"'\n]{0,80})\3)?")
"""A key of JSON or a Python dict and its text ("\"stage\": 2", "'top': 'omega'"), read as a label ("top: omega")."""
_BULLET = re.compile(r"(?m)^([ \t]*)[*+•][ \t]+")
"""A list's bullet (read as "- ", so that "*" is no star)."""
_TIMES = re.compile(r"(?<![A-Za-z0-9])x(\d{1,2})\b|\b(\d{1,2})x(?![A-Za-z0-9])")
"""A count as "x2" or "2x" (read as "2 times")."""
_REST = re.compile(r"\bthe (?:other (?:two|three|four|ones?|keys|buttons|symbols|squares|windows)|others|remaining "
                   r"(?:ones?|keys|buttons|symbols|squares|windows|two|three))\b", re.IGNORECASE)
"""Words for what is left of a list ("then the other three"), read as "the rest"."""
_ROW_COLUMN = re.compile(r"\b[Rr]\s*([1-9])\s*[,/-]?\s*[Cc]\s*([1-9])\b"
                         r"(\s+(?=[Rr]\s*[1-9]\s*[,/-]?\s*[Cc]\s*[1-9]\b))?")
"""A square as "R2C3" (read as "row 2 column 3")."""

ORDINAL_WORDS = {word: k for k, word in enumerate(ORDINALS, start=1)}
SMALL_NUMBERS = {"zero": 0, "nought": 0, "no": 0, "none": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2,
                 "pair": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "once": 1, "twice": 2, "thrice": 3}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}

STOPWORDS = frozenset("blur eighty lime loft ninety prose reed rung seventy sever tile".split())
"""Words `fix_typos` never rewrites that are too rare in `english.COMMON`'s list to be kept as common words."""
_INFLECTIONS = ("s", "es", "ed", "ing", "er", "est", "ly", "ish")

SYNONYMS = re.compile(r"\b(?:big|large|main|top) (?:number|digit)(?: (?:display|screen))?\b|\breadout\b|\bdisp\b|"
                      r"\b(?:number|digit) (?:on|at) (?:the )?top\b", re.IGNORECASE)
"""Words people use for a module's display, read as "display" by every reader."""
TEXTING = {"btn": "button", "btns": "buttons", "pls": "please", "plz": "please", "thx": "thanks", "u": "you",
           "ur": "your", "b4": "before", "w/": "with", "w/o": "without", "rite": "right"}
"""Texting abbreviations, read in full by every reader ("UR" in capitals is a Who label)."""
_TEXTING = re.compile(r"(?<![\w/\"'\u201c\u2018])(" + "|".join(sorted(map(re.escape, TEXTING), key=len, reverse=True))
                      + r")(?![\w/\"'\u201d\u2019])(?!(?<=u)[ ,]+[A-Za-z](?![\w']))(?<!\b[A-Za-z], u)(?<!\b[A-Za-z] u)"
                      r"(?<!letter u)")
"""A texting word, not quoted (the display says "ur": Who's UR) nor the letter u in a list ("u q t o e", "q, o, u")
or named so ("the letter u")."""

_ROW_LABEL = re.compile(r"(?:r|row|line)\s*(\d)", re.IGNORECASE)
_HEADED = re.compile(r"^(?:\d{1,2}[.)])\s+([^:\n]{1,40}?)\s*$")
_SUB_BULLET = re.compile(r"^\s+[-*+•]\s+(.*)$")


def _row(row: list[str]) -> str:
    """A table row as one line: "a: b, c" (no step number, a blank cell "?"); a grid's "row 1: a, b, c" or as is."""
    cells = [re.sub(r"^(\*\*|__)(.+)\1$", r"\2", c) or "?" for c in row]
    label = _ROW_LABEL.fullmatch(cells[0])
    if len(cells) > 3:
        return f"row {label.group(1)}: " + ", ".join(cells[1:]) if label else f"| {' | '.join(row)} |"
    cells = cells[1:] if len(cells) > 1 and cells[0].isdigit() else cells
    return cells[0] + "".join((": " if i == 1 else ", ") + c for i, c in enumerate(cells) if i)


def layout(text: str) -> str:
    """Each markdown table row as one line (`_row`; a header over a rule line left out), and a short numbered
    heading with indented bullets under it as "heading: bullets"."""
    lines = text.splitlines()
    for table in [*tables(text)][::-1]:
        lines[table.lines] = map(_row, table.rows if table.ruled else [table.header, *table.rows])
    out: list[str] = []
    joined = False
    for line in lines:
        bullet = _SUB_BULLET.match(line)
        heading = _HEADED.match(out[-1]) if bullet and out and not joined else None
        if bullet and (joined or (heading and not set(heading.group(1).lower().split()) & VERBS)):
            out[-1] = (out[-1] + ", " if joined else heading.group(1) + ": ") + bullet.group(1)  # type: ignore[union-attr]
            joined = True
            continue
        joined = False
        out.append(line)
    return "\n".join(out)


_GROUPED = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]*)?([a-z]+)[ \t]*:[ \t]*(\d(?:[ \t]*(?:,|and|&)[ \t]*\d)*)[ \t]*$",
                      re.IGNORECASE)


def grouped(text: str) -> dict[int, str]:
    """A listing grouped by value, one value a line ("red: 1, 3" / "black: 2"): position -> value."""
    return {int(n): m.group(1).lower() for m in _GROUPED.finditer(text) for n in re.findall(r"\d", m.group(2))}


def clean(text: str) -> str:
    """`text` as the readers see it: thoughts, markdown (`layout`) and typography made plain, "R2C3", "x2", "the
    other three" and words for the display (`SYNONYMS`) in one spelling each; line breaks kept."""
    text = SYNONYMS.sub("display", strip_thinking(str(text)[:MAX_CHARS]))
    text = standard(_TEXTING.sub(lambda m: TEXTING[m.group(1)], text))  # lower case only: "U" is a Who label
    text = _JSON_KEY.sub(lambda m: f"{m.group(2)}: {m.group(4) or ''}", _KEYCAP.sub(r"\1", text).translate(_INVISIBLE))
    text = layout(unicodedata.normalize("NFC", text).translate(_TYPOGRAPHY))
    text = _HEADING.sub("", _EMPHASIS.sub("", text)).replace("_", " ")  # "press_top_left", "button_color"
    text = _REST.sub("the rest", _BULLET.sub(r"\1- ", text))
    text = _TIMES.sub(lambda m: f"{m.group(1) or m.group(2)} times", text)
    text = _ROW_COLUMN.sub(lambda m: f"row {m.group(1)} column {m.group(2)}" + (", " if m.group(3) else ""), text)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.splitlines())


_COUNTED = (r"wires?|numbers?|no|nr|positions?|pos|windows?|rows?|columns?|cols?|stages?|lines?|buttons?|keys?|"
            r"slots?|letters?|squares?|steps?|times?|spaces?|cells?|moves?|dogs?|pups?|seconds?|secs?|labels?|"
            r"labell?ed|digits?|symbols?|presses|clicks|forward|backward|backwards|back|ahead|reverse|leds?|lights?")
_ONE_TWO_AFTER = re.compile(rf"\b(?!second\s)({_COUNTED}|forward|back|ahead|reads?|shows?|showing|reading|says?|is|"
                            rf"of|a|an|go|move|walk|up|down)\s+(zero|one|two)\b(?!\s+of\b)", re.IGNORECASE)
_ONE_TWO_BEFORE = re.compile(rf"\b(one|two)\s+(?=(?:more\s+|of\s+the\s+)?(?:{_COUNTED})\b)", re.IGNORECASE)


def spelled_numbers(text: str) -> str:
    """Numbers written as words as digits (text2num; Scots or German ones too, `dialect.standard`); "one" and "two"
    only beside a word that counts ("two steps", "forward two"), since they are also pronouns ("the red one")."""
    from text_to_num import alpha2digit

    text = str(alpha2digit(standard(text), "en"))
    text = _ONE_TWO_AFTER.sub(lambda m: f"{m.group(1)} {SMALL_NUMBERS[m.group(2).lower()]}", text)
    return _ONE_TWO_BEFORE.sub(lambda m: f"{SMALL_NUMBERS[m.group(1).lower()]} ", text)


NUMBER_VOCABULARY = (*(w for w, n in SMALL_NUMBERS.items() if n and len(w) > 2), *ORDINAL_WORDS)
"""Number words and ordinals, whose typos ("fuor", "thrid") every reader repairs."""


def plain(text: str, vocabulary: Iterable[str]) -> str:
    """`text` `clean`ed, its typos of `vocabulary` and of number words repaired, and numbers as digits."""
    return spelled_numbers(fix_typos(clean(text), (*vocabulary, *NUMBER_VOCABULARY)))


def number(word: str) -> int | None:
    """The value of one token: digits, a small number word, "once"/"twice", or None."""
    word = word.lower().strip(".,;:!?()[]")
    if word.isdigit() and len(word) <= 6:
        return int(word)
    return SMALL_NUMBERS.get(word)


ORDINAL = rf"(?:{'|'.join(ORDINALS)}|\d{{1,2}}(?:st|nd|rd|th)|last)"
"""An ordinal as a regex fragment (digits as text2num writes them: "3rd")."""


def ordinal(word: str, count: int | None = None) -> int | None:
    """1-based position of an ordinal token ("third", "3rd", "last" when `count` is known)."""
    word = word.lower().strip(".,;:!?()")
    if word in ORDINAL_WORDS:
        return ORDINAL_WORDS[word]
    if word == "last":
        return count
    match = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", word)
    return int(match.group(1)) if match else None


# -- typo-tolerant words ------------------------------------------------------------------------------
def distance(a: str, b: str, limit: int = 2) -> int:
    """Edit distance with transpositions, or `limit` + 1 when it is larger than `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


_WORD = re.compile(r"[A-Za-z]+")


def fix_typos(text: str, vocabulary: Iterable[str]) -> str:
    """`text` with each word one or two edits from exactly one word of `vocabulary` written right
    ("yellw" -> "yellow"). A common English word (`english.COMMON`) is no typo: it is kept, or read as the form
    of itself the vocabulary has ("no change" -> "no changed"); `STOPWORDS`, other forms of known words and labels
    in capitals are kept."""
    words = {w.lower() for w in vocabulary}
    by_length = {n: [w for w in words if len(w) == n] for n in {len(w) for w in words}}

    def repair(match: re.Match[str]) -> str:
        token = match.group(0)
        low = token.lower()
        if low in words or low in STOPWORDS or len(low) < 3 or (token.isupper() and len(token) > 1):
            return token
        limit = 2 if len(low) >= 8 else 1
        near = [w for n in range(len(low) - 3, len(low) + 4) for w in by_length.get(n, ())]
        if low in COMMON:  # only ever read as another form of itself
            near = [w for w in near if w[:3] == low[:3] and same_word(low, w)]
        if any(low == w + suffix or w == low + suffix for suffix in _INFLECTIONS for w in near):
            return token  # another form of a word we know ("pressed", "holding", "symbol") is no typo
        close = {w for w in near if abs(len(w) - len(low)) <= limit and
                 (len(low) >= 4 or len(w) > len(low) or sorted(w) == sorted(low)) and
                 (w[0] == low[0] or sorted(w) == sorted(low)) and distance(low, w, limit) <= limit}
        return close.pop() if len(close) == 1 else token

    return _WORD.sub(repair, text)


# -- hedges and corrections ---------------------------------------------------------------------------
HEDGES = re.compile(r"\b(?:can'?t tell|cannot tell|not sure|unsure|hard to (?:say|tell)|i don'?t know|"
                    r"(?:be|is|are) either\b|either\b(?!\s*(?:[.!;,)]|$))|or maybe|or possibly|or perhaps|might be|"
                    r"may be|or is it|(?<!think )(?<!guess )maybe|"
                    r"(?:^|\.\.\.|\s-+)\s*or\s|"
                    r"or was it|no idea|can'?t (?:make out|read|see)|couldn'?t (?:make out|read|see)|"
                    r"didn'?t (?:note|count|read|check|write|notice|catch|see)|in (?:some|an unknown|random) order|"
                    r"haven'?t (?:counted|read|"
                    r"checked|found|looked)|not (?:certain|clear)|hang on|let me (?:check|think|look)|maybe not|idk|"
                    r"don'?t recogni[sz]e|(?:perhaps|possibly|could be)\b[^.!\n]*\bor\b|up to you)",
                    re.IGNORECASE)
"""Phrases that say the speaker does not know (a fact or an instruction stays open); a lone "I think maybe X?"
names one answer, and is read as saying it."""

_CLAUSE = r"[^.!?;:\n,)\]/]*?"
UNJUDGED = re.compile(r"\b(?:(?:can'?t|cannot|can not|couldn'?t|unable to)\s+(?:really\s+|quite\s+|properly\s+)?"
                      r"(?:judge|tell|read|make out|say|see(?!\s+(?:any|no)\b))\b|(?:not sure|unsure)\s+(?:what|which|"
                      rf"whether|if|how)\b){_CLAUSE}(?:,(?={_CLAUSE}\b(?:blurry|bad|dark|dim|washed|smudged?|tinny)\b)"
                      rf"{_CLAUSE})?(?P<guess>,\s*(?:it\s+|i\s+)?(?:could|might|maybe|probably|perhaps|think|guess|"
                      rf"looks)\b{_CLAUSE})?(?=[.!?;:\n,)\]/]|\b(?:but|then)\b|$)", re.IGNORECASE)
"""What the speaker says they cannot judge, to the end of its clause, with a reason or a guess after a comma ("I
can't tell if the strip is blue", "can't judge the edge, it's blurry", "can't make out the last, could be black"):
the expert reads neither X nor the guess (`Phrasebook.hear`)."""

_EITHER_WAY = re.compile(r"\b(could be|might be|may be|maybe)\s+([^,.;!?\n]{1,40}?)\s*[,;-]*\s*(?:or\s+)?(?:it\s+)?"
                         r"(?:could be|might be|may be|maybe)\b", re.IGNORECASE)


def either_way(text: str) -> str:
    """`text` with "could be A, could be B" said as "could be A or B": one fact with two answers, not two facts."""
    return _EITHER_WAY.sub(lambda m: f"{m.group(1)} {m.group(2)} or", text)


_SELF_FIX = re.compile(r"\b(?:no,? wait|wait,? no|scratch that|sorry,? i mean[t]?|i mean[t]?|(?:wh)?oops|correction|"
                       r"make that|(?<!\bis )(?<!\bwas )(?<!: )(?-i:[Nn]o)(?=,?\s+not\b)|"  # "is no, not yes": a value
                       r"(?<=[-\u2013\u2014]\s)(?:ugh|argh|gah|d'?oh))\b[,:;!.\s-]*"
                       r"(?:(?:sorry|scratch that|no|wait|i mean[t]?)\b[,:;!.\s-]*)*",
                       re.IGNORECASE)
VERBS = frozenset("press push hit tap click cut snip hold release let turn go move walk select choose pick enter type "
                   "key submit cycle spin diagnose record treat give wait".split())
PLACED = re.compile(r"\b(?:first|second|third|fourth|fifth|sixth|last|\d+(?:st|nd|rd|th)|top|bottom|left|right|"
                    r"middle|(?:wire|row|column|window|position|square|button)\s*\d)\b", re.IGNORECASE)
"""A place a correction names ("the third one is red, not green", "the fourth LED is red"): it says where."""
_RESTATED = re.compile(r"(?:it|that|this|they)(?:'s|'re| is| are| was| were| shows?| says?| reads?)\s+", re.IGNORECASE)
_HEAD = re.compile(r".*\b(?:is|are|was|were|shows?|says?|reads?|displays?)\b|.*[:=]", re.IGNORECASE)

_STRUCK = re.compile(r"~~.*?~~", re.DOTALL)
_EDIT = re.compile(r"(?:^|\s)(?:edit|update|upd)\s*:\s*", re.IGNORECASE)
_DISOWNED = re.compile(r"^(?:ignore|disregard|forget|scratch)\b[^.:;,\n]*?(?:above|before|that|earlier|previous)\b"
                       r"[\s,.:;!-]*", re.IGNORECASE)
_REMARK = re.compile(r"\s*\((?:i\s+)?(?:misread|mis-?typed|typo|wrong|my bad|sorry)[^()]*\)", re.IGNORECASE)


def edited(text: str) -> str:
    """`text` without what its writer struck through (``~~red~~``) or took back in an "EDIT:" line, which replaces
    what it disowns ("ignore the line above") or the sentence it restates, or follows as a correction."""
    text = _STRUCK.sub(" ", text)
    match = _EDIT.search(text)
    if match is None or not text[:match.start()].strip():
        return text
    before, after = text[:match.start()], _REMARK.sub("", text[match.end():])
    disowned = _DISOWNED.match(after)
    if disowned:
        return after[disowned.end():]
    fix = re.split(r"(?<=[a-z0-9)])[.!?](?:\s|$)", after, maxsplit=1)[0]
    head = " ".join(fix.lower().split()[:2])
    said = [m for m in re.finditer(r"(?:[^.;\n]|\.(?=\d))+", before)
            if " ".join(m.group(0).lower().split()[:2]) == head]
    if len(head.split()) == 2 and said:
        last = said[-1]
        return before[:last.start()] + " " + re.sub(r",?\s+not\s+[^.;,()]*", "", fix) + before[last.end():] + \
            after[len(fix):]
    return before + "\nCorrection: " + after


def corrected(text: str) -> str:
    """`text` without the slips its writer fixed in place ("cut the first -- no wait, the fourth" reads
    "cut the fourth"; `edited`); a fix that says where its slip was is kept as a correction."""
    text, position = edited(text[:MAX_CHARS]), 0
    while True:
        match = _SELF_FIX.search(text, position)
        if match is None:
            return text
        before = text[:match.start()].rstrip(" .-")
        after = text[match.end():]
        labels = re.fullmatch(r"[A-Z][A-Z,' ]+", match.group(0).strip(",:;!. \n-"))  # Who's "WAIT, NO": what is said
        if not before.strip(" .-") or not after.strip() or labels:
            position = match.end()
            continue
        number = re.match(r"\s*(?:make (?:that|it)\s+)?(?:an?\s+)?(\d+)\b[\s.!]*$", after, re.IGNORECASE)
        if number and re.search(r"\d", before):  # "ends in 6... no wait, make that 3": the last number was the slip
            text = re.sub(r"\d+(?=\D*$)", number.group(1), before) + "."
            continue
        cut = max(before.rfind(mark) for mark in ".!?;:,\n") + 1
        start = max(before.rfind(mark) for mark in ".!?;\n") + 1
        words = re.findall(r"\w+", before[start:].lower())
        again_words = re.findall(r"\w+", after[:40].lower())[:2]
        if words and again_words and len(words) <= 12 and \
                (words[:2] == again_words or words[0] == again_words[0] in VERBS):
            cut = start  # a short sentence said again: "press TL, TR -- no wait: press BR, BL"
        again = _RESTATED.match(after)
        head = _HEAD.match(before[cut:]) if again else None
        fix = after[:120]
        named = re.search(r"\bnot\s+(?:an?\s+|the\s+)?([a-z]+)", fix, re.IGNORECASE)
        if named and (PLACED.search(fix) or not re.search(rf"\b{named.group(1)}\b", before[cut:], re.IGNORECASE)):
            text = before + ", " + after  # the fix says where its slip was: "the third one is red, not green"
        elif head and again:  # "the screen shows one... no wait, it shows four": "the screen shows four"
            text = before[:cut] + head.group(0) + " " + after[again.end():]
        else:
            text = before[:cut] + " " + after
        position = min(len(before[:cut]), len(text))


ASIDE = re.compile(r"\((?=[^()=:]{0,160}?\b(?:looks?|seems?|is|are|was|were|might|could|think|because)\b)"
                   r"[^()=:]{12,160}\)", re.IGNORECASE)
"""A remark in brackets about a list ("red/blue (the second looks red in one light)"), read as a space."""

_DONT = re.compile(r"\b(?:don'?t|do not|never|no need to|you shouldn'?t|avoid|"
                   r"leave(?!\s+it\s+alone\b)(?=[^,.;:!?\n]*?\balone\b))"
                   r"\s+(?![-\u2013\u2014]|(?:and|or|then|but)\b|let go|release|lift|worry|forget|panic|rush|hesitate|"
                   r"wait|treat)(?:(?!\s(?:-+|\u2013|\u2014)\s)[^,.;:!?\n])*", re.IGNORECASE)
_NOT = re.compile(r"(?:^|(?<=[-,;:(]))\s*(?:and\s+)?not\s+(?:(?:the|an?|that|this|on|at|\d|top|bottom|upper|lower|"
                  r"middle|left|right|first|second|third|fourth|fifth|sixth|last)\b|(?-i:[A-Z]+)\b|[\"'])(?:(?!\s--?\s|\sbut\s)[^,.;:!?\n])*"
                  r"(?:\sbut\b)?",
                  re.IGNORECASE | re.MULTILINE)


def undone(text: str) -> str:
    """Advice without the steps it forbids ("don't hold it, just tap") or the targets it rules out ("the
    fourth wire, not the third", "top right, and not top left"); "don't let go until ..." and "don't treat it" stay,
    as they say when or what, and so does a bare "don't -", which takes back what was said before
    (`retractions.UNDO`)."""
    return _NOT.sub(" ", _DONT.sub(" ", text))


VAGUE = re.compile(r"\b(?:a few|a couple(?: of)?|several|some|the rest(?! as)|or (?:the )?(?:left|right|up|down)|"
                   r"(?:press|tap|hit|click|push)\s+(?:the\s+|both\s+|all\s+)?(?:\w+[\s-])?diagonal)\b",
                   re.IGNORECASE)
"""Words that leave a count or a target open in advice ("a few squares", "then the rest")."""
BY_ANALOGY = re.compile(r"\b(?<!facing )(?:(?:the|in the) same way(?!\s*:)|likewise|similarly|and so (?:on|forth)|"
                        r"etc)\b|,\s*(?:\.{3}|\u2026)\s*$", re.IGNORECASE | re.MULTILINE)
"""Steps left to the reader by analogy ("and the rest the same way", "up on window 2, ..."): no reader carries them
out, so they are asked; "the same way:" and a list is no analogy."""
RELATIONS = (r"\b(?:next to|beside|adjacent|neighbou?r(?:ing)?|nearest|close to|"
             r"(?:from|at|on) the (?:edge|side|outside)|either (?:end|side|edge)|whichever|"
             r"(?<!every )(?<!each )one of (?:the|those|them|these))\b")
"""Relations a reader may not resolve ("next to the white one"): a clause with one is checked like a hedge."""
QUALIFIERS = (r"\b(?:except|other than|apart from|but not|besides|your call|(?:that|which)(?:'s| is) not|"
              r"(?:just |right )?(?:before|after) (?:it(?![\s,]+the\b)|the (?:timer|clock|seconds?)))\b")
"""Words that exclude or shift a target ("except the smiley", "the one that's not red", "just before it ends
in 4"): a clause with one is checked like a hedge by every reader."""

_RULE_FOR_YOU = re.compile(r"(?i)\b(?:for you|in your case|for your (?:module|puzzle|case))\b[^:\n]{0,20}:\s*|"
                           r"(?m:^[\W_]*(?:final\s+)?(answer|in short|tl;?dr|bottom line)[*_ ]*[:–—-][*_\s]*)")
_REASON = re.compile(r"(?im)^(\W*)(?:since|because|as|given that|seeing (?:as|that))\s+(?!soon\b|long\b)"
                     r"[^,:\n]{3,160}[,:]\s*(?=\S)")

_SIGN_OFF = re.compile(r"(?:^|(?<=[.!?\n]))[ \t]*(?:-[ \t]*)?(?:and |then |and then )?(?:report back|tell me|"
                       r"let me know|keep me posted|good luck|hope (?:this|that) helps|take your time|double-check|"
                       r"check back|yeah|i'?m (?:fairly |pretty |quite )?sure)\b"
                       r"[^.!?\n]*[.!?]*", re.IGNORECASE | re.MULTILINE)


def instructions_only(text: str) -> str:
    """Advice without the reason before it ("Since the serial ends in 6, cut ..."), the manual's rule said first
    ("The manual's rule: if ... So for you: cut wire 3"), the working before "Answer:" and sign-offs ("Good luck")."""
    rule = _RULE_FOR_YOU.search(text)
    if rule and (rule.group(1) or re.search(r"\b(?:manual|rule)\b", text[:rule.start()], re.IGNORECASE)):
        text = text[rule.end():]
    return _SIGN_OFF.sub(" ", _REASON.sub(r"\1", text))
_STAGE_MARK = re.compile(r"(?im)^[\W_]*(?:for |in |at )?stage\s+(\d)\b\s*[:\-\u2013\u2014).,]*")


def for_stage(text: str, stage: int) -> str | None:
    """Advice given stage by stage ("Stage 1: press ...\nStage 2: press ..."): the part for `stage` (all of `text`
    when no line starts with a stage; None when the lines name other stages only)."""
    marks = list(_STAGE_MARK.finditer(text))
    if not marks:
        return text
    ends = [m.start() for m in marks[1:]] + [len(text)]
    parts = {int(m.group(1)): text[m.end():end] for m, end in zip(marks, ends, strict=True)}
    return text[:marks[0].start()] + parts[stage] if stage in parts else None


_CORNERS = ("top left", "top right", "bottom right", "bottom left")
_AROUND = re.compile(r"\b(?:go(?:ing)?\s+(?:round\s+|around\s+)?|in\s+(?:a\s+)?)?(counter-?\s?|anti-?\s?)?clockwise"
                     r"(?:\s+order)?,?\s+(?:starting\s+|beginning\s+|start\s+)?(?:at|from|with)\s+the\s+"
                     r"(top|bottom|upper|lower)[\s-](left|right)(?:\s+(?:one|key|button|corner|square))?",
                     re.IGNORECASE)
_ONCE = re.compile(r"\b(?:window|position|wire|row|column|key|button|square|slot|number)[ \t]*(?P<first>\d)\b"
                   r"(?P<more>(?:[ \t]*(?:,|->)?[ \t]*(?:and[ \t]+)?(?:then[ \t]+)?\d\b"
                   r"(?![\d:]|\.\d|\s*(?:times|x\b|mm|seconds?|st|nd|rd|th)))+)", re.IGNORECASE)


def said_once(text: str) -> str:
    """A sequence given with its verb once, written out step by step: "press up on window 5, then 4, then 3"
    as "press up on window 5, then press up on window 4, ..."; "go clockwise starting at the top left" as the
    four corners in that order."""
    def around(match: re.Match[str]) -> str:
        start = _CORNERS.index(f"{'top' if match.group(2).lower() in ('top', 'upper') else 'bottom'} "
                               f"{match.group(3).lower()}")
        order = _CORNERS[start:] + _CORNERS[:start] if not match.group(1) else \
            tuple(reversed(_CORNERS[:start + 1])) + tuple(reversed(_CORNERS[start + 1:]))
        return "press the " + ", then the ".join(order)

    text = _AROUND.sub(around, text)
    out, position = [], 0
    for match in _ONCE.finditer(text):  # the step said first runs from its clause's start to the noun's number
        start = max(text.rfind(mark, 0, match.start()) for mark in ",.;:\n") + 1
        head = re.sub(r"^(?:and\s+)?then\s+", "", text[max(start, position):match.start("first")].strip(), flags=re.I)
        out.append(text[position:match.end("first")] + "".join(f", then {head} {n}"
                                                                for n in re.findall(r"\d", match.group("more"))))
        position = match.end()
    return "".join(out) + text[position:]


_NAMED = re.compile(r"\b(?:read|see|find|make out) (?:the|its) (?!one|other|rest|top|bottom|mid|\w+[tdh]\b)\w{4}", re.I)
CONDITIONS = r"\b(?:if|unless|otherwise|else|in case|provided)\b"
"""A condition in advice ("if ..., otherwise ..."), checked like a hedge by a reader that does not evaluate it."""


def doubted(text: str, vague: bool = False, also: str = "") -> list[str]:
    """The clauses of `text` that hedge (with `vague`, leave a count or target open; `also`, match it), with
    the clauses before a short one: the partner re-reads the message without each."""
    alternatives = [HEDGES.pattern, *([VAGUE.pattern] if vague else []), *([also] if also else [])]
    pattern = re.compile("|".join(alternatives), re.IGNORECASE)
    clauses: list[str] = []
    lines: list[int] = []  # the line of each clause
    for n, line in enumerate(layout(strip_thinking(text[:MAX_CHARS])).splitlines()):
        parts = [c for c in re.split(r"[.!?;,:()]+\s*|\s+and\s+|\s+[-–—]+\s+", line) if c.strip()]
        clauses += parts
        lines += [n] * len(parts)
    found = []
    for i, clause in enumerate(clauses):
        if pattern.search(clause):
            start = i
            if len(clause.split()) <= 4 and not _NAMED.search(clause):  # short, naming nothing: from its line's start
                start = max(i - 2, 0)
                while start > i - 3 and start and lines[start - 1] == lines[i]:
                    start -= 1
            elif re.match(r"\s*or\b", clause, re.IGNORECASE):  # "1, or possibly a 4": both go
                start = max(i - 1, 0)
            found.append("\n".join(clauses[start:i + 1]))
    return found


_INTERJECTION = re.compile(r"^(?:(?:[Rr]ight|[Aa]lright|[Aa]ll right|[Oo]k(?:ay)?|[Gg]ood|[Gg]reat|[Nn]ice|[Cc]ool|"
                           r"[Gg]ot it|[Tt]hanks?|[Tt]hank you|[Ss]ure|[Yy]ep|[Pp]erfect|[Hh]mm+|[Uu]m+|[Oo]oh?|"
                           r"[Ww]ell|[Ss]o)(?![A-Za-z])(?![\s-]*(?:column|side|hand|one|button|key|corner)\b)[\s,.!:-]*)+")


def sentences(text: str) -> list[str]:
    """`text` cut at line breaks and sentence ends, in order, each without a leading interjection
    ("Right, press ..."; "RIGHT" in capitals may be a label)."""
    parts: list[str] = []
    for line in text.splitlines():
        parts += [_INTERJECTION.sub("", p.strip())
                  for p in re.split(r"(?<=[a-z0-9)\]\"'])[.!?;]+(?=\s|$)", line, flags=re.IGNORECASE)]
    return [p for p in parts if p]
