"""What a frame remembers of how it was made (comma_env/drawing/scene.py `Frame.base` and
`Frame.written`), `Scene.refresh`, vacated boxes (comma_env/drawing/layout.py) and the
bounds of the caches behind them: every frame still equals the full redraw."""

from __future__ import annotations

import itertools
import pickle
import threading

import numpy as np
import pytest
from PIL import Image

from comma_env.drawing import layout, watched
from comma_env.drawing.layout import Geometry, Layer, subtract
from comma_env.drawing.scene import PATCHES, Scene
from comma_env.rl import SingleRoleEnv

SIZE = (64, 40)


def _square(image, draw, key) -> None:
    box, color = key
    draw.rectangle(box, fill=color)


def _row_layers(state: dict) -> dict[str, Layer]:
    """`state["colors"]` squares side by side over the width: their boxes move when the
    count changes (the LED row's case), plus one fixed square."""
    colors = state["colors"]
    width = SIZE[0] // len(colors)
    layers = {f"cell_{i}": Layer((i * width, 0, (i + 1) * width, 20), ((i * width, 0, (i + 1) * width - 1, 19), color),
                                 _square)
              for i, color in enumerate(colors)}
    layers["fixed"] = Layer((0, 24, 10, 34), ((0, 24, 9, 33), state["fixed"]), _square)
    return layers


ROW = Scene(SIZE, lambda: Image.new("RGB", SIZE, (9, 9, 9)), _row_layers)
PALETTE = [(200, 0, 0), (0, 200, 0), (0, 0, 200), (200, 200, 0)]


def _random_state(rng: np.random.Generator) -> dict:
    count = int(rng.integers(2, 6))
    return {"colors": [PALETTE[int(i)] for i in rng.integers(len(PALETTE), size=count)],
            "fixed": PALETTE[int(rng.integers(len(PALETTE)))]}


