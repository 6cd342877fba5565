"""How much the rollout machinery costs on top of the model calls, against the loopback server.

    python examples/benchmark_llm.py [--episodes 300] [--concurrency 64] [--latency 0.2]

Two ratios, measured in the same run against tests/loopback_server.py (scripted replies):

1. throughput: the rollout's model calls per second over a bare `litellm.acompletion` loop
   at the same concurrency, both with zero server latency (goal >= 0.8). The bare loop
   sends a typical solver prompt and does nothing else; the rollout also builds prompts,
   steps environments, parses replies and writes episodes.jsonl.
2. latency hiding: the rollout's wall time over the ideal ``calls x latency / concurrency``
   with `--latency` seconds per call (goal <= 1.25).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from loopback_server import Loopback  # noqa: E402

from agents.llm import LiteLLMPolicy, litellm_module  # noqa: E402
from comma_env.config import ModelConfig, RolloutConfig  # noqa: E402
from comma_env.rollout import plan, run_async  # noqa: E402


def model_cfg(api_base: str) -> ModelConfig:
    return ModelConfig(kind="litellm", name="loopback", model="openai/loopback", api_base=api_base,
                       vision=False, max_retries=3)


async def bare_loop(api_base: str, calls: int, concurrency: int) -> float:
    """Calls per second of plain `litellm.acompletion` with a typical solver prompt."""
    import comma_env
    from agents.chat import solver_messages

    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=0)
    messages = solver_messages(env.last()[4])
    litellm = litellm_module()
    queue = list(range(calls))

    async def worker() -> None:
        while queue:
            queue.pop()
            await litellm.acompletion(model="openai/loopback", api_base=api_base, api_key="no-key",
                                      messages=messages, temperature=0.0, max_tokens=512, max_retries=0)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return calls / (time.perf_counter() - started)


async def rollout(api_base: str, episodes: int, concurrency: int, out_dir: Path) -> tuple[int, float]:
    """(model calls, seconds) of a real rollout of Wire episodes."""
    cfg = RolloutConfig(model=model_cfg(api_base), puzzles=["wire"], episodes=episodes, concurrency=concurrency,
                        out_dir=str(out_dir), progress_bar=False)
    p = plan(cfg)
    started = time.perf_counter()
    records = await run_async(p, quiet=True)
    seconds = time.perf_counter() - started
    calls = sum(r["tokens_by_role"][role]["calls"] for r in records for role in ("solver", "expert"))
    assert all(r["error"] is None for r in records), [r["error"] for r in records if r["error"]][:3]
    return calls, seconds


async def warm(api_base: str) -> None:
    policy = LiteLLMPolicy(model_cfg(api_base))
    await policy.client.complete([{"role": "user", "content": "warm up"}])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_llm_"))

    with Loopback(log_messages=False, log=os.devnull) as fast:
        asyncio.run(warm(fast.api_base))
        calls, seconds = asyncio.run(rollout(fast.api_base, args.episodes, args.concurrency, tmp / "fast"))
        rollout_rate = calls / seconds
        bare_rate = asyncio.run(bare_loop(fast.api_base, calls, args.concurrency))
    print(f"zero latency, concurrency {args.concurrency}: rollout {rollout_rate:.0f} calls/s ({calls} calls), "
          f"bare litellm loop {bare_rate:.0f} calls/s")
    print(f"  ratio rollout/bare = {rollout_rate / bare_rate:.2f}   (goal >= 0.8)")

    with Loopback("--latency", str(args.latency), log_messages=False, log=os.devnull) as slow:
        asyncio.run(warm(slow.api_base))
        calls, seconds = asyncio.run(rollout(slow.api_base, args.episodes, args.concurrency, tmp / "slow"))
    ideal = calls * args.latency / args.concurrency
    floor = calls / bare_rate  # client + server CPU alone, measured by the bare loop above
    print(f"latency {args.latency * 1000:.0f} ms, concurrency {args.concurrency}: {calls} calls in {seconds:.2f} s, "
          f"ideal {ideal:.2f} s")
    print(f"  ratio wall/ideal = {seconds / ideal:.2f}   (goal <= 1.25)")
    print(f"  (a bare litellm loop needs {floor:.2f} s of CPU for these calls on this machine: "
          f"wall / max(ideal, that floor) = {seconds / max(ideal, floor):.2f})")


if __name__ == "__main__":
    main()
