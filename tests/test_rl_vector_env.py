"""`CommaVectorEnv` (the ids' vector entry point): the same results as Gymnasium's
`SyncVectorEnv` over the same environments, for any split into worker processes, and
failures inside a worker that surface in the main process without hanging it."""

from __future__ import annotations

import gc
import mmap
import multiprocessing
import os
import signal
from collections import defaultdict
from copy import deepcopy
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import CloudpickleWrapper, batch_space

import comma_env  # noqa: F401  (registers the ids)
from comma_env.protocol.spaces import UniformBox
from comma_env.rl import gym_id, gym_ids, vector_env
from comma_env.rl.info_columns import Packer, Unpacker, absent_paths, from_columns
from comma_env.rl.vector_env import CommaVectorEnv, WorkerError, shares, worker_cpus
from comma_env.rl.vector_worker import current_cpu, map_rows, serve


class _InfoMerger(VectorEnv):
    """Only for `VectorEnv._add_info` (Gymnasium's info format), with the share's size."""

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


def merge_infos(infos) -> dict:
    """The reference: infos merged by Gymnasium's own code, environment by environment."""
    merger = _InfoMerger(len(infos))
    merged: dict = {}
    for index, info in enumerate(infos):
        merged = merger._add_info(merged, info, index)
    return merged


def assert_same(left, right, path="") -> None:
    """Deep equality of observations/infos: dicts by key, arrays by dtype and value."""
    if isinstance(left, dict):
        assert isinstance(right, dict) and set(left) == set(right), (path, sorted(left), sorted(right))
        for key in left:
            assert_same(left[key], right[key], f"{path}.{key}")
    elif isinstance(left, np.ndarray):
        assert isinstance(right, np.ndarray) and left.dtype == right.dtype and left.shape == right.shape, path
        if left.dtype == object:
            assert list(left) == list(right), path
        else:
            assert np.array_equal(left, right), path
    else:
        assert left == right, (path, left, right)


def actions_for(infos, num_envs: int, step: int) -> list[str]:
    """A fixed script: "hello" on even steps, else the first valid action (or a garbage line)."""
    actions = []
    for i in range(num_envs):
        valid = infos["valid_actions"][i] if "valid_actions" in infos and infos["_valid_actions"][i] else None
        if step % 2 == 0 or not valid:
            actions.append("hello" if (step + i) % 3 else "**cut_wire_9** 99999999999999 \u202e")
        else:
            actions.append(str(valid[(step + i) % len(valid)]))
    return actions


def play_both(env_id: str, num_envs: int, steps: int, workers: int, **kwargs) -> int:
    """Steps a SyncVectorEnv and a CommaVectorEnv in lockstep; returns the episodes ended."""
    reference = gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    subject = gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                                 workers=workers, **kwargs)
    ended = 0
    try:
        assert isinstance(subject.unwrapped, CommaVectorEnv)
        assert subject.observation_space == reference.observation_space
        assert subject.single_action_space == reference.single_action_space
        expected, expected_infos = reference.reset(seed=7)
        got, got_infos = subject.reset(seed=7)
        assert_same(expected, got, "reset")
        assert_same(expected_infos, got_infos, "reset infos")
        for step in range(steps):
            actions = actions_for(expected_infos, num_envs, step)
            expected, expected_rewards, expected_term, expected_trunc, expected_infos = reference.step(actions)
            got, rewards, term, trunc, infos = subject.step(actions)
            assert_same(expected, got, f"step {step}")
            assert_same(expected_infos, infos, f"step {step} infos")
            assert np.array_equal(expected_rewards, rewards) and rewards.dtype == np.float64
            assert np.array_equal(expected_term, term) and np.array_equal(expected_trunc, trunc)
            ended += int(np.sum(term | trunc))
    finally:
        reference.close()
        subject.close()
    return ended


@pytest.mark.parametrize("workers", [0, 1, 2, 3])
def test_wire_image_view_matches_sync_for_any_split(workers):
    ended = play_both(gym_id("wire", "solver"), 5, 14, workers, partner="random", solver_view="image")
    assert ended > 0, "the script must end episodes, so autoreset is compared too"


@pytest.mark.parametrize("puzzle,role,view", [("who", "expert", "text"), ("sound", "solver", "image"),
                                              ("telehealth", "solver", "image"), ("maze", "solver", "text")])
def test_other_puzzles_roles_and_arrays_match_sync(puzzle, role, view):
    play_both(gym_id(puzzle, role), 3, 8, 2, partner="random", solver_view=view)


