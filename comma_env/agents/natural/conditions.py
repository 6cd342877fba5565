"""Conditional advice settled on what the solver sees: "if <condition>, do A; otherwise B" (or "A if C, B if not",
"C -> A, else B", "blue: A; yellow: B; any other: C") becomes the branch that holds, evaluated on the solver's own
state (a count of things of a kind, a quantity compared with a number, a property, a yes/no finding)."""

from __future__ import annotations

import re
from typing import Any

from comma_env.agents.natural.colours import OTHER, SYNONYMS
from comma_env.agents.natural.reading import spelled_numbers

LATER = "later"
"""A condition on a fact the solver will see but does not yet (the ATM balance before logging in, the strip of a
button not yet held)."""

_ELSE = re.compile(r"^\W*(?:otherwise|else|if not|if neither|if no|if it(?:'s| is)?(?:n't| not)|for any other \w+|"
                   r"any other(?: \w+)?|anything else|in (?:any|all) other cases?|less|smaller|fewer)\b[\s,:>-]*",
                   re.IGNORECASE)
_IF = re.compile(r"^\W*(?:then\W*)?(?:if|when the (?!timer|clock)|in case)\b\s*", re.IGNORECASE)
_TRAIL = re.compile(r"(?<!\btell me)(?<!\bknow)(?<!\bask)\s+if\s+(?!you\b)(.+)$|"
                    r"\s+(?:otherwise|if not|if neither|else)\W*$", re.IGNORECASE)
AT_LEAST = r"(?:(?<=\d or more)|(?<=\d or less)|(?<=\d\+))"
"""The end of a comparison said before its step with no comma ("if it's $500 or more pick $300", "if 500+ tap 300")."""
_ARROW = re.compile(r"\s*(?:->|=>|:|\bgets?\b|\bmeans?\b)\s*")
_VERB = re.compile(r"\b(?:press|push|hit|tap|click|cut|snip|hold|release|let go|turn|go|move|walk|select|choose|pick|"
                   r"enter|type|key|submit|cycle|spin|diagnose|record|treat|give|wait|confirm|continue|back|withdraw|"
                   r"deposit|take|put)\b", re.IGNORECASE)
_SUBJECT = re.compile(r"\s*\b(?:you(?:'ll|'d|\s+(?:will|would|should|can|must|need to))?|then|just)\s*$", re.I)
"""Who does the step, said between a condition and its verb without a comma ("if it's $500 or more you'll ...")."""
_MORE, _LESS = "more|bigger|larger|greater|higher|older|over|above", "less|fewer|smaller|younger|under|below"
"""Words after "or" that make a number a bound ("500 or more", "50 or younger"), not a second choice."""
_CMP = [(">=", rf"at least|or (?:{_MORE})|and (?:up|over|above)"),
        ("<=", rf"at most|or (?:{_LESS})|no more than"),
        (">", r"more than|greater than|bigger than|larger than|higher than|older than|over|above|exceeds?"),
        ("<", r"less than|fewer than|smaller than|lower than|younger than|under|below"), ("==", r"")]
_SYMBOLS = {">=": "at least", "≥": "at least", "<=": "at most", "≤": "at most", ">": "more than", "<": "less than"}
_NUMBER = re.compile(r"\$?\d[\d,]*(?:\.\d+)?")
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "zero": 0, "no": 0, "a": 1, "an": 1, "single": 1}
_END = {"first": 0, "leftmost": 0, "top": 0, "topmost": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4,
        "sixth": 5, "last": -1, "rightmost": -1, "bottom": -1, "bottommost": -1}
_QUIET = frozenset("the a an is are was be it its it's there you your see have has if any of in on at to and with that "
                   "this shows show says say reads read displays display number digit than more less or exactly only "
                   "count lesion patient spot position place one s blank empty nothing card screen module chart "
                   "picture park grid lit dollars dollar bucks ends ending ur just comes come turns turned out up "
                   "really anywhere they he she".split())
