"""A loop that keeps the previous observation (as Gymnasium loops do) makes the environment
alternate between two arrays (comma_env/drawing/scene.py, `Scene.frame`'s `spare`): no
whole-frame copy per step, and still no observation anyone holds ever changes."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from script_files import load_script

import comma_env
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES
from comma_env.rl import SingleRoleEnv

BENCHMARK = Path(__file__).resolve().parents[1] / "examples" / "benchmark_envs.py"


def _address(image: np.ndarray) -> int:
    return image.__array_interface__["data"][0]


def _random_step(env, rng: np.random.Generator, seeds) -> None:
    raw = env.unwrapped
    if raw.end_reason is not None:
        env.reset(seed=next(seeds))
    elif env.agent_selection == "solver":
        actions = raw.infos["solver"]["valid_actions"]
        env.step(actions[int(rng.integers(len(actions)))] if actions else "")
    else:
        env.step("")


@pytest.mark.parametrize("puzzle", ["wire", "who", "dog", "maze", "telehealth"])
def test_holding_the_previous_observation_alternates_two_arrays(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    raw = env.unwrapped
    rng = np.random.default_rng(3)
    seeds = itertools.count(0)
    env.reset(seed=next(seeds))
    previous = raw.image()
    snapshot = previous.copy()
    addresses, changes = set(), 0
    for _ in range(300):
        _random_step(env, rng, seeds)
        image = raw.image()  # drawn while `previous` is still held
        assert np.array_equal(previous, snapshot)  # the held one did not change
        assert np.array_equal(image, raw.draw.full_array(raw.visible_state))
        if image is not previous:
            changes += 1
            addresses.add(_address(image))
        previous, snapshot = image, image.copy()
        del image
    assert changes > 50
    assert len(addresses) <= 2, (puzzle, len(addresses))  # two arrays, in turn


@pytest.mark.parametrize("puzzle", ["wire", "keypad", "sound"])
def test_observations_kept_longer_than_one_step_never_change(puzzle: str) -> None:
    env = SingleRoleEnv(puzzle, role="solver", partner="oracle")
    rng = np.random.default_rng(1)
    kept = []
    observation, info = env.reset(seed=0)
    for step in range(200):
        if step % 3 == 0:
            kept.append((observation["image"], observation["image"].copy()))
        actions = info["valid_actions"]
        observation, _, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
        if terminated or truncated:
            observation, info = env.reset(seed=step + 1)
    for image, snapshot in kept:
        assert np.array_equal(image, snapshot)
        assert not image.flags.writeable
    env.close()


def test_a_gymnasium_loop_gets_new_frames_without_whole_frame_copies() -> None:
    """SingleRoleEnv hands out the environment's frames themselves: changed or not (Gymnasium
    promises new data on every call), the loop sees only two arrays, in turn, never the same
    memory twice in a row, and every picture is the true one."""
    env = SingleRoleEnv("who", role="solver", partner="oracle")
    rng = np.random.default_rng(2)
    observation, info = env.reset(seed=0)
    addresses, unchanged = set(), 0
    for step in range(300):
        previous = observation["image"]  # held during the step (or the reset), as a loop does
        if info.get("episode"):
            observation, info = env.reset(seed=step)
        else:
            actions = info["valid_actions"]
            observation, _, _, _, info = env.step(actions[int(rng.integers(len(actions)))])
        image = observation["image"]
        assert not np.shares_memory(image, previous) and not image.flags.writeable
        assert np.array_equal(image, env.raw.draw.full_array(env.raw.visible_state))
        unchanged += np.array_equal(image, previous)
        addresses.add(_address(image))
        del previous, image
    env.close()
    assert unchanged > 100  # Who's picture changes only when solved: most steps change nothing
    assert len(addresses) <= 2


@pytest.fixture(scope="module")
def benchmark_envs():
    return load_script(BENCHMARK)


@pytest.fixture(scope="module")
def image_step_bytes(benchmark_envs):
    """`examples/benchmark_envs.py`'s counted pass (the table's two byte columns)."""
    return benchmark_envs.image_step_bytes


@pytest.mark.parametrize("text_steps_between", [False, True])
def test_the_frame_replays_draw_every_recorded_picture_in_two_arrays(benchmark_envs, text_steps_between: bool) -> None:
    """The table's two `Scene.frame` columns replay the loop's pictures through
    `Scene.frame` as a loop would, holding the latest (the second with a text-view step
    between pictures, which draws nothing): each must draw them (bytes written), in two
    arrays (no copies: nothing close to a frame per picture), and give a time."""
    from comma_env.drawing.wire import draw_wire

    before = draw_wire.bytes_written
    ratio = benchmark_envs.frame_in_copies(benchmark_envs.record_pictures("wire", 40), text_steps_between, repeats=1)
    written = draw_wire.bytes_written - before
    frame = 512 * 512 * 3
    assert 0 < ratio < 1000
    # the recording pass and one replay of 40 steps (and their resets): about 20 frames; a
    # frame per picture (no two-array path, scene.IN_PLACE_REPAINT off) would be over 100
    assert 0 < written < 40 * frame, written / frame


def test_the_copying_column_turns_in_place_repaint_off_for_its_own_loop(benchmark_envs) -> None:
    """The table's last column: the image loop wrapped by `_in_place(..., on=False)` paints
    every observation on a copy (a frame or more written per step), while the flag is this
    interpreter's again between its steps, so the other loops of the run keep two arrays."""
    from comma_env.drawing import scene
    from comma_env.drawing.who import draw_who

    flag = scene.IN_PLACE_REPAINT
    copying = benchmark_envs._in_place(benchmark_envs._gym_stepper("who", "image"), on=False)
    two_arrays = benchmark_envs._gym_stepper("who", "image")
    next(copying), next(two_arrays)
    frame, written = 512 * 512 * 3, {}
    for name, steps in (("copying", copying), ("two arrays", two_arrays)):
        before = draw_who.bytes_written
        for _ in range(60):
            next(steps)
            assert scene.IN_PLACE_REPAINT == flag
        written[name] = (draw_who.bytes_written - before) / frame / 60
    assert written["copying"] >= 1, written
    if flag:
        assert written["two arrays"] < 0.4, written


