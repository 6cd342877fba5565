"""Play sessions: one episode each, kept on the server, resumable by URL, saved as records.

A session holds the environment, the partner player (a model, the oracle, or nobody when two
people play) and every message sent so far. Each role has its own secret token: the page
of a role is ``/play/<token>``, so the expert's link never reveals the solver's image. The
messages are also written to ``<out_dir>/sessions/<id>.json`` after every step, so a
restarted server rebuilds each unfinished session by replaying them (the environment is
deterministic given seed and messages). A finished episode is appended to
``<out_dir>/episodes.jsonl`` in the rollout's record format, with model name ``human``.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import comma_env
from comma_env.protocol.policy import Player, Policy
from comma_env.registry import VERSIONS
from comma_env.run.results import EpisodeWriter, describe_mismatch, read_episodes, settings_mismatch
from comma_env.run.rollout import Plan, base_record, initial_state, plan
from comma_env.protocol.text import DESCRIPTION_HEADER, to_text
from comma_env.web.playconfig import ROLES, PlayConfig, rollout_config

MAX_MESSAGE_CHARS = 20_000
"""Longest message a person may send (the environment cuts at its own limit after that)."""

KEEP_FINISHED = 200
"""Finished sessions kept in memory; older ones are rebuilt from their files on demand."""

SCRIPTED_KINDS = ("oracle", "random")
"""Partners whose memory is rebuilt by re-running them when a session is restored."""


class PlayError(Exception):
    """A request that cannot be honoured; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
    tokens: dict[str, str]  # role -> secret
    plan: Plan
    env: Any
    partner: Player | None
    created: float = field(default_factory=time.time)
    messages: list[Sent] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    saved: bool = False
    error: str | None = None
    version: int = 0
    partner_busy: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    @property
    def raw(self) -> Any:
        return self.env.unwrapped

    @property
    def done(self) -> bool:
        return self.raw.end_reason is not None or self.error is not None

    @property
    def to_move(self) -> str | None:
        return None if self.done else self.env.agent_selection


