"""Games nobody finishes end as abandoned: no move for `PlayConfig.idle_expire_seconds`, or a
study player with no page open for `leave_after_seconds` (`SessionStore.abandon` records it)."""

from __future__ import annotations

import asyncio
import time

from comma_env.web.playconfig import ROLES
from comma_env.web.session import ABANDONED, Session, SessionStore


def stale(store: SessionStore, now: float) -> list[tuple[Session, str]]:
    """Unfinished sessions to end, with why."""
    cfg = store.cfg
    found = []
    for session in list(store.sessions.values()):
        if session.done or session.partner_busy:
            continue
        if now - session.last_move > cfg.idle_expire_seconds:
            found.append((session, f"{ABANDONED}: no move for {cfg.idle_expire_seconds:g} s"))
            continue
        if session.participants:
            gone = [r for r in ROLES if not session.watching.get(r)
                    and now - session.last_seen.get(r, now) > cfg.leave_after_seconds]
            if gone:
                found.append((session, f"{ABANDONED}: the {gone[0]} left"))
    return found


async def expire(store: SessionStore, now: float | None = None) -> int:
    """End every stale session as abandoned; returns how many."""
    found = stale(store, time.time() if now is None else now)
    for session, reason in found:
        await store.abandon(session, reason)
    return len(found)


async def expiry_loop(store: SessionStore) -> None:
    """Run `expire` every few seconds (a quarter of the shorter limit, 0.2 to 30 s) until cancelled."""
    interval = max(0.2, min(30.0, store.cfg.idle_expire_seconds / 4, store.cfg.leave_after_seconds / 4))
    while True:
        await asyncio.sleep(interval)
        try:
            await expire(store)
        except Exception as error:  # keep expiring the others
            print(f"comma_env.play: expiry: {type(error).__name__}")
