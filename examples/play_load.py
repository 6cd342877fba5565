"""A bounded load test of the study server on loopback: N participants at once.

    python examples/play_load.py [--clients 200] [--turns 4] [--out docs/_generated/play_load.md]

Starts ``python -m comma_env.play collect`` as a subprocess on a free loopback port, then
runs `--clients` simulated participants in one asyncio process (httpx): each agrees, joins
the lobby, is paired, and plays its seat (long-polling its state, sending a message on its
turn) until the turn limit ends the game. It measures the latency of every move (the
``POST .../message`` round trip, which steps the environment and writes the session file)
and the server's resident memory (VmRSS before, VmHWM peak, VmRSS after, from /proc). The
whole run is bounded by `--deadline` seconds. Writes a Markdown table with the machine,
versions and date in its header.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

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


async def participant(url: str, index: int, latencies: list[float], deadline: float) -> str:
    """One person: join, wait, play their seat to the end. Returns how it ended."""
    headers = {"X-Forwarded-For": f"10.0.{index // 250}.{index % 250 + 1}"}  # as if behind the proxy
    async with httpx.AsyncClient(base_url=url, timeout=60, headers=headers) as client:
        joined = (await client.post("/api/lobby/join", json={"consent": True})).json()
        status = joined
        while status.get("status") != "paired":
            if time.monotonic() > deadline or status.get("status") == "full":
                return "unpaired"
            status = (await client.get(f"/api/lobby/{joined['token']}", params={"since": status["version"]})).json()
        seat = status["url"]
        view = (await client.get(f"/api{seat}/state")).json()
        while not view["done"]:
            if time.monotonic() > deadline:
                return "timeout"
            if view["your_turn"]:
                started = time.perf_counter()
                answer = await client.post(f"/api{seat}/message", json={"text": f"message {view['turn']} from {index}"})
                latencies.append(time.perf_counter() - started)
                if answer.status_code != 200:
                    return f"http {answer.status_code}"
                view = answer.json()
            else:
                view = (await client.get(f"/api{seat}/state", params={"since": view["version"]})).json()
        return "finished"


async def load(url: str, clients: int, deadline: float) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    started = time.monotonic()
    outcomes = await asyncio.gather(*(participant(url, i, latencies, deadline) for i in range(clients)))
    return latencies, list(outcomes), time.monotonic() - started


def run(clients: int, turns: int, deadline_s: float) -> dict[str, object]:
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
            raise RuntimeError("the play server did not start: " + server.stderr.read().decode()[-2000:])
        before = memory_mb(server.pid, "VmRSS")
        latencies, outcomes, seconds = asyncio.run(load(url, clients, time.monotonic() + deadline_s))
        peak, after = memory_mb(server.pid, "VmHWM"), memory_mb(server.pid, "VmRSS")
    finally:
        server.terminate()
        server.wait(20)
    records = sum(1 for _ in (out / "episodes.jsonl").open()) if (out / "episodes.jsonl").exists() else 0
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
    return {"clients": clients, "games": games, "turns": turns, "moves": len(latencies), "records": records,
            "finished": outcomes.count("finished"), "other": sorted({o for o in outcomes if o != "finished"}),
            "p50_ms": cuts[49] * 1000, "p95_ms": cuts[94] * 1000, "max_ms": max(latencies, default=float("nan")) * 1000,
            "seconds": seconds, "load_average": load_average, "rss_before_mb": before, "rss_peak_mb": peak, "rss_after_mb": after}


def table(result: dict[str, object]) -> str:
    import fastapi
    import uvicorn

    from comma_env import __version__ as comma_version

    header = (f"Machine: {platform.machine()}, {os.cpu_count()} CPU(s) ({platform.processor() or 'unknown'}), "
              f"Linux {platform.release()}; Python {platform.python_version()}, comma_env {comma_version}, "
              f"FastAPI {fastapi.__version__}, uvicorn {uvicorn.__version__}; load average at start "
              f"{result['load_average']:.1f} (the machine is shared: latencies include waiting for a CPU); "
              f"{datetime.now(timezone.utc).strftime('%Y-%m-%d')}; written by examples/play_load.py.")
    rows = [("participants at once", f"{result['clients']}"),
            ("games (pairs), turn limit", f"{result['games']}, {result['turns']}"),
            ("participants who finished their game", f"{result['finished']}"
             + (f" (others: {', '.join(result['other'])})" if result["other"] else "")),
            ("records written", f"{result['records']}"),
            ("moves timed", f"{result['moves']}"),
            ("move latency p50", f"{result['p50_ms']:.1f} ms"),
            ("move latency p95", f"{result['p95_ms']:.1f} ms"),
            ("move latency max", f"{result['max_ms']:.1f} ms"),
            ("wall time, join to last game", f"{result['seconds']:.1f} s"),
            ("server memory (RSS) before", f"{result['rss_before_mb']:.0f} MB"),
            ("server memory (RSS) peak", f"{result['rss_peak_mb']:.0f} MB"),
            ("server memory (RSS) after", f"{result['rss_after_mb']:.0f} MB")]
    lines = [header, "", "| measure | value |", "| --- | --- |", *(f"| {k} | {v} |" for k, v in rows)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds before every client gives up")
    parser.add_argument("--out", default="docs/_generated/play_load.md")
    args = parser.parse_args()
    result = run(args.clients, args.turns, args.deadline)
    text = table(result)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
