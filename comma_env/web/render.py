"""Messages as safe HTML: escaped text, ``<think>`` blocks folded, action lines marked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from markupsafe import Markup, escape

_THINK = re.compile(r"<think>(.*?)(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


def _lines(text: str, actions: dict[str, bool]) -> str:
    out = []
    for line in text.split("\n"):
        name = line.strip()
        if name in actions:
            kind = "ok" if actions[name] else "mistake"
            out.append(f'<span class="action {kind}">{escape(line)}</span>')
        else:
            out.append(str(escape(line)))
    return "\n".join(out)


def message_html(text: str, executed: Sequence[str] = (), outcomes: Sequence[bool] = ()) -> Markup:
    """`text` as HTML: reasoning blocks become closed ``<details>`` elements, lines that
    were executed as actions are marked correct or mistaken. Linear in the text's length."""
    actions = {a: bool(ok) for a, ok in zip(executed, outcomes, strict=False)}  # a record may lack outcomes
    parts: list[str] = []
    position = 0
    for match in _THINK.finditer(text):
        parts.append(_lines(text[position:match.start()], actions))
        inner = match.group(1).strip()
        parts.append(f'<details class="think"><summary>reasoning ({len(inner):,} characters)</summary>'
                     f'<div class="think-body">{escape(inner)}</div></details>')
        position = match.end()
    parts.append(_lines(text[position:], actions))
    return Markup("".join(parts).strip("\n"))
