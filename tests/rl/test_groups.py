"""GroupedEpisodes: schedule order, shared instances within a group, autoreset semantics,
determinism, concurrency of partner calls."""

from __future__ import annotations

import time

import numpy as np
import pytest

from comma_env.rl import GroupedEpisodes, group_schedule
from tests.support.rl_partners import SlowPolicy


def random_learner(seed: int):
    rng = np.random.default_rng(seed)

    def act(observation, info):
        valid = info.get("valid_actions") or [""]
        return valid[int(rng.integers(len(valid)))] if rng.random() < 0.7 else "What should I do?"

    return act


def play_all(batch: GroupedEpisodes, act) -> list[tuple]:
    """Run the whole schedule; returns every (slot, seed, episode_index, reset, reward, done)."""
    log = []
    observations, infos = batch.reset()
    first = {}
    for info in infos:
        if info["active"]:
            first[info["episode_index"]] = info
    steps = 0
    while not batch.finished:
        actions = [act(o, i) if i["active"] else "" for o, i in zip(observations, infos, strict=True)]
        observations, rewards, terminated, truncated, infos = batch.step(actions)
        for info, reward, term, trunc in zip(infos, rewards, terminated, truncated, strict=True):
            log.append((info["slot"], info.get("seed"), info.get("episode_index"), info["reset"], float(reward),
                        bool(term or trunc)))
        steps += 1
        assert steps < 1000
    return log


def test_schedule_repeats_each_seed_in_order():
    schedule = group_schedule([5, 3, 9], group_size=2)
    assert [(e.seed, e.group, e.member) for e in schedule] == [(5, 0, 0), (5, 0, 1), (3, 1, 0), (3, 1, 1),
                                                               (9, 2, 0), (9, 2, 1)]
    assert [e.index for e in schedule] == list(range(6))


def test_no_seed_dropped_or_reordered_and_groups_share_the_instance():
    seeds = [7, 2, 11, 4, 30]
    batch = GroupedEpisodes("who", seeds=seeds, group_size=3, batch_size=4, partner="oracle_nl", solver_view="text")
    states: dict[int, list[str]] = {}
    original_start = batch._start

    async def recording_start(slot):  # what each member saw at its start
        result = await original_start(slot)
        entry = batch._current[slot]
        if entry is not None and result[1]["active"]:
            states.setdefault(entry.group, []).append(batch.envs[slot].raw.describe())
        return result

    batch._start = recording_start
    play_all(batch, random_learner(0))
    episodes = batch.episodes
    assert [e["seed"] for e in episodes] == [s for s in seeds for _ in range(3)]
    assert [e["episode_index"] for e in episodes] == list(range(15))
    assert all(e["puzzle"] == "who" and e["end_reason"] for e in episodes)
    for descriptions in states.values():
        assert len(descriptions) == 3 and len(set(descriptions)) == 1  # one instance per group
    assert len({d[0] for d in states.values()}) == len(seeds)  # different seeds, different instances


def test_batches_are_deterministic_for_a_seed_list():
    def run():
        batch = GroupedEpisodes("wire", seeds=range(6), group_size=2, batch_size=3, partner="oracle_nl",
                                solver_view="text")
        return play_all(batch, random_learner(1)), batch.episodes

    assert run() == run()


def test_autoreset_next_step_semantics():
    batch = GroupedEpisodes("wire", seeds=[0, 1], group_size=1, batch_size=1, partner="random", solver_view="text")
    observations, infos = batch.reset()
    assert infos[0]["seed"] == 0 and infos[0]["reset"]
    done = False
    while not done:
        observations, rewards, terminated, truncated, infos = batch.step([infos[0]["valid_actions"][0]])
        done = bool(terminated[0] or truncated[0])
    assert infos[0]["episode"]["seed"] == 0
    observations, rewards, terminated, truncated, infos = batch.step(["ignored"])
    assert infos[0]["reset"] and infos[0]["seed"] == 1 and rewards[0] == 0.0 and not terminated[0]
    assert infos[0]["dialogue"] == []  # a fresh episode: the ignored action was not played


def test_without_autoreset_reset_starts_the_next_batch_and_refuses_to_drop_running_episodes():
    batch = GroupedEpisodes("wire", seeds=[0, 1, 2, 3], group_size=1, batch_size=2, partner="random",
                            autoreset=False, solver_view="text")
    observations, infos = batch.reset()
    assert [i["seed"] for i in infos] == [0, 1]
    with pytest.raises(RuntimeError, match="still playing"):
        batch.reset()
    while not all(not i["active"] or i.get("episode") for i in infos):
        observations, rewards, terminated, truncated, infos = batch.step(["cut_wire_1", "cut_wire_1"])
    observations, infos = batch.reset()
    assert [i["seed"] for i in infos] == [2, 3]


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
def test_partner_calls_of_a_batch_overlap():
    batch = GroupedEpisodes("wire", seeds=range(8), batch_size=8, partner=SlowPolicy(), solver_view="text")
    batch.reset()
    started = time.perf_counter()
    batch.step(["hello"] * 8)
    assert time.perf_counter() - started < 0.8  # concurrent, not 8 x 0.2 s
    with pytest.raises(ValueError, match="expected 8 actions"):
        batch.step(["hello"])


@pytest.mark.alone  # times waiting: the other worker waits meanwhile
def test_llm_partner_calls_of_a_batch_overlap_over_http():
    """The partner is the rollout's chat policy against the loopback server with 0.3 s latency."""
    from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
    from tests.support.loopback_server import Loopback

    with Loopback("--latency", "0.3") as server:
        batch = GroupedEpisodes("wire", seeds=range(4), group_size=2, batch_size=8, partner="openai_compat",
                                partner_overrides={"api_base": server.api_base, "name": "loopback", "vision": False,
                                                   "extra": {"retry_base_delay": 0.02}},
                                solver_view="text")
        observations, infos = batch.reset()
        batch.step(["Hello."] * 8)  # warm-up: the first call imports LiteLLM and opens the client
        actions = [f"{DESCRIPTION_HEADER}\n{describe_state(env.raw.visible_state)}" for env in batch.envs]
        started = time.perf_counter()
        observations, rewards, terminated, truncated, infos = batch.step(actions)
        elapsed = time.perf_counter() - started
        assert elapsed < 8 * 0.3 / 2, elapsed  # eight 0.3 s calls overlapped
        advice = [info["partner_message"] for info in infos]
        assert all(a and "Type these actions:" in a for a in advice)
        cuts = [next(line for line in a.splitlines() if line.startswith("cut_wire_")) for a in advice]
        observations, rewards, terminated, truncated, infos = batch.step(cuts)
        assert terminated.all() and (rewards == 1.0).all()
        assert advice[0] == advice[1] and cuts[2] == cuts[3]  # group members share the instance
        batch.close()
