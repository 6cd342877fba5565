"""Play sessions: one episode each, resumable by URL (a secret token per seat, only hashes kept),
saved after every step and rebuilt after a restart by replaying their messages."""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import HTTPException

import comma_env
from comma_env.protocol.policy import Player, Policy
from comma_env.protocol.text import to_text
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES
from comma_env.run.results import describe_mismatch, read_episodes, settings_mismatch
from comma_env.run.rollout import Plan, base_record, plan
from comma_env.web.playconfig import ROLES, PlayConfig, rollout_config
from comma_env.web.records import append_record, episode_record, session_data, token_hash, write_private_json

PLAYABLE: tuple[str, ...] = COMMA_PUZZLES + V1_PUZZLES
"""Puzzles with a solver and an expert (AsymPuzl's alice/bob game is played by the rollout only)."""

MAX_MESSAGE_CHARS = 20_000
"""Longest message a person may send (the environment cuts at its own limit after that)."""

KEEP_FINISHED = 200
"""Finished sessions kept in memory; older ones are rebuilt from their files on demand."""

ABANDONED = "abandoned"
"""``end_reason`` of a game a player left or nobody moved in (recorded with an ``error``)."""

SEED_SPACE = 2**31 - 1

POLL_SECONDS = 20.0
"""Longest a long poll (a page waiting for a change) is held open before it is answered."""


@dataclass
class Sent:
    role: str
    text: str
    client_id: str | None = None
    tokens: int = 0


@dataclass
class Session:
    """One episode in play."""

    id: str
    puzzle: str
    seed: int
    human_roles: tuple[str, ...]
    primary: str  # the role of the person who started it
    plan: Plan
    env: Any
    partner: Player | None
    seats: dict[str, str] = field(default_factory=dict)  # role -> token hash (a seat taken)
    invites: dict[str, str] = field(default_factory=dict)  # role -> invite hash (one use)
    participants: dict[str, str] = field(default_factory=dict)  # role -> anonymous id (studies)
    created: float = field(default_factory=time.time)
    last_move: float = field(default_factory=time.time)
    last_seen: dict[str, float] = field(default_factory=dict)
    watching: dict[str, int] = field(default_factory=dict)  # role -> long polls open now (present)
    messages: list[Sent] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    saved: bool = False
    error: str | None = None
    version: int = 0
    partner_busy: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # replaced by a fresh one at each change

    @property
    def raw(self) -> Any:
        return self.env.unwrapped

    @property
    def done(self) -> bool:
        return self.raw.end_reason is not None or self.error is not None

    @property
    def to_move(self) -> str | None:
        return None if self.done else self.env.agent_selection

    @property
    def public_error(self) -> str | None:
        """What a player is told about a failure: never the detail."""
        if self.error is None:
            return None
        if self.raw.end_reason == ABANDONED:
            return "the game was ended: a player left or nobody moved for too long"
        return "the game ended because of an error on the server or the partner's side; it has been recorded"


def bump(holder: Any) -> None:
    """A new version of `holder` (a `Session` or the study's lobby): every long poll waiting on it returns."""
    holder.version += 1
    changed, holder.changed = holder.changed, asyncio.Event()
    changed.set()


async def wait_for_change(holder: Any, since: int, timeout: float, closing: bool) -> None:
    """Return when `holder`'s version moves past `since`, after `timeout` seconds, or at once when the
    server is `closing`."""
    if holder.version != since or closing:
        return
    try:
        await asyncio.wait_for(holder.changed.wait(), timeout)
    except asyncio.TimeoutError:
        pass