def test_default_make_vec_uses_the_entry_point_in_process():
    envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=2, partner="random", solver_view="text")
    try:
        assert isinstance(envs.unwrapped, CommaVectorEnv) and "workers=0" in repr(envs.unwrapped)
        observations, _ = envs.reset(seed=[0, 1])
        assert isinstance(observations["text"], tuple) and observations["text"][0] != observations["text"][1]
    finally:
        envs.close()


def test_copies_are_independent_and_views_are_not():
    for copy in (True, False):
        envs = CommaVectorEnv(2, workers=1, copy=copy, puzzle="wire", role="solver", partner="random",
                              solver_view="image")
        try:
            first, _ = envs.reset(seed=[0, 1])
            kept = first["image"].copy()
            envs.reset(seed=[2, 3])  # other instances: other pictures
            assert np.array_equal(first["image"], kept) == copy
        finally:
            envs.close()


def test_call_get_and_set_attr_reach_every_env_in_row_order():
    envs = CommaVectorEnv(3, workers=2, puzzle="wire", role="solver", partner="random", solver_view="text")
    try:
        assert envs.get_attr("puzzle") == ("wire", "wire", "wire")
        envs.set_attr("marker", [10, 11, 12])
        assert envs.get_attr("marker") == (10, 11, 12)
        assert envs.call("unwrapped")[0].__class__.__name__ == "SingleRoleEnv"
    finally:
        envs.close()


def test_an_error_in_a_worker_is_raised_here_and_the_env_stays_usable():
    envs = CommaVectorEnv(4, workers=2, puzzle="wire", role="solver", partner="random", solver_view="text")
    try:
        envs.reset(seed=0)
        with pytest.raises(WorkerError, match="AttributeError"):
            envs.call("no_such_method")
        observations, rewards, *_ = envs.step(["hello"] * 4)  # every pipe was drained: still in step
        assert len(observations["text"]) == 4
        with pytest.raises(ValueError, match="3 actions for 4"):
            envs.step(["hello"] * 3)
    finally:
        envs.close()


def test_a_dead_worker_is_reported_not_waited_for():
    envs = CommaVectorEnv(2, workers=2, puzzle="wire", role="solver", partner="random", solver_view="text")
    try:
        envs.reset(seed=0)
        os.kill(envs._processes[1].pid, signal.SIGKILL)
        envs._processes[1].join(timeout=10)
        with pytest.raises(WorkerError, match="ended unexpectedly") as raised:
            envs.step(["hello", "hello"])
        # The send to the dead worker failed. Its traceback's frames held the pickled message (a
        # memoryview of a BytesIO): kept as the cause, collecting them crashed CPython 3.12.1.
        assert isinstance(raised.value.__cause__, BrokenPipeError) and raised.value.__cause__.__traceback__ is None
        del raised
        gc.collect()
    finally:
        envs.close()
    assert envs.closed and not envs._processes


def test_bad_arguments_fail_before_any_process_starts():
    with pytest.raises(ValueError, match="num_envs"):
        CommaVectorEnv(0, puzzle="wire", role="solver")
    with pytest.raises(ValueError, match="workers"):
        CommaVectorEnv(2, workers=-1, puzzle="wire", role="solver")
    with pytest.raises(ValueError, match="not a solver/expert puzzle"):
        CommaVectorEnv(2, workers=2, puzzle="nonsense", role="solver")


def test_spawned_workers_build_their_envs_from_a_pickled_factory():
    envs = CommaVectorEnv(2, workers=2, context="spawn", puzzle="wire", role="solver", partner="random",
                          solver_view="text")
    try:
        observations, infos = envs.reset(seed=[5, 6])
        assert len(observations["text"]) == 2 and infos["_turn"].all()
    finally:
        envs.close()


def test_shares_are_contiguous_and_balanced():
    assert shares(5, 2) == [(0, 3), (3, 2)]
    assert shares(2, 4) == [(0, 1), (1, 1)]
    assert shares(8, 1) == [(0, 8)]


