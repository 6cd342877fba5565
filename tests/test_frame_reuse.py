"""Copy-on-write frames (comma_env/drawing/scene.py, comma_env/drawing/watched.py): a new frame
is painted into the previous frame's memory when no observation of it is alive any more, and
onto a copy otherwise. Whatever a caller keeps (the array, a view, a memoryview, a PIL image,
a frame of another environment) never changes; what it drops is reused."""

from __future__ import annotations

import gc
import itertools
import pickle
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.drawing import scene
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES

ALL_PUZZLES = COMMA_PUZZLES + V1_PUZZLES


def _address(image: np.ndarray) -> int:
    """Where the pixels live (an int: holds no reference to the array)."""
    return image.__array_interface__["data"][0]


def _advance(env: Any, rng: np.random.Generator, seeds: Iterator[int]) -> None:
    """One random AEC step (one to three valid actions for the solver, silence for the
    expert); a finished episode is reset to the next seed instead."""
    raw = env.unwrapped
    if raw.end_reason is not None:
        env.reset(seed=next(seeds))
    elif env.agent_selection == "solver":
        actions = raw.infos["solver"]["valid_actions"]
        picks = rng.integers(len(actions), size=int(rng.integers(1, 4))) if actions else []
        env.step("\n".join(actions[i] for i in picks))
    else:
        env.step("")


def _checked_image(env: Any) -> np.ndarray:
    """The solver's image, asserted equal to the full redraw of the visible state."""
    raw = env.unwrapped
    image = raw.image()
    assert not image.flags.writeable and image.flags.c_contiguous
    assert np.array_equal(image, raw.draw.full_array(raw.visible_state)), (raw.puzzle_cls.name, raw.seed_used, raw.turn)
    return image


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_kept_observations_never_change_and_dropped_ones_are_reused(puzzle: str) -> None:
    """Random episodes; 50 observations kept at random moments (the rest dropped at once):
    each kept one still equals its copy taken at the time, every frame equals the full
    redraw, and most new frames were painted into the dropped previous array."""
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(5)
    seeds = itertools.count(100)
    env.reset(seed=next(seeds))
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    dropped = changes = 0
    last_address = None  # of the previous image, when it was dropped
    for _ in range(2000):
        if len(kept) == 50:
            break
        image = _checked_image(env)
        if last_address is not None:
            assert _address(image) == last_address, (puzzle, len(kept))  # painted into the dropped array
            dropped += 1
        if kept and image is kept[-1][0]:  # no visible change since it was kept: handed out again
            last_address = None
        elif rng.random() < 0.3:
            kept.append((image, image.copy()))
            last_address = None  # kept: the next frame must be a copy
        else:
            last_address = _address(image)
        del image
        before = (env.unwrapped.seed_used, env.unwrapped.puzzle.version)
        _advance(env, rng, seeds)
        changes += before != (env.unwrapped.seed_used, env.unwrapped.puzzle.version)
    assert len(kept) == 50
    for image, snapshot in kept:
        assert np.array_equal(image, snapshot)
        assert not image.flags.writeable
    assert dropped > 20 and changes > 20, (puzzle, dropped, changes)


def _holders() -> dict[str, Callable[[np.ndarray], Any]]:
    """Ways a caller can keep an observation's pixels without keeping the array variable;
    each returns something from which `_pixels` reads the pixels back."""
    return {
        "view": lambda image: image[100:400],
        "transpose": lambda image: image.T,
        "asarray": lambda image: np.asarray(image),
        "memoryview": memoryview,
        "pil_fromarray": Image.fromarray,
        "frombuffer": lambda image: np.frombuffer(image, dtype=np.uint8),
        "weakref": weakref.ref,
        "dict_from_last": lambda image: {"image": image},
        "stack": lambda image: np.stack([image, image]),
    }


def _pixels(held: Any) -> np.ndarray | None:
    """A copy of the held pixels; None for a weak reference whose array was freed (a frame
    repainted in place instead would have stayed alive, with other pixels)."""
    if isinstance(held, weakref.ref):
        held = held()
        if held is None:
            return None
    if isinstance(held, dict):
        held = held["image"]
    if isinstance(held, Image.Image):
        return np.asarray(held).copy()
    return np.array(held, copy=True)


