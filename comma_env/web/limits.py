"""Who may create how much: a per-client sliding window, lifted by the admin token, read from
``COMMA_PLAY_ADMIN_TOKEN`` (only its hash is kept) and sent as ``Authorization: Bearer``."""

from __future__ import annotations

import hmac
import os
import time
from collections import deque

from comma_env.web.records import token_hash

ADMIN_ENV = "COMMA_PLAY_ADMIN_TOKEN"


class CreationLimiter:
    """At most `limit` creations per client address in any `window` seconds."""

    def __init__(self, limit: int, window: float, max_clients: int = 100_000) -> None:
        self.limit = int(limit)
        self.window = float(window)
        self.max_clients = max_clients
        self.times: dict[str, deque[float]] = {}

    def allow(self, client: str, now: float | None = None) -> bool:
        """Count one creation for `client` and say whether it is within the limit."""
        now = time.monotonic() if now is None else now
        if len(self.times) >= self.max_clients:  # forget the quiet ones; memory stays bounded
            self.times = {k: v for k, v in self.times.items() if v and now - v[-1] < self.window}
        seen = self.times.setdefault(client, deque())
        while seen and now - seen[0] >= self.window:
            seen.popleft()
        if len(seen) >= self.limit:
            return False
        seen.append(now)
        return True


class AdminToken:
    """Checks a bearer token against ``$COMMA_PLAY_ADMIN_TOKEN`` in constant time."""

    def __init__(self, token: str | None = None) -> None:
        token = os.environ.get(ADMIN_ENV) if token is None else token
        self.digest = token_hash(token) if token else None

    @property
    def enabled(self) -> bool:
        return self.digest is not None

    def check(self, authorization: str | None) -> bool:
        if self.digest is None or not authorization or not authorization.lower().startswith("bearer "):
            return False
        return hmac.compare_digest(token_hash(authorization[7:].strip()), self.digest)