def test_merging_shares_through_columns_equals_merging_all_infos_at_once():
    infos = [{"a": 1, "b": "x", "d": {"n": 1.5}, "l": [1, 2], "v": np.ones(2)},
             {"a": 2, "c": [1], "l": [3, 4], "v": np.zeros(2)}, {"b": "y", "l": []},
             {"a": 4, "d": {"n": 2.5}, "l": [[5]]}]
    whole = merge_infos(infos)
    parts = [Packer().pack(share) for share in (infos[:1], infos[1:3], infos[3:])]
    merged = from_columns(parts, [1, 2, 1], 4)
    assert_same(whole, merged)
    assert merged["l"].shape == (4,) and merged["l"][0] == [1, 2]  # equal-length lists stay objects
    with pytest.raises(ValueError, match="a dict in some"):
        from_columns([Packer().pack([{"k": {"x": 1}}]), Packer().pack([{"k": 2}])], [1, 1], 2)


def test_packing_merges_every_kind_of_value_as_gymnasium_does():
    """`Packer.pack` merges in one pass what `VectorEnv._add_info` merges env by env: the
    first environment having a key decides its array's type (Python and numpy numbers, numpy
    arrays of any shape, everything else as objects: None, strings, lists, numpy bools)."""
    infos = [
        {"i": 1, "f": 0.5, "b": True, "n": np.float32(1.5), "nb": np.bool_(True), "v": np.arange(3.0),
         "z": np.array(7), "o": None, "s": "x", "l": [1, 2], "d": {"i": 1, "e": {"x": "deep"}}},
        {"i": 2.9, "b": 2, "n": np.float32(2.5), "v": np.ones(3), "o": 4, "l": [], "d": {"f": 1.5}},
        {},
        {"f": 3, "s": "y", "nb": np.bool_(False), "z": np.array(8), "d": {"i": 5, "e": {}}},
    ]
    for split in ([infos], [infos[:1], infos[1:]], [infos[:2], infos[2:3], infos[3:]]):
        parts = [Packer().pack(share) for share in split]
        merged = from_columns(parts, [len(share) for share in split], len(infos))
        assert_same(merge_infos(infos), merged, f"{len(split)} shares")
        assert merged["nb"].dtype == object and merged["n"].dtype == np.float32 and merged["v"].shape == (4, 3)


def test_packers_keep_every_key_they_met_and_the_merge_drops_the_ones_nobody_has():
    """Steps of two shares whose environments report different keys over time: each merge
    equals Gymnasium's merge of all the infos at once, and the layouts stay equal once both
    shares met every key (absent keys travel as zeros and are dropped where no share has them)."""
    steps = [
        ([{"a": 1, "s": "x"}, {"a": 2, "s": "y"}], [{"a": 3, "s": "z"}]),
        ([{"a": 1, "e": {"n": 1.5, "t": 3}}, {"a": 2}], [{"a": 3, "e": {"n": 2.5}}]),
        ([{"a": 1}, {"a": 2}], [{"a": 3, "e": {"n": 0.5, "t": 4}}]),  # `e` only in the second share
        ([{"a": 1}, {"a": 2}], [{"a": 3}]),  # `e` nowhere: not in the merge
        ([{"a": 1, "e": {"n": 1.0}}, {"a": 2}], [{"a": 3, "e": {"n": 2.0}}]),  # `e.t` nowhere
    ]
    packers = [Packer(), Packer()]
    for index, (first, second) in enumerate(steps):
        shares = zip(packers, (first, second), strict=True)
        parts = [packer.pack(infos) for packer, infos in shares]
        merged = from_columns(parts, [2, 1], 3)
        assert_same(merge_infos(first + second), merged, f"step {index}")
        if index >= 2:  # both met `e`, `e.n` and `e.t` by now
            assert parts[0].layout == parts[1].layout
    nowhere = {("e", "t"), ("e", "_t"), ("s",), ("_s",)}  # met in earlier steps, in no environment now
    assert absent_paths(parts[0].layout, parts[0].absent) == absent_paths(parts[1].layout, parts[1].absent) == nowhere


def test_a_key_of_another_dtype_in_one_share_merges_as_gymnasium_does():
    packers = [Packer(), Packer()]
    warm = [packer.pack([{"a": 1}]) for packer in packers]
    assert from_columns(warm, [1, 1], 2)["a"].dtype == np.int64
    first, second = [{"b": 1}], [{"a": 2.5, "b": 2}]  # `a` absent (zeros as int) in one, a float in the other
    parts = [packer.pack(infos) for packer, infos in zip(packers, (first, second), strict=True)]
    merged = from_columns(parts, [1, 1], 2)
    assert_same(merge_infos(first + second), merged)
    assert merged["a"].dtype == np.float64 and list(merged["_a"]) == [False, True]