@pytest.mark.parametrize("holder", sorted(_holders()))
@pytest.mark.parametrize("puzzle", ["dog", "telehealth", "wire"])
def test_pixels_kept_through_views_and_exports_never_change(puzzle: str, holder: str) -> None:
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(9)
    seeds = itertools.count(0)
    env.reset(seed=next(seeds))
    make_holder = _holders()[holder]
    kept = []
    for step in range(40):
        image = _checked_image(env)
        if step % 4 == 0:
            held = make_holder(image)
            kept.append((held, _pixels(held)))
            del held
        del image  # only the holder (if any) keeps the pixels
        _advance(env, rng, seeds)
    gc.collect()
    for held, snapshot in kept:
        now = _pixels(held)
        assert (now is None and holder == "weakref") or np.array_equal(now, snapshot), holder


def test_torch_tensor_sharing_the_array_keeps_its_pixels() -> None:
    torch = pytest.importorskip("torch")
    env = comma_env.make("dog")
    rng = np.random.default_rng(2)
    seeds = itertools.count(0)
    env.reset(seed=next(seeds))
    image = env.unwrapped.image()
    with pytest.warns(UserWarning):  # torch shares the read-only buffer (and says so)
        held = torch.from_numpy(image)
    snapshot = image.copy()
    del image
    for _ in range(12):
        _advance(env, rng, seeds)
        _checked_image(env)
    assert np.array_equal(held.numpy(), snapshot)


@pytest.mark.parametrize("puzzle", ["dog", "memory", "maze", "telehealth"])
def test_interleaved_environments_and_new_ones_never_repaint_each_others_frames(puzzle: str) -> None:
    """Two environments of one puzzle stepped in turn (both dropping their observations, so
    each repaints its own array), a third made mid-way (it starts from the latest frame of
    either): every frame equals its own full redraw, kept arrays never change."""
    rng = np.random.default_rng(4)
    seeds = itertools.count(50)
    envs = [comma_env.make(puzzle), comma_env.make(puzzle)]
    for env in envs:
        env.reset(seed=next(seeds))
    kept = []
    for step in range(80):
        if step == 30:
            envs.append(comma_env.make(puzzle))
            envs[-1].reset(seed=next(seeds))
        env = envs[int(rng.integers(len(envs)))]
        image = _checked_image(env)
        if step % 9 == 0:
            kept.append((image, image.copy()))
        del image
        _advance(env, rng, seeds)
    for env in envs:
        _checked_image(env)
    for image, snapshot in kept:
        assert np.array_equal(image, snapshot)


@pytest.mark.parametrize("puzzle", ["wire", "keypad", "memory"])
def test_environments_on_one_instance_keep_their_own_frames(puzzle: str) -> None:
    """Three Gymnasium-style loops on the same instance (as the episodes of a GRPO group play),
    stepped in random turn, each keeping its last observation: the first pictures are the
    same, yet no environment ever repaints memory another one's frame shows. Every kept
    observation equals the full redraw of its own environment's state."""
    from comma_env.rl import SingleRoleEnv

    for seed in range(12):
        rng = np.random.default_rng(seed)
        envs = [SingleRoleEnv(puzzle, role="solver", partner="oracle", solver_view="image") for _ in range(3)]
        observations = [env.reset(seed=seed)[0] for env in envs]
        done = [False] * len(envs)
        for _ in range(30):
            index = int(rng.integers(len(envs)))
            env = envs[index]
            if done[index]:
                observations[index], _ = env.reset(seed=seed)
                done[index] = False
            else:
                actions = env.raw.infos["solver"]["valid_actions"]
                observations[index], _, terminated, truncated, _ = env.step(
                    str(actions[rng.integers(len(actions))]) if actions else "")
                done[index] = terminated or truncated
            for observation, other in zip(observations, envs, strict=True):
                assert np.array_equal(observation["image"], other.raw.draw.full_array(other.raw.visible_state)), seed
        for env in envs:
            env.close()