class SessionStore:
    """Every session of a server, by id and by role token."""

    def __init__(self, cfg: PlayConfig, policy: Policy | None, out_dir: Path) -> None:
        self.cfg = cfg
        self.policy = policy
        self.out_dir = out_dir
        self.folder = out_dir / "sessions"
        self.sessions: dict[str, Session] = {}
        self.by_token: dict[str, tuple[str, str]] = {}  # token -> (session id, role), for every session
        self.tasks: set[asyncio.Task[Any]] = set()
        self._writer_lock = asyncio.Lock()

    # -- creation and restore ---------------------------------------------------------------
    def check_out_dir(self) -> None:
        """Refuse an out_dir holding episodes of other settings (as the rollout does)."""
        for record in read_episodes(self.out_dir / "episodes.jsonl", repair=False):
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
        """The first seed from ``first_seed`` on that is neither saved nor in play."""
        taken = {int(r.get("seed") or 0) for r in read_episodes(self.out_dir / "episodes.jsonl", repair=False)
                 if r.get("puzzle") == puzzle}
        taken |= {s.seed for s in self.sessions.values() if s.puzzle == puzzle and not s.saved}
        seed = self.cfg.first_seed
        while seed in taken:
            seed += 1
        return seed

    def create(self, puzzle: str | None = None, seed: int | None = None) -> Session:
        puzzle = puzzle or self.cfg.puzzle
        if puzzle not in VERSIONS:
            raise PlayError(400, f"unknown puzzle {puzzle!r}")
        if sum(1 for s in self.sessions.values() if not s.done) >= self.cfg.max_sessions:
            raise PlayError(429, "too many unfinished sessions on this server")
        if seed is None:
            seed = self.cfg.seed if self.cfg.seed is not None and puzzle == self.cfg.puzzle else self.next_seed(puzzle)
        if seed < 0:
            raise PlayError(400, "seed must be >= 0")
        humans = tuple(ROLES) if self.cfg.partner == "human" else (self.cfg.role,)
        tokens = {role: secrets.token_urlsafe(18) for role in humans}
        session = self._build(secrets.token_hex(8), puzzle, seed, humans, tokens)
        self._persist(session)
        self._after_step(session)
        return session

    def _build(self, sid: str, puzzle: str, seed: int, humans: tuple[str, ...], tokens: dict[str, str]) -> Session:
        p = self._plan(puzzle, seed)
        record = base_record(p, puzzle, seed)
        env = comma_env.make(puzzle, max_turns=p.cfg.max_turns, max_mistakes=p.cfg.max_mistakes,
                             memory=record["memory"], solver_view=record["solver_view"],
                             action_matching=p.cfg.action_matching, puzzle_options=record["puzzle_options"])
        env.reset(seed=seed)
        record["initial_state"] = initial_state(env)
        partner_role = next((r for r in ROLES if r not in humans), None)
        partner = self.policy.player(partner_role, env, seed) if partner_role and self.policy else None
        session = Session(id=sid, puzzle=puzzle, seed=seed, human_roles=humans, primary=self.cfg.role,
                          tokens=tokens, plan=p, env=env, partner=partner, record=record)
        self.sessions[sid] = session
        for role, token in tokens.items():
            self.by_token[token] = (sid, role)
        return session

    async def restore(self) -> int:
        """After a server restart: index every saved session's links, and rebuild the
        unfinished ones (finished ones are rebuilt when their link is opened)."""
        count = 0
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                for role, token in dict(data["tokens"]).items():
                    self.by_token[str(token)] = (str(data["id"]), str(role))
                if not data.get("saved"):
                    await self._load(str(data["id"]))
                count += 1
            except Exception as error:  # one broken file must not stop the server
                print(f"comma_env.play: cannot restore {path.name}: {type(error).__name__}: {error}")
        return count

    async def _load(self, sid: str) -> Session:
        """Rebuild a session from its file by replaying its messages."""
        data = json.loads((self.folder / f"{sid}.json").read_text(encoding="utf-8"))
        session = self._build(data["id"], data["puzzle"], int(data["seed"]), tuple(data["human_roles"]), dict(data["tokens"]))
        session.created = float(data.get("created", session.created))
        session.saved = bool(data.get("saved"))
        session.error = data.get("error")
        scripted = self.policy is not None and getattr(self.policy, "name", "") in SCRIPTED_KINDS
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
        if not session.done:
            self._after_step(session)
        elif not session.saved:
            await self._save(session)
        return session

    # -- playing --------------------------------------------------------------------------------
    async def lookup(self, token: str) -> tuple[Session, str]:
        found = self.by_token.get(token)
        if found is None:
            raise PlayError(404, "no such session (check the link)")
        sid, role = found
        session = self.sessions.get(sid)
        if session is None:
            try:
                session = await self._load(sid)
            except (OSError, ValueError, KeyError) as error:
                raise PlayError(404, f"this session cannot be rebuilt ({type(error).__name__})") from None
        return session, role

    def _evict(self) -> None:
        """Keep at most `KEEP_FINISHED` finished sessions in memory (the oldest go; their
        links still work: they are rebuilt from their files when opened)."""
        finished = [s for s in self.sessions.values() if s.saved and not s.partner_busy]
        for session in sorted(finished, key=lambda s: s.created)[:max(0, len(finished) - KEEP_FINISHED)]:
            del self.sessions[session.id]

    async def submit(self, session: Session, role: str, text: str, client_id: str | None) -> None:
        """A person's message; repeated `client_id`s (a resent request) are accepted once."""
        text = to_text(text)
        if len(text) > MAX_MESSAGE_CHARS:
            raise PlayError(413, f"message longer than {MAX_MESSAGE_CHARS} characters")
        if not text.strip():
            raise PlayError(400, "empty message")
        async with session.lock:
            if client_id and any(m.client_id == client_id for m in session.messages):
                return
            if session.done:
                raise PlayError(409, "the episode is over")
            if session.to_move != role:
                raise PlayError(409, f"it is the {session.to_move}'s turn")
            await self._step(session, Sent(role, text, client_id))

    async def _step(self, session: Session, sent: Sent) -> None:
        try:
            session.env.step(sent.text)
        except Exception as error:  # an environment fault ends the episode as an error record, never a 500
            session.error = f"environment: {type(error).__name__}: {error}"[:500]
        session.messages.append(sent)
        self._persist(session)
        if session.done:
            await self._save(session)
        await self._bump(session)
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
        except Exception as error:  # recorded like a rollout episode error, never lost
            async with session.lock:
                session.partner_busy = False
                session.error = f"{role}: {type(error).__name__}: {error}"
                self._persist(session)
                await self._save(session)
                await self._bump(session)
            return
        async with session.lock:
            session.partner_busy = False
            if session.done or session.to_move != role:
                return
            await self._step(session, Sent(role, to_text(reply.text), None, int(reply.completion_tokens)))

    async def _bump(self, session: Session) -> None:
        session.version += 1
        async with session.changed:
            session.changed.notify_all()

    async def wait(self, session: Session, since: int, timeout: float) -> None:
        """Return when the session's version moves past `since` or after `timeout` seconds."""
        if session.version != since:
            return
        async with session.changed:
            try:
                await asyncio.wait_for(session.changed.wait_for(lambda: session.version != since), timeout)
            except asyncio.TimeoutError:
                pass

    # -- files -------------------------------------------------------------------------------------
    def _persist(self, session: Session) -> None:
        """Write the session (settings, tokens, messages) atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"id": session.id, "puzzle": session.puzzle, "seed": session.seed, "human_roles": list(session.human_roles),
                "tokens": session.tokens, "created": session.created, "saved": session.saved, "error": session.error,
                "messages": [vars(m) for m in session.messages]}
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=self.folder, prefix=".", suffix=".tmp",
                                         delete=False) as handle:
            json.dump(data, handle)  # ASCII escapes: any string survives
        os.replace(handle.name, self.folder / f"{session.id}.json")

    def episode_record(self, session: Session) -> dict[str, Any]:
        """The rollout's record of a finished (or failed) session."""
        from comma_env.protocol.policy import Reply
        from comma_env.agents.runner import annotate

        raw = session.raw
        record = dict(session.record)
        summary = raw.episode_summary()
        summary.pop("puzzle", None)
        summary.pop("seed", None)
        record.update(summary)
        if session.error and not raw.end_reason:
            record["end_reason"] = "error"
        sent = {role: [Reply(m.text, completion_tokens=m.tokens) for m in session.messages if m.role == role] for role in ROLES}
        tokens = {role: {"prompt_tokens": 0, "completion_tokens": sum(r.completion_tokens for r in sent[role]),
                         "calls": len(sent[role]) if role not in session.human_roles else 0} for role in ROLES}
        record.update(tokens=sum(t["completion_tokens"] for t in tokens.values()), prompt_tokens=0,
                      tokens_by_role=tokens, error=session.error, seconds=round(time.time() - session.created, 4),
                      transcript=annotate(raw.transcript, sent), session=session.id)
        return record

    async def _save(self, session: Session) -> None:
        if session.saved:
            return
        record = self.episode_record(session)
        async with self._writer_lock:
            with EpisodeWriter(self.out_dir / "episodes.jsonl") as writer:
                writer.write(record)
        session.saved = True
        self._persist(session)
        self._evict()


def describe_hint(session: Session) -> str | None:
    """For a person playing the solver with the scripted expert: the one format it reads, with
    the field names of this puzzle and no values."""
    if session.partner is None or "solver" not in session.human_roles or session.plan.expert.kind != "oracle":
        return None
    cls = session.raw.puzzle_cls
    state = cls.redact(dict(session.raw.visible_state))
    keys = [k for k in state if k not in cls.drawing_only_keys]
    return "\n".join([DESCRIPTION_HEADER, *(f"{k.replace('_', ' ')}: " for k in keys)])
