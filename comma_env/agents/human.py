"""A person at the terminal plays a role (``solver=human``): it sees its agent's view, ends a
message with an empty line, and abandons the episode at end of input (`HumanAbandoned`)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from comma_env.agents.oracle import ADVICE_HEADER
from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.protocol.prompts import format_entry
from comma_env.protocol.text import DESCRIPTION_HEADER

EMPTY_HINT = "(empty message ignored: type your message, then an empty line to send it)"


def oracle_guide(role: str, fields: list[str]) -> str:
    """What the scripted oracle partner understands, for a person playing `role` with it."""
    if role == "solver":
        things = ", ".join(name.replace("_", " ") for name in fields)
        return ("Your partner is the scripted oracle expert. Tell it what you see in plain English, in any order\n"
                f"(worth mentioning: {things}); it asks about anything it still needs. It also reads the exact\n"
                f"format of the oracle solver, a line '{DESCRIPTION_HEADER}' and one 'field: value' line per field "
                "(values as JSON).\n"
                f"It answers with a line '{ADVICE_HEADER}' and the actions to type.")
    return ("Your partner is the scripted oracle solver. It describes what it sees after 'I see:'. It "
            f"acts only on a message holding a line '{ADVICE_HEADER}' followed by one action name (or "
            "one line of advice in the manual's words) per line.")


class HumanAbandoned(RuntimeError):
    """The person ended input (EOF or an interrupt inside the reader): the episode is abandoned."""


def read_stdin_line(prompt: str) -> str:
    """Like ``input`` but through ``sys.stdin.readline``: raises EOFError at end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if line == "":
        raise EOFError("end of input")
    return line.rstrip("\r\n")


async def read_line_async(read_line: Callable[[str], str], prompt: str) -> str:
    """Run a blocking `read_line(prompt)` in a daemon thread and await its answer (`asyncio.to_thread`
    would join at exit, so Ctrl-C at a prompt would wait for Enter)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(value: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value or "")

    def reader() -> None:
        try:
            value, error = read_line(prompt), None
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            value, error = None, exc
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass

    threading.Thread(target=reader, name="comma-human-stdin", daemon=True).start()
    return await future


class HumanPlayer(Player):
    """Reads one message per turn from `read_line` (stdin by default)."""

    def __init__(self, role: str, read_line: Callable[[str], str] | None = None, image_dir: str | None = None,
                 lock: asyncio.Lock | None = None, guide: str | None = None) -> None:
        self.role = role
        self.guide = guide
        self.read_line = read_line or read_stdin_line
        self.image_dir = Path(image_dir or tempfile.gettempdir())
        self.lock = lock or asyncio.Lock()
        self.shown = 0
        self.turn = 0

    def _print(self, text: str) -> None:
        print(text, file=sys.stdout, flush=True)

    def _show(self, observation: dict[str, Any], info: dict[str, Any]) -> None:
        dialogue = info.get("dialogue") or []
        if self.turn == 0 or self.shown > len(dialogue):  # first turn, or a short memory window
            self._print(f"\n===== you are the {self.role} =====")
            intro = info.get("task") if self.role == "solver" else info.get("manual")
            self._print(str(intro or observation.get("text", "")).strip())
            if self.guide and self.turn == 0:
                self._print(f"--- how your partner reads you ---\n{self.guide}")
            start = 0
        else:
            start = self.shown
        for entry in dialogue[start:]:  # the other agent's messages (quoted) and the environment's feedback
            if entry.get("speaker") != self.role:
                self._print(format_entry(entry))
        self.shown = len(dialogue)
        if self.role == "solver":
            description = info.get("description")
            if description:
                self._print(f"--- the puzzle now ---\n{description}")
            image = observation.get("image")
            if image is not None:
                from PIL import Image

                path = self.image_dir / f"comma_human_view_{os.getpid()}.png"
                Image.fromarray(image).save(path)
                self._print(f"(current image: {path})")
            clip = observation.get("audio")
            if clip is not None:  # Sound: the clip as a WAV file for any audio player
                from comma_env.audio.wav import wav_bytes

                path = self.image_dir / f"comma_human_sound_{os.getpid()}.wav"
                path.write_bytes(wav_bytes(clip, int(observation.get("sample_rate", 16000))))
                self._print(f"(the sound clip: {path}; play it with any audio player)")
            self._print("valid actions: " + ", ".join(info.get("valid_actions") or []))
        self._print(f"--- turn {info.get('turn', 0) + (1 if self.role == 'solver' else 0)}: type your message, "
                    "end with an empty line ---")

    async def _read_message(self) -> str:
        lines: list[str] = []
        while True:
            try:
                line = await read_line_async(self.read_line, "> ")
            except (EOFError, KeyboardInterrupt) as exc:
                raise HumanAbandoned(f"the human {self.role} ended input ({type(exc).__name__}); "
                                     "episode abandoned") from None
            if line.strip():
                lines.append(line)
            elif lines:
                return "\n".join(lines)
            else:
                self._print(EMPTY_HINT)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        async with self.lock:  # one prompt on the terminal at a time
            self._show(observation, info)
            self.turn += 1
            return Reply(await self._read_message())


class HumanPolicy(Policy):
    """Hands every role to the person at the terminal; its players share one lock, so concurrent
    episodes take turns at the prompt."""

    name = "human"

    def __init__(self, read_line: Callable[[str], str] | None = None, partner: str | None = None) -> None:
        self.read_line = read_line
        self.lock = asyncio.Lock()
        self.partner = partner

    def introduce_partner(self, name: str) -> None:
        """Called by the rollout with the other role's policy name (``oracle``, a model...)."""
        self.partner = name

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        guide = None
        if self.partner == "oracle":
            base = env.unwrapped
            state = base.puzzle_cls.redact(dict(base.visible_state))
            guide = oracle_guide(role, [k for k in state if k not in base.puzzle_cls.drawing_only_keys])
        return HumanPlayer(role, self.read_line, lock=self.lock, guide=guide)