@pytest.mark.parametrize("puzzle", ["wire", "dog", "who"])
def test_last_observation_of_an_episode_survives_reset(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(1)
    seeds = itertools.count(0)
    env.reset(seed=next(seeds))
    while env.unwrapped.end_reason is None:
        _advance(env, rng, seeds)
    last = env.unwrapped.image()
    snapshot = last.copy()
    env.reset(seed=77)
    for _ in range(10):
        _checked_image(env)
        _advance(env, rng, seeds)
    assert np.array_equal(last, snapshot)


@pytest.mark.skipif(not scene.IN_PLACE_REPAINT, reason="in-place repaint is off on this interpreter")
@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_dropped_observations_are_repainted_in_place(puzzle: str) -> None:
    """The optimisation itself: a caller that drops each observation gets every later frame
    in the same memory (no full-frame copy), across steps and resets, pixel-identical."""
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(3)
    seeds = itertools.count(200)
    env.reset(seed=next(seeds))
    _address(_checked_image(env))  # the first frame may be a copy of another environment's
    addresses, changes = set(), 0
    for _ in range(60):
        version, seed = env.unwrapped.puzzle.version, env.unwrapped.seed_used
        _advance(env, rng, seeds)
        changes += env.unwrapped.puzzle.version != version or env.unwrapped.seed_used != seed
        addresses.add(_address(_checked_image(env)))
    assert changes > 5 and len(addresses) == 1, (puzzle, changes, len(addresses))


@pytest.mark.skipif(not scene.IN_PLACE_REPAINT, reason="in-place repaint is off on this interpreter")
def test_unpickled_environment_copies_once_then_reuses() -> None:
    """An unpickled frame's array borrows read-only bytes: the first new frame is a copy,
    which the environment then owns and repaints in place."""
    env = comma_env.make("dog")
    env.reset(seed=3)
    env.unwrapped.image()
    clone = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(0)
    seeds = itertools.count(10)
    addresses = []
    for _ in range(8):
        _advance(clone, rng, seeds)
        addresses.append(_address(_checked_image(clone)))
    assert len(set(addresses[1:])) == 1


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_pictures_drawn_into_rows_equal_the_full_redraw(puzzle: str) -> None:
    """`CommaEnv.image_into`, as a vector env's worker uses it: two environments draw into
    three rows of memory they own, each row in an irregular turn (so a row's last picture may
    be many steps old, of an earlier episode, or another environment's latest frame it
    started from), while a third environment draws its own frames. Every row equals the full
    redraw of its environment's state, and frames handed out elsewhere never change."""
    rng = np.random.default_rng(7)
    seeds = itertools.count(300)
    envs = [comma_env.make(puzzle) for _ in range(3)]
    for env in envs:
        env.reset(seed=next(seeds))
    rows = np.zeros((2, 3, *envs[0].unwrapped.image().shape), dtype=np.uint8)
    shown: list[list[Any]] = [[None] * 3 for _ in range(2)]
    kept = []
    for step in range(60):
        env_index = int(rng.integers(3))
        env = envs[env_index]
        if env_index == 2:  # the environment that draws its own frames, kept now and then
            image = _checked_image(env)
            if step % 5 == 0:
                kept.append((image, image.copy()))
            del image
        else:
            row = int(rng.choice(3, p=[0.45, 0.45, 0.1]))
            target = shown[env_index][row]
            shown[env_index][row] = env.unwrapped.image_into(rows[env_index, row] if target is None else target)
            raw = env.unwrapped
            assert np.array_equal(rows[env_index, row], raw.draw.full_array(raw.visible_state)), (puzzle, step)
        _advance(env, rng, seeds)
    for image, snapshot in kept:
        assert np.array_equal(image, snapshot)


def test_a_drawing_that_is_not_a_scene_is_drawn_whole_into_the_memory() -> None:
    env = comma_env.make("wire")
    env.reset(seed=3)
    raw = env.unwrapped
    scene_drawing = raw.draw
    raw.draw = lambda state: scene_drawing(state)  # a plain function: the full-redraw fallback
    memory = np.zeros(raw.image().shape, dtype=np.uint8)
    assert raw.image_into(memory) is None
    assert np.array_equal(memory, scene_drawing.full_array(raw.visible_state))
    frame = scene_drawing.frame(raw.visible_state)
    with pytest.raises(ValueError, match="not a Scene"):
        raw.image_into(frame)


def test_an_observation_without_its_picture_leaves_the_frames_alone() -> None:
    """`image_in_observation = False` (a vector env's worker draws the picture itself): the
    solver's observation has no image and the environment draws none."""
    env = comma_env.make("wire")
    env.reset(seed=3)
    raw = env.unwrapped
    raw.image_in_observation = False
    written = raw.draw.bytes_written
    assert "image" not in env.observe("solver") and env.observe("solver")["text"]
    assert raw.draw.bytes_written == written
