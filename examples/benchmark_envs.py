"""The speed a user feels, each part a ratio against a reference measured in the same run.

- ``llm``: a rollout of the ten puzzles with an LLM against tests/support/loopback_server.py, which
  answers every call after `--latency` seconds, `--concurrency` episodes in flight, in the
  image view and the text view. Wall time over the ideal: what the run would take if every
  model call took exactly the latency and nothing else took any time (`ideal_seconds`).
  Interleaved with it, a bare aiohttp loop sends as many calls to the same server: its own
  wall time over its ideal is what the machine and the server add. The rollout's CPU time
  over the ideal is the share of a core its own work needs (above 1, no machine meets the
  goal with one event loop). Goal: at most 1.15.
- ``random``: ``python -m comma_env.rollout`` as typed (the random baseline, ten puzzles x
  100 episodes) against a bare AEC loop that plays the same 1,000 episodes without
  recording them (`play_random`), each in a new interpreter, in interleaved rounds.
- ``text``: turns/s of a random-play AEC loop over each registered puzzle's text view
  against PettingZoo's connect_four_v3, in interleaved bursts (`interleaved`). A turn is one
  AEC step of either agent, its observation read with ``env.last()``. Goal: at least 1x.
- ``pictures``: a changed picture's drawing against the PNG encoding that follows it, per
  puzzle, for an episode's first picture and the later ones (examples/benchmark_drawing.py).
  Goal: at most 0.5.

Run (pygame, for connect_four, comes with the extra)::

    pip install -e ".[bench]"
    python examples/benchmark_envs.py [--parts llm random text pictures] [--rounds 3] [--markdown]

``--markdown`` writes the summary to docs/_generated/speed.md and the per-puzzle tables to
text_view.md and picture_cost.md (included by docs/performance.md), each under a line naming
the command, the machine and the versions.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

import comma_env
from comma_env.registry import COMMA_PUZZLES, SPECS, env_module

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("llm", "random", "text", "pictures")
GOALS = {"llm": 1.15, "text": 1.0, "pictures": 0.5}
"""The goal of each ratio: wall/ideal at most, turns/s over connect_four's at least, draw/PNG at most."""


# -- random play ----------------------------------------------------------------------------
Chooser = Callable[[Any, str, dict, np.random.Generator], Any]


