"""The natural-language oracle solver's description of what it sees, and the expert's reading
of it.

The solver writes one sentence per visible field in a seeded, varied form ("The serial
number is "E38IK8".", "As for the wire colors top to bottom, they are "blue", "red" and
"black".") in a shuffled order, after a varied opening line. Values follow one small
grammar a careful reader can parse back exactly: strings in double quotes, numbers, yes/no,
"nothing" (no value), "none" (an empty list), lists as "a, b and c" ("only a" for one item),
lists inside lists in parentheses, and mappings as "top left is "READY", ... and ...".
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from comma_env.agents.natural.words import choose

OPENINGS = (
    "Here is what I see.",
    "Okay, let me describe the puzzle.",
    "This is what is in front of me.",
    "Let me tell you what the module looks like.",
    "Right, here's the situation.",
)
CLOSINGS = ("", "What should I do?", "What do you make of it?", "Tell me what to do next.", "Any idea?")
_SENTENCES = (
    "The {key} {verb} {value}.",
    "{Key}: {value}.",
    "I can see the {key}, which {verb} {value}.",
    "As for the {key}, {pronoun} {verb} {value}.",
    "Looking at the {key}, I'd say {value}.",
)
_KEY = r"(?P<key>[a-z0-9][a-z0-9 ]*?)"
_PATTERNS = tuple(
    re.compile("^" + re.escape(template).replace(r"\{key\}", _KEY).replace(r"\{Key\}", _KEY)
               .replace(r"\{verb\}", "(?:is|are)").replace(r"\{pronoun\}", "(?:it|they)")
               .replace(r"\{value\}", "(?P<value>.+)") + "$", re.IGNORECASE)
    for template in _SENTENCES
)
_DICT_ITEM = re.compile(r'^("(?:[^"\\]|\\.)*"|[a-z][a-z0-9 ]*?) is (.+)$', re.DOTALL)
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


# -- writing -------------------------------------------------------------------------------
def describe(state: dict[str, Any], rng: np.random.Generator) -> str:
    """A varied prose description of `state` (one sentence per field, shuffled)."""
    lines = [choose(rng, OPENINGS)]
    keys = list(state)
    for index in rng.permutation(len(keys)):
        key = keys[int(index)]
        lines.append(sentence(key, state[key], rng))
    closing = choose(rng, CLOSINGS)
    return "\n".join(lines + ([closing] if closing else []))


def sentence(key: str, value: Any, rng: np.random.Generator) -> str:
    plural = isinstance(value, list) and len(value) != 1
    words = key.replace("_", " ")
    return choose(rng, _SENTENCES).format(
        key=words, Key=words[:1].upper() + words[1:], verb="are" if plural else "is",
        pronoun="they" if plural else "it", value=render(value))


def render(value: Any, nested: bool = False) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        if not value:
            return "no entries"
        items = [f"{_render_key(k)} is {render(v, nested=True)}" for k, v in value.items()]
        if nested:
            return "(" + ", ".join(items) + ")"
        return _join(items)
    if isinstance(value, (list, tuple)):
        items = [render(v, nested=True) for v in value]
        if nested:
            return "(" + ", ".join(items) + ")"
        if not items:
            return "none"
        return "only " + items[0] if len(items) == 1 else _join(items)
    return json.dumps(str(value), ensure_ascii=False)


def _render_key(key: Any) -> str:
    text = str(key)
    return text.replace("_", " ") if re.fullmatch(r"[a-z][a-z0-9_]*", text) else json.dumps(text, ensure_ascii=False)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# -- reading --------------------------------------------------------------------------------
def read(text: str) -> dict[str, Any]:
    """The fields a prose description states; lines that are not field sentences (openings,
    questions, typed actions) are ignored, and so is a sentence whose value does not parse."""
    state: dict[str, Any] = {}
    for line in text.splitlines():
        line = line.strip()
        for pattern in _PATTERNS:
            match = pattern.match(line)
            if not match:
                continue
            try:
                state[match.group("key").lower().replace(" ", "_")] = parse_value(match.group("value"))
            except ValueError:
                continue
            break
    return state


def parse_value(text: str) -> Any:
    text = text.strip()
    if text == "nothing":
        return None
    if text == "none":
        return []
    if text == "no entries":
        return {}
    if text.startswith("only "):
        return [_parse_item(text[5:])]
    items = _split(text, top=True)
    if all(_DICT_ITEM.match(item) and not item.startswith("(") for item in items) and not _is_scalar(text):
        parsed = {}
        for item in items:
            match = _DICT_ITEM.match(item)
            assert match is not None
            key = match.group(1)
            key = json.loads(key) if key.startswith('"') else key.replace(" ", "_")
            parsed[key] = _parse_item(match.group(2))
        return parsed
    if len(items) > 1:
        return [_parse_item(item) for item in items]
    return _parse_item(text)


def _is_scalar(text: str) -> bool:
    try:
        json.loads(text)
        return text.startswith('"')
    except json.JSONDecodeError:
        return False


def _parse_item(text: str) -> Any:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1].strip()
        if not inner:
            return []
        items = _split(inner, top=False)
        if all(_DICT_ITEM.match(item) and not item.startswith(("(", '"')) for item in items):
            return {match.group(1).replace(" ", "_"): _parse_item(match.group(2))
                    for match in (_DICT_ITEM.match(item) for item in items) if match}
        return [_parse_item(item) for item in items]
    if text.startswith('"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"bad string {text!r}") from error
    if text in ("yes", "no"):
        return text == "yes"
    if text == "nothing":
        return None
    if _NUMBER.match(text):
        return float(text) if "." in text else int(text)
    raise ValueError(f"cannot read {text!r}")


def _split(text: str, top: bool) -> list[str]:
    """Split on ", " (and, at the top level, " and ") outside quotes and parentheses."""
    items: list[str] = []
    depth = 0
    in_string = False
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if in_string:
            if char == "\\":
                i += 2
                continue
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0:
            for separator in ((", ", " and ") if top else (", ",)):
                if text.startswith(separator, i):
                    items.append(text[start:i])
                    i += len(separator)
                    start = i
                    break
            else:
                i += 1
                continue
            continue
        i += 1
    items.append(text[start:])
    return [item.strip() for item in items]
