"""Turn one agent's own observation and info into OpenAI-style chat messages.

A chat policy sees exactly what its agent sees: the solver its image, task, valid actions,
written description (``solver_view="text"``) and remembered dialogue; the expert its manual
and remembered dialogue. Nothing here reads the environment.

Layout, chosen so that servers with prefix caching (vLLM ``--enable-prefix-caching``,
llama.cpp's prompt cache) reuse the static part of every prompt:

1. system: the role prompt (the same for every puzzle and episode);
2. user: the task (solver) or the manual (expert), the same for the whole puzzle;
3. the remembered dialogue: this agent's own messages as ``assistant``, the other agent's
   messages and environment feedback as ``user`` (consecutive same-role turns are merged).
   The other agent's text is quoted line by line under a ``Expert wrote:`` header and the
   feedback comes unquoted under its own header (`comma_env.protocol.prompts.format_entry`), so an
   agent cannot forge feedback or a partner turn by writing ``Environment: ...`` lines;
4. last, for the solver only: the current state (valid actions, description and the image
   as an ``image_url`` part). Only the newest image is sent, so a model served with
   ``--limit-mm-per-prompt '{"image":1}'`` accepts every request.

The memory mode needs no handling here: the environment already windows ``info["dialogue"]``.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from PIL import Image

from comma_env.protocol.contracts import DialogueEntry
from comma_env.protocol.prompts import EXPERT_SYSTEM_PROMPT, PRIVACY_REMINDER, SOLVER_SYSTEM_PROMPT, format_entry

TASK_TITLE = "Your task:"
MANUAL_TITLE = "The manual:"
ACTIONS_TITLE = "Actions you can type now (one per line, exactly as written):"
DESCRIPTION_TITLE = "What the puzzle shows (written description):"
IMAGE_NOTE = "The image attached here shows the puzzle as it is now."
YOUR_TURN = "Write your next message as the solver."
EXPERT_TURN = "Write your next message as the expert."
NO_DIALOGUE = "(The solver has not written anything yet.)"

Message = dict[str, Any]


class PngCache:
    """PNG data URL of the solver's current image, encoded once per puzzle state.

    The environment hands out the same read-only array object until the state changes, so
    object identity is the cache key. The array itself is kept referenced: an `id()` of a
    freed array could be reused by a new one.
    """

    def __init__(self) -> None:
        self._array: np.ndarray | None = None
        self._url: str | None = None
        self.encodes = 0

    def data_url(self, image: np.ndarray) -> str:
        if image is self._array and self._url is not None:
            return self._url
        buffer = io.BytesIO()
        Image.fromarray(np.asarray(image, dtype=np.uint8)).save(buffer, format="PNG", compress_level=1)
        self._url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        self._array = image
        self.encodes += 1
        return self._url


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _dialogue_messages(dialogue: Iterable[DialogueEntry], me: str) -> list[Message]:
    """Own messages -> assistant, as written; everything else -> user, under its speaker's
    header, the other agent's text quoted (so it cannot pass for feedback)."""
    messages: list[Message] = []
    for entry in dialogue:
        if entry.get("speaker", "") == me:
            messages.append({"role": "assistant", "content": str(entry.get("text", ""))})
        else:
            messages.append({"role": "user", "content": [_text(format_entry(entry))]})
    return messages


def _merge(messages: list[Message]) -> list[Message]:
    """Merge consecutive messages of one role (chat templates want alternation).

    Text-only user messages become plain strings: some servers (llama.cpp, older templates)
    handle string content best, it is the same tokens, and the client serialises it faster.
    """
    merged: list[Message] = []
    for message in messages:
        role, content = message["role"], message["content"]
        if merged and merged[-1]["role"] == role and role != "system":
            merged[-1]["content"].extend(content) if role == "user" else merged[-1]["content"].append(content)
        else:
            merged.append({"role": role, "content": list(content) if role == "user" else [content]})
    for message in merged:
        content = message["content"]
        if message["role"] == "system":
            message["content"] = content[0]
        elif message["role"] == "assistant":
            message["content"] = "\n".join(content)
        elif all(part.get("type") == "text" for part in content):
            message["content"] = "\n\n".join(part["text"] for part in content)
    return merged


