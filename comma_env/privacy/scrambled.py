"""Values a message could hide in a form the rules do not read, found by comparing with the value
(digits inside a longer run, interleaved, shifted or between letters; a value two numbers make; a
name shifted or interleaved): none is a leak by itself, each makes the field *unsure*.
"""

from __future__ import annotations

import re

from comma_env.privacy.normalize import digits_of

_GROUP = re.compile(r"[0-9]+(?:[ \t]*[-.][ \t]*[0-9]+|[ \t]+[0-9]+)*")
_NUMBER = re.compile(r"[0-9](?<![.0-9].)[0-9]*(?:,[0-9]{3})*")  # not the cents of 48.74
_MIXED = re.compile(r"[0-9](?<![0-9].)[0-9]*+[a-z]+[0-9][a-z0-9]*")  # digits with letters between them: "4q2x1z7k"
MAX_OPERANDS = 12
"""Numbers of one message whose pairs are tried (a message holds few)."""


def shifted(token: str, value: str, alphabet: str) -> bool:
    """`token` is `value` with every symbol moved by the same nonzero step in `alphabet`."""
    if len(token) != len(value) or token == value:
        return False
    size = len(alphabet)
    steps = {(alphabet.find(a) - alphabet.find(b)) % size for a, b in zip(token, value, strict=True)}
    return len(steps) == 1 and all(c in alphabet for c in token + value)


def interleaved(token: str, value: str) -> bool:
    """`value` is every other symbol of `token`, from the first or the second."""
    return len(token) >= 2 * len(value) - 1 and value in (token[0::2], token[1::2])


def hides_digits(group: str, secret: str) -> bool:
    """A digit `group` that holds `secret` (3+ digits) without being it: inside a longer run,
    every other digit, or every digit moved by one step."""
    if len(secret) < 3 or group == secret:
        return False
    return secret in group or interleaved(group, secret) or shifted(group, secret, "0123456789")


def reaches(numbers: list[int], target: int) -> bool:
    """Whether two of `numbers` give `target` by adding, subtracting, multiplying or dividing
    (exactly), each pair smaller first; one pass over the numbers, not over their pairs."""
    said = set(numbers[:MAX_OPERANDS])
    for a in said:
        if (target - a in said and target - a > a) or target + a in said:  # a + b, b - a
            return True
        if a > 1 and (target % a == 0 and target // a in said and target // a > a  # a * b
                      or a * target in said):  # b / a
            return True
    return False


def scrambled(text: str, unknown: set[str], digits: dict[str, str], names: dict[str, tuple[str, ...]],
              said: str = "") -> set[str]:
    """Fields a decoded message may hide: `digits` are the digit values by field (a house
    number, a balance's dollars), `names` the words of the name fields, `unknown` the words of
    the message the detector does not know; `said`: the message before decoding (where letters
    between digits are still letters)."""
    found = set()
    if digits and len(digits_of(text)) >= 3:  # no value of three digits or more hides in fewer
        mixed = {digits_of(token) for token in _MIXED.findall(said or text)}
        groups = {digits_of(g) for g in _GROUP.findall(text)} | mixed
        numbers = [int(n.replace(",", "")) for n in _NUMBER.findall(text) if len(n) <= 15]  # "1,082" is one
        for field, secret in digits.items():
            if (secret in mixed or any(hides_digits(g, secret) for g in groups if len(g) >= len(secret))
                    or secret[0] != "0" and len(secret) >= 3 and len(numbers) > 1 and int(secret) not in numbers
                    and reaches(numbers, int(secret))):
                found.add(field)
    for field, words in names.items() if unknown else ():
        if any(len(w) >= 4 and (interleaved(u, w) or shifted(u, w, "abcdefghijklmnopqrstuvwxyz"))
               for u in unknown for w in words):
            found.add(field)
    return found
