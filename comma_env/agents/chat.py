"""The solver's picture as a PNG data URL, and a message list's text for token estimates."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from comma_env.drawing.common import png_bytes


class PngCache:
    """PNG data URL of the solver's picture, encoded once per state (the environment hands out the same
    read-only array until the state changes, kept here as the key) in a thread, off the event loop."""

    def __init__(self) -> None:
        self._array: np.ndarray | None = None
        self._url: str | None = None

    async def data_url(self, image: np.ndarray) -> str:
        if image is self._array and self._url is not None:
            return self._url
        self._url = "data:image/png;base64," + base64.b64encode(await asyncio.to_thread(png_bytes, image)).decode()
        self._array = image
        return self._url


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
