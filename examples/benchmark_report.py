"""What the report, the replay and the command line cost at scale.

    python examples/benchmark_report.py [--sizes 100,1000] [--turns 1000,2000,4000] \\
        [--out docs/_generated/report_cost.md]

- Report: the random baseline on the ten puzzles, ``size`` episodes per puzzle (100 and
  1,000 give 1,000 and 10,000 episodes), then the report ``python -m comma_env.report``
  writes for the folder (`write_report`, in this process, as the rollout is): seconds, the
  folder's size on disk, and the cost of opening one episode through the report server (its
  page and every image of it, drawn on demand). The rollout that made
  the episodes is the reference each time is divided by (the machine's speed drifts).
- Replay: one episode of 1,000, 2,000 and 4,000 turns (the random solver on Maze, no
  mistake limit) replayed for the report (`comma_env.web.replay.walk`) and exported
  (`comma_env.rl.export`); seconds and the ratio to the shortest.
- Command line: wall seconds of ``python -m comma_env.rollout --help`` and of a
  configuration error (``+episode=1``), each in a fresh interpreter.

Writes a Markdown table file (machine and versions in its header) for docs/report.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def rollout(out: Path, **settings: object) -> float:
    from comma_env.run.rollout import run

    started = time.perf_counter()
    run({"model": {"kind": "random", "name": "random"}, "out_dir": str(out), "progress_bar": False, **settings},
        quiet=True)
    return time.perf_counter() - started


def open_one_episode(report_dir: Path, runs: list) -> tuple[float, int]:
    """Seconds to fetch one episode page and all of its images from the report server."""
    import re

    from comma_env.web.report import episode_href
    from comma_env.web.report_server import make_app
    from comma_env.web.server import BackgroundServer

    with BackgroundServer(make_app(report_dir, runs)) as base:
        record = runs[0].records[len(runs[0].records) // 2]
        started = time.perf_counter()
        page = urllib.request.urlopen(f"{base}/{episode_href(runs[0], record)}").read().decode()
        images = re.findall(r'src="\.\./\.\./(images/[^"]+\.png)"', page)
        for src in images:
            urllib.request.urlopen(f"{base}/{src}").read()
        return time.perf_counter() - started, len(images)


def report_rows(sizes: list[int], work: Path) -> list[list[str]]:
    from comma_env.web.report import write_report

    rows = []
    for size in sizes:
        run_dir = work / f"random{size}"
        made = rollout(run_dir, episodes=size)
        stats = write_report([run_dir], quiet=True)
        on_disk = folder_bytes(run_dir / "report")
        seconds, images = open_one_episode(run_dir / "report", stats.runs)
        rows.append([f"{stats.episodes:,}", f"{made:.1f}", f"{stats.seconds:.1f}", f"{stats.seconds / made:.2f}",
                     f"{on_disk / 1e6:.2f}", f"{(run_dir / 'episodes.jsonl').stat().st_size / 1e6:.1f}",
                     f"{seconds:.2f} ({images} images)"])
        shutil.rmtree(run_dir)
    return rows


def replay_rows(turns: list[int], work: Path) -> list[list[str]]:
    from comma_env.rl.export import export
    from comma_env.run.results import read_episodes
    from comma_env.web.replay import walk

    def timed(action) -> float:  # the best of two: the machine's speed drifts
        times = []
        for _ in range(2):
            started = time.perf_counter()
            action()
            times.append(time.perf_counter() - started)
        return min(times)

    rows, first, exports = [], None, iter(range(1000))
    for index, limit in enumerate(turns):
        run_dir = work / f"long{limit}"
        rollout(run_dir, puzzles=["maze"], episodes=2, max_turns=limit, max_mistakes=10**7, memory="last")
        record = max(read_episodes(run_dir / "episodes.jsonl"), key=lambda r: len(r["transcript"]))
        alone = work / f"alone{limit}"
        alone.mkdir()
        (alone / "episodes.jsonl").write_text(json.dumps(record) + "\n")
        if index == 0:  # warm up: the first call imports the prompt builders and the drawing code
            walk(record)
            export(alone, "rl", work / "warmup" / "rl.jsonl")
        walked = walk(record)
        report_seconds = timed(lambda record=record: walk(record))
        export_seconds = timed(lambda alone=alone: export(alone, "rl", work / f"export{next(exports)}" / "rl.jsonl"))
        first = first or (report_seconds, export_seconds)
        rows.append([f"{len(record['transcript']):,}", f"{report_seconds:.2f}", f"{report_seconds / first[0]:.1f}",
                     f"{export_seconds:.2f}", f"{export_seconds / first[1]:.1f}",
                     "" if walked.mismatch is None else walked.mismatch])
    return rows


def command_rows(repeats: int = 5) -> list[list[str]]:
    rows = []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for label, args in (("--help", ["--help"]), ("configuration error (+episode=1)", ["+episode=1"])):
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "comma_env.rollout", *args], capture_output=True, env=env,
                           cwd=tempfile.gettempdir(), timeout=120)
            times.append(time.perf_counter() - started)
        floors = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import comma_env"], capture_output=True, env=env, timeout=120)
            floors.append(time.perf_counter() - started)
        floor = min(floors)
        rows.append([label, f"{min(times):.2f}", f"{max(times):.2f}", f"{floor:.2f}"])
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def header() -> str:
    from importlib.metadata import version

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    versions = ", ".join(f"{name} {version(name)}" for name in ("comma-env", "hydra-core", "matplotlib", "pillow"))
    return (f"Written by `examples/benchmark_report.py` (do not edit). "
            f"Measured on {platform.system()} "
            f"{platform.machine()}, {os.cpu_count()} CPUs ({cpu}), load average {load} at the start; "
            f"Python {platform.python_version()}, {versions}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000", help="episodes per puzzle, ten puzzles each")
    parser.add_argument("--turns", default="1000,2000,4000", help="turns of the long episodes replayed")
    parser.add_argument("--out", default=str(ROOT / "docs" / "_generated" / "report_cost.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="comma_report_bench_"))
    try:
        sections = [header(), "",
                    table(["episodes", "rollout s (reference)", "report s", "report / rollout", "report MB on disk",
                           "episodes.jsonl MB", "one episode opened via --serve, s"],
                          report_rows([int(x) for x in args.sizes.split(",")], work)), "",
                    table(["turns", "report replay s", "x shortest", "export s", "x shortest", "replay note"],
                          replay_rows([int(x) for x in args.turns.split(",")], work)), "",
                    table(["command", "fastest s", "slowest s", "`import comma_env` alone (fastest), s"],
                          command_rows()), ""]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(sections))
    print(out.read_text())


if __name__ == "__main__":
    main()
