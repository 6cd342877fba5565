"""Turn a rollout folder into chat-format JSONL for supervised fine-tuning or RL.

Each episode is replayed and checked; each turn of the chosen roles is a row (PNGs under ``images/``)."""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from omegaconf import OmegaConf

import comma_env
from comma_env.drawing.common import png_bytes
from comma_env.protocol.logprobs import from_record, token_ids
from comma_env.rl.logprob_align import server_tokens
from comma_env.run.results import saved_records, write_atomic

FORMATS = ("sft", "rl")
ROLES = ("solver", "expert")
IMAGE_PLACEHOLDER = "data:image/png;base64,EXPORT"  # replaced by a file reference


@dataclass
class ExportStats:
    episodes: int = 0
    rows: int = 0
    skipped_errors: int = 0
    skipped_unsuccessful: int = 0
    skipped_mismatch: int = 0
    images: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class Turn:
    """One message of one role in a replayed episode."""

    role: str
    turn: int
    prompt: list[dict[str, Any]]
    reply: str
    image: Any = None
    reward: float = 0.0
    logprobs: dict[str, Any] | None = None  # the record's <role>_logprobs, as written
    token_ids: dict[str, list[int]] | None = None  # the record's <role>_token_ids, checked


def privacy_reminder(run_dir: Path) -> bool:
    """Whether the solver's system prompt carried the privacy reminder (chat policies'
    ``extra.privacy_reminder``, default true), from the run's saved config."""
    try:  # the first config file; none, or an unreadable one: the default
        config = OmegaConf.to_container(OmegaConf.load(sorted(run_dir.glob("config*.yaml"))[0]))
        extra = ((config or {}).get("solver") or {}).get("extra") or {}
        return bool(extra.get("privacy_reminder", True))
    except Exception:
        return True


def replay(record: dict[str, Any], reminder: bool = True,
           image_sink: Callable[[Any], str] | None = None) -> tuple[list[Turn], float]:
    """The turns of both roles and the episode's return (ValueError when the actions do not replay);
    `image_sink` turns each image into a file name, so a long episode holds no pixels."""
    from comma_env.protocol.prompts import PromptOptions

    options = dict(
        max_turns=int(record.get("max_turns", 10)),
        max_mistakes=int(record.get("max_mistakes", 3)),
        memory=record.get("memory", "full"),
        solver_view=record.get("solver_view", "image"),
        action_matching=record.get("action_matching", "exact"),
        puzzle_options=record.get("puzzle_options") or {},
        **(record.get("reward") or {}),
    )
    prompt_options = PromptOptions(privacy_reminder=reminder, describe_audio=record.get("audio_input") == "description")
    env = comma_env.make(record["puzzle"], **options)
    env.reset(seed=int(record["seed"]))
    raw = env.unwrapped
    turns: list[Turn] = []
    pending = {"solver": 0.0, "expert": 0.0}  # rewards before a role's first message
    last: dict[str, Turn] = {}

    def credit(reward: float) -> None:
        for role in ROLES:
            if role in last:
                last[role].reward += reward
            else:
                pending[role] += reward

    for entry in record.get("transcript") or []:
        for role, text in (("solver", entry["solver"]), ("expert", entry.get("expert"))):
            if text is None or raw.end_reason is not None:
                continue
            info = raw.infos[role]
            observation = raw.observe(role)
            image = observation.get("image")
            if image is not None and image_sink is not None:
                image = image_sink(image)
            url = IMAGE_PLACEHOLDER if image is not None else None
            prompt = raw.messages(role, observation, info, url, prompt_options)
            turn = Turn(role, int(raw.turn) + (1 if role == "solver" else 0), prompt, text, image,
                        reward=pending[role], logprobs=_recorded_logprobs(entry.get(f"{role}_logprobs")),
                        token_ids=token_ids(ids.get("prompt"), ids.get("completion")) if isinstance(
                            ids := entry.get(f"{role}_token_ids"), dict) else None)
            pending[role] = 0.0
            last[role] = turn
            turns.append(turn)
            env.step(text)
            credit(float(raw.rewards.get(role, 0.0)))
    replayed = [(t["actions"], t["outcomes"]) for t in raw.transcript]
    recorded = [(t.get("actions", []), t.get("outcomes", [])) for t in record.get("transcript") or []]
    if replayed != recorded:
        raise ValueError(f"replay of {record['puzzle']} seed {record['seed']} does not match its record")
    return turns, float(raw.episode_return)