"""Words a condition may have besides what names a fact, its value and the comparison."""
_COLOURS = frozenset({"red", "blue", "green", "yellow", "white", "black", "magenta", *OTHER, *SYNONYMS})
_PIECES = re.compile(r"[;\n]+|(?<=[a-z0-9)\"'])[.!?]+(?:\s+(?=(?-i:[^a-z]))|$)|"
                     r",\s*(?=(?:otherwise|else|if\b|but if|and if|then\W*if\b))|:\s*(?=if\b)|"
                     r"\s[-–—]+\s*(?=(?:otherwise|else|if\b|but if))", re.IGNORECASE)
"""Where one branch of conditional advice ends: a sentence, a comma or dash before "otherwise" or another "if" (a
dash not before "and if": "..., the timer has to end in 0 — and if it does, submit"), a colon
before "if" ("Check the serial: if it ends in an even digit, ...")."""
_OR = re.compile(rf"\s+(?:or|nor)\s+(?!(?:{_MORE}|{_LESS}|so)\b)|\s*,\s*")


_ALIASES = {"diameter": ("across", "wide", "size", "big", "bigger", "large", "larger"),
            "age": ("old", "older", "younger", "years", "aged"), "grew": ("grown", "grow", "grows", "growing"),
            "elevation": ("raised", "elevated"), "itch": ("itchy", "itches", "itching"),
            "bleed": ("bleeds", "bleeding"), "changed": ("change", "changing")}
"""Words naming a fact of the state besides its key's own (Telehealth's card: "if it's raised", "if it has grown")."""


def _things(state: dict[str, Any]) -> list[tuple[set[str], Any]]:
    """The state's facts as (the words that name it, its value); a list of names also by its item's noun ("wires")."""
    out = []
    for key, value in state.items():
        words = set(key.lower().split("_")) - {"to", "by", "of", "top", "bottom", "left", "right"}
        words |= {alias for word in words for alias in _ALIASES.get(word, ())}
        if isinstance(value, list) and value and isinstance(value[0], list):
            value = [x for row in value for x in row]
        if isinstance(value, list) and value and not isinstance(value[0], (str, dict)):
            continue  # numbers (places in a picture, labels of Memory) are no things to count
        out.append((words, value))
        if isinstance(value, dict):  # "the middle right button says WHAT?": one entry, by its key and the fact's name
            out += [(words | set(str(k).lower().split("_")), v) for k, v in value.items() if isinstance(v, str)]
        if isinstance(value, list) and value:
            noun = key.split("_")[0].rstrip("s")
            out.append(({noun, noun + "s", "lights", "light"} if noun == "led" else {noun, noun + "s"}, value))
    return out


def _number(text: str) -> float | None:
    """The first number in `text` ("$500", "5 mm", "three")."""
    found = _NUMBER.search(text)
    if found:
        return float(found.group(0).strip("$").replace(",", ""))
    word = next((w for w in re.findall(r"[a-z]+", text.lower()) if w in _WORDS), None)
    return float(_WORDS[word]) if word else None


def _compare(have: float, cond: str, want: float) -> bool:
    """`have` compared with `want` the way `cond` says ("at least", "fewer than"; equal when it says none)."""
    op = next(op for op, words in _CMP if not words or re.search(rf"\b(?:{words})\b", cond, re.IGNORECASE))
    return {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want, "==": have == want}[op]


def _matches(value: Any, words: list[str]) -> bool:
    """Whether a value is what `words` say it is ("blue", "blank", "a dog barking")."""
    if words and words[0] in ("blank", "empty", "nothing"):
        return value in (None, "", [])
    if isinstance(value, dict):
        return any(_matches(v, words) for v in value.values())
    text = str(value).lower()
    return bool(words) and all(re.search(rf"\b{re.escape(w[:5])}", text) for w in words)


def _names(word: str, nouns: set[str]) -> bool:
    """Whether `word` names the fact `nouns` name ("itches": itch; "blue": a colour)."""
    return word in nouns or any(len(n) > 3 and word.startswith(n) for n in nouns) or \
        (word in _COLOURS and bool(nouns & {"color", "colors", "colour"}))


_QUOTED = re.compile(r"\"([^\"]*)\"|“([^”]*)”|(?<!\w)'([^']*)'(?!\w)")
_CAPITALS = re.compile(r"(?<!\w)(?!I\b)[A-Z][A-Z'?]*(?![a-z'])(?:\s+(?!I\b)[A-Z][A-Z'?]*(?![a-z']))*")


