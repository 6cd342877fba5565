"""Record the goldens that pin what users see: the solver's pictures and the prompts a model gets.

    python tests/golden/record.py frames    # tests/data/golden/frames.json.gz
    python tests/golden/record.py prompts   # tests/data/golden/prompts.json.gz, replies.json.gz

Run it only when a change to a picture or a prompt is intended, and say so in the commit.

Frames: for every registered puzzle, the hash of the solver's first picture at seeds 0..99,
and of every picture along recorded episodes (random, oracle, natural-language oracle and
realistic players, several seeds each, the default and the v1 protocol). The episodes are
kept as the messages the environment received, so replaying them needs no policy.

Prompts: rollouts of `model=openai_compat` against the scripted loopback server
(tests/support/loopback_server.py), in several settings (text and image views, both memory modes,
mixed pairs, audio, AsymPuzl). Every request body is kept (image and audio payloads as
hashes) with the reply it got, so the test replays the same conversations.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
DATA = TESTS / "data" / "golden"
sys.path[:0] = [str(TESTS.parent)]

from tests.golden.frames import episode_hashes, first_hashes  # noqa: E402

FRAME_RUNS: list[tuple[str, list[str]]] = [
    ("random", ["model=random", "episodes=6"]),
    ("oracle", ["model=oracle", "episodes=6"]),
    ("oracle_nl", ["model=oracle_nl", "episodes=4"]),
    ("realistic", ["model=realistic", "episodes=4"]),
    ("random_v1", ["model=random", "protocol=v1", "episodes=3", "seed=40"]),
    ("asympuzl_share_all", ["model=asympuzl_share_all", "puzzles=[asympuzl]", "episodes=4",
                            "+puzzle_options.asympuzl.view=image"]),
    ("asympuzl_one_piece", ["model=asympuzl_one_piece", "puzzles=[asympuzl]", "episodes=3", "seed=7",
                            "+puzzle_options.asympuzl.view=image", "+puzzle_options.asympuzl.distractors=3"]),
]
"""(name, rollout overrides) of the episodes whose pictures are pinned."""

PROMPT_RUNS: list[tuple[str, list[str]]] = [
    ("text_full", ["model=openai_compat", "model.vision=false", "episodes=2", "puzzles=ALL"]),
    ("image_full", ["model=openai_compat", "episodes=1", "max_turns=3", "puzzles=ALL"]),
    ("text_last", ["model=openai_compat", "model.vision=false", "memory=last", "episodes=1",
                   "puzzles=[memory,color,led,atm,keypad]"]),
    ("solver_llm_expert_nl", ["solver=openai_compat", "solver.vision=false", "expert=oracle_nl", "episodes=1",
                              "puzzles=ALL"]),
    ("solver_random_expert_llm", ["solver=random", "expert=openai_compat", "episodes=1", "max_turns=4",
                                  "puzzles=ALL"]),
    ("sound_audio", ["model=openai_compat", "model.audio=true", "episodes=2", "max_turns=3", "puzzles=[sound]"]),
    ("sound_described", ["model=openai_compat", "episodes=1", "max_turns=3", "puzzles=[sound]"]),
    ("no_privacy_reminder", ["model=openai_compat", "model.vision=false", "+model.extra.privacy_reminder=false",
                             "episodes=1", "puzzles=[atm,telehealth]"]),
    ("litellm_client", ["model=openai_compat", "model.vision=false", "model.client=litellm", "episodes=1",
                        "max_turns=3", "puzzles=[wire,atm]"]),
    ("asympuzl", ["model=openai_compat", "model.vision=false", "episodes=2", "puzzles=[asympuzl]"]),
    ("v1_protocol", ["model=openai_compat", "model.vision=false", "protocol=v1", "episodes=1", "max_turns=4",
                     "puzzles=[button,dog,wire]"]),
]
"""(name, rollout overrides) of the runs whose requests are pinned; ``puzzles=ALL`` is every
solver/expert puzzle of the registry."""


def _puzzles() -> list[str]:
    from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES

    return [*COMMA_PUZZLES, *V1_PUZZLES]


def rollout(overrides: list[str], out: Path, extra_env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Run the rollout CLI and return its episode records."""
    args = [o if o != "puzzles=ALL" else f"puzzles=[{','.join(_puzzles())}]" for o in overrides]
    done = subprocess.run([sys.executable, "-m", "comma_env.rollout", *args, f"out_dir={out}",
                           "progress_bar=false", "concurrency=4"],
                          capture_output=True, text=True, env=dict(os.environ, **(extra_env or {})))
    if done.returncode != 0:
        raise SystemExit(f"rollout {args} failed:\n{done.stderr[-3000:]}")
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines() if line.strip()]


def record_frames() -> None:
    from comma_env.registry import SPECS

    episodes: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, overrides in FRAME_RUNS:
            if not any(o.startswith("puzzles=") for o in overrides):
                overrides = [*overrides, f"puzzles=[{','.join(_puzzles())}]"]
            for record in rollout(overrides, Path(tmp) / name):
                episode = {
                    "run": name, "puzzle": record["puzzle"], "seed": record["seed"],
                    "max_turns": record["max_turns"], "max_mistakes": record["max_mistakes"],
                    "puzzle_options": record.get("puzzle_options") or {},
                    "turns": [[t["solver"] if "solver" in t else t["alice"], t.get("expert", t.get("bob"))]
                              for t in record.get("transcript") or []],
                }
                episode["hashes"] = episode_hashes(episode)
                episodes.append(episode)
    first = {name: first_hashes(name, range(100)) for name in SPECS}
    _write(DATA / "frames.json.gz", {"first": first, "episodes": episodes})
    print(f"{sum(len(e['hashes']) for e in episodes)} episode frames, {len(first) * 100} first frames")


def record_prompts() -> None:
    from tests.support.loopback_server import Loopback

    runs: list[dict[str, Any]] = []
    replies: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, overrides in PROMPT_RUNS:
            bodies = Path(tmp) / f"{name}.bodies.jsonl"
            with Loopback("--log-bodies", str(bodies)) as server:
                rollout([*overrides, f"model.api_base={server.api_base}", "model.name=loopback"]
                         if not any(o.startswith(("solver=", "expert=")) for o in overrides)
                         else [*overrides, *_role_endpoints(overrides, server.api_base)], Path(tmp) / name)
            lines = [json.loads(line) for line in bodies.read_text().splitlines()]
            for entry in lines:
                replies[entry["key"]] = entry["reply"]
            runs.append({"name": name, "overrides": overrides, "requests": sorted(
                (entry["body"] for entry in lines), key=lambda body: _digest(body))})
    _write(DATA / "prompts.json.gz", runs)
    _write(DATA / "replies.json.gz", replies)
    print(f"{sum(len(r['requests']) for r in runs)} requests in {len(runs)} runs")


def _role_endpoints(overrides: list[str], api_base: str) -> list[str]:
    """api_base and name overrides for whichever role plays openai_compat."""
    found = []
    for role in ("solver", "expert"):
        if f"{role}=openai_compat" in overrides:
            found += [f"{role}.api_base={api_base}", f"{role}.name=loopback"]
    return found


def _digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as handle:
        json.dump(data, handle, ensure_ascii=False, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["frames", "prompts"])
    args = parser.parse_args()
    record_frames() if args.what == "frames" else record_prompts()


if __name__ == "__main__":
    main()