def solver_messages(
    info: Mapping[str, Any],
    image_url: str | None = None,
    privacy_reminder: bool = True,
) -> list[Message]:
    """Chat messages for the solver from its info (and its image as a data URL, if any)."""
    system = SOLVER_SYSTEM_PROMPT + ("\n" + PRIVACY_REMINDER if privacy_reminder else "")
    messages: list[Message] = [
        {"role": "system", "content": system},
        {"role": "user", "content": [_text(f"{TASK_TITLE}\n{info.get('task') or ''}".strip())]},
    ]
    messages += _dialogue_messages(info.get("dialogue") or [], "solver")
    state = [_text(ACTIONS_TITLE + "\n" + "\n".join(str(a) for a in info.get("valid_actions") or []))]
    description = info.get("description")
    if description:
        state.append(_text(f"{DESCRIPTION_TITLE}\n{description}"))
    if image_url is not None:
        state += [_text(IMAGE_NOTE), {"type": "image_url", "image_url": {"url": image_url}}]
    state.append(_text(YOUR_TURN))
    messages.append({"role": "user", "content": state})
    return _merge(messages)


def expert_messages(info: Mapping[str, Any]) -> list[Message]:
    """Chat messages for the expert from its info: the manual and the dialogue, no more.

    Environment entries are dropped even if present: the expert never gets feedback.
    """
    dialogue = [e for e in info.get("dialogue") or [] if e.get("speaker") in ("solver", "expert")]
    messages: list[Message] = [
        {"role": "system", "content": EXPERT_SYSTEM_PROMPT},
        {"role": "user", "content": [_text(f"{MANUAL_TITLE}\n{info.get('manual') or ''}")]},
    ]
    messages += _dialogue_messages(dialogue, "expert")
    if not dialogue:
        messages.append({"role": "user", "content": [_text(NO_DIALOGUE)]})
    if messages[-1]["role"] == "assistant":
        messages.append({"role": "user", "content": [_text(EXPERT_TURN)]})
    return _merge(messages)


def has_image(messages: Iterable[Mapping[str, Any]]) -> bool:
    """True when any message carries an image part (used by tests and sanity checks)."""
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any(p.get("type") == "image_url" for p in content):
            return True
    return False


def message_text(messages: Iterable[Mapping[str, Any]]) -> str:
    """All text of a message list, for token estimates and log inspection."""
    chunks: list[str] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            chunks.append(content)
        elif isinstance(content, list):
            chunks += [p.get("text", "") for p in content if p.get("type") == "text"]
    return "\n".join(chunks)


# -- sound (COMMA v1's Sound puzzle) ---------------------------------------------------------
AUDIO_NOTE = "The sound clip the puzzle plays is attached here."
AUDIO_DESCRIPTION_TITLE = "What the sound clip sounds like (you cannot hear it; described in words):"


def audio_parts(observation: Any, info: Mapping[str, Any], accepts_audio: bool,
                describe: bool = True) -> list[dict[str, Any]]:
    """The solver's clip as chat content parts: an ``input_audio`` part (16-bit WAV, base64)
    for models that accept audio, else the clip in words (``describe``), else nothing.
    Empty for puzzles without sound."""
    clip = observation.get("audio") if isinstance(observation, Mapping) else None
    if clip is None:
        return []
    if accepts_audio:
        from comma_env.audio.wav import wav_base64

        rate = int(observation.get("sample_rate", 16000))
        return [_text(AUDIO_NOTE),
                {"type": "input_audio", "input_audio": {"data": wav_base64(clip, rate), "format": "wav"}}]
    words = info.get("audio_description")
    return [_text(f"{AUDIO_DESCRIPTION_TITLE}\n{words}")] if describe and words else []


def with_audio(messages: list[Message], parts: list[dict[str, Any]]) -> list[Message]:
    """`messages` with `parts` added to the last user message, before its closing line."""
    if not parts:
        return messages
    last = messages[-1]
    content = last["content"]
    if isinstance(content, str):  # text-only content was merged into one string: split off the closing line
        head, closing = ((content[: -len(YOUR_TURN)].rstrip(), [_text(YOUR_TURN)]) if content.endswith(YOUR_TURN)
                         else (content, []))
        content = [_text(head), *parts, *closing]
    else:
        content = list(content)
        position = len(content) - 1 if content and content[-1].get("text") == YOUR_TURN else len(content)
        content[position:position] = parts
    return messages[:-1] + [dict(last, content=content)]