def _printed(condition: str) -> str | None:
    """The text a condition quotes (`says "THEY'RE"`), else its last run of capitals (`says HOLD ON`): what a
    display or a label must show for it to hold."""
    quoted = _QUOTED.search(condition)
    if quoted:
        return next(g for g in quoted.groups() if g is not None)
    capitals = _CAPITALS.findall(condition)
    return capitals[-1].strip("'") if capitals else None


def holds(condition: str, state: dict[str, Any]) -> bool | str | None:
    """Whether `condition` holds on `state`; `LATER` when it is about a fact not shown yet; None when it names
    something the solver does not have (every word of it must be accounted for)."""
    cond = re.sub(r"(\d)\s*\+", r"\1 or more", spelled_numbers(condition.lower().strip(" ,.:;'\"")))  # "500+"
    cond = re.sub(r"\s*(>=|≥|<=|≤|(?<![-=])>|<)\s*", lambda m: f" {_SYMBOLS[m.group(1)]} ", cond)  # "balance >= 500"
    negative = bool(re.search(r"\b(?:not|isn'?t|aren'?t|doesn'?t|don'?t|neither|nor|no longer)\b", cond))
    parts = _OR.split(re.sub(r"\bneither\b|\b(?:is|are)(?:n'?t| not)\b|\b(?:does|do)(?:n'?t| not)\b", " ", cond))
    if len(parts) > 1:
        found = [holds(p, state) for p in parts]
        if None in found or LATER in found:
            return None if None in found else LATER
        return any(found) != negative
    cond = re.sub(r"\b(?:not|no longer)\b", " ", cond)
    words = re.findall(r"[a-z0-9$.]+", cond.replace("'", " "))
    number = _number(cond)
    values = [w for w in words if not w[0].isdigit() and not w.startswith("$")]
    things = _things(state)
    comparing = [w for op, ws in _CMP if ws for w in re.findall(rf"\b(?:{ws})\b", cond)]
    spare = {w for c in comparing for w in c.split()} | _QUIET | set(_WORDS) | {"odd", "even", "mm"}

    shown = _printed(condition)  # a label or display text it may or may not show
    shown_words = set(re.findall(r"[a-z0-9$.]+", (shown or "").lower().replace("'", " ")))
    printed = {w.lower() for w in re.findall(r"\b[A-Z][A-Z']+\b", condition)} | shown_words

    def unexplained(nouns: set[str], value: Any) -> bool:
        return any(w not in spare | printed and not _names(w, nouns) and not _matches(value, [w]) and w not in _END
                   and w not in _COLOURS
                   and not w[0].isdigit() and not w.startswith("$") for w in values)
    unit = "$" if re.search(r"\$|\d\s*(?:dollars?|bucks)\b", cond) else "mm" if re.search(r"\d\s*mm\b", cond) else None
    counted = [(nouns, v) for nouns, v in things if isinstance(v, list) and nouns & set(words)]
    if counted and not unit:  # "3 mm" is a size, not a count
        nouns, items = counted[-1]
        end = next((_END[w] for w in words if w in _END), None)
        kinds = [w for w in values if w not in spare and not _names(w, nouns) and w not in _END]
        if number is None and end is None:  # "the lesion has any brown in it": one of the list is
            if kinds and not unexplained(nouns, items):
                return any(_matches(x, kinds) for x in items) != negative
        elif unexplained(nouns, items):
            return None
        elif end is None and number is not None:  # "more than 3 blue squares", "exactly two red LEDs"
            have = sum(1 for x in items if _matches(x, kinds)) if kinds else len(items)
            if number == 1 and not re.search(r"\b(?:one|1|single|exactly|only|just)\b", cond):
                return (have >= 1) != negative  # "there is a black wire": one or more
            return _compare(have, cond, number) != negative
        elif end is not None:  # "the first LED is red", "the bottom wire is black"
            return _matches(items[end], kinds) != negative if end < len(items) else None
    weight = {w: sum(_names(w, n) for n, _ in things) for w in words}
    scored = sorted(((sum(1 / weight[w] for w in words if _names(w, n)) + 3 * (unit == "mm" and "mm" in n)
                      + 3 * (unit == "$" and str(v).startswith("$")) + 0.5 * any(_matches(v, [w]) for w in values
                                                                                  if w not in spare), i, n, v)
                     for i, (n, v) in enumerate(things) if not isinstance(v, list)), key=lambda t: t[:2], reverse=True)
    if not scored or scored[0][0] == 0 or unexplained(scored[0][2], scored[0][3]):
        return None
    _, _, nouns, value = scored[0]
    if value in (None, "off"):  # the ATM balance before logging in, the Button's strip before it is held
        return LATER
    rest = [w for w in values if w not in spare and not _names(w, nouns)]
    rest += [w for w in values if w in _COLOURS and w not in rest]
    printed_value = isinstance(value, str) and (value.isupper() or not value)  # as Who's display: "NO", "SAYS", ""
    if printed_value and shown is not None and set(rest) <= shown_words:
        return (value == " ".join(shown.upper().split())) != negative
    if isinstance(value, bool) or value in ("yes", "no"):  # "it itches", "bleeding" (a finding, not a printed word)
        return (value is True or value == "yes") != negative
    if re.search(r"\b(?:odd|even)\b", cond):
        digits = re.findall(r"\d", str(value))
        return bool(digits) and ((int(digits[-1]) % 2 == 1) == ("odd" in cond)) != negative
    if number is not None and re.fullmatch(r"\$?[\d,]+(?:\.\d+)?", str(value)):
        return _compare(float(str(value).strip("$").replace(",", "")), cond, number) != negative
    if isinstance(value, str) and shown is not None and _QUOTED.search(condition):  # 'the sound is "a siren"'
        return (value.lower() == shown.lower()) != negative
    return _matches(value, rest or [w for w in words if w in ("blank", "empty", "nothing")]) != negative