_KINDS = {  # one kind of value per key, as an environment reports it (mixed kinds are Gymnasium's own affair)
    "i": lambda rng: int(rng.integers(-5, 5)), "f": lambda rng: float(rng.random()),
    "b": lambda rng: bool(rng.random() < 0.5), "n": lambda rng: np.float32(rng.random()),
    "nb": lambda rng: np.bool_(rng.random() < 0.5),
    "v": lambda rng: rng.random(2), "z": lambda rng: np.array(int(rng.integers(9))), "o": lambda rng: None,
    "s": lambda rng: str(rng.integers(99)), "l": lambda rng: [int(x) for x in rng.integers(0, 9, rng.integers(0, 3))],
}


def _random_info(rng: np.random.Generator, keys: list[str], depth: int = 0) -> dict[str, Any]:
    """Most keys most of the time, as an environment reports them, and now and then a nested
    dict (its own keys) or nothing at all."""
    if rng.random() < 0.1:
        return {}
    info = {key: _KINDS[key](rng) for key in keys if rng.random() < 0.85}
    if depth == 0 and rng.random() < 0.4:
        info["episode"] = _random_info(rng, keys[:4], depth + 1)
    if depth == 0 and rng.random() < 0.8:
        info["usage"] = {"calls": int(rng.integers(3)), "tokens": int(rng.integers(99))}
    return info


def test_packing_random_infos_step_after_step_equals_gymnasiums_merge():
    """Random infos over many steps of packers that keep what they met (keys present in all,
    some, one or no environment, empty infos, nested dicts present in a few), for splits into
    one to three shares: each step's merge equals Gymnasium's merge of all the infos at once."""
    rng = np.random.default_rng(0)
    for trial in range(12):
        keys = list(rng.permutation(list(_KINDS)))[: int(rng.integers(1, len(_KINDS) + 1))]
        counts = [int(c) for c in rng.integers(1, 6, int(rng.integers(1, 4)))]
        packers = [Packer() for _ in counts]
        for step in range(15):
            infos = [_random_info(rng, keys) for _ in range(sum(counts))]
            offsets = np.cumsum([0, *counts])
            parts = [packer.pack(infos[offsets[i]:offsets[i + 1]]) for i, packer in enumerate(packers)]
            assert_same(merge_infos(infos), from_columns(parts, counts, sum(counts)), f"trial {trial} step {step}")


def test_a_packing_that_failed_midway_leaves_the_next_ones_right():
    """A key that is a dict in one environment and not in another fails its step after the
    packer met the keys after it: they are absent from the next step, and it merges as
    Gymnasium does (it raised TypeError on a key met but never merged)."""
    packer = Packer()
    with pytest.raises(ValueError, match="a dict in some"):
        packer.pack([{"a": {"x": 1}, "b": 1}, {"a": 2, "b": 2}])
    infos = [{"c": 1}, {"c": 2, "d": "x"}]
    assert_same(merge_infos(infos), from_columns([packer.pack(infos)], [2], 2))


def test_packing_reads_dict_subclasses_without_changing_them():
    """A defaultdict answers a missing key by adding it: infos of dict subclasses are read
    item by item, so they merge as Gymnasium merges them and keep their keys."""
    infos = [defaultdict(list, {"a": 1, "b": 2}), defaultdict(list, {"a": 3, "c": 4})]
    assert_same(merge_infos(infos), from_columns([Packer().pack(infos)], [2], 2))
    assert [set(info) for info in infos] == [{"a", "b"}, {"a", "c"}]


def test_layouts_travel_once_and_again_after_a_lost_packing():
    packer, unpacker = Packer(send_layouts_once=True), Unpacker()
    infos = [{"a": 1, "s": "x"}]
    first, second = packer.pack(infos), packer.pack(infos)
    assert first.layout is not None and second.layout is None
    with pytest.raises(RuntimeError, match="without its layout"):
        Unpacker()(second)
    assert unpacker(first).layout == unpacker(second).layout == first.layout
    packer.forget()  # what it packed did not reach the receiver
    assert packer.pack(infos).layout == first.layout


