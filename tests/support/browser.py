"""Headless Chromium from the OS packages (``$COMMA_CHROMIUM`` or ``/usr/bin/chromium``), driven
by Playwright, never ``playwright install``."""

from __future__ import annotations

import os
from typing import Any

CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync")


def launch_chromium(playwright: Any) -> Any:
    """A headless Chromium browser; raises RuntimeError saying why when it cannot start."""
    path = os.environ.get("COMMA_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(path):
        raise RuntimeError(f"no Chromium at {path}: apt-get update && apt-get install -y chromium chromium-driver "
                           "(or set COMMA_CHROMIUM)")
    try:
        return playwright.chromium.launch(executable_path=path, headless=True, args=list(CHROMIUM_ARGS))
    except Exception as error:
        raise RuntimeError(f"Chromium at {path} did not start: {error}") from error