def _recorded_logprobs(value: Any) -> dict[str, Any] | None:
    """A turn's recorded log-probabilities, checked; None when absent or damaged."""
    if value is None:
        return None
    found, _ = from_record(value)
    return found.as_record() if found is not None else None


def _parts(content: Any) -> list[dict[str, Any]]:
    """A message content as a list of text/image parts (one schema for every line)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [{"type": "image", "text": None} if part.get("type") == "image_url"
            else {"type": "text", "text": part.get("text", "")} for part in content]


def image_name(puzzle: str, pixels: Any) -> str:
    """``<puzzle>-<hash of the pixels>.png``: two exports into one folder share a file only
    when their pictures are identical, whatever run, seed or turn they come from."""
    array = np.ascontiguousarray(pixels)
    digest = hashlib.sha256(repr((array.shape, str(array.dtype))).encode() + array.tobytes()).hexdigest()[:24]
    return f"{puzzle}-{digest}.png"


class UnsafeOutput(ValueError):
    """--out names a file the export must not replace."""


def check_out(out_path: Path, run_dir: Path, force: bool) -> None:
    """Refuse to write over a run's episodes (always) or any existing file (without `force`)."""
    protected = {p.resolve() for p in run_dir.glob("episodes*.jsonl")}
    if out_path.resolve() in protected or (out_path.name.startswith("episodes") and out_path.suffix == ".jsonl"):
        raise UnsafeOutput(f"--out {out_path} is a run's episodes file; the export never writes over one")
    if out_path.exists() and not force:
        raise UnsafeOutput(f"--out {out_path} exists; add --force to replace it")


def image_writer(puzzle: str, image_dir: Path, stats: ExportStats) -> Callable[[Any], str]:
    """A `replay` image sink: writes each distinct picture once and returns its file name."""

    def sink(pixels: Any) -> str:
        name = image_name(puzzle, pixels)
        path = image_dir / name
        if not path.is_file() or path.is_symlink():  # same name, same pixels: reuse it
            write_atomic(path, png_bytes(pixels))
            stats.images += 1
        return name

    return sink


def rows(record: dict[str, Any], fmt: str, roles: tuple[str, ...], image_dir: Path, image_prefix: str,
         reminder: bool, stats: ExportStats) -> Iterator[dict[str, Any]]:
    turns, episode_return = replay(record, reminder, image_writer(str(record["puzzle"]), image_dir, stats))
    for role in roles:
        mine = [t for t in turns if t.role == role]
        returns_to_go = list(itertools.accumulate(t.reward for t in reversed(mine)))[::-1]
        for turn, return_to_go in zip(mine, returns_to_go, strict=True):
            images = [f"{image_prefix}/{turn.image}"] if turn.image is not None else []
            prompt = [{"role": m["role"], "content": _parts(m["content"])} for m in turn.prompt]
            reply = [{"role": "assistant", "content": [{"type": "text", "text": turn.reply}]}]
            row: dict[str, Any] = {
                "id": f"{record['puzzle']}-{record['seed']}-{role}-{turn.turn}",
                "puzzle": record["puzzle"],
                "seed": int(record["seed"]),
                "role": role,
                "turn": turn.turn,
                "images": images,
                "success": bool(record.get("success")),
                "progress": float(record.get("progress") or 0.0),
                "privacy_leaks": list(record.get("privacy_leaks") or []),
                "privacy_unsure": list(record.get("privacy_unsure") or []),
                "solver_model": record.get("solver_model"),
                "expert_model": record.get("expert_model"),
            }
            if fmt == "sft":
                row["messages"] = prompt + reply
            else:
                row.update(prompt=prompt, completion=reply, reward=turn.reward, return_to_go=return_to_go,
                           episode_return=episode_return, reply_logprobs=turn.logprobs,
                           reply_token_ids=turn.token_ids, token_source=None)
                row.update(server_tokens(turn.token_ids, turn.logprobs) or {})
            yield row