@pytest.mark.parametrize("regions", [watched.REGIONS, 3])
def test_a_loop_holding_the_previous_frame_stays_exact_across_layouts(regions: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames alternate between two arrays (the spare catches up by taking the previous
    frame's patches again), across layout changes, unchanged states asked fresh, and a
    refresh: each equals the full redraw, and a held frame never changes. With room for 3
    box views, each array stops keeping them early in the run (`WatchedMemory.region`)."""
    monkeypatch.setattr(watched, "REGIONS", regions)
    rng = np.random.default_rng(0)
    previous = spare = None
    held = held_copy = None
    addresses = set()
    state = _random_state(rng)
    for step in range(400):
        if step % 7 == 3 and previous is not None:
            frame = ROW.refresh(previous, spare)  # `state` unchanged
        else:
            if step % 3:  # else the same state again, asked fresh
                state = _random_state(rng)
            frame = ROW.frame(state, previous, spare, fresh=True)
        assert np.array_equal(frame.array, ROW.full_array(state))
        if held is not None:
            assert np.array_equal(held, held_copy)  # what the caller held did not change
            assert frame.array is not held
        if previous is not None and frame.array is not previous.array:
            spare = previous
        previous = frame
        held, held_copy = frame.array, frame.array.copy()
        addresses.add(frame.array.__array_interface__["data"][0])
    assert len(addresses) <= 3  # the first frame's copy, then two arrays in turn
    assert (previous.pixels.regions is None) == (regions == 3)


def test_refresh_reuses_the_layers_and_rejects_another_scenes_frame() -> None:
    calls = []

    def counted(state: dict) -> dict[str, Layer]:
        calls.append(state)
        return _row_layers(state)

    scene = Scene(SIZE, lambda: Image.new("RGB", SIZE, (9, 9, 9)), counted)
    state = {"colors": PALETTE[:3], "fixed": PALETTE[0]}
    first = scene.frame(state)
    again = scene.refresh(first)
    assert len(calls) == 1  # nothing recomputed
    assert again.array is not first.array and np.array_equal(again.array, first.array)
    with pytest.raises(ValueError):
        ROW.refresh(first)


def test_frames_pickle_without_their_history() -> None:
    state = {"colors": PALETTE[:2], "fixed": PALETTE[1]}
    first = ROW.frame(state)
    second = ROW.frame({"colors": PALETTE[1:4], "fixed": PALETTE[1]}, first)
    assert second.written
    clone = pickle.loads(pickle.dumps(second))
    assert clone.base is None and clone.written is None and clone.geometry is None
    assert np.array_equal(clone.array, second.array)
    third = ROW.frame(state, clone)  # no history: the clone diffs and copies as before
    assert np.array_equal(third.array, ROW.full_array(state))
    # a refresh of a clone (its layers, no geometry), then a change of one square: the
    # geometry the refresh finds must be the layers' own, which the change then reuses
    clone = pickle.loads(pickle.dumps(second))
    refreshed = ROW.refresh(clone)
    assert np.array_equal(refreshed.array, second.array)
    changed = {"colors": [PALETTE[1], PALETTE[0], PALETTE[3]], "fixed": PALETTE[1]}
    fourth = ROW.frame(changed, refreshed)
    assert np.array_equal(fourth.array, ROW.full_array(changed))


def test_vacated_boxes_add_no_combinations_to_the_patch_cache() -> None:
    """A box a layer left is repainted as the layers now there, each keyed by its own box
    (and background): the patch cache holds only boxes some layout's layers have."""
    rng = np.random.default_rng(1)
    frame = None
    layer_boxes = set()
    for _ in range(200):
        state = _random_state(rng)
        layer_boxes.update(layer.box for layer in _row_layers(state).values())
        frame = ROW.frame(state, frame)
        assert np.array_equal(frame.array, ROW.full_array(state))
    cached = {key[1] for key in list(PATCHES._entries) if key[0] == id(ROW)}
    assert cached and cached <= layer_boxes


@pytest.mark.parametrize("seed", range(20))
def test_subtract_leaves_exactly_the_uncovered_pixels(seed: int) -> None:
    rng = np.random.default_rng(seed)

    def random_box() -> tuple[int, int, int, int]:
        x0, y0 = (int(v) for v in rng.integers(0, 30, size=2))
        return x0, y0, x0 + int(rng.integers(1, 20)), y0 + int(rng.integers(1, 20))

    box, cutters = random_box(), [random_box() for _ in range(int(rng.integers(0, 6)))]
    expected = np.zeros((60, 60), dtype=bool)
    expected[box[1]:box[3], box[0]:box[2]] = True
    for x0, y0, x1, y1 in cutters:
        expected[y0:y1, x0:x1] = False
    covered = np.zeros((60, 60), dtype=int)
    for x0, y0, x1, y1 in subtract(box, cutters):
        assert x0 < x1 and y0 < y1
        covered[y0:y1, x0:x1] += 1
    assert covered.max() <= 1  # disjoint pieces
    assert np.array_equal(covered.astype(bool), expected)


def test_a_geometry_keeps_a_bounded_number_of_vacated_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layout, "VACATED_BOXES", 50)
    geometry = Geometry(((0, 0, 10, 10), (5, 5, 20, 20)), 64, 64)
    for x in range(500):
        result = geometry.vacate((x % 60, 0, x % 60 + 3, 3 + x // 60))
        assert len(geometry._vacated) <= 50
        if result is not None:
            indices, pieces = result
            assert all(i in (0, 1) for i in indices)
    assert geometry.vacate((100, 100, 120, 120)) is None  # outside the picture


def test_environments_on_threads_share_a_scene_safely() -> None:
    """Gymnasium-style loops on four threads, one environment each, drawing with the same
    scenes (and patch cache): every observation equals the full redraw of its own state."""
    errors: list[BaseException] = []

    def loop(puzzle: str, offset: int) -> None:
        try:
            env = SingleRoleEnv(puzzle, role="solver", partner="oracle")
            rng = np.random.default_rng(offset)
            seeds = itertools.count(offset * 1000)
            observation, info = env.reset(seed=next(seeds))
            for _ in range(60):
                held, snapshot = observation["image"], observation["image"].copy()
                actions = info["valid_actions"]
                observation, _, terminated, truncated, info = env.step(actions[int(rng.integers(len(actions)))])
                if terminated or truncated:
                    observation, info = env.reset(seed=next(seeds))
                assert np.array_equal(held, snapshot)
                assert np.array_equal(observation["image"], env.raw.draw.full_array(env.raw.visible_state))
            env.close()
        except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
            errors.append(exc)

    threads = [threading.Thread(target=loop, args=(puzzle, i))
               for i, puzzle in enumerate(["led", "led", "wire", "wire"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


def test_an_unchanged_gymnasium_step_recomputes_no_layers() -> None:
    """SingleRoleEnv asks an unchanged picture for new data (`image(fresh=True)`): the
    environment refreshes its frame without calling the scene's layers again."""
    env = SingleRoleEnv("who", role="solver", partner="oracle")
    scene = env.raw.draw
    calls = []
    original = scene.layers
    scene.layers = lambda state: calls.append(1) or original(state)
    try:
        observation, info = env.reset(seed=3)
        unchanged = 0
        for _ in range(20):
            previous = observation["image"]
            before = len(calls)
            observation, _, terminated, truncated, info = env.step("press_top_left")
            if np.array_equal(observation["image"], previous) and len(calls) == before:
                unchanged += 1
                assert observation["image"] is not previous
            if terminated or truncated:
                break
        assert unchanged > 0
    finally:
        scene.layers = original
        env.close()


def test_a_second_unchanged_step_in_a_row_writes_nothing() -> None:
    """The first unchanged step after a change brings the other frame up to date; from the
    second one on, that frame already shows the picture, so `Scene.refresh` hands it out
    without drawing or writing anything (and still never the array of the step before)."""
    env = SingleRoleEnv("who", role="solver", partner="oracle")
    scene = env.raw.draw
    draws = []
    original = scene._draw
    scene._draw = lambda *args, **kwargs: draws.append(kwargs.get("fresh")) or original(*args, **kwargs)
    try:
        observation, info = env.reset(seed=3)
        quiet_runs, was_unchanged = 0, False
        for _ in range(40):
            previous = observation["image"]
            before = len(draws)
            observation, _, terminated, truncated, info = env.step("press_top_left")
            image = observation["image"]
            assert not np.shares_memory(image, previous)
            assert np.array_equal(image, scene.full_array(env.raw.visible_state))
            unchanged = np.array_equal(image, previous)
            if unchanged and was_unchanged:
                quiet_runs += 1
                assert True not in draws[before:]  # no refresh drew: the other frame handed out as it is
            was_unchanged = unchanged
            del previous, image
            if terminated or truncated:
                observation, info = env.reset(seed=4)
                was_unchanged = False
        assert quiet_runs > 0
    finally:
        scene._draw = original
        env.close()


def test_an_observation_still_held_is_never_handed_out_again() -> None:
    """As Gymnasium's `check_env` demands of any two observations a caller keeps (not only
    consecutive ones): with every observation kept, unchanged steps in a row get copies,
    never the memory of one kept before."""
    env = SingleRoleEnv("who", role="solver", partner="oracle")
    observation, _ = env.reset(seed=3)
    kept = [observation["image"]]
    for _ in range(12):
        observation, _, terminated, truncated, _ = env.step("press_top_left")
        kept.append(observation["image"])
        if terminated or truncated:
            break
    env.close()
    assert len(kept) >= 4
    for first, second in itertools.combinations(kept, 2):
        assert not np.shares_memory(first, second)


SPRITE = np.full((6, 5, 3), 250, dtype=np.uint8)
SPRITE.flags.writeable = False
CELL = (34, 0, 64, 20)


def _sprite_box(at: int) -> tuple[int, int, int, int]:
    """The sprite at x = `at` (-1: none), in the picture (at 61 it reaches out of it)."""
    return (at, 4, min(at + 5, SIZE[0]), 10) if at >= 0 else (0, 0, 0, 0)


def _paint_sprite(image, draw, key) -> None:
    if key >= 0:
        image.paste(Image.fromarray(SPRITE), (key, 4))


def _sprite_changes(shown, key) -> list:
    """The background over the old sprite's box (over the whole cell when not known), then
    the new sprite, cut to the picture."""
    background = np.full((SIZE[1], SIZE[0], 3), 9, dtype=np.uint8)
    background.flags.writeable = False
    writes = []
    x0, y0, x1, y1 = CELL if shown is None else _sprite_box(shown)
    if x0 < x1:
        writes.append(((x0, y0, x1, y1), background[y0:y1, x0:x1]))
    x0, y0, x1, y1 = _sprite_box(key)
    if x0 < x1:
        writes.append(((x0, y0, x1, y1), SPRITE[:, :x1 - x0]))
    return writes


_paint_sprite.changes = _sprite_changes  # type: ignore[attr-defined]


def _square_too(image, draw, key) -> None:  # the same drawing as a sprite-less paint
    _square(image, draw, key)


def _sprite_layers(state: dict) -> dict[str, Layer]:
    """One sprite at x = state["at"] (-1: none) in a cell at the picture's right edge (at
    61 it reaches out of the picture), or, when state["plain"], an opaque square of another
    paint in that cell instead."""
    if state.get("plain"):
        return {"cell": Layer(CELL, ((34, 0, 63, 19), (0, 90, 0)), _square_too)}
    return {"cell": Layer(CELL, state["at"], _paint_sprite)}


SPRITES = Scene(SIZE, lambda: Image.new("RGB", SIZE, (9, 9, 9)), _sprite_layers)


def test_sprite_layers_stay_exact_when_they_move_vanish_leave_the_picture_or_change_paint() -> None:
    """A layer with ``changes`` writes only what it says (here a sprite's old and new boxes);
    one that follows a layer of another paint in its box is told the old picture is not
    known. Every frame of a loop holding the previous observation equals the full redraw."""
    sequence = [{"at": 36}, {"at": 50}, {"at": -1}, {"plain": True}, {"at": 36}, {"at": 50}, {"at": 36},
                {"plain": True}, {"at": 50}, {"at": -1}, {"at": 61}, {"at": 36}]
    previous = spare = held = None
    for _ in range(2):
        for state in sequence:
            frame = SPRITES.frame(state, previous, spare)
            assert np.array_equal(frame.array, SPRITES.full_array(state)), state
            if previous is not None and frame.array is not previous.array:
                spare = previous
            held, previous = frame.array, frame  # the loop keeps the last observation
    assert held is previous.array
