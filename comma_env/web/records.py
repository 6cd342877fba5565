"""A play session on disk (``<out_dir>/sessions/<id>.json``, mode 0600, tokens only hashed) and its
episode record, the rollout's, so the tables and the report read play folders unchanged."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from comma_env.run.results import EpisodeWriter, read_episodes, write_atomic
from comma_env.web.playconfig import ROLES


def token_hash(token: str) -> str:
    """What is stored of a secret token (tokens carry 144 random bits: a plain hash suffices)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def write_private_json(folder: Path, name: str, data: Any) -> Path:
    """Write `data` as ``folder/name`` atomically, readable by the owner only."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return write_atomic(folder / name, json.dumps(data), mode=0o600)  # ASCII escapes: any string survives


def session_data(session: Any) -> dict[str, Any]:
    """The file contents of a session (no plain token anywhere)."""
    return {"id": session.id, "puzzle": session.puzzle, "seed": session.seed, "human_roles": list(session.human_roles),
            "primary": session.primary, "seats": session.seats, "invites": session.invites,
            "participants": session.participants, "created": session.created, "saved": session.saved,
            "error": session.error, "messages": [vars(m) for m in session.messages]}


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Append `record` to the episodes file (a torn last line is cut first) and read it back;
    `ValueError` when what was written cannot be read back as the record."""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                read_episodes(path, repair=True)
    start = path.stat().st_size if path.exists() else 0
    with EpisodeWriter(path) as writer:
        writer.write(record)
    with path.open("rb") as handle:
        handle.seek(start)
        written = json.loads(handle.readline())
    if not isinstance(written, dict) or written.get("session") != record.get("session"):
        raise ValueError(f"{path} does not hold the record just written")


def episode_record(session: Any) -> dict[str, Any]:
    """The rollout's record of a finished, failed or abandoned session."""
    from comma_env.agents.runner import annotate
    from comma_env.protocol.policy import Reply

    raw = session.raw
    record = dict(session.record)
    record.update({k: v for k, v in raw.episode_summary().items() if k not in ("puzzle", "seed")})
    if session.error and not raw.end_reason:
        record["end_reason"] = "error"
    sent = {role: [Reply(m.text, completion_tokens=m.tokens) for m in session.messages if m.role == role]
            for role in ROLES}
    tokens = {role: {"prompt_tokens": 0, "completion_tokens": sum(r.completion_tokens for r in sent[role]),
                     "calls": len(sent[role]) if role not in session.human_roles else 0} for role in ROLES}
    record.update(tokens=sum(t["completion_tokens"] for t in tokens.values()), prompt_tokens=0,
                  tokens_by_role=tokens, error=session.error, seconds=round(time.time() - session.created, 4),
                  transcript=annotate(raw.transcript, sent), session=session.id)
    if session.participants:
        record["participants"] = dict(session.participants)
    return record
