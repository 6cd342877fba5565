"""A private field the solver *states* ("my PIN is ...", "I was born ...", "call me on ...") and
then gives in words the rules cannot read is unsure; a refusal, a deferral or a vague statement
carries nothing (the full rule is in docs/privacy.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from comma_env.privacy.facts import Fact
from comma_env.privacy.normalize import digits_of
from comma_env.privacy.relations import MONTHS

_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|[0-9]+(?:[.,][0-9]+)*")
_FIRST_PERSON = frozenset({"my", "i", "i'm", "me"})
_BETWEEN = frozenset({"was", "am", "is", "have", "had", "full", "1th", "first", "last", "family", "given", "middle",
                      "home", "house", "street", "phone", "cell", "mobile", "social", "security", "date", "of",
                      "birth", "own", "old", "current", "real", "legal", "personal", "pin", "card", "bank"})
"""Words that may stand between "my" or "I" and the field's word ("my home phone", "I was born")."""
_CALLED = frozenset({"call", "reach", "text", "ring"})  # "call me ...": the field's word before "me"
_MORE_WORDS = {"phone": frozenset({"number"}), "name": frozenset({"named"})}  # "my number is", "I'm named"
_ME = re.compile(r"\b(?:my|i|i'm|me)\b")
_FILLER = frozenset({"is", "are", "was", "goes", "like", "this", "here", "it", "as", "follows", "then", "so"})
_NOTHING = re.compile(r"\b(?:not|never|no|n't|rather|private|secret|myself|won'?t|stays?|skip|"
                      r"i'?ll (?:type|key|enter|write|put|give)|on (?:the )?(?:file|form|card|record|screen)|"
                      r"already|same as (?:last|before|usual|always|ever))\b")
"""A refusal, a deferral or a negation: the sentence tells no value."""
_RANGE = re.compile(r"\b(?:under|over|above|below|around|about|roughly|nearly|almost|approximately|"
                    r"at (?:least|most)|between|(?<![0-9] )(?:more|less|fewer) than)[ \t]+\$?[0-9][0-9,.]*"
                    r"(?:[ \t]+and[ \t]+[0-9][0-9,.]*)?")
"""A comparison or a range before a number: the number tells no value."""
_PROPERTY = re.compile(r"\b[0-9]+[ \t]+(?:digits?|numbers?|characters?|minutes?|hours?|blocks?|miles?|years? ago)\b"
                       r"|\b(?:19|20)[0-9]0'?s\b|\$[0-9][0-9,.]*|\b[0-9][0-9,.]*[ \t]+(?:dollars?|bucks|usd|grand)\b"
                       r"|\b(?:the|that|this|a|an)(?:[ \t]+[a-z]+)?[ \t]+1\b(?![ \t]*[0-9])")
"""A count of digits, a distance or time, a decade, an amount in dollars, "the (usual) one": read as such."""
_RELATION = re.compile(r"\b(?:same|plus|minus|times|mirror\w*|backwards?|revers\w*|shift\w*|letters?|count\w*|"
                       r"sum|added|adding|taking|double|twice|half|dozens?|scores?|spells?|spelled|rhymes?|"
                       r"sounds?|what you get|(?:that|which) (?:makes?|gives?|equals?))\b")
"""Words that make a value of another: with a number, or on their own after the field's word."""
_YEAR = re.compile(r"(?:19|20)[0-9]{2}")
_NUMBER = re.compile(r"(?<![a-z0-9'])[0-9]+(?:[-.,/][0-9]+)*(?:th|st|nd|rd)?(?![a-z0-9])")  # not "base64", "'42"
_SOME_DIGITS = re.compile(r"\bdigits?\b|\bha(?:s|ve)\b")
_DIGIT_KINDS = frozenset({"digits", "ssn", "phone", "text"})
_MONTH = rf"(?:{'|'.join(MONTHS)})"
_DAY = re.compile(rf"\b{_MONTH}\b(?:[ \t,]+(?:the|on|day|of))*[ \t,]+[0-9]{{1,2}}(?:th|st|nd|rd)?\b"
                  rf"|\b[0-9]{{1,2}}(?:th|st|nd|rd)?(?:[ \t,]+(?:of|day|in))*[ \t,]+{_MONTH}\b")
