"""What the LLM client and the rollout cost on top of the model calls, against the loopback server.

    python examples/benchmark_llm.py [--rounds 3] [--episodes 320] [--concurrency 64] [--latency 0.2] [--markdown]

(``--markdown`` writes the table to ``docs/_generated/llm.md``, included by the performance page.)

Every subject runs against tests/support/loopback_server.py (scripted replies, one process per
server) in this process, and this process's CPU time is measured (`time.process_time`), so
"client CPU per call" leaves out the server's work. Subjects, in short interleaved bursts
(one round runs each once; medians over rounds are printed, so a machine whose speed
drifts during the run shifts every subject alike):

- ``bare aiohttp``: the reference. One `aiohttp.ClientSession`, POST the JSON body, read the
  JSON answer, nothing else (the loop vLLM's serving benchmark uses).
- ``bare litellm``: the second reference, plain `litellm.acompletion` calls.
- ``client aiohttp`` / ``client litellm``: `comma_env.agents.llm.ChatClient.complete` in a loop
  (retries, deadline, parsing, usage; no environment), over each of its two clients.
- ``rollout aiohttp`` / ``rollout litellm``: a real rollout of Wire episodes (text view),
  with the model on each client: prompts built, environments stepped, replies parsed,
  ``episodes.jsonl`` written.

Two servers: one answering at once (calls/s, CPU per call) and one adding `--latency`
seconds to every answer (wall time over the ideal, `ideal_seconds`: the wall time if every
call took exactly the latency and nothing else took any time). The bare loops send a
typical solver prompt; everything runs at `--concurrency`. Goal (issue 10): rollout CPU
per call <= 1 ms. On a loaded machine wall times stretch for every subject: "over bare
aiohttp's" divides each wall/ideal by the bare aiohttp loop's of the same round, the part
the client itself adds. examples/benchmark_envs.py uses these functions for its LLM rollout.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import heapq
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from comma_env.agents.llm import ChatClient, LLMSettings, litellm_module  # noqa: E402
from comma_env.run.config import ModelConfig, RolloutConfig  # noqa: E402
from comma_env.run.rollout import plan, run_async  # noqa: E402
from tests.support.loopback_server import Loopback  # noqa: E402

OVER_BARE = "wall/ideal over bare aiohttp's"
Measure = tuple[list[int], float, float]
"""(the calls of each chain, in the order the chains started: an episode's calls, or one per
call of a bare loop; wall seconds; CPU seconds of this process)."""


def ideal_seconds(chains: Sequence[int], concurrency: int, latency: float) -> float:
    """Wall time of a run whose every model call takes exactly `latency` and whose every other
    step takes no time. `concurrency` workers each start the next chain of calls when their
    own one ends (the rollout's workers and its episodes); a chain's calls follow one another."""
    free_at = [0.0] * concurrency
    for calls in chains:
        start = heapq.heappop(free_at)
        heapq.heappush(free_at, start + calls * latency)
    return max(free_at)


def model_cfg(api_base: str, client: str) -> ModelConfig:
    return ModelConfig(kind="litellm", name="loopback", model="openai/loopback", api_base=api_base,
                       vision=False, max_retries=3, client=client)


def typical_messages() -> list[dict[str, Any]]:
    """The first solver prompt of a Wire episode in the text view."""
    import comma_env
    from comma_env.protocol.prompts import solver_messages

    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=0)
    return solver_messages(env.last()[4])


async def workers(calls: int, concurrency: int, one: Callable[[], Awaitable[Any]]) -> None:
    left = [calls]

    async def worker() -> None:
        while left[0] > 0:
            left[0] -= 1
            await one()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) another process has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def timed(run: Callable[[], Coroutine[Any, Any, list[int]]]) -> Measure:
    wall, cpu = time.perf_counter(), time.process_time()
    chains = asyncio.run(run())
    return chains, time.perf_counter() - wall, time.process_time() - cpu


def bare_aiohttp(api_base: str, calls: int, concurrency: int, messages: list[dict[str, Any]]) -> Measure:
    import aiohttp

    body = {"model": "loopback", "messages": messages, "temperature": 0.0, "max_tokens": 512}

    async def run() -> list[int]:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            async def one() -> None:
                async with session.post(api_base + "/chat/completions", json=body) as response:
                    answer = await response.json()
                    assert answer["choices"][0]["message"]["content"]

            await workers(calls, concurrency, one)
        return [1] * calls

    return timed(run)


def bare_litellm(api_base: str, calls: int, concurrency: int, messages: list[dict[str, Any]]) -> Measure:
    litellm = litellm_module()

    async def run() -> list[int]:
        async def one() -> None:
            await litellm.acompletion(model="openai/loopback", api_base=api_base, api_key="no-key",
                                      messages=messages, temperature=0.0, max_tokens=512, max_retries=0)

        await workers(calls, concurrency, one)
        return [1] * calls

    return timed(run)


def client_loop(client: str) -> Callable[[str, int, int, list[dict[str, Any]]], Measure]:
    def measure(api_base: str, calls: int, concurrency: int, messages: list[dict[str, Any]]) -> Measure:
        chat = ChatClient(LLMSettings.from_config(model_cfg(api_base, client)))

        async def run() -> list[int]:
            try:
                await workers(calls, concurrency, lambda: chat.complete(messages))
            finally:
                await chat.aclose()
            return [1] * calls

        return timed(run)

    return measure


def rollout(client: str, episodes: int, out_root: Path, puzzles: Sequence[str] = ("wire",),
            view: str = "text") -> Callable[[str, int, int, list[dict[str, Any]]], Measure]:
    """A rollout of `episodes` episodes of each of `puzzles`, the solver's view `view` (the
    measure's `calls` and `messages` are not used: the episodes make their own)."""
    runs = [0]

    def measure(api_base: str, calls: int, concurrency: int, messages: list[dict[str, Any]]) -> Measure:
        runs[0] += 1
        model = dataclasses.replace(model_cfg(api_base, client), vision=view == "image")
        run_plan = plan(RolloutConfig(model=model, puzzles=list(puzzles), episodes=episodes, concurrency=concurrency,
                                      out_dir=str(out_root / f"{client}_{view}_{runs[0]}"), progress_bar=False))

        async def run() -> list[int]:
            records = await run_async(run_plan, quiet=True)
            assert all(r["error"] is None for r in records), [r["error"] for r in records if r["error"]][:3]
            calls = {(r["puzzle"], int(r["seed"])): sum(t["calls"] for t in r["tokens_by_role"].values())
                     for r in records}
            return [calls[job] for job in run_plan.jobs]  # the order the workers start them in

        return timed(run)

    return measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=320, help="per rollout burst (a multiple of --concurrency "
                        "keeps the episodes' waves full, so the ideal is reachable)")
    parser.add_argument("--calls", type=int, default=960, help="per bare/client burst")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--skip-litellm", action="store_true", help="only the aiohttp subjects (quick check)")
    parser.add_argument("--json", help="also write the medians here")
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/llm.md")
    args = parser.parse_args()
    out_root = Path(tempfile.mkdtemp(prefix="bench_llm_"))
    load_before = os.getloadavg()[0]
    messages = typical_messages()
    subjects: dict[str, Callable[..., Measure]] = {
        "bare aiohttp": bare_aiohttp,
        "client aiohttp": client_loop("aiohttp"),
        "rollout aiohttp": rollout("aiohttp", args.episodes, out_root),
    }
    if not args.skip_litellm:
        subjects.update({"bare litellm": bare_litellm, "client litellm": client_loop("litellm"),
                         "rollout litellm": rollout("litellm", args.episodes, out_root)})
        litellm_module()
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    with Loopback(log_messages=False, log=os.devnull) as fast, \
            Loopback("--latency", str(args.latency), log_messages=False, log=os.devnull) as slow:
        for measure in subjects.values():  # warm-up: imports, first connections
            measure(fast.api_base, args.concurrency, args.concurrency, messages)
        for round_ in range(args.rounds):
            for name, measure in subjects.items():
                chains, wall, cpu = measure(fast.api_base, args.calls, args.concurrency, messages)
                calls = sum(chains)
                rows[name]["calls/s"].append(calls / wall)
                rows[name]["cpu ms/call"].append(1000 * cpu / calls)
                server_cpu = process_cpu(slow.process.pid)
                chains, wall, cpu = measure(slow.api_base, args.calls, args.concurrency, messages)
                calls = sum(chains)
                rows[name]["server cpu ms/call"].append(1000 * (process_cpu(slow.process.pid) - server_cpu) / calls)
                rows[name]["wall/ideal"].append(wall / ideal_seconds(chains, args.concurrency, args.latency))
                rows[name][OVER_BARE].append(
                    rows[name]["wall/ideal"][-1] / rows["bare aiohttp"]["wall/ideal"][-1])
                rows[name]["cpu ms/call, latency"].append(1000 * cpu / calls)
            print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    medians = {name: {k: statistics.median(v) for k, v in cols.items()} for name, cols in rows.items()}
    ratio = statistics.median(r / b
                              for r, b in zip(rows["rollout aiohttp"]["cpu ms/call"],
                                              rows["bare aiohttp"]["cpu ms/call"], strict=True))
    print(f"\n{platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; concurrency {args.concurrency}, medians of {args.rounds} interleaved rounds; "
          f"zero latency, and {args.latency * 1000:.0f} ms latency; load average before the run "
          f"{load_before:.1f}, after {os.getloadavg()[0]:.1f}\n")
    lines = ["| subject | calls/s | client CPU ms/call | wall/ideal at latency | same, over bare aiohttp's | "
             "client CPU ms/call at latency | server CPU ms/call |", "|---|---|---|---|---|---|---|"]
    for name, m in medians.items():
        lines.append(f"| {name} | {m['calls/s']:,.0f} | {m['cpu ms/call']:.2f} | {m['wall/ideal']:.2f} | "
                     f"{m[OVER_BARE]:.2f} | {m['cpu ms/call, latency']:.2f} | {m['server cpu ms/call']:.2f} |")
    lines.append("\nRollout on aiohttp, client CPU per call over the bare aiohttp loop's (per round, median): "
                 f"{ratio:.2f}x.")
    print("\n".join(lines))
    if args.markdown:
        from doc_tables import write_table  # examples/ is on sys.path when run as a script

        print(write_table("llm", "\n".join(lines), extra_packages=("aiohttp", "litellm"),
                          note=f"Loopback server, concurrency {args.concurrency}, medians of {args.rounds} interleaved "
                               f"rounds, no latency and {args.latency * 1000:.0f} ms of latency; load average "
                               f"{load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after."))
    if args.json:
        Path(args.json).write_text(json.dumps({"medians": medians, "rounds": rows}, indent=2))


if __name__ == "__main__":
    main()