class _OnlyFromThisProcess:
    """Pickles in the process that made it and in no other: a worker receives it, and cannot
    send it back."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = os.getpid() if pid is None else pid

    def __add__(self, other: object) -> _OnlyFromThisProcess:  # the partner's token counts add up
        return self

    def __reduce__(self):
        if os.getpid() != self.pid:
            raise TypeError("this object cannot be pickled outside the process that made it")
        return _OnlyFromThisProcess, (self.pid,)


def test_an_info_that_cannot_be_pickled_fails_one_step_and_the_next_ones_match_sync():
    """The worker stepped, packed (a new key: a new layout) and could not send: its next
    answer carries its layout again, so the main process does not merge with a stale one."""
    env_id, kwargs = gym_id("wire", "solver"), {"partner": "random", "solver_view": "text"}
    reference = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="sync", **kwargs)
    subject = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", workers=2, **kwargs)
    try:
        reference.reset(seed=3)
        subject.reset(seed=3)
        usage = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
        for envs in (reference, subject):
            envs.set_attr("_partner_usage", [dict(usage, bad=_OnlyFromThisProcess()) for _ in range(4)])
        reference.step(["hello"] * 4)
        with pytest.raises(WorkerError, match="pickle"):
            subject.step(["hello"] * 4)
        for envs in (reference, subject):
            envs.set_attr("_partner_usage", [dict(usage) for _ in range(4)])
        for step in range(6):
            actions = ["hello" if step % 2 else "cut_wire_1"] * 4
            *_, expected_infos = reference.step(actions)
            *_, infos = subject.step(actions)
            assert_same(expected_infos, infos, f"step {step}")
    finally:
        reference.close()
        subject.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_held_observations_never_change_whatever_holds_them(workers):
    """Sets are handed out again only when nothing holds them: not the batch, a row view,
    a memoryview, a weak reference; held ones are never written, even past the set count."""
    import weakref

    envs = CommaVectorEnv(3, workers=workers, buffers=2, puzzle="wire", role="solver", partner="random",
                          solver_view="image")
    try:
        observations, infos = envs.reset(seed=0)
        held = []  # (what is held, a snapshot of its pixels)
        for step in range(12):
            image = observations["image"]
            holder = {0: image, 1: image[1], 2: memoryview(image), 3: weakref.ref(image)}[step % 4]
            held.append((holder, image.copy() if step % 4 != 1 else image[1].copy()))
            if step % 4 == 3:
                held[-1] = (image, held[-1][1])  # a weak reference alone keeps nothing alive: hold it too
                held.append((holder, None))
            observations, _, _, _, infos = envs.step(actions_for(infos, 3, step))
        for holder, snapshot in held:
            if snapshot is None:
                continue
            pixels = np.asarray(holder)
            assert np.array_equal(pixels, snapshot)
    finally:
        envs.close()


def test_sets_are_reused_once_released():
    envs = CommaVectorEnv(2, workers=1, buffers=2, puzzle="wire", role="solver", partner="random",
                          solver_view="image")
    try:
        observations, _ = envs.reset(seed=0)
        addresses = set()
        for _ in range(6):
            previous = observations  # a loop that keeps the previous observation
            observations, *_ = envs.step(["hello", "hello"])
            addresses.add(observations["image"].__array_interface__["data"][0])
            del previous
        assert len(addresses) == 2, "two sets alternate; no copies, no scratch"
        del observations
        again, _ = envs.reset(seed=0)  # nothing held: the first set again
        assert again["image"].__array_interface__["data"][0] == envs._sets[0]["image"].__array_interface__["data"][0]
    finally:
        envs.close()


@pytest.mark.parametrize("env_id,view", [(env_id, "text") for env_id in gym_ids()]
                         + [(env_id, "image") for env_id in gym_ids() if "-solver-" in env_id])
def test_every_id_and_view_matches_sync_in_process(env_id, view):
    play_both(env_id, 2, 4, 0, partner="random", solver_view=view)


def test_workers_are_pinned_to_usable_cpus_unless_told_not_to():
    usable = sorted(os.sched_getaffinity(0))
    assert worker_cpus(3) == [usable[i % len(usable)] for i in range(3)]
    for pin in (True, False):
        envs = CommaVectorEnv(2, workers=2, pin_workers=pin, puzzle="wire", role="solver", partner="random",
                              solver_view="text")
        try:
            affinities = [os.sched_getaffinity(process.pid) for process in envs._processes]
            expected = [{cpu} for cpu in worker_cpus(2)] if pin else [set(usable)] * 2
            assert affinities == expected
        finally:
            envs.close()


def test_a_list_of_cpus_pins_the_workers_to_those_in_turn():
    last = max(os.sched_getaffinity(0))
    assert worker_cpus(3, [last]) == [last] * 3
    envs = CommaVectorEnv(2, workers=2, pin_workers=[last], puzzle="wire", role="solver", partner="random",
                          solver_view="text")
    try:
        assert [os.sched_getaffinity(process.pid) for process in envs._processes] == [{last}, {last}]
    finally:
        envs.close()
    unusable = max(os.sched_getaffinity(0)) + 1000
    for bad, message in (([], "no CPU"), ([unusable], "may not use")):
        with pytest.raises(ValueError, match=message):
            CommaVectorEnv(2, workers=2, pin_workers=bad, puzzle="wire", role="solver")
    with pytest.raises(TypeError, match="a list of CPUs"):
        CommaVectorEnv(2, workers=2, pin_workers=last, puzzle="wire", role="solver")


def start_vector(workers: int, **kwargs: Any) -> CommaVectorEnv:
    return CommaVectorEnv(4, workers=workers, puzzle="wire", role="solver", partner="random", solver_view="image",
                          **kwargs)


@pytest.mark.parametrize("workers", [0, 2])
def test_step_async_then_step_wait_gives_what_step_gives(workers):
    """Two vector envs stepped in turn, each step sent before the other's is collected (the
    double-buffered loop `step_async` is for), against `step` on a third."""
    reference = start_vector(workers)
    pair = [start_vector(workers, pin_workers=[cpu]) for cpu in sorted(os.sched_getaffinity(0))[:2] * 2][:2]
    try:
        expected, expected_infos = reference.reset(seed=3)
        for envs in pair:
            assert_same(expected, envs.reset(seed=3)[0])
        for step in range(12):
            actions = actions_for(expected_infos, 4, step)
            for envs in pair:
                envs.step_async(actions)
            expected, *outcome, expected_infos = reference.step(actions)
            for envs in pair:
                got, *got_outcome, infos = envs.step_wait(timeout=60)
                assert_same(expected, got, f"step {step}")
                assert_same(expected_infos, infos, f"step {step} infos")
                for left, right in zip(outcome, got_outcome, strict=True):
                    assert np.array_equal(left, right)
    finally:
        for envs in (reference, *pair):
            envs.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_nothing_else_runs_while_a_step_is_out(workers):
    envs = start_vector(workers)
    try:
        envs.reset(seed=0)
        with pytest.raises(gymnasium.error.NoAsyncCallError):
            envs.step_wait()
        envs.step_async(["hello"] * 4)
        for refused in (lambda: envs.step_async(["hello"] * 4), lambda: envs.step(["hello"] * 4),
                        lambda: envs.reset(seed=0), lambda: envs.call("render"),
                        lambda: envs.set_attr("flag", 1)):
            with pytest.raises(gymnasium.error.AlreadyPendingCallError):
                refused()
        observations, rewards, *_ = envs.step_wait()
        assert observations["image"].shape[0] == 4 and rewards.shape == (4,)
        with pytest.raises(ValueError, match="3 actions for 4"):
            envs.step_async(["hello"] * 3)
        envs.step(["hello"] * 4)  # a refused step_async left nothing pending
    finally:
        envs.close()


def test_a_step_wait_that_times_out_leaves_the_step_to_collect_later():
    reference, envs = start_vector(2), start_vector(2)
    try:
        reference.reset(seed=1)
        envs.reset(seed=1)
        os.kill(envs._processes[1].pid, signal.SIGSTOP)
        try:
            envs.step_async(["hello"] * 4)
            with pytest.raises(multiprocessing.TimeoutError, match="step_wait again"):
                envs.step_wait(timeout=0.2)
        finally:
            os.kill(envs._processes[1].pid, signal.SIGCONT)
        expected, *expected_outcome, expected_infos = reference.step(["hello"] * 4)
        got, *outcome, infos = envs.step_wait(timeout=60)
        assert_same(expected, got)
        assert_same(expected_infos, infos)
        assert all(np.array_equal(left, right) for left, right in zip(expected_outcome, outcome, strict=True))
    finally:
        reference.close()
        envs.close()


def test_closing_with_a_step_out_reads_its_answers_and_stops_the_workers():
    envs = CommaVectorEnv(64, workers=2, puzzle="wire", role="solver", partner="random", solver_view="text")
    envs.reset(seed=0)
    envs.step_async(["x" * 50_000] * 64)  # answers of about 1 MB, more than a pipe holds: each worker blocks until read
    processes = list(envs._processes)
    envs.close()
    assert envs.closed and all(process.exitcode == 0 for process in processes)


@pytest.mark.parametrize("hold", ["row", "transpose", "memoryview", "list"])
def test_a_batch_kept_in_any_form_keeps_its_set(hold):
    """What a caller keeps of a batch (a row of it, a transposed view, a memoryview, the
    array in a list) is never written over by later steps; dropped, its set is written again."""
    envs = CommaVectorEnv(2, workers=0, puzzle="wire", role="solver", partner="random", solver_view="image")
    try:
        first, _ = envs.reset(seed=[0, 1])
        image = first["image"]
        if hold == "row":
            kept: Any = image[1]
        elif hold == "transpose":
            kept = image.T
        elif hold == "memoryview":
            kept = memoryview(image)
        else:
            kept = [image]
        snapshot = np.array(kept[0] if hold == "list" else kept, copy=True)
        address = image.__array_interface__["data"][0]
        del first, image
        for seed in range(2, 12, 2):
            observations, _ = envs.reset(seed=[seed, seed + 1])
            assert observations["image"].__array_interface__["data"][0] != address
            del observations
        assert np.array_equal(np.asarray(kept[0] if hold == "list" else kept), snapshot)
        del kept
        again, _ = envs.reset(seed=[0, 1])
        assert again["image"].__array_interface__["data"][0] == address  # nothing holds the first set now
        assert not again["image"].flags.writeable  # the next pictures are drawn over what it shows
    finally:
        envs.close()


@pytest.mark.parametrize("copy", [True, False])
def test_batches_are_read_only_so_later_pictures_stay_right(copy):
    """The environments repaint only what changed in a set's rows: a write into a batch would
    survive into later pictures of that set, so every batch (views, the scratch set's copies,
    ``copy=False``'s views) refuses writes, and the pictures keep matching Gymnasium's."""
    kwargs = {"partner": "random", "solver_view": "image"}
    reference = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=2, vectorization_mode="sync", **kwargs)
    subject = CommaVectorEnv(2, workers=1, copy=copy, buffers=1, puzzle="wire", role="solver", **kwargs)
    try:
        expected, infos = reference.reset(seed=5)
        got, _ = subject.reset(seed=5)
        held = []
        for step in range(8):
            assert_same(expected["image"], np.asarray(got["image"]), f"step {step}")
            with pytest.raises(ValueError, match="read-only"):
                got["image"][:, :40] = 0
            if step % 3 == 0:
                held.append(got)  # with one set, the next step goes to the scratch set
            actions = actions_for(infos, 2, step)
            expected, _, _, _, infos = reference.step(actions)
            got, *_ = subject.step(actions)
    finally:
        reference.close()
        subject.close()


def test_a_closed_in_process_env_leaves_no_buffer_set_alive():
    """The scene remembers the last row it drew only weakly: closing and dropping an
    in-process vector env frees its buffer sets (tens of MB for 32 pictures each)."""
    import weakref

    envs = CommaVectorEnv(2, workers=0, puzzle="wire", role="solver", partner="random", solver_view="image")
    envs.reset(seed=0)
    envs.step(["hello", "hello"])
    sets = [weakref.ref(arrays["image"]) for arrays in envs.unwrapped._sets]
    envs.close()
    del envs
    gc.collect()
    assert all(ref() is None for ref in sets)


def _minor_faults(pid: int) -> int:
    """A process's minor page faults so far (field 10 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[7])


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="counts page faults through /proc (Linux)")
def test_a_workers_first_step_into_a_new_set_does_not_fault_page_by_page():
    """A forked worker has no page-table entries for the shared buffers; it maps its rows of
    every set at start-up (`map_rows`), so the first step that writes a set (the caller holds
    the reset's) does not fault once for every 4 KB of its rows."""
    envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=8, vectorization_mode="vector_entry_point",
                              workers=1, partner="random", solver_view="image")
    try:
        worker = envs.unwrapped._processes[0].pid
        observations, _ = envs.reset(seed=0)
        before = _minor_faults(worker)
        envs.step(["hello"] * 8)
        faults = _minor_faults(worker) - before
    finally:
        envs.close()
    pages = observations["image"].nbytes // mmap.PAGESIZE  # 1,536: one fault each without the mapping
    assert faults < pages // 4, faults