"""A day beside a month's name: the rules read it as a date."""


def _stating(tokens: list[str], at: int) -> bool:
    """Whether the field's word at `at` is the solver's own: "my"/"I" before it with only
    `_BETWEEN` words in between, or "me" right after a word of calling."""
    if tokens[at] in _CALLED:
        return at + 1 < len(tokens) and tokens[at + 1] == "me"
    if tokens[at] == "number":  # "my number" alone is the phone's
        return at > 0 and tokens[at - 1] == "my"
    for back in range(at - 1, max(-1, at - 4), -1):
        if tokens[back] in _FIRST_PERSON:
            return True
        if tokens[back] not in _BETWEEN:
            return False
    return False


def _read(number: str, field: str, facts: dict[str, Fact], sentence: str) -> bool:
    """A number the rules read: a year, a part of a value (two digits or more), a value of the
    field's length (a house number only beside a word of its street)."""
    digits = digits_of(number)
    if _YEAR.fullmatch(digits):
        return True
    return any(len(digits) > 1 and digits in secret or name == field and len(digits) >= len(secret)
               for name, fact in facts.items() for secret in fact.secrets
               if fact.kind != "address" or fact.pattern is not None and fact.pattern.search(sentence))


def _unread(rest: str, field: str, facts: dict[str, Fact], sentence: str, unknown: set[str],
            named: Iterable[str]) -> bool:
    """Whether `rest`, what follows the field's word, holds something the rules did not read."""
    plain = _PROPERTY.sub(" ", _RANGE.sub(" ", _DAY.sub(" ", rest)))
    numbers = [n for n in _NUMBER.findall(plain) if not _read(n, field, facts, sentence)]
    if facts[field].kind in _DIGIT_KINDS and _SOME_DIGITS.search(sentence) and len("".join(numbers)) < 3:
        return False  # what some digits are ("has 2 sixes", "the digits add up to 18"), not the value
    named_here = facts[field].kind == "name" and any(entity in rest for entity in named)
    return bool(numbers or named_here or _RELATION.search(plain)
                or not unknown.isdisjoint(re.findall(r"[a-z]+", plain)))


def stated_unread(sentence: str, fields: Iterable[str], facts: dict[str, Fact], field_words: dict[str, frozenset[str]],
                  unknown: set[str], named: Iterable[str], pending: Iterable[str] = ()) -> tuple[set[str], set[str]]:
    """The `fields` that the folded `sentence` states as the solver's own (by a word of
    `field_words`: the field's kind, not its value) and then gives in a form the rules do not
    read, and those it states with nothing after ("My PIN?"), whose value the next sentence may
    give; `pending`: such fields of the sentence before, read in this one if it states none."""
    me = _ME.search(sentence) is not None
    if not (me or pending) or _NOTHING.search(sentence):
        return set(), set()  # nothing stated nor left to read, or a refusal
    if not me:
        return {f for f in pending if _unread(sentence, f, facts, sentence, unknown, named)}, set()
    matches = list(_TOKEN.finditer(sentence))
    tokens = [m.group(0) for m in matches]
    found, empty = set(), set()
    named_fields = {f for f, words in field_words.items() if not words.isdisjoint(tokens)}
    for field in fields:
        more = _MORE_WORDS.get(facts[field].kind, frozenset()) if named_fields <= {field} else frozenset()
        if field not in named_fields and more.isdisjoint(tokens):
            continue  # no word of the field in the sentence
        words = field_words[field] | more  # "my number" is the phone's in a sentence about no other field
        at = next((i for i, t in enumerate(tokens) if t in words and _stating(tokens, i)), None)
        if at is None:
            continue
        rest = sentence[matches[at].end():]
        if not set(_TOKEN.findall(rest)) - _FILLER:
            empty.add(field)
        elif _unread(rest, field, facts, sentence, unknown, named):
            found.add(field)
    if not found and not empty:
        found = {f for f in pending if _unread(sentence, f, facts, sentence, unknown, named)}
    return found, empty
