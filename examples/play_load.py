"""A bounded load test of the study server on loopback: N participants at once.

    python examples/play_load.py [--clients 200] [--turns 4] [--out docs/_generated/play_load.md]

Starts ``python -m comma_env.play collect`` as a subprocess on a free loopback port, then
runs `--clients` simulated participants in one asyncio process (aiohttp): each agrees, joins
the lobby, is paired, and plays its seat (long-polling its state, sending a message on its
turn, after a random think time) until the turn limit ends the game. It measures the latency of every move (the
``POST .../message`` round trip, which steps the environment and writes the session file)
and the server's resident memory (VmRSS before, VmHWM peak, VmRSS after, from /proc). The
whole run is bounded by `--deadline` seconds. It runs twice: with people thinking before each
move (`--think`, the steady state) and with no think time at all (every client moving at
once, the worst burst). Writes a Markdown table with the machine and versions in its
header.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal, TypedDict

import httpx

PUZZLES = ["wire", "atm", "who", "keypad", "led"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory_mb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def participant(url: str, index: int, latencies: list[float], deadline: float, think: float) -> str:
    """One person: join, wait, play their seat to the end. Returns how it ended. (aiohttp, whose
    client costs less CPU per request than httpx: the clients share the machine with the server.)"""
    import aiohttp

    headers = {"X-Forwarded-For": f"10.0.{index // 250}.{index % 250 + 1}"}  # as if behind the proxy
    async with aiohttp.ClientSession(url, headers=headers, timeout=aiohttp.ClientTimeout(total=60)) as client:
        async def get(path: str, **params: object) -> dict:
            async with client.get(path, params={k: str(v) for k, v in params.items()}) as response:
                return await response.json()

        async with client.post("/api/lobby/join", json={"consent": True}) as response:
            joined = await response.json()
        status = joined
        while status.get("status") != "paired":
            if time.monotonic() > deadline or status.get("status") == "full":
                return "unpaired"
            status = await get(f"/api/lobby/{joined['token']}", since=status["version"])
        seat = status["url"]
        view = await get(f"/api{seat}/state")
        while not view["done"]:
            if time.monotonic() > deadline:
                return "timeout"
            if view["your_turn"]:
                await asyncio.sleep(random.uniform(0, 2 * think))  # a person reads and types
                started = time.perf_counter()
                async with client.post(f"/api{seat}/message",
                                       json={"text": f"message {view['turn']} from {index}"}) as answer:
                    body = await answer.json()
                latencies.append(time.perf_counter() - started)
                if answer.status != 200:
                    return f"http {answer.status}"
                view = body
            else:
                view = await get(f"/api{seat}/state", since=view["version"])
        return "finished"


async def load(url: str, clients: int, deadline: float, think: float) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    started = time.monotonic()
    outcomes = await asyncio.gather(*(participant(url, i, latencies, deadline, think) for i in range(clients)))
    return latencies, list(outcomes), time.monotonic() - started


class Scenario(TypedDict):
    """What `run` measured in one scenario (a column of the table)."""

    clients: int
    games: int
    turns: int
    think: float
    moves: int
    records: int
    finished: int
    other: list[str]
    p50_ms: float
    p95_ms: float
    max_ms: float
    seconds: float
    server_cpu_s: float
    load_average: float
    rss_before_mb: float
    rss_peak_mb: float
    rss_after_mb: float


Measure = Literal["p50_ms", "p95_ms", "max_ms", "seconds", "server_cpu_s", "rss_before_mb", "rss_peak_mb",
                  "rss_after_mb"]
"""The keys of a `Scenario` shown as numbers with a unit."""


def median_and_p95(latencies: list[float]) -> tuple[float, float]:
    """The 50th and 95th percentiles, interpolated between the measured latencies (statistics'
    default method extrapolates beyond them when there are fewer than 100: a p95 above the
    max); NaN for fewer than two."""
    if len(latencies) < 2:
        return float("nan"), float("nan")
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return cuts[49], cuts[94]


def run(clients: int, turns: int, deadline_s: float, think: float) -> Scenario:
    load_average = os.getloadavg()[0]
    port = free_port()
    out = Path(tempfile.mkdtemp(prefix="play_load_")) / "study"
    games = clients // 2
    per_puzzle = -(-games // len(PUZZLES))
    command = [sys.executable, "-m", "comma_env.play", "collect", str(out), f"puzzles=[{','.join(PUZZLES)}]",
               f"games_per_puzzle={per_puzzle}", f"max_turns={turns}", f"port={port}",
               f"max_creations_per_client={clients}", "leave_after_seconds=120"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(url + "/api/config", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            assert server.stderr is not None  # stderr=PIPE
            raise RuntimeError("the play server did not start: " + server.stderr.read().decode()[-2000:])
        before, cpu_before = memory_mb(server.pid, "VmRSS"), cpu_seconds(server.pid)
        latencies, outcomes, seconds = asyncio.run(load(url, clients, time.monotonic() + deadline_s, think))
        peak, after = memory_mb(server.pid, "VmHWM"), memory_mb(server.pid, "VmRSS")
        server_cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(20)
    records = sum(1 for _ in (out / "episodes.jsonl").open()) if (out / "episodes.jsonl").exists() else 0
    p50, p95 = median_and_p95(latencies)
    return {"clients": clients, "games": games, "turns": turns, "think": think, "moves": len(latencies),
            "records": records,
            "finished": outcomes.count("finished"), "other": sorted({o for o in outcomes if o != "finished"}),
            "p50_ms": p50 * 1000, "p95_ms": p95 * 1000, "max_ms": max(latencies, default=float("nan")) * 1000,
            "seconds": seconds, "server_cpu_s": server_cpu, "load_average": load_average, "rss_before_mb": before,
            "rss_peak_mb": peak, "rss_after_mb": after}


def table(results: list[Scenario]) -> str:
    """One column per scenario; the header says on what machine and with what."""
    import fastapi
    import uvicorn

    from comma_env import __version__ as comma_version

    first = results[0]
    header = (f"Machine: {platform.machine()}, {os.cpu_count()} CPU(s), Linux {platform.release()}; "
              f"Python {platform.python_version()}, comma_env {comma_version}, FastAPI {fastapi.__version__}, "
              f"uvicorn {uvicorn.__version__}; load average at start {float(first['load_average']):.1f} (a shared "
              "machine: latencies include waiting for a CPU); written by examples/play_load.py. "
              "Server and clients run on the same machine.")

    def cells(key: Measure, unit: str = "", digits: int = 1) -> list[str]:
        return [f"{float(r[key]):.{digits}f}{unit}" for r in results]

    rows = [("participants at once", [str(r["clients"]) for r in results]),
            ("games (pairs), turn limit", [f"{r['games']}, {r['turns']}" for r in results]),
            ("finished their game", [str(r["finished"]) + (f" (others: {', '.join(r['other'])})" if r["other"] else "")
                                     for r in results]),
            ("records written", [str(r["records"]) for r in results]),
            ("moves timed", [str(r["moves"]) for r in results]),
            ("move latency p50", cells("p50_ms", " ms")),
            ("move latency p95", cells("p95_ms", " ms")),
            ("move latency max", cells("max_ms", " ms")),
            ("wall time, join to last game", cells("seconds", " s")),
            ("server CPU time, whole run", cells("server_cpu_s", " s")),
            ("server CPU per move (its share of all requests)",
             [f"{1000 * float(r['server_cpu_s']) / max(1, int(r['moves'])):.1f} ms" for r in results]),
            ("server memory (RSS) before", cells("rss_before_mb", " MB", 0)),
            ("server memory (RSS) peak", cells("rss_peak_mb", " MB", 0)),
            ("server memory (RSS) after", cells("rss_after_mb", " MB", 0))]
    names = [f"think 0 to {2 * float(r['think']):g} s before a move" if float(r["think"]) else "no think time (a burst)"
             for r in results]
    lines = [header, "", "| measure | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(results),
             *(f"| {k} | " + " | ".join(v) + " |" for k, v in rows)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds before every client gives up")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a simulated person waits before a move (a second run uses none)")
    parser.add_argument("--out", default="docs/_generated/play_load.md")
    args = parser.parse_args()
    results = [run(args.clients, args.turns, args.deadline, think) for think in (args.think, 0.0)]
    text = table(results)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
