"""GroupedEpisodes without lock-step: each slot steps as soon as its own partner (an LLM
behind the loopback server, 50-500 ms per call) answers, so a slot's next call starts while
another slot's older call is still out; every scheduled episode is played once, in schedule
order, with its seed. Lock-step `step` waits for the batch's slowest partner. The plays are
those of examples/benchmark_grouped.py, whose table holds what the overlap saves in wall time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.loopback_server import Loopback
from tests.support.script_files import load_script

bench = load_script(Path(__file__).resolve().parents[2] / "examples" / "benchmark_grouped.py")


def check_schedule(episodes):
    seeds = bench.SEEDS
    assert [e["episode_index"] for e in episodes] == list(range(len(seeds) * bench.GROUP))
    assert [e["seed"] for e in episodes] == [s for s in seeds for _ in range(bench.GROUP)]
    assert [e["member"] for e in episodes] == [m for _ in seeds for m in range(bench.GROUP)]
    assert all(e["success"] for e in episodes), [e.get("end_reason") for e in episodes]


def spans(requests) -> list[tuple[float, float]]:
    """Each partner call's (start, end) on the server's clock."""
    return sorted((r["time"] - r["latency"], r["time"]) for r in requests)


def most_in_flight(requests) -> int:
    events = sorted([(start, 1) for start, _ in spans(requests)] + [(end, -1) for _, end in spans(requests)])
    most = current = 0
    for _, change in events:
        current += change
        most = max(most, current)
    return most


def went_on_without_waiting(requests) -> bool:
    """Some call started after another call had ended, while a third, begun before that end,
    was still out: a slot whose partner had answered went on without waiting for the others.
    Lock-step does not: a step's calls start together, the next step's after all have ended."""
    calls = spans(requests)
    return any(old_start < end <= start < old_end
               for old_start, old_end in calls for _, end in calls for start, _ in calls)


@pytest.fixture(scope="module")
def server():
    with Loopback("--latency-range", bench.LATENCY, log_messages=False) as running:
        yield running


def play(server, form):
    """`form` played on a fresh batch: what it returns, the batch, and its partner requests."""
    batch = bench.make_batch(server.api_base)
    before = len(server.requests())
    result = form(batch)
    return result, batch, server.requests()[before:]


def test_run_steps_each_slot_as_its_partner_answers(server):
    episodes, batch, requests = play(server, bench.play_run)
    batch.close()
    check_schedule(episodes)
    latencies = [r["latency"] for r in requests]
    assert min(latencies) >= 0.05 and max(latencies) <= 0.5 and max(latencies) - min(latencies) > 0.3
    assert most_in_flight(requests) == bench.BATCH and went_on_without_waiting(requests)


def test_recv_send_returns_ready_slots_and_keeps_the_schedule(server):
    sizes, batch, requests = play(server, bench.play_recv_send)
    check_schedule(batch.episodes)
    # slots come back on their own
    assert min(sizes) >= 1 and sum(1 for size in sizes if size < bench.BATCH) > len(sizes) // 2
    with pytest.raises(ValueError, match="not waiting"):
        batch.send([0], ["hello"])
    batch.close()
    assert most_in_flight(requests) == bench.BATCH and went_on_without_waiting(requests)


def test_lock_step_waits_for_the_slowest(server):
    """The reference: `step` returns when the batch's slowest partner has answered, so every
    partner call starts and ends within one `step` (or the `reset`)."""
    calls, batch, requests = play(server, bench.play_lock_step)
    batch.close()
    check_schedule(batch.episodes)
    assert all(any(first <= start and end <= last for first, last in calls) for start, end in spans(requests))
    assert most_in_flight(requests) == bench.BATCH and not went_on_without_waiting(requests)