def _serve_then_report(report: Any, *serve_args: Any) -> None:
    """A worker's loop, then how many objects it kept out of its collections."""
    serve(*serve_args)
    report.send(gc.get_freeze_count())


def test_a_forked_worker_keeps_what_it_inherited_out_of_its_collections():
    """A full collection in a forked worker would write into every object the main process
    had, copying its heap page by page: the worker freezes them (`gc.freeze`) first."""
    ctx = multiprocessing.get_context("fork")
    inherited = len(gc.get_objects())
    pipe, child = ctx.Pipe()
    report, report_child = ctx.Pipe()
    factory = CloudpickleWrapper(vector_env._EnvFactory({"puzzle": "wire", "partner": "random", "solver_view": "text"}))
    process = ctx.Process(target=_serve_then_report, args=(report_child, child, pipe, factory, 2, 0, [{}]))
    process.start()
    child.close()
    report_child.close()
    try:
        assert pipe.poll(60) and pipe.recv() == (True, None)
        for command in [("reset", (0, [0, 1], None)), ("step", (0, ["hello", "hello"]))]:
            pipe.send(command)
            assert pipe.recv()[0]
        pipe.send(("close", ()))
        assert report.poll(60)
        frozen = report.recv()
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.terminate()
            process.join()
        pipe.close()
        report.close()
    assert frozen >= inherited // 2, (frozen, inherited)


