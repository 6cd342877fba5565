"""How long the leaderboard takes to verify submissions of 10,000 episodes.

    python examples/benchmark_leaderboard.py [--episodes 1000] [--models random,realistic] [--workers 2] \\
        [--out docs/_generated/leaderboard_cost.md]

For each scripted pair (``random``: one action line per turn, the paper's baseline;
``realistic``: descriptions and advice in prose, which the leak detector reads as it reads a
model's), the rollout plays ``episodes`` seeds of each of the ten puzzles (1,000 give
10,000 episodes), and ``python -m comma_env.leaderboard FOLDER --out SITE`` then runs in a
fresh interpreter: its wall seconds (start-up, reading, the replay of every episode, ranks,
comparisons, the site), the replay's part as the command prints it, the CPU seconds of the
command and its replay workers, and whether 10,000 episodes took at most 60 s. On a machine
other work shares, the wall time grows with the load and the CPU seconds do not: divided by
the workers, they are the wall time the command needs on idle cores. The last row puts all
the submissions on one board (their pairwise comparisons included). The rollout's seconds
are the reference each time can be read against (the machine's speed drifts).

Writes a Markdown table file (machine, load and versions in its header) for docs/leaderboard.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BAR_EPISODES, BAR_SECONDS = 10_000, 60.0


def rollout(out: Path, model: str, episodes: int, puzzles: list[str] | None) -> float:
    """Seconds the rollout takes to play the pair `model` into `out`."""
    from omegaconf import OmegaConf

    from comma_env.protocol.resources import conf_dir
    from comma_env.run.rollout import run

    config = OmegaConf.to_container(OmegaConf.load(Path(conf_dir()) / "model" / f"{model}.yaml"))
    settings = {"model": config, "episodes": episodes, "out_dir": str(out), "progress_bar": False}
    started = time.perf_counter()
    run({**settings, **({"puzzles": puzzles} if puzzles else {})}, quiet=True)
    return time.perf_counter() - started


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes and their own children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def leaderboard(folders: list[Path], site: Path, workers: int) -> tuple[float, float, float, str]:
    """Wall seconds of the command, the replay's seconds it printed, the CPU seconds of the
    command and its workers, and its output."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "comma_env.leaderboard", *map(str, folders), "--out", str(site),
                           "--workers", str(workers)], capture_output=True, text=True, env=env, timeout=3600)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"the leaderboard failed ({done.returncode}): {done.stderr[-2000:]}")
    replay = re.search(r"replayed in ([0-9.]+) s", done.stdout)
    return wall, float(replay.group(1)) if replay else float("nan"), cpu, done.stdout


def mean_turns(folder: Path) -> float:
    from comma_env.run.results import read_episodes

    records = read_episodes(folder / "episodes.jsonl", repair=False)
    return sum(len(r.get("transcript") or []) for r in records) / max(1, len(records))


def row(label: str, episodes: int, turns: str, reference: str, wall: float, replay: float, cpu: float,
        workers: int) -> list[str]:
    """One table row; the bar's cell says whether the wall time met it, and what the CPU
    seconds allow on `workers` idle cores when it did not."""
    per_second = episodes / wall
    idle = cpu / max(1, workers)
    if episodes == BAR_EPISODES:
        bar = "met" if wall <= BAR_SECONDS else f"NOT met here; {idle:.0f} s of CPU per core"
    else:
        bar = f"{BAR_EPISODES / per_second:.0f} s at this rate"
    return [label, f"{episodes:,}", turns, reference, f"{wall:.1f}", f"{replay:.1f}", f"{cpu:.1f}",
            f"{per_second:.0f}", bar]


def measure(models: list[str], episodes: int, workers: int, work: Path,
            puzzles: list[str] | None = None) -> list[list[str]]:
    rows, folders, total = [], [], 0
    for model in models:
        folder = work / model
        made = rollout(folder, model, episodes, puzzles)
        count = sum(1 for line in (folder / "episodes.jsonl").open("rb") if line.strip())
        wall, replay, cpu, _ = leaderboard([folder], work / f"site-{model}", workers)
        rows.append(row(f"`{model}` pair", count, f"{mean_turns(folder):.1f}", f"{made:.1f}", wall, replay, cpu,
                        workers))
        folders.append(folder)
        total += count
    if len(folders) > 1:
        wall, replay, cpu, _ = leaderboard(folders, work / "site-all", workers)
        rows.append(row("all of them on one board", total, "", "", wall, replay, cpu, workers))
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def load_average() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def header(workers: int, load: str) -> str:
    from importlib.metadata import version

    import comma_env

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    versions = ", ".join(f"{name} {version(name)}" for name in ("numpy", "pillow", "jinja2"))
    return (f"Written by `examples/benchmark_leaderboard.py` (do not edit). Measured on {platform.system()} "
            f"{platform.machine()}, {os.cpu_count()} CPUs ({cpu}), {workers} replay workers, load average {load}; "
            f"Python {platform.python_version()}, comma_env {comma_env.__version__}, {versions}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000, help="seeds per puzzle (ten puzzles)")
    parser.add_argument("--models", default="random,realistic", help="scripted pairs (conf/model/*.yaml)")
    parser.add_argument("--puzzles", default="", help="comma-separated puzzles (default: the ten)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(ROOT / "docs" / "_generated" / "leaderboard_cost.md"))
    args = parser.parse_args()
    before = load_average()
    work = Path(tempfile.mkdtemp(prefix="comma_leaderboard_bench_"))
    try:
        rows = measure(args.models.split(","), args.episodes, args.workers, work,
                       args.puzzles.split(",") if args.puzzles else None)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join([header(args.workers, f"{before} at the start, {load_average()} at the end"), "",
                      table(["submission", "episodes", "turns per episode", "rollout s (reference)",
                             "leaderboard command s", "of which replay s", "command CPU s", "episodes per s",
                             f"{BAR_EPISODES:,} episodes in at most {BAR_SECONDS:.0f} s"], rows), ""])
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
