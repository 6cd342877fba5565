"""What each AsymPuzl agent reads: its task as the system prompt and the turn's observation as the
user message (stateless, as in the paper), partner messages quoted (``| ``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from comma_env.asympuzl.rules import Piece, Slot
from comma_env.protocol.prompts import Message, PromptOptions

UPDATE_FORMAT = """\
How to update your working hypothesis: put lines of this form anywhere in your reply, one per line:
  set <position> <shape> <colour>    (for example: set 2 triangle blue; use ? for a part you do not know)
  clear <position>                   (or: clear all)
Positions run from 1 to {n}. Every other line of your reply is sent to your partner as your message.
A line that starts with "set" or "clear" but does not follow this form is ignored (you will be told why)."""

_TASKS = {
    "alice": """\
You are Alice, one of two players solving a puzzle together by chat. The hidden solution is a row of \
{n} pieces; each piece has a shape and a colour, and no shape or colour appears twice.
You know the shapes and the order they stand in, but not their colours. {distractor_note}
Your partner Bob knows which colour goes with which shape, but not the order.
You and Bob each keep a working hypothesis of the whole row: position by position, its shape and colour. \
The puzzle is solved when BOTH hypotheses equal the solution {when}, within {turns} turns. \
You speak first in each turn; Bob reads your message of this turn, you read Bob's reply at your next turn.
Share what you know, ask for what you need, and update your hypothesis as soon as you can.""",
    "bob": """\
You are Bob, one of two players solving a puzzle together by chat. The hidden solution is a row of \
{n} pieces; each piece has a shape and a colour, and no shape or colour appears twice.
You know which colour goes with which shape, but not the order of the pieces. {distractor_note}
Your partner Alice knows the shapes in their right order, but not their colours.
You and Alice each keep a working hypothesis of the whole row: position by position, its shape and colour. \
The puzzle is solved when BOTH hypotheses equal the solution {when}, within {turns} turns. \
Alice speaks first in each turn; you read her message of this turn before you answer.
Share what you know, ask for what you need, and update your hypothesis as soon as you can.""",
}

_DISTRACTOR_NOTE = ("Some of your clues may be extra pieces that are not part of the puzzle: "
                    "the puzzle has exactly {n} pieces, and your list may be longer.")


SUCCESS_CHECK_WORDS = {"end_of_turn": "at the end of a turn (after Bob's message)",
                       "immediate": "after any message, yours or your partner's"}
"""When the game checks for success, as each agent is told (see `comma_env.asympuzl.env`)."""


def task_prompt(agent: str, n: int, turns: int, clue_count: int, success_check: str = "end_of_turn") -> str:
    """The standing instructions of `agent` (the same every turn)."""
    note = _DISTRACTOR_NOTE.format(n=n) if clue_count != n else ""
    task = _TASKS[agent].format(n=n, turns=turns, distractor_note=note, when=SUCCESS_CHECK_WORDS[success_check])
    return "\n".join(line.rstrip() for line in task.splitlines()) + "\n\n" + UPDATE_FORMAT.format(n=n)


def clues_text(agent: str, clues: Sequence[str] | Sequence[Piece], n: int) -> str:
    if agent == "alice":
        lines = [f"  {i}. {shape} (colour unknown)" for i, shape in enumerate(clues, start=1)]
        head = f"Your clues: the shapes in order ({len(clues)} listed, the puzzle has {n}):"
    else:
        pairs = cast("Sequence[Piece]", clues)  # Bob's clues are (shape, colour) pairs: the agent says so
        lines = [f"  - {shape} is {colour}" for shape, colour in pairs]
        head = f"Your clues: shape-colour pairs in no particular order ({len(clues)} listed, the puzzle has {n}):"
    return "\n".join([head, *lines])


def quoted(text: str) -> str:
    """A message as a quote block: every line starts with "| "."""
    return "\n".join(f"| {line}" for line in (text.splitlines() or [""]))


def dialogue_text(dialogue: Sequence[Mapping[str, str]], me: str) -> str:
    if not dialogue:
        return "No messages yet."
    parts = []
    for entry in dialogue:
        who = "You" if entry["speaker"] == me else entry["speaker"].title()
        parts.append(f"{who} wrote:\n{quoted(entry['text'])}")
    return "\n".join(parts)


def observation_text(
    agent: str,
    turn: int,
    turns: int,
    clues: str | None,
    hypothesis: Sequence[Slot],
    feedback: str,
    outcomes: Sequence[Mapping[str, str]],
    dialogue: Sequence[Mapping[str, str]],
) -> str:
    """One agent's observation: what it knows and what happened since it last spoke (`clues` is
    None in the image view)."""
    sections = [f"Turn {min(turn, turns)} of {turns}."]
    sections.append(clues if clues is not None else "Your clues are in the image: the top row, in order.")
    sections.append("\n".join(["Your working hypothesis:",
                               *(f"  {i}. {s} {c}" for i, (s, c) in enumerate(hypothesis, start=1))]))
    ignored = [o for o in outcomes if o["outcome"] != "applied"]
    if ignored:
        sections.append("Updates of yours that were ignored last turn:\n" + "\n".join(
            f"  {o['line'][:80]!r}: {o['outcome'][len('ignored: '):]}" for o in ignored))
    if feedback:
        sections.append(f"Feedback: {feedback}")
    sections.append("Messages:\n" + dialogue_text(dialogue, agent))
    sections.append("Write your message and your updates.")
    return "\n\n".join(sections)


def messages(agent: str, observation: Mapping[str, Any], info: Mapping[str, Any], image_url: str | None = None,
             options: PromptOptions | None = None) -> list[Message]:
    """What `agent` is shown this turn: the task as the system message, the observation as the user
    message, and the picture after it in the image view."""
    in_picture = agent == "alice" and info.get("view") == "image"
    clues = None if in_picture else clues_text(agent, info["clues"], int(info["n"]))
    turn = int(info["turn"]) + (1 if agent == "alice" else 0)  # Alice opens each turn
    body = observation_text(agent, turn, int(info["max_turns"]), clues, info["hypothesis"], str(info["feedback"]),
                            info["updates"], info["dialogue"])
    content: Any = body
    if image_url is not None:
        content = [{"type": "text", "text": body}, {"type": "image_url", "image_url": {"url": image_url}}]
    return [{"role": "system", "content": str(info["task"])}, {"role": "user", "content": content}]
