"""A person at the terminal plays a role (the paper's human-solver setting).

    python -m comma_env.rollout solver=human expert=gpt4o puzzles=[wire] episodes=3 concurrency=1

The player sees exactly its agent's observation: the task or manual, the dialogue, the
valid actions and the environment feedback (solver), and for the solver the current image,
saved as a PNG whose path is printed (with ``model.vision=false``, the default for
``human``, a written description is shown too). A message is typed over one or more lines
and ended with an empty line; end of input (Ctrl-D) abandons the episode, which is then
recorded with an error.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from agents.base import Player, Policy, Reply


class HumanPlayer(Player):
    """Reads one message per turn from `read_line` (``input`` by default)."""

    def __init__(self, role: str, read_line: Callable[[str], str] = input, image_dir: str | None = None) -> None:
        self.role = role
        self.read_line = read_line
        self.image_dir = Path(image_dir or tempfile.gettempdir())
        self.shown = 0
        self.turn = 0

    def _print(self, text: str) -> None:
        print(text, file=sys.stdout, flush=True)

    def _show(self, observation: dict[str, Any], info: dict[str, Any]) -> None:
        dialogue = info.get("dialogue") or []
        if self.turn == 0 or self.shown > len(dialogue):  # first turn, or a short memory window
            self._print(f"\n===== you are the {self.role} =====\n{observation.get('text', '')}")
        else:
            for entry in dialogue[self.shown:]:
                self._print(f"[{entry.get('speaker')}] {entry.get('text')}")
        self.shown = len(dialogue)
        if self.role == "solver":
            image = observation.get("image")
            if image is not None:
                from PIL import Image

                path = self.image_dir / f"comma_human_view_{os.getpid()}.png"
                Image.fromarray(image).save(path)
                self._print(f"(current image: {path})")
            self._print("valid actions: " + ", ".join(info.get("valid_actions") or []))
        self._print(f"--- turn {info.get('turn', 0) + (1 if self.role == 'solver' else 0)}: type your message, "
                    "end with an empty line ---")

    def _read_message(self) -> str:
        lines: list[str] = []
        while True:
            line = self.read_line("> ")
            if line.strip() == "" and lines:
                return "\n".join(lines)
            if line.strip() == "":
                continue
            lines.append(line)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        self._show(observation, info)
        self.turn += 1
        text = await asyncio.to_thread(self._read_message)
        return Reply(text)


class HumanPolicy(Policy):
    """Hands every role it is asked for to the person at the terminal (use concurrency=1)."""

    name = "human"

    def __init__(self, read_line: Callable[[str], str] = input) -> None:
        self.read_line = read_line

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        return HumanPlayer(role, self.read_line)
