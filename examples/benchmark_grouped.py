"""`GroupedEpisodes` against an LLM partner whose calls take 50-500 ms: the wall time of
`run`, of `recv`/`send` and of lock-step `step`, each against the ideal (the partners' total
latency spread evenly over the slots, with no waiting at all).

    python examples/benchmark_grouped.py [--rounds 3] [--markdown]

The partner is the expert of tests/support/loopback_server.py (`LATENCY`, passed as its
``--latency-range``); the learner describes, then types the expert's advice. 16 Wire seeds,
groups of 2, 4 slots, the solver's text view. Rounds interleave the three forms, after one
unmeasured play that pays imports and first connections. ``--markdown`` writes
``docs/_generated/grouped_episodes.md``.

`tests/rl/test_async_groups.py` plays each form once with these functions and checks how
the partner calls overlap.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from comma_env.rl import GroupedEpisodes

ROOT = Path(__file__).resolve().parents[1]
LATENCY = "0.05,0.5"
ADVICE = "Type these actions:"
SEEDS, GROUP, BATCH = list(range(16)), 2, 4


def learner(observation: Any, info: dict[str, Any]) -> str:
    """Describe first, then type the expert's advice (what the loopback expert understands)."""
    partner = info.get("partner_message") or ""
    if ADVICE in partner:
        lines = (line.strip("> ").strip() for line in partner.split(ADVICE, 1)[1].splitlines())
        return "\n".join(line for line in lines if line)
    return "I see:\n" + (info.get("description") or "")


def make_batch(api_base: str, seeds: list[int] = SEEDS) -> GroupedEpisodes:
    return GroupedEpisodes("wire", seeds=seeds, group_size=GROUP, batch_size=BATCH, partner="openai_compat",
                           partner_overrides={"api_base": api_base, "name": "loopback"}, solver_view="text")


def play_run(batch: GroupedEpisodes) -> list[dict[str, Any]]:
    """`run`: each slot asks the learner as soon as its partner has answered."""
    return batch.run(learner)


def play_recv_send(batch: GroupedEpisodes) -> list[int]:
    """`recv`/`send` until the schedule is done; the number of slots each `recv` returned."""
    batch.start()
    sizes = []
    while not batch.finished:
        slots, observations, _, terminated, truncated, infos = batch.recv()
        sizes.append(len(slots))
        ready = zip(slots, observations, infos, terminated, truncated, strict=True)
        acting = [(slot, learner(o, i)) for slot, o, i, te, tr in ready if not (te or tr)]
        if acting:
            batch.send([slot for slot, _ in acting], [action for _, action in acting])
    return sizes


def play_lock_step(batch: GroupedEpisodes) -> list[tuple[float, float]]:
    """`reset` then `step` until done; each call's (start, end) on the wall clock (`time.time`)."""
    started = time.time()
    observations, infos = batch.reset()
    calls = [(started, time.time())]
    while not batch.finished:
        actions = [learner(o, i) if i["active"] else "" for o, i in zip(observations, infos, strict=True)]
        started = time.time()
        observations, _, _, _, infos = batch.step(actions)
        calls.append((started, time.time()))
    return calls


FORMS: dict[str, Callable[[GroupedEpisodes], object]] = {
    "`run(act)`": play_run, "`recv`/`send`": play_recv_send, "lock-step `step`": play_lock_step}


def measure(form: Callable[[GroupedEpisodes], object], server: Any) -> float:
    """One timed play of the whole schedule: its wall time over the ideal."""
    batch = make_batch(server.api_base)
    before = len(server.requests())
    started = time.perf_counter()
    form(batch)
    wall = time.perf_counter() - started
    batch.close()
    ideal = sum(r["latency"] for r in server.requests()[before:]) / BATCH
    return wall / ideal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/grouped_episodes.md")
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "examples")]
    from tests.support.loopback_server import Loopback

    ratios: dict[str, list[float]] = {name: [] for name in FORMS}
    with Loopback("--latency-range", LATENCY, log_messages=False) as server:
        warm_up = make_batch(server.api_base, seeds=[0])
        play_run(warm_up)
        warm_up.close()
        for round_ in range(args.rounds):
            for name, form in FORMS.items():
                ratios[name].append(measure(form, server))
            print(f"round {round_}: " + " | ".join(f"{name} {r[-1]:.2f}x" for name, r in ratios.items()), flush=True)
    lines = ["| form | wall time / ideal (median) | range over rounds |", "|---|---:|---|"]
    lines += [f"| {name} | {statistics.median(r):.2f}x | {min(r):.2f}-{max(r):.2f}x |" for name, r in ratios.items()]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        from doc_tables import write_table

        note = (f"Wire, {len(SEEDS)} seeds in groups of {GROUP} on {BATCH} slots, the solver's text view, loopback "
                f"partner answering in {LATENCY.replace(',', '-')} s per call, {args.rounds} interleaved rounds.")
        print(write_table("grouped_episodes", text, note=note))


if __name__ == "__main__":
    main()
