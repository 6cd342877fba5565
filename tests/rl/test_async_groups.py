"""GroupedEpisodes without lock-step: each slot steps as soon as its own partner (an LLM
behind the loopback server, 50-500 ms per call) answers; wall time near the ideal; every
scheduled episode played once, in schedule order, with its seed."""

from __future__ import annotations

import time

import pytest

from comma_env.rl import GroupedEpisodes
from tests.support.loopback_server import Loopback

ADVICE = "Type these actions:"
pytestmark = pytest.mark.alone  # wall time against the partners' latency: the other worker waits meanwhile

SEEDS = list(range(16))
GROUP, BATCH = 2, 4


def learner(observation, info) -> str:
    """Describe first, then type the expert's advice (what the loopback expert understands)."""
    partner = info.get("partner_message") or ""
    if ADVICE in partner:
        lines = (line.strip("> ").strip() for line in partner.split(ADVICE, 1)[1].splitlines())
        return "\n".join(line for line in lines if line)
    return "I see:\n" + (info.get("description") or "")


def make_batch(server: Loopback) -> GroupedEpisodes:
    return GroupedEpisodes("wire", seeds=SEEDS, group_size=GROUP, batch_size=BATCH, partner="openai_compat",
                           partner_overrides={"api_base": server.api_base, "name": "loopback"}, solver_view="text")


def check_schedule(episodes):
    assert [e["episode_index"] for e in episodes] == list(range(len(SEEDS) * GROUP))
    assert [e["seed"] for e in episodes] == [s for s in SEEDS for _ in range(GROUP)]
    assert [e["member"] for e in episodes] == [m for _ in SEEDS for m in range(GROUP)]
    assert all(e["success"] for e in episodes), [e.get("end_reason") for e in episodes]


@pytest.fixture(scope="module")
def server():
    with Loopback("--latency-range", "0.05,0.5") as running:
        warm_up = GroupedEpisodes("wire", seeds=[0], partner="openai_compat", solver_view="text",
                                  partner_overrides={"api_base": running.api_base, "name": "loopback"})
        warm_up.run(learner)  # imports and first connections are paid here, not in the timings
        warm_up.close()
        yield running


def ideal_seconds(requests) -> float:
    """The batch's partner time spread evenly over its slots, with no waiting at all."""
    return sum(r["latency"] for r in requests) / BATCH


ATTEMPTS = 2
"""Timed plays per test: a second one only when the first is over the bound. Why: a stall of
the machine is not a property of the schedule (one play on CI read 1.30x the ideal, where
plays read 1.04-1.13x), while a lock-step schedule is over the bound on every play
(1.35-1.62x, `test_lock_step_waits_for_the_slowest`)."""


def assert_near_ideal(play) -> None:
    """`play()` (one timed play, its own checks inside; returns its wall seconds and the
    partner requests it made) within 1.25x the ideal, in one of `ATTEMPTS` plays."""
    walls = []
    for _ in range(ATTEMPTS):
        wall, requests = play()
        walls.append((wall, ideal_seconds(requests)))
        if wall <= 1.25 * ideal_seconds(requests):
            return
    pytest.fail(f"every play over 1.25x the ideal (wall, ideal seconds): {walls}")


def test_run_steps_each_slot_as_its_partner_answers(server):
    def play():
        batch = make_batch(server)
        before = len(server.requests())
        started = time.perf_counter()
        episodes = batch.run(learner)
        wall = time.perf_counter() - started
        batch.close()
        requests = server.requests()[before:]
        check_schedule(episodes)
        latencies = [r["latency"] for r in requests]
        assert min(latencies) >= 0.05 and max(latencies) <= 0.5 and max(latencies) - min(latencies) > 0.3
        return wall, requests

    assert_near_ideal(play)


def test_recv_send_returns_ready_slots_and_keeps_the_schedule(server):
    def play():
        batch = make_batch(server)
        before = len(server.requests())
        started = time.perf_counter()
        batch.start()
        sizes = []
        while not batch.finished:
            slots, observations, rewards, terminated, truncated, infos = batch.recv()
            sizes.append(len(slots))
            ready = zip(slots, observations, infos, terminated, truncated, strict=True)
            acting = [(slot, learner(o, i)) for slot, o, i, te, tr in ready if not (te or tr)]
            if acting:
                batch.send([slot for slot, _ in acting], [action for _, action in acting])
        wall = time.perf_counter() - started
        requests = server.requests()[before:]
        check_schedule(batch.episodes)
        # slots come back on their own
        assert min(sizes) >= 1 and sum(1 for size in sizes if size < BATCH) > len(sizes) // 2
        with pytest.raises(ValueError, match="not waiting"):
            batch.send([0], ["hello"])
        batch.close()
        return wall, requests

    assert_near_ideal(play)


def test_lock_step_waits_for_the_slowest(server):
    """The reference: `step` returns when the batch's slowest partner has answered."""
    batch = make_batch(server)
    before = len(server.requests())
    started = time.perf_counter()
    observations, infos = batch.reset()
    while not batch.finished:
        actions = [learner(o, i) if i["active"] else "" for o, i in zip(observations, infos, strict=True)]
        observations, rewards, terminated, truncated, infos = batch.step(actions)
    wall = time.perf_counter() - started
    batch.close()
    check_schedule(batch.episodes)
    assert wall > 1.25 * ideal_seconds(server.requests()[before:])
