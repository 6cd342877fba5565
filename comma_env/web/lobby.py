"""The study's lobby: participants wait and are paired at random, with random roles, for a slot
neither has played; lobby tokens are kept hashed, in memory."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import time
from dataclasses import dataclass, field

from fastapi import HTTPException

from comma_env.web.records import token_hash
from comma_env.web.session import POLL_SECONDS, SessionStore, bump
from comma_env.web.study import Progress, Slot

PARTICIPANT_ID = re.compile(r"^p[0-9a-f]{12}$")


@dataclass(eq=False)  # identity: two people are never "equal"
class Participant:
    id: str
    joined: float = field(default_factory=time.time)  # when it last entered the queue
    last_seen: float = field(default_factory=time.time)
    seen: set[Slot] = field(default_factory=set)  # slots this person played (or abandoned)
    seat: dict[str, str] | None = None  # {"url", "role"} once paired, until the next join
    address: str = ""  # the client address it joined from (pairs from one address are avoided)


class Lobby:
    def __init__(self, store: SessionStore, progress: Progress) -> None:
        self.store = store
        self.progress = progress
        self.by_token: dict[str, Participant] = {}
        self.waiting: list[Participant] = []
        self.version = 0
        self.changed = asyncio.Event()  # replaced by a fresh one at each change
        store.on_closing.append(lambda: self.changed.set())  # the event of the moment, not this first one
        self.random = random.SystemRandom()
        store.on_saved.append(lambda session: self._forget_if_done())

    def join(self, token: str | None, participant_id: str | None, address: str = "") -> tuple[str, Participant]:
        """Enter (or re-enter) the queue; returns the lobby token and the participant."""
        known = self.by_token.get(token_hash(token)) if token else None
        if known is None:
            self.prune()
            if len(self.by_token) >= self.store.cfg.max_sessions:
                raise HTTPException(429, "the study is busy; try again in a few minutes")
            if participant_id and PARTICIPANT_ID.match(participant_id):  # the id the browser kept
                pid = participant_id
            else:  # none sent, or not one of ours: a fresh anonymous id
                pid = f"p{secrets.token_hex(6)}"
            token = secrets.token_urlsafe(18)
            known = Participant(pid, seen=self.seen_by(pid))
            self.by_token[token_hash(token)] = known
        assert token is not None
        known.seat = None
        known.address = address
        known.joined = time.time()
        known.last_seen = time.time()
        if known not in self.waiting:
            self.waiting.append(known)
        return token, known

    def seen_by(self, pid: str) -> set[Slot]:
        """The slots a (returning) participant played, from the records and the live games."""
        seen = {Slot(str(r.get("puzzle")), int(r.get("seed") or 0)) for r in self.progress.records()
                if pid in (r.get("participants") or {}).values()}
        return seen | {Slot(s.puzzle, s.seed) for s in self.store.sessions.values() if pid in s.participants.values()}

    def prune(self, now: float | None = None) -> None:
        """Forget participants not heard from for a while (not waiting, no seat to collect):
        their browser rejoins under the same anonymous id, so only memory is freed."""
        now = time.time() if now is None else now
        quiet = max(600.0, 4 * self.store.cfg.leave_after_seconds)
        self.by_token = {k: p for k, p in self.by_token.items() if p in self.waiting or now - p.last_seen < quiet}

    def find(self, token: str) -> Participant:
        found = self.by_token.get(token_hash(token))
        if found is None:
            raise HTTPException(404, "unknown participant: join the study again")
        found.last_seen = time.time()
        return found

    def leave(self, participant: Participant) -> None:
        if participant in self.waiting:
            self.waiting.remove(participant)

    def status(self, participant: Participant) -> dict[str, object]:
        if participant.seat is not None:
            return {"status": "paired", **participant.seat, "participant": participant.id, "version": self.version}
        if participant in self.waiting and not any(s not in participant.seen for s in self.progress.free_slots()):
            # every slot left is in play: "busy" until one is recorded ("full") or abandoned (paired again)
            open_slots = set(self.progress.schedule.slots) - self.progress.done() - participant.seen
            status = "busy" if open_slots else "full"
            return {"status": status, "participant": participant.id, "version": self.version}
        return {"status": "waiting" if participant in self.waiting else "away", "waiting": len(self.waiting),
                "participant": participant.id, "version": self.version}

    async def pair(self) -> int:
        """Pair waiting participants at random while the schedule has slots for them; returns
        how many games started. Each pair gets the first free slot neither person has played."""
        now = time.time()
        quiet = max(self.store.cfg.leave_after_seconds, POLL_SECONDS + 10)  # a long poll lasts up to 20 s
        self.waiting = [p for p in self.waiting if now - p.last_seen <= quiet]
        free = self.progress.free_slots()
        order = list(self.waiting)
        self.random.shuffle(order)
        started = 0
        while len(order) >= 2 and free:
            first = order.pop(0)
            # two of one address (one person in two browsers?) are paired only after a grace period
            grace = self.store.cfg.pair_same_address_after_seconds
            candidates = [b for b in order if b.id != first.id  # one person in two browsers: never
                          and (b.address != first.address or min(now - first.joined, now - b.joined) >= grace)]
            match = next(((b, slot) for b in candidates for slot in free
                          if slot not in first.seen and slot not in b.seen), None)
            if match is None:
                continue
            second, slot = match
            order.remove(second)
            free.remove(slot)
            roles = ["solver", "expert"]
            self.random.shuffle(roles)
            people = {roles[0]: first, roles[1]: second}
            try:
                session, tokens = self.store.create_pair(slot.puzzle, slot.seed, {r: p.id for r, p in people.items()})
            except HTTPException:  # the server is full: they wait for a game to end
                break
            for role, person in people.items():
                person.seat = {"url": f"/play/{tokens[role]}", "role": role}
                person.seen.add(slot)
                self.waiting.remove(person)
            started += 1
        if started:
            bump(self)
        return started

    def _forget_if_done(self) -> None:
        """A game was recorded (finished or abandoned): wake the waiting, whose slots may have changed."""
        self.progress.forget()
        bump(self)