def export(run_dir: str | Path, fmt: str = "sft", out: str | Path | None = None, successful_only: bool = False,
           roles: tuple[str, ...] = ROLES, force: bool = False) -> ExportStats:
    """Write the JSONL (default ``RUN_DIR/export/<fmt>.jsonl``, replaced on a new export) and
    its images. An `out` that exists is replaced only with `force`; a run's episodes file never."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
    run_dir = Path(run_dir)
    records = saved_records(run_dir)
    if not records:
        raise FileNotFoundError(f"no episodes*.jsonl with episodes in {run_dir}")
    out_path = Path(out) if out else run_dir / "export" / f"{fmt}.jsonl"
    check_out(out_path, run_dir, force=force or out is None)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    image_dir = out_path.parent / "images"
    reminder = privacy_reminder(run_dir)
    stats = ExportStats()
    tmp = out_path.with_suffix(out_path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for record in records:
            if record.get("error"):
                stats.skipped_errors += 1
                continue
            if successful_only and not record.get("success"):
                stats.skipped_unsuccessful += 1
                continue
            if record.get("solver_view", "image") == "image":
                image_dir.mkdir(exist_ok=True)
            try:
                lines = list(rows(record, fmt, roles, image_dir, "images", reminder, stats))
            except (ValueError, KeyError, TypeError) as error:
                stats.skipped_mismatch += 1
                stats.notes.append(str(error))
                continue
            for row in lines:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            stats.rows += len(lines)
            stats.episodes += 1
    tmp.replace(out_path)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", help="a rollout out_dir (episodes*.jsonl)")
    parser.add_argument("--format", choices=FORMATS, default="sft")
    parser.add_argument("--out", help="JSONL to write (default RUN_DIR/export/<format>.jsonl); images go beside it")
    parser.add_argument("--force", action="store_true", help="replace an existing --out file (never a run's episodes)")
    parser.add_argument("--successful-only", action="store_true", help="only episodes that solved the puzzle")
    parser.add_argument("--role", choices=(*ROLES, "both"), default="both", help="whose turns to export")
    parser.add_argument("--tokenizer", help="rl only: add input_ids, the learner's loss_mask and the recorded "
                        "log-probabilities aligned to the ids, with this tokenizer (a .gguf file, a folder or a "
                        "cached name; comma_env/rl/tokens.py)")
    parser.add_argument("--dataset", help="also write a Hugging Face dataset folder here (parquet with Image "
                        "features and a dataset card; comma_env/rl/hf_dataset.py)")
    parser.add_argument("--push-to-hub", metavar="REPO", help="push that dataset to the Hub as REPO (user/name; "
                        "default --dataset RUN_DIR/export/<format>_dataset)")
    args = parser.parse_args(argv)
    if args.tokenizer and args.format != "rl":
        parser.error("--tokenizer needs --format rl")
    roles = ROLES if args.role == "both" else (args.role,)
    try:
        stats = export(args.run_dir, args.format, args.out, args.successful_only, roles, force=args.force)
    except (FileNotFoundError, ValueError) as error:  # UnsafeOutput is one: exit 2, nothing written
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a full disk or a read-only folder while writing
        print(f"error: cannot write the export: {error}", file=sys.stderr)
        return 1
    out = args.out or str(Path(args.run_dir) / "export" / f"{args.format}.jsonl")
    print(f"{stats.rows} rows from {stats.episodes} episodes -> {out} ({stats.images} images); skipped: "
          f"{stats.skipped_errors} with errors, {stats.skipped_unsuccessful} unsuccessful, "
          f"{stats.skipped_mismatch} not reproducible")
    for note in stats.notes[:5]:
        print(f"  {note}", file=sys.stderr)
    if args.tokenizer:
        from comma_env.rl.tokens import add_tokens, load_tokenizer

        rows = add_tokens(out, load_tokenizer(args.tokenizer), args.tokenizer)
        print(f"tokens added to {rows} rows with {args.tokenizer}")
    if args.dataset or args.push_to_hub:
        from comma_env.rl import hf_dataset

        folder = hf_dataset.write(out, args.run_dir, args.format,
                                  args.dataset or Path(args.run_dir) / "export" / f"{args.format}_dataset")
        print(f"dataset -> {folder}")
        if args.push_to_hub:
            print(f"pushed to {hf_dataset.push(folder, args.push_to_hub)}")
    return 0