def random_action(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> str:
    """The random baseline: a COMMA solver types a random valid action, its expert stays silent."""
    actions = info.get("valid_actions")
    return str(actions[rng.integers(len(actions))]) if agent == "solver" and actions else ""


def random_update(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> str:
    """An AsymPuzl agent's short message with one random update (sometimes malformed:
    position 0..N+1)."""
    from comma_env.asympuzl.rules import COLOURS, SHAPES

    colours = list(COLOURS)
    return (f"hello\nset {int(rng.integers(0, info['n'] + 2))} {SHAPES[rng.integers(len(SHAPES))]} "
            f"{colours[rng.integers(len(colours))]}")


def random_connect_four_move(observation: Any, agent: str, info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


# -- an LLM rollout against the loopback server ---------------------------------------------
def llm_part(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Per view: the rollout's median wall time, ideal, wall/ideal and CPU seconds over the ideal
    (the share of a core its own work needs), and the bare loop's wall/ideal, over
    `args.rounds` rounds (examples/benchmark_llm.py's subjects)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "examples")]
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from benchmark_llm import bare_aiohttp, ideal_seconds, rollout, typical_messages

    from tests.support.loopback_server import Loopback

    messages = typical_messages()
    out_root = Path(tempfile.mkdtemp(prefix="bench_envs_llm_"))
    rows = []
    with Loopback("--latency", str(args.latency), log_messages=False, log=os.devnull) as server:
        rollout("aiohttp", 1, out_root / "warm", COMMA_PUZZLES, "image")(server.api_base, 0, args.concurrency, messages)
        for view in ("image", "text"):
            run = rollout("aiohttp", args.llm_episodes, out_root, COMMA_PUZZLES, view)
            walls, ideals, ratios, cpus, bare = [], [], [], [], []
            for index in range(args.rounds):
                chains, wall, cpu = run(server.api_base, 0, args.concurrency, messages)
                ideals.append(ideal_seconds(chains, args.concurrency, args.latency))
                walls.append(wall)
                ratios.append(wall / ideals[-1])
                cpus.append(cpu / ideals[-1])
                calls, bare_wall, _ = bare_aiohttp(server.api_base, sum(chains), args.concurrency, messages)
                bare.append(bare_wall / ideal_seconds(calls, args.concurrency, args.latency))
                print(f"llm {view} round {index + 1}: {wall:.2f} s, ideal {ideals[-1]:.2f} s ({ratios[-1]:.3f}); "
                      f"CPU {cpus[-1]:.2f} of the ideal; bare loop {bare[-1]:.3f}", file=sys.stderr, flush=True)
            rows.append({"view": view, "episodes": len(chains), "calls": sum(chains),
                         "wall": statistics.median(walls), "ideal": statistics.median(ideals),
                         "ratio": statistics.median(ratios), "cpu": statistics.median(cpus),
                         "bare": statistics.median(bare)})
    return rows


# -- the random rollout, as typed ----------------------------------------------------------
def play_random(puzzles: tuple[str, ...], episodes: int) -> int:
    """Play the random baseline's episodes (`comma_env.agents.random_policy`) in a bare AEC
    loop: a new environment per episode, nothing recorded. Returns the turns played."""
    turns = 0
    for puzzle in puzzles:
        for seed in range(episodes):
            env = comma_env.make(puzzle)
            env.reset(seed=seed)
            rng = np.random.default_rng([0, seed])
            for agent in env.agent_iter():
                _, _, terminated, truncated, info = env.last(observe=False)
                env.step(None if terminated or truncated else random_action(None, agent, info, rng))
                turns += 1
    return turns


def timed_command(command: list[str]) -> float:
    """Wall seconds of `command` in a new process; its output is discarded, a failure ends the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True"))
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def random_part(args: argparse.Namespace) -> dict[str, Any]:
    """Median wall seconds of the rollout command and of the bare loop, and their median ratio."""
    commands, loops, ratios = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench_envs_random_") as folder:
        for index in range(args.rounds):
            loops.append(timed_command([sys.executable, __file__, "--play-random"]))
            commands.append(timed_command([sys.executable, "-m", "comma_env.rollout", f"out_dir={folder}/{index}"]))
            ratios.append(commands[-1] / loops[-1])
            print(f"random round {index + 1}: rollout {commands[-1]:.2f} s, bare loop {loops[-1]:.2f} s",
                  file=sys.stderr, flush=True)
    return {"episodes": len(COMMA_PUZZLES) * 100, "wall": statistics.median(commands),
            "bare": statistics.median(loops), "ratio": statistics.median(ratios)}


# -- the text view against connect_four ----------------------------------------------------
def stepper(make: Callable[[], Any], choose: Chooser) -> Iterator[None]:
    """Endless random play of new episodes of one environment; yields after every AEC step."""
    env = make()
    rng = np.random.default_rng(0)
    seed = 0
    while True:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else choose(observation, agent, info, rng))
            yield
        seed += 1


def burst(steps: Iterator[None], seconds: float) -> float:
    """Steps per second of `steps` over about `seconds`."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(16):
            next(steps)
        count += 16
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def interleaved(reference: Iterator[None], subject: Iterator[None], rounds: int,
                seconds: float) -> tuple[float, float, float]:
    """(median subject rate, median reference rate, median ratio) over `rounds` rounds; each
    subject burst is divided by the mean of the reference bursts on either side of it."""
    burst(reference, seconds), burst(subject, max(1.0, 4 * seconds))  # warm up: imports, fonts, first episodes
    before = burst(reference, seconds)
    ratios, rates, references = [], [], [before]
    for _ in range(rounds):
        rate = burst(subject, seconds)
        after = burst(reference, seconds)
        ratios.append(rate / ((before + after) / 2))
        rates.append(rate)
        references.append(after)
        before = after
    return statistics.median(rates), statistics.median(references), statistics.median(ratios)


def text_view(puzzle: str) -> Any:
    """A new environment of `puzzle` whose every agent reads text only."""
    return comma_env.make(puzzle) if SPECS[puzzle].suite == "game" else comma_env.make(puzzle, solver_view="text")


def text_part(args: argparse.Namespace) -> list[dict[str, Any]]:
    from pettingzoo.classic import connect_four_v3

    reference = stepper(connect_four_v3.env, random_connect_four_move)
    rows = []
    for puzzle in args.puzzles:
        env_module(puzzle)  # imported outside the timed bursts
        choose = random_update if SPECS[puzzle].suite == "game" else random_action
        rate, reference_rate, ratio = interleaved(reference, stepper(functools.partial(text_view, puzzle), choose),
                                                  5 * args.rounds, args.burst)
        rows.append({"puzzle": puzzle, "rate": rate, "reference": reference_rate, "ratio": ratio})
        print(f"text {puzzle}: {rate:,.0f} turns/s, {ratio:.2f}x connect_four ({reference_rate:,.0f})",
              file=sys.stderr, flush=True)
    return rows


# -- a changed picture against its PNG -----------------------------------------------------
def pictures_part(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Per puzzle: median draw and PNG milliseconds, and their ratio, of first and later pictures."""
    sys.path.insert(0, str(ROOT / "examples"))
    from benchmark_drawing import measure

    rows = []
    for puzzle in args.puzzles:
        timings = measure(puzzle, args.picture_seeds, args.picture_turns)
        row: dict[str, Any] = {"puzzle": puzzle, "pictures": sum(len(pairs) for pairs in timings.values())}
        for kind, pairs in timings.items():
            if pairs:
                draw, png = statistics.median(d for d, _ in pairs), statistics.median(e for _, e in pairs)
                row[kind] = (1e3 * draw, 1e3 * png, draw / png)
        rows.append(row)
        print(f"pictures {puzzle}: " + ", ".join(f"{kind} {row[kind][2]:.2f}" for kind in timings if kind in row),
              file=sys.stderr, flush=True)
    return rows


# -- tables --------------------------------------------------------------------------------
def verdict(ratio: float, part: str) -> str:
    goal = GOALS[part]
    met = ratio >= goal if part == "text" else ratio <= goal
    return f"{'<=' if part != 'text' else '>='} {goal:g}: {'met' if met else 'not met'}"


def summary(results: dict[str, Any], args: argparse.Namespace) -> str:
    lines = ["| what a user runs | measured | reference, same run | ratio | goal |", "|---|---|---|---|---|"]
    for row in results.get("llm", []):
        lines.append(f"| LLM rollout, {row['view']} view: {row['episodes']} episodes, {row['calls']:,} calls, "
                     f"{args.concurrency} in flight, {1000 * args.latency:.0f} ms per call | {row['wall']:.1f} s "
                     f"| ideal {row['ideal']:.1f} s; the rollout's CPU {row['cpu']:.2f}x the ideal; "
                     f"a bare aiohttp loop {row['bare']:.2f}x its ideal "
                     f"| {row['ratio']:.2f} | {verdict(row['ratio'], 'llm')} |")
    if "random" in results:
        row = results["random"]
        lines.append(f"| `python -m comma_env.rollout` (random, {row['episodes']:,} episodes) | {row['wall']:.1f} s, "
                     f"{row['episodes'] / row['wall']:.0f} episodes/s | a bare AEC loop of the same episodes "
                     f"{row['bare']:.1f} s | {row['ratio']:.2f} | none |")
    if results.get("text"):
        worst = min(results["text"], key=lambda row: row["ratio"])
        lines.append(f"| text view, random play: the slowest puzzle ({worst['puzzle']}) | {worst['rate']:,.0f} turns/s "
                     f"| connect_four_v3 {worst['reference']:,.0f} turns/s | {worst['ratio']:.2f} "
                     f"| {verdict(worst['ratio'], 'text')} |")
    if results.get("pictures"):
        worst_row, worst_kind = max(((row, kind) for row in results["pictures"] for kind in ("first", "later")
                                     if kind in row), key=lambda pair: pair[0][pair[1]][2])
        draw, png, ratio = worst_row[worst_kind]
        lines.append(f"| a changed picture: the costliest ({worst_row['puzzle']}, {worst_kind} picture) "
                     f"| draw {draw:.2f} ms | its PNG {png:.2f} ms | {ratio:.2f} | {verdict(ratio, 'pictures')} |")
    return "\n".join(lines)


def text_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| puzzle (text view) | turns/s | connect_four_v3 turns/s | ratio |", "|---|---|---|---|"]
    lines += [f"| {row['puzzle']} | {row['rate']:,.0f} | {row['reference']:,.0f} | {row['ratio']:.2f} |"
              for row in rows]
    return "\n".join(lines)


def picture_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| puzzle | first: draw ms | first: PNG ms | first: ratio | later: draw ms | later: PNG ms "
             "| later: ratio | pictures |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        cells = [row["puzzle"]]
        for kind in ("first", "later"):
            cells += [f"{row[kind][0]:.2f}", f"{row[kind][1]:.2f}", f"{row[kind][2]:.2f}"] if kind in row else ["-"] * 3
        lines.append("| " + " | ".join([*cells, str(row["pictures"])]) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", choices=PARTS, default=list(PARTS))
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians reported); the text "
                        "view runs five bursts a round")
    parser.add_argument("--puzzles", nargs="*", default=list(SPECS), help="text view and pictures (default: every "
                        "registered puzzle)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the loopback server takes per call")
    parser.add_argument("--llm-episodes", type=int, default=19, help="LLM rollout episodes per puzzle")
    parser.add_argument("--burst", type=float, default=0.25, help="seconds per text-view burst")
    parser.add_argument("--picture-seeds", type=int, default=60, help="episodes per puzzle for the pictures")
    parser.add_argument("--picture-turns", type=int, default=6, help="turns per episode for the pictures")
    parser.add_argument("--markdown", action="store_true", help="write the tables to docs/_generated/")
    parser.add_argument("--play-random", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play_random:
        play_random(COMMA_PUZZLES, 100)
        return
    load_before = os.getloadavg()[0]
    parts: dict[str, Callable[[argparse.Namespace], Any]] = {"llm": llm_part, "random": random_part,
                                                             "text": text_part, "pictures": pictures_part}
    results: dict[str, Any] = {part: parts[part](args) for part in args.parts}
    note = (f"Medians of {args.rounds} interleaved rounds; load average {load_before:.1f} before the run, "
            f"{os.getloadavg()[0]:.1f} after (other jobs on the machine move every ratio).")
    tables = {"speed": summary(results, args)}
    if results.get("text"):
        tables["text_view"] = text_table(results["text"])
    if results.get("pictures"):
        tables["picture_cost"] = picture_table(results["pictures"])
    for name, table in tables.items():
        print(f"\n{table}")
        if args.markdown:
            from doc_tables import write_table  # examples/ is on sys.path when run as a script

            print(write_table(name, table, note=note, extra_packages=("aiohttp",) if name == "speed" else ()))


if __name__ == "__main__":
    main()