def test_closing_an_endless_benchmark_loop_closes_its_environment(benchmark_envs, monkeypatch) -> None:
    """The benchmark's endless loops own a `SingleRoleEnv` each (its partner's event loop
    included): closing the loop, or the stepper around it, closes the environment."""
    from comma_env.rl import SingleRoleEnv

    closed: list[SingleRoleEnv] = []
    close = SingleRoleEnv.close

    def counted_close(self: SingleRoleEnv) -> None:
        closed.append(self)
        close(self)

    monkeypatch.setattr(SingleRoleEnv, "close", counted_close)
    loop = benchmark_envs._gym_loop("who", "text")
    next(loop)
    loop.close()
    stepper = benchmark_envs._gym_stepper("who", "text")
    for _ in range(5):
        next(stepper)
    stepper.close()
    assert len(closed) == 2


@pytest.mark.parametrize("puzzle", COMMA_PUZZLES + V1_PUZZLES)
def test_a_gymnasium_loop_writes_a_fraction_of_a_frame_per_step(puzzle: str, image_step_bytes) -> None:
    """Counted, not timed: in the benchmark's loop (random actions, so a reset every few
    steps, each repainting most of the picture into both arrays), the image step writes well
    under half a frame per step (about 0.3 at most, Button; one whole-frame
    copy per changed step, as without the two arrays, would be about 1), and at least every
    byte that had to change: the counter `Scene.bytes_written` misses no write."""
    written, changed = image_step_bytes(puzzle, 300)
    assert changed <= written <= 0.4, (puzzle, written, changed)
    assert changed > 0