def _branches(text: str, state: dict[str, Any]) -> list[tuple[str | None, str]]:
    """The (condition, step) pieces of `text` in order: "" for plain advice, None for "otherwise"; "blue: A" is a
    condition only beside another one, and one on the timer is left to the reader (it says when, not whether)."""
    out: list[tuple[str | None, str]] = []
    tentative: set[int] = set()
    for piece in _PIECES.split(text):
        piece = piece.strip(" ,")
        trail = _TRAIL.search(piece)
        if not piece:
            continue
        if _ELSE.match(piece) and out and out[-1][0] != "":
            out.append((None, _ELSE.sub("", piece, count=1)))
        elif _IF.match(piece):
            body = _IF.sub("", piece, count=1)
            cut = re.search(rf",\s*|\s+then\s+|\s*(?:->|=>|:)\s*|{AT_LEAST}\s+(?=[a-z])", body)
            verb = None if cut else _VERB.search(body)
            test = _SUBJECT.sub("", body[:verb.start()]) if verb else body  # "if ... $500 you'll withdraw $300"
            out.append((body[:cut.start()], body[cut.end():]) if cut else (test, body[verb.start():]) if verb else
                       (body, ""))
        elif trail:
            for part in re.split(r",\s*", piece):
                end = _TRAIL.search(part)
                out.append((end.group(1) if end.group(1) else None, part[:end.start()]) if end else ("", part))
        else:
            after = bool(out) and out[-1][0] != ""
            parts = [piece] if after and piece.count(",") == 1 else re.split(r",\s*", piece)
            found = [_arrow(part, state, after and len(parts) == 1) for part in parts]
            if not any(found):
                out.append(("", piece))
                continue
            for part, branch in zip(parts, found, strict=True):
                if branch and branch[0]:
                    out.append(("", branch[0]))
                if branch:
                    tentative.add(len(out))
                out.append(branch[1:] if branch else ("", part))
    for i, (cond, _) in enumerate(out):
        if cond and re.search(r"\b(?:timer|clock|seconds?)\b", cond, re.IGNORECASE):
            out[i] = ("", _text_of(out[i]))
    for i in tentative:  # a lone "Code: 1234" is no condition
        if not any(0 <= j < len(out) and (j in tentative or out[j][0] != "") for j in (i - 1, i + 1)):
            out[i] = ("", _text_of(out[i]))
    return out


