"""Reading one submission, a run folder, as untrusted input: only regular files directly inside are
read (a symlink is reported), every line is held to `Limits`, an unusable one is a `Problem`."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comma_env.run.results import latest_per_episode, ordered
from comma_env.web.episode_lines import problem


@dataclass(frozen=True)
class Limits:
    """How much of a submission is read; what exceeds a limit is reported, not read."""

    file_bytes: int = 512 * 1024 * 1024  # one episodes file
    submission_bytes: int = 2 * 1024 * 1024 * 1024  # all the episode files of one submission
    line_bytes: int = 16 * 1024 * 1024  # one episode record
    files: int = 1000  # episode files (shards)
    episodes: int = 100_000  # records
    turns: int = 1000  # transcript entries of one record
    meta_bytes: int = 1024 * 1024  # submission.json, config.yaml, results.json


@dataclass
class Problem:
    """Something in a submission that could not be read or used: where, and why."""

    file: str  # the file's name inside the submission
    line: int | None
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}" if self.line else f"{self.file}: {self.reason}"


@dataclass
class Submission:
    """The records of one submission (one per puzzle and seed) and what it says about itself."""

    folder: Path
    name: str
    records: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # in the episode files
    warnings: list[Problem] = field(default_factory=list)  # in submission.json, config.yaml, results.json
    description: str = ""
    url: str = ""
    provenance: dict[str, str] = field(default_factory=dict)  # package version, git commit, python
    duplicates: int = 0  # records that repeat an episode (a retried one): the last is kept


NAME_CHARS = 80
DESCRIPTION_CHARS = 2000
PROVENANCE_KEYS = ("comma_env", "python", "platform")  # and the git commit


def read_file(folder: Path, name: str, limit: int) -> bytes:
    """The bytes of ``folder/name``: a regular file, opened without following a symlink,
    at most `limit` bytes. Raises OSError or ValueError saying why not."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(folder / name, flags)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{info.st_size:,} bytes, more than the limit of {limit:,}")
        with os.fdopen(handle, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    finally:
        os.close(handle)
    if len(data) > limit:
        raise ValueError(f"more than the limit of {limit:,} bytes")
    return data


def episode_file_names(folder: Path, out: Submission, limits: Limits) -> list[str]:
    """Names of the episode files directly in `folder`; symlinks and other entries reported."""
    names = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not (entry.name.startswith("episodes") and entry.name.endswith(".jsonl")):
                continue
            if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                out.problems.append(Problem(entry.name, None, "a symbolic link or not a regular file: not read"))
                continue
            names.append(entry.name)
    names.sort()
    if len(names) > limits.files:
        out.problems.append(Problem(names[limits.files], None, f"more than {limits.files} episode files: "
                                    "the rest are not read"))
    return names[:limits.files]


def parse_lines(name: str, data: bytes, out: Submission, limits: Limits, budget: int) -> list[dict[str, Any]]:
    """The usable records among the lines of one file (at most `budget`); every other
    non-empty line becomes a `Problem` naming its line."""
    records: list[dict[str, Any]] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        if len(records) >= budget:
            out.problems.append(Problem(name, number, f"more than {limits.episodes:,} records: the rest are not read"))
            break
        if len(line) > limits.line_bytes:
            out.problems.append(Problem(name, number, f"{len(line):,} bytes, more than the limit of "
                                        f"{limits.line_bytes:,} for one record"))
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as error:
            out.problems.append(Problem(name, number, f"not valid JSON ({str(error)[:80]})"))
            continue
        reason = problem(record)
        if reason is None and len(record.get("transcript") or []) > limits.turns:
            reason = f"a transcript of more than {limits.turns} turns"
        if reason is not None:
            out.problems.append(Problem(name, number, reason))
            continue
        records.append(record)
    return records


def read_json(folder: Path, name: str, out: Submission, limits: Limits) -> Any:
    """The JSON value of an optional file (None when absent or unusable, which is reported)."""
    if not os.path.lexists(folder / name):
        return None
    try:
        return json.loads(read_file(folder, name, limits.meta_bytes))
    except (OSError, ValueError, RecursionError) as error:
        out.warnings.append(Problem(name, None, f"not read: {str(error)[:120]}"))
        return None


def read_manifest(folder: Path, out: Submission, limits: Limits) -> None:
    """``submission.json``: the entry's own name, a description and a web page, all optional."""
    manifest = read_json(folder, "submission.json", out, limits)
    if manifest is None:
        return
    if not isinstance(manifest, dict):
        out.warnings.append(Problem("submission.json", None, "not a JSON object"))
        return
    name, description, url = manifest.get("name"), manifest.get("description"), manifest.get("url")
    if isinstance(name, str) and name.strip() and len(name) <= NAME_CHARS:
        out.name = " ".join(name.split())
    elif name is not None:
        out.warnings.append(Problem("submission.json", None, f"name must be a text of 1-{NAME_CHARS} characters"))
    if isinstance(description, str) and len(description) <= DESCRIPTION_CHARS:
        out.description = description
    elif description is not None:
        out.warnings.append(Problem("submission.json", None, f"description must be a text of at most "
                                    f"{DESCRIPTION_CHARS} characters"))
    if isinstance(url, str) and url.startswith(("https://", "http://")) and len(url) <= 300 and url.isprintable():
        out.url = url
    elif url is not None:
        out.warnings.append(Problem("submission.json", None, "url must be an http(s) address"))


def read_provenance(folder: Path, out: Submission, limits: Limits) -> None:
    """The package version and commit the run recorded: the rollout's ``config.yaml`` (a
    shard's ``config.shard{i}of{k}.yaml``), else ``results.json``'s (a merge's)."""
    import yaml

    found: Any = None
    shards = sorted(p.name for p in folder.glob("config.shard*of*.yaml"))
    name = "config.yaml" if os.path.lexists(folder / "config.yaml") else next(iter(shards), None)
    if name is not None:
        try:
            config = yaml.safe_load(read_file(folder, name, limits.meta_bytes))
            found = config.get("provenance") if isinstance(config, dict) else None
        except (OSError, ValueError, yaml.YAMLError) as error:
            out.warnings.append(Problem(name, None, f"not read: {str(error)[:120]}"))
    if not isinstance(found, dict):
        results = read_json(folder, "results.json", out, limits)
        meta = results.get("meta") if isinstance(results, dict) else None
        found = meta.get("provenance") if isinstance(meta, dict) else None
    if not isinstance(found, dict):
        return
    out.provenance = {k: str(found[k])[:100] for k in PROVENANCE_KEYS if isinstance(found.get(k), str | int | float)}
    git = found.get("git")
    if isinstance(git, dict) and isinstance(git.get("commit"), str):
        out.provenance["git commit"] = git["commit"][:40] + (" (local changes)" if git.get("dirty") is True else "")


def load_submission(folder: str | os.PathLike[str], limits: Limits | None = None) -> Submission:
    """Read a submission folder; never raises for what the folder holds (see `Problem`)."""
    limits = limits or Limits()
    path = Path(folder)
    out = Submission(folder=path, name=path.resolve().name or "submission")
    if path.is_symlink() or not path.is_dir():
        out.problems.append(Problem(path.name, None, "not a folder (or a symbolic link): not read"))
        return out
    read_manifest(path, out, limits)
    read_provenance(path, out, limits)
    records: list[dict[str, Any]] = []
    total = 0
    for name in episode_file_names(path, out, limits):
        if total >= limits.submission_bytes:
            out.problems.append(Problem(name, None, f"not read: the submission's {limits.submission_bytes:,} "
                                        "bytes are used up"))
            continue
        try:
            data = read_file(path, name, min(limits.file_bytes, limits.submission_bytes - total))
        except (OSError, ValueError) as error:
            out.problems.append(Problem(name, None, f"not read: {error}"))
            continue
        total += len(data)
        records += parse_lines(name, data, out, limits, limits.episodes - len(records))
    if not records and not out.problems:
        out.problems.append(Problem(path.name, None, "no episodes*.jsonl with any record"))
    latest = latest_per_episode(records)
    out.duplicates = len(records) - len(latest)
    order = {p: i for i, p in enumerate(ordered(str(r.get("puzzle")) for r in latest.values()))}
    out.records = sorted(latest.values(), key=lambda r: (order[str(r.get("puzzle"))], int(r.get("seed") or 0)))
    return out