class SessionStore:
    """Every session of a server, by id and by hashed seat token."""

    def __init__(self, cfg: PlayConfig, policy: Policy | None, out_dir: Path) -> None:
        self.cfg = cfg
        self.policy = policy
        self.out_dir = out_dir
        self.folder = out_dir / "sessions"
        self.sessions: dict[str, Session] = {}
        self.by_seat: dict[str, tuple[str, str]] = {}  # token hash -> (session id, role), every session
        self.by_invite: dict[str, tuple[str, str]] = {}  # invite hash -> (session id, role)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.on_saved: list[Any] = []  # callbacks(session) after a record is written (the study's)
        self.on_closing: list[Callable[[], None]] = []  # other long polls to end with ours (the lobby's)
        self.closing = False
        self._writer_lock = asyncio.Lock()

    # -- creation and restore ---------------------------------------------------------------
    def check_out_dir(self) -> None:
        """Refuse an out_dir holding episodes of other settings, and cut a torn last line."""
        for record in read_episodes(self.out_dir / "episodes.jsonl", repair=True):
            puzzle = str(record.get("puzzle"))
            expected = base_record(self._plan(puzzle, 0), puzzle, 0)
            mismatch = settings_mismatch(record, expected)
            if mismatch:
                raise ValueError(f"{self.out_dir / 'episodes.jsonl'} holds episodes of another setting "
                                 f"({describe_mismatch(mismatch)}); use another out_dir")

    def _plan(self, puzzle: str, seed: int) -> Plan:
        rc = rollout_config(self.cfg, puzzle, self.cfg.role, seed)
        rc.out_dir = str(self.out_dir)
        return plan(rc)

    def next_seed(self, puzzle: str) -> int:
        """A seed not yet saved nor in play: random (players cannot guess it), or the next from
        ``first_seed`` with ``seed_order=sequential``."""
        taken = {int(r.get("seed") or 0) for r in read_episodes(self.out_dir / "episodes.jsonl", repair=False)
                 if r.get("puzzle") == puzzle}
        taken |= {s.seed for s in self.sessions.values() if s.puzzle == puzzle and not s.saved}
        if self.cfg.seed_order == "sequential":
            seed = self.cfg.first_seed
            while seed in taken:
                seed += 1
            return seed
        while True:
            seed = secrets.randbelow(SEED_SPACE)
            if seed not in taken:
                return seed

    def _check_new(self, puzzle: str) -> None:
        if puzzle not in PLAYABLE:
            raise HTTPException(400, f"puzzle {puzzle[:40]!r} cannot be played here; "
                                     f"choose one of {', '.join(PLAYABLE)}")
        if sum(1 for s in self.sessions.values() if not s.done) >= self.cfg.max_sessions:
            raise HTTPException(429, "too many unfinished sessions on this server; try again later")

    def create(self, puzzle: str | None = None, seed: int | None = None) -> tuple[Session, str, str | None]:
        """A new session for the person asking: their seat token and, when the partner is a
        person, a one-time invite for the other seat."""
        puzzle = puzzle or self.cfg.puzzle
        self._check_new(puzzle)
        if seed is None:
            seed = self.cfg.seed if self.cfg.seed is not None and puzzle == self.cfg.puzzle else self.next_seed(puzzle)
        if seed < 0:
            raise HTTPException(400, "seed must be >= 0")
        humans = tuple(ROLES) if self.cfg.partner == "human" else (self.cfg.role,)
        session = self._build(secrets.token_hex(12), puzzle, seed, humans, self.cfg.role)
        token = self._seat(session, self.cfg.role)
        invite = None
        other = next((r for r in humans if r != self.cfg.role), None)
        if other is not None:
            invite = secrets.token_urlsafe(18)
            session.invites[other] = token_hash(invite)
            self.by_invite[session.invites[other]] = (session.id, other)
        self._persist(session)
        self._after_step(session)
        return session, token, invite

    def create_pair(self, puzzle: str, seed: int, participants: dict[str, str]) -> tuple[Session, dict[str, str]]:
        """A game between two people of a study: one seat token per role (hand each to its
        own player only)."""
        self._check_new(puzzle)
        session = self._build(secrets.token_hex(12), puzzle, seed, tuple(ROLES), "solver")
        session.participants = dict(participants)
        tokens = {role: self._seat(session, role) for role in ROLES}
        self._persist(session)
        return session, tokens

    def _seat(self, session: Session, role: str) -> str:
        token = secrets.token_urlsafe(18)
        session.seats[role] = token_hash(token)
        session.last_seen[role] = time.time()
        self.by_seat[session.seats[role]] = (session.id, role)
        return token

    def _build(self, sid: str, puzzle: str, seed: int, humans: tuple[str, ...], primary: str) -> Session:
        p = self._plan(puzzle, seed)
        record = base_record(p, puzzle, seed)
        env = comma_env.make(puzzle, max_turns=p.cfg.max_turns, max_mistakes=p.cfg.max_mistakes,
                             memory=record["memory"], solver_view=record["solver_view"],
                             action_matching=p.cfg.action_matching, puzzle_options=record["puzzle_options"])
        env.reset(seed=seed)
        record["initial_state"] = env.unwrapped.initial_state()
        partner_role = next((r for r in ROLES if r not in humans), None)
        partner = self.policy.player(partner_role, env, seed) if partner_role and self.policy else None
        session = Session(id=sid, puzzle=puzzle, seed=seed, human_roles=humans, primary=primary,
                          plan=p, env=env, partner=partner, record=record)
        self.sessions[sid] = session
        return session

    def _index(self, data: dict[str, Any]) -> None:
        for role, digest in dict(data.get("seats") or {}).items():
            self.by_seat[str(digest)] = (str(data["id"]), str(role))
        for role, digest in dict(data.get("invites") or {}).items():
            self.by_invite[str(digest)] = (str(data["id"]), str(role))

    async def restore(self) -> int:
        """After a restart: index every saved session's seats and rebuild the unfinished ones (a
        finished one is rebuilt when its link is opened); a record already written is not written again."""
        count = 0
        recorded = {str(r["session"]) for r in read_episodes(self.out_dir / "episodes.jsonl", repair=False)
                    if r.get("session")}
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self._index(data)
                if not data.get("saved"):
                    session = await self._load(str(data["id"]), already_recorded=str(data["id"]) in recorded)
                    for role in session.seats:
                        session.last_seen[role] = time.time()  # a grace period to come back
                count += 1
            except Exception as error:  # one broken file must not stop the server
                print(f"comma_env.play: cannot restore {path.name}: {type(error).__name__}")
        return count

    async def _load(self, sid: str, already_recorded: bool = False) -> Session:
        """Rebuild a session from its file by replaying its messages."""
        data = json.loads((self.folder / f"{sid}.json").read_text(encoding="utf-8"))
        session = self._build(data["id"], data["puzzle"], int(data["seed"]), tuple(data["human_roles"]),
                              str(data.get("primary", self.cfg.role)))
        session.seats = dict(data.get("seats") or {})
        session.invites = dict(data.get("invites") or {})
        session.participants = dict(data.get("participants") or {})
        session.created = float(data.get("created", session.created))
        session.saved = bool(data.get("saved")) or already_recorded
        session.error = data.get("error")
        scripted = self.policy is not None and self.policy.replayable  # its state is rebuilt below
        for item in data.get("messages", []):
            sent = Sent(item["role"], item["text"], item.get("client_id"), int(item.get("tokens", 0)))
            if sent.role not in session.human_roles and session.partner is not None and scripted:
                obs, _, _, _, info = session.env.last()
                await session.partner.act(obs, info)  # rebuilds the partner's notes; its answer is known
            try:
                session.env.step(sent.text)
            except Exception:  # the fault recorded in `error` when it first happened
                break
            session.messages.append(sent)
        if session.error and session.error.startswith(ABANDONED):
            session.raw.abort(ABANDONED)
        if already_recorded and not data.get("saved"):
            self._persist(session)  # marked saved
        if not session.done:
            self._after_step(session)
        elif not session.saved:
            await self._save(session)
        return session

    # -- seats ------------------------------------------------------------------------------------
    async def lookup(self, token: str) -> tuple[Session, str]:
        found = self.by_seat.get(token_hash(token))
        if found is None:
            raise HTTPException(404, "no such game (check the link)")
        return await self._session(found[0]), found[1]

    async def _session(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            try:
                session = await self._load(sid)
            except (OSError, ValueError, KeyError):
                raise HTTPException(404, "this game cannot be rebuilt") from None
        return session

    async def redeem(self, invite: str, holder: set[str]) -> tuple[Session, str, str]:
        """Take the seat an invite grants, once. `holder`: session ids this browser already
        sits in (a player may not take both seats of one game through its own invite)."""
        digest = token_hash(invite)
        found = self.by_invite.get(digest)
        if found is None:
            raise HTTPException(404, "this invitation was used already or does not exist")
        session = await self._session(found[0])
        if session.id in holder:
            raise HTTPException(403, "you already play in this game; send the invitation to the other player")
        async with session.lock:
            if session.invites.get(found[1]) != digest:
                raise HTTPException(404, "this invitation was used already or does not exist")
            del session.invites[found[1]]
            self.by_invite.pop(digest, None)
            token = self._seat(session, found[1])
            self._persist(session)
        bump(session)
        return session, found[1], token

    # -- ending a game from outside ------------------------------------------------------------
    async def abandon(self, session: Session, reason: str) -> None:
        async with session.lock:
            if session.done:
                return
            session.error = reason if reason.startswith(ABANDONED) else f"{ABANDONED}: {reason}"
            session.raw.abort(ABANDONED)
            self._persist(session)
            await self._save(session)
        bump(session)

    def _evict(self) -> None:
        """Keep at most `KEEP_FINISHED` finished sessions in memory (the oldest go; their
        links still work: they are rebuilt from their files when opened)."""
        finished = [s for s in self.sessions.values() if s.saved and not s.partner_busy]
        for session in sorted(finished, key=lambda s: s.created)[:max(0, len(finished) - KEEP_FINISHED)]:
            del self.sessions[session.id]

    # -- playing --------------------------------------------------------------------------------
    async def submit(self, session: Session, role: str, text: str, client_id: str | None) -> None:
        """A person's message; repeated `client_id`s (a resent request) are accepted once."""
        text = to_text(text)
        if len(text) > MAX_MESSAGE_CHARS:
            raise HTTPException(413, f"message longer than {MAX_MESSAGE_CHARS} characters")
        if not text.strip():
            raise HTTPException(400, "empty message")
        async with session.lock:
            if client_id and any(m.client_id == client_id for m in session.messages):
                return
            if session.done:
                raise HTTPException(409, "the episode is over")
            if session.to_move != role:
                raise HTTPException(409, f"it is the {session.to_move}'s turn")
            await self._step(session, Sent(role, text, client_id))

    async def _step(self, session: Session, sent: Sent) -> None:
        try:
            session.env.step(sent.text)
        except Exception as error:  # an environment fault ends the episode as an error record, never a 500
            session.error = f"environment: {type(error).__name__}: {error}"[:500]
        session.messages.append(sent)
        session.last_move = time.time()
        self._persist(session)
        if session.done:
            await self._save(session)
        bump(session)
        self._after_step(session)

    def _after_step(self, session: Session) -> None:
        """Start the partner's reply when it is the partner's move."""
        if session.done or session.partner is None or session.to_move in session.human_roles or session.partner_busy:
            return
        session.partner_busy = True
        task = asyncio.get_running_loop().create_task(self._partner_turn(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _partner_turn(self, session: Session) -> None:
        role = session.to_move
        assert session.partner is not None and role is not None
        try:
            obs, _, _, _, info = session.env.last(observe=session.partner.needs_observation)
            reply = await session.partner.act(obs, info)
        except asyncio.CancelledError:
            session.partner_busy = False
            raise
        except Exception as error:  # recorded like a rollout episode error, never lost (nor shown)
            async with session.lock:
                session.partner_busy = False
                session.error = f"{role}: {type(error).__name__}: {error}"
                self._persist(session)
                await self._save(session)
                bump(session)
            return
        async with session.lock:
            session.partner_busy = False
            if session.done or session.to_move != role:
                return
            await self._step(session, Sent(role, to_text(reply.text), None, int(reply.completion_tokens)))

    def end_waits(self) -> None:
        """The server is stopping: every long poll returns now, and any new one at once."""
        self.closing = True
        for session in self.sessions.values():
            session.changed.set()
        for wake in self.on_closing:
            wake()

    async def wait(self, session: Session, since: int, timeout: float, role: str) -> None:
        """`wait_for_change` on a session; while it waits, `role`'s player counts as present."""
        session.watching[role] = session.watching.get(role, 0) + 1
        try:
            await wait_for_change(session, since, timeout, self.closing)
        finally:
            session.watching[role] -= 1
            session.last_seen[role] = time.time()

    # -- files -------------------------------------------------------------------------------------
    def _persist(self, session: Session) -> None:
        """Write the session (settings, hashed seats, messages) atomically, mode 0600."""
        write_private_json(self.folder, f"{session.id}.json", session_data(session))

    async def _save(self, session: Session) -> None:
        if session.saved:
            return
        record = episode_record(session)
        async with self._writer_lock:
            try:
                append_record(self.out_dir / "episodes.jsonl", record)
            except (OSError, ValueError) as error:  # not saved: written again at the next start
                print(f"comma_env.play: the record of session {session.id} could not be saved "
                      f"({type(error).__name__}: {error})", file=sys.stderr)
                return
        session.saved = True
        self._persist(session)
        for callback in self.on_saved:
            callback(session)
        self._evict()


def describe_hint(session: Session) -> str | None:
    """For a person playing the solver with the scripted expert: what to tell it, in words (the
    things its manual needs on this puzzle)."""
    if session.partner is None or "solver" not in session.human_roles or session.plan.expert.kind != "oracle":
        return None
    cls = session.raw.puzzle_cls
    state = cls.redact(dict(session.raw.visible_state))
    things = [k.replace("_", " ") for k in state if k not in cls.drawing_only_keys]
    return "Worth mentioning: " + ", ".join(things) + "."