def test_mapping_rows_leaves_every_value_as_it_was():
    rng = np.random.default_rng(0)
    sets = [{"image": rng.integers(0, 256, (5, 7, 4099, 3), dtype=np.uint8), None: rng.random((5, 3))}
            for _ in range(2)]
    before = [{key: array.copy() for key, array in arrays.items()} for arrays in sets]
    map_rows(sets, 1, 3)
    map_rows(sets, 5, 0)  # a share without rows
    for arrays, copies in zip(sets, before, strict=True):
        for key, array in arrays.items():
            assert np.array_equal(array, copies[key])


def test_current_cpu_is_one_this_process_may_run_on():
    cpu = current_cpu()
    if hasattr(os, "sched_getaffinity"):
        assert cpu in os.sched_getaffinity(0)
    else:
        assert cpu is None or cpu >= 0


def test_commands_go_first_to_workers_on_other_cpus_and_answers_stay_in_row_order(monkeypatch):
    """A command wakes its worker, and one pinned to this process's CPU could take the CPU
    before the others got theirs: those on other CPUs are sent to first; results keep row order."""
    cpus = worker_cpus(2)
    if cpus[0] is None or cpus[0] == cpus[1]:
        pytest.skip("needs pinning and two usable CPUs")
    envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=4, vectorization_mode="vector_entry_point",
                              workers=2, partner="random", solver_view="text")
    unpinned = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=4, vectorization_mode="vector_entry_point",
                                  workers=2, partner="random", solver_view="text", pin_workers=False)
    try:
        for here, order in ((cpus[0], [1, 0]), (cpus[1], [0, 1]), (None, [0, 1])):
            monkeypatch.setattr(vector_env, "current_cpu", lambda here=here: here)
            assert list(envs.unwrapped._send_order()) == order
            assert list(unpinned.unwrapped._send_order()) == [0, 1]
    finally:
        envs.close()
        unpinned.close()
    monkeypatch.setattr(vector_env, "current_cpu", lambda: cpus[0])  # worker 1 always first
    assert play_both(gym_id("wire", "solver"), 4, 12, 2, partner="random", solver_view="image") > 0