def _arrow(part: str, state: dict[str, Any], comma: bool) -> tuple[str, str | None, str] | None:
    """A branch said as "C -> A", "C: A", "C gets A" (or, after another branch, "C, A"), when C is a condition: what
    comes before C ("Diagnose SEK, then treat: C -> A"), C and A."""
    arrows = [*re.finditer(r"\s*(?:->|=>)\s*", part), *_ARROW.finditer(part),
              *(re.finditer(r",\s*", part) if comma else [])]
    for arrow in arrows[:3]:  # the condition comes first: a long run of colons is no rule
        *before, head = re.split(r"(?<=[:,])\s*", part[:arrow.start()]) if not comma else [part[:arrow.start()]]
        if isinstance(holds(head, state), bool) or _OTHER.fullmatch(head):  # "anything smaller means B": otherwise
            return " ".join(before).rstrip(":, "), None if _OTHER.fullmatch(head) else head, part[arrow.end():]
    return None


_OTHER = re.compile(r"\W*(?:otherwise|else|anything (?:else|smaller|less|lower|under|below|bigger|larger|more|over|"
                    r"above)|(?:smaller|less|lower|bigger|larger|more) than that)\W*", re.IGNORECASE)


def _text_of(branch: tuple[str | None, str]) -> str:
    """A branch as it was said."""
    return f"{branch[0]}: {branch[1]}" if branch[0] else branch[1]


def _filled(step: str, first: str) -> str:
    """A branch said short ("yellow: on a 5") in the words of the first branch ("release on a 4")."""
    verb = _VERB.search(first)
    if _VERB.search(step) or not verb or not step.split():
        return step
    same = re.search(rf"\b{re.escape(step.split()[0])}\b", first[verb.end():])
    return first[:verb.end() + same.start()] + step if same else f"{verb.group(0)} {step}"


def _about(test: str, first: str | None) -> str:
    """A later branch's condition in the words of the first's subject: "if it's blue" or "yellow" after "if the
    strip is white" are about the strip."""
    subject = re.split(r"\s+\b(?:is|are|has|have|shows?|says?|reads?)\b|'s\b", str(first))[0]
    if re.match(r"\W*(?:it|they|that|this)\b", test):
        return re.sub(r"^\W*(?:it|they|that|this)\b", subject, test.strip())
    return f"{subject} is {test}" if len(test.split()) <= 2 and subject != first else test


def _antecedent(test: str, before: list[str], state: dict[str, Any]) -> str:
    """A first condition's "it" in the words of the step before that name a fact ("Look at the serial number. If its
    last digit is odd")."""
    things = _things(state)
    named = [w for w in re.findall(r"[a-z]+", before[-1].lower() if before else "")
             if w not in _QUIET and any(_names(w, n) for n, _ in things)]
    return re.sub(r"^\W*it(?:'?s)?\b", " ".join(named), test.strip(), flags=re.IGNORECASE) if named else test


def settle(text: str, state: dict[str, Any]) -> tuple[str, str | None]:
    """`text` with each run of conditional advice replaced by the branch that holds on `state` (or by nothing when
    none does, or when it is on a fact not shown yet), and a question instead when a condition names something the
    solver does not have and the advice has another branch."""
    branches = _branches(text, state)
    if all(c in ("", None) for c, _ in branches):
        return text, None
    kept: list[str] = []
    group: list[tuple[str | None, str]] = []
    for cond, step in [*branches, ("", "")]:
        if cond != "":
            group.append((cond, step))
            continue
        if group:
            chosen = None
            first = _antecedent(str(group[0][0]), kept, state)
            for test, then in group:
                verdict = True if test is None else holds(first if test == group[0][0] else _about(test, first), state)
                if verdict == LATER:  # nothing to do yet: the reader acts on the rest
                    break
                if verdict is None and len(group) == 1:
                    return text, None
                if verdict is None:
                    return text, f'I can\'t tell from what I see whether "{str(test).strip()}". What should I do?'
                if verdict:
                    chosen = _filled(then, group[0][1])
                    if test and re.search(r"\b(?:it|them)\b", chosen, re.IGNORECASE):  # "if the bottom wire is
                        chosen = f"{test}{'' if test.endswith('?') else '.'} {chosen}"  # yellow, cut it": "it" is
                        # what the condition names
                    break
            kept += [chosen] if chosen else []
            group = []
        kept.append(step)
    return ". ".join(s for s in kept if s.strip()), None
