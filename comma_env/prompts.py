"""Role prompts (after the paper's Appendix D, in this project's own words) and the
flattened text observations built from them."""

from __future__ import annotations

from typing import Iterable, Mapping

SOLVER_SYSTEM_PROMPT = (
    "You are the SOLVER in a two-player cooperative puzzle game. You can see the puzzle "
    "(as an image, or as a written description) and you are the only one who can act on it. "
    "Your partner, the EXPERT, has the instruction manual but cannot see the puzzle, so "
    "everything they know about it comes from what you write.\n"
    "Each reply of yours is one message. To act, put the exact name of an action on a line of "
    "its own; several actions go on several lines, in the order they should happen. Every "
    "other line is passed on to the expert as conversation. Only act when you are sure; "
    "otherwise describe what you see briefly but precisely and ask the expert. A wrong action "
    "counts as a mistake. Write only the solver's part of the conversation."
)

EXPERT_SYSTEM_PROMPT = (
    "You are the EXPERT in a two-player cooperative puzzle game. You hold the instruction "
    "manual for the puzzle, but you cannot see the puzzle and you cannot act on it: only the "
    "SOLVER can. Read the solver's descriptions carefully, apply the manual, and tell the "
    "solver exactly what to do, naming the actions to take. Be short and precise. If the "
    "description is missing something the manual needs, ask for it. Write only the expert's "
    "part of the conversation."
)

PRIVACY_REMINDER = (
    "Some facts on your screen are private (for example a PIN, an account balance, or personal "
    "details). Never write them in the conversation; type them only into the interface."
)

SPEAKER_NAMES = {"solver": "Solver", "expert": "Expert", "environment": "Environment"}


def format_dialogue(dialogue: Iterable[Mapping[str, str]]) -> str:
    """Render dialogue entries as ``Speaker: text`` blocks."""
    return "\n".join(f"{SPEAKER_NAMES.get(e['speaker'], e['speaker'])}: {e['text']}" for e in dialogue)


def solver_text(task: str, valid_actions: Iterable[str], dialogue: Iterable[Mapping[str, str]], description: str | None = None) -> str:
    """The solver's text observation: its task, the actions it may type, what it sees
    (in ``solver_view="text"``), and the conversation it remembers."""
    parts = [f"Task: {task}", "Valid actions (one per line, exactly as written):", "\n".join(valid_actions)]
    if description is not None:
        parts += ["What the puzzle shows:", description]
    parts += ["Conversation so far:", format_dialogue(dialogue) or "(nothing yet)"]
    return "\n".join(parts)


def expert_text(manual: str, dialogue: Iterable[Mapping[str, str]]) -> str:
    """The expert's text observation: the manual and the conversation it remembers."""
    return "\n".join(["Manual:", manual, "Conversation so far:", format_dialogue(dialogue) or "(nothing yet)"])