def _gymnasiums_batch(space: gymnasium.Space, n: int) -> gymnasium.Space:
    """Gymnasium's batch of `space` with every `Box` part batched as a plain `Box` (its bound
    arrays tiled), not through the `UniformBox` registration."""
    if isinstance(space, spaces.Dict):
        return spaces.Dict({key: _gymnasiums_batch(part, n) for key, part in space.items()},
                           seed=deepcopy(space.np_random), sort_keys=space.sort_keys)
    if isinstance(space, spaces.Box):
        return batch_space.dispatch(spaces.Box)(space, n)
    return batch_space(space, n)


@pytest.mark.parametrize("view", ["image", "text"])
def test_batched_spaces_equal_gymnasiums_and_sample_alike(view):
    """Every id's pictures and clips are `UniformBox`es, batched from their two bounds instead
    of tiling them: the same space as Gymnasium's batch of a `Box`, sampled alike."""
    for env_id in gym_ids():
        env = gymnasium.make(env_id, partner="random", solver_view=view)
        try:
            space = env.observation_space
            space.seed(3)
            ours, theirs = batch_space(space, 5), _gymnasiums_batch(space, 5)
            assert ours == theirs, env_id
            assert_same(ours.sample(), theirs.sample(), env_id)
            for key, part in space.items():
                if isinstance(part, spaces.Box):
                    assert type(part) is UniformBox and type(ours[key]) is UniformBox, (env_id, key)
        finally:
            env.close()
