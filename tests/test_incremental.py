"""Incremental drawing (comma_env/drawing/scene.py): the frame an environment hands out,
built by repainting only changed layers onto the previous frame (across steps and resets),
equals the full redraw of `visible_state()` pixel for pixel, for every puzzle."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PIL import Image, ImageChops, ImageDraw

import comma_env
from comma_env.drawing.scene import PATCHES, Layer, Scene
from comma_env.drawing.wire import draw_wire
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES

IMAGES_PER_PUZZLE = 250
ALL_PUZZLES = COMMA_PUZZLES + V1_PUZZLES


def _random_message(rng: np.random.Generator, actions: list[str]) -> str:
    """One to three valid action names (so several layers can change in one step)."""
    picks = rng.integers(len(actions), size=int(rng.integers(1, 4)))
    return "\n".join(actions[i] for i in picks)


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_incremental_frames_equal_the_full_redraw(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    raw = env.unwrapped
    scene = raw.draw
    assert isinstance(scene, Scene)
    rng = np.random.default_rng(7)
    checked, seed = 0, 0
    handed_out: list[tuple[np.ndarray, np.ndarray]] = []
    while checked < IMAGES_PER_PUZZLE:
        env.reset(seed=seed)  # one environment across episodes: resets are incremental too
        seed += 1
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if agent == "solver" and not (terminated or truncated):
                image = observation["image"]
                assert np.array_equal(image, scene.full_array(raw.visible_state)), (puzzle, seed - 1, raw.turn)
                checked += 1
                if checked % 25 == 1:
                    handed_out.append((image, image.copy()))
            if terminated or truncated:
                env.step(None)
            elif agent == "solver":
                env.step(_random_message(rng, info["valid_actions"]))
            else:
                env.step("")
    for image, snapshot in handed_out:  # arrays already handed out were never modified
        assert np.array_equal(image, snapshot)


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_layers_paint_only_inside_their_boxes(puzzle: str) -> None:
    """The layer contract: a layer alone on the background changes no pixel outside its box
    (else a repaint of one layer could leave stale pixels of another)."""
    env = comma_env.make(puzzle)
    raw = env.unwrapped
    scene: Scene = raw.draw
    background = scene.background().convert("RGB")
    rng = np.random.default_rng(3)
    seen: set = set()
    for seed in range(5):
        env.reset(seed=seed)
        for _ in range(3):
            for name, layer in scene.layers(raw.visible_state).items():
                if layer in seen:
                    continue
                seen.add(layer)
                image = background.copy()
                layer.paint(image, ImageDraw.Draw(image), layer.key)
                touched = ImageChops.difference(image, background).getbbox()  # (x0, y0, x1, y1) exclusive
                if touched is not None:
                    x0, y0, x1, y1 = layer.box
                    inside = x0 <= touched[0] and y0 <= touched[1] and touched[2] <= x1 and touched[3] <= y1
                    assert inside, (puzzle, name, layer.box, touched)
            if raw.terminations["solver"] or raw.truncations["solver"]:
                break
            raw.step(_random_message(rng, raw.infos["solver"]["valid_actions"]))
            if not (raw.terminations["expert"] or raw.truncations["expert"]):
                raw.step("")


def test_layers_that_say_their_changes_write_what_they_paint() -> None:
    """The ``changes`` contract, for every puzzle's layers that have it: from an unknown
    picture its writes paint the layer on the background, from the layer's previous key they
    turn that picture into the new one, every write inside the layer's box and the picture,
    read-only, and the shape of its box."""
    checked = 0
    for puzzle in ALL_PUZZLES:
        env = comma_env.make(puzzle)
        raw = env.unwrapped
        scene: Scene = raw.draw
        background = scene.background().convert("RGB")
        width, height = scene.size
        shown: dict[str, Layer] = {}
        for seed in range(8):
            env.reset(seed=seed)
            for name, layer in scene.layers(raw.visible_state).items():
                changes = getattr(layer.paint, "changes", None)
                if changes is None:
                    continue
                before = shown.get(name)
                starts = [(None, np.array(background))]
                if before is not None and before.paint is layer.paint:
                    image = background.copy()
                    before.paint(image, ImageDraw.Draw(image), before.key)
                    starts.append((before.key, np.array(image)))
                image = background.copy()
                layer.paint(image, ImageDraw.Draw(image), layer.key)
                for key, pixels in starts:
                    for (x0, y0, x1, y1), piece in changes(key, layer.key):
                        bx0, by0, bx1, by1 = layer.box
                        assert max(bx0, 0) <= x0 < x1 <= min(bx1, width) and max(by0, 0) <= y0 < y1 <= min(by1, height)
                        assert piece.shape == (y1 - y0, x1 - x0, 3) and not piece.flags.writeable
                        pixels[y0:y1, x0:x1] = piece
                    assert np.array_equal(pixels, np.array(image)), (puzzle, name, seed, key is None)
                    checked += 1
                shown[name] = layer
    assert checked > 0  # Dog's grid at least


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_observations_are_contiguous_read_only_uint8_in_the_space(puzzle: str) -> None:
    env = comma_env.make(puzzle)
    env.reset(seed=0)
    image = env.observe("solver")["image"]
    space = env.observation_space("solver")["image"]
    assert image.dtype == np.uint8 and image.flags.c_contiguous and not image.flags.writeable
    assert image.base is None or memoryview(image.base).c_contiguous  # no strided parent behind it
    assert space.contains(image)


def test_own_observation_spaces_over_bounds_shared_per_class_and_view() -> None:
    a, b = comma_env.make("wire"), comma_env.make("wire")
    assert a.observation_space("solver") is not b.observation_space("solver")  # seeds stay apart
    assert a.observation_space("expert") is not b.observation_space("expert")
    assert a.observation_space("solver")["image"].high is b.observation_space("solver")["image"].high
    text = comma_env.make("wire", solver_view="text")
    assert "image" not in text.observation_space("solver").spaces
    assert text.observation_space("solver") is not a.observation_space("solver")
    telehealth = comma_env.make("telehealth").observation_space("solver")["image"]
    assert telehealth.shape == (512, 768, 3)
    # action spaces stay per instance: seeding one must not change another's samples
    assert a.action_space("solver") is not b.action_space("solver")


def test_unchanged_state_returns_the_same_array_and_a_change_a_new_one() -> None:
    env = comma_env.make("wire")
    env.reset(seed=4)
    first = env.unwrapped.image()
    assert env.unwrapped.image() is first
    env.step("no action here")
    env.step("ok")
    assert env.unwrapped.image() is first  # a message without actions changes nothing
    env.step("cut_wire_1")
    assert env.unwrapped.image() is not first


def test_plain_draw_function_falls_back_to_full_redraw() -> None:
    """A puzzle whose drawing is a plain function (not a Scene) still works: full redraws."""
    class PlainDrawing(comma_env.wire_v0.raw_env):
        draw = staticmethod(lambda state: draw_wire(state))

    env = PlainDrawing()
    env.reset(seed=5)
    image = env.image()
    assert image.flags.c_contiguous and not image.flags.writeable
    assert np.array_equal(image, draw_wire.full_array(env.visible_state))


def test_overlapping_layers_are_repainted_together() -> None:
    """Layers may overlap: repainting one box repaints every layer touching it, in order."""
    background = Image.new("RGB", (40, 20), (10, 10, 10))

    def square(image, draw, key):
        box, color = key
        draw.rectangle(box, fill=color)

    def layers(state):
        return {
            "under": Layer((0, 0, 30, 20), ((0, 0, 29, 19), state["under"]), square),
            "over": Layer((20, 5, 40, 15), ((20, 5, 39, 14), state["over"]), square),
        }

    scene = Scene((40, 20), lambda: background, layers)
    frame = scene.frame({"under": (200, 0, 0), "over": (0, 200, 0)})
    for state in ({"under": (0, 0, 200), "over": (0, 200, 0)}, {"under": (0, 0, 200), "over": (9, 9, 9)},
                  {"under": (1, 2, 3), "over": (4, 5, 6)}):
        frame = scene.frame(state, frame)
        assert np.array_equal(frame.array, scene.full_array(state))


def test_an_unhashable_raster_paint_still_draws() -> None:
    """A scene keeps each paint function's `pixels` and `changes` by the function; a paint
    that cannot be a dictionary key (an instance defining ``__eq__``) has them read every
    time instead, so a raster paint (whose pixels are copied, never cached by layer) still
    works as it did."""
    background = Image.new("RGB", (20, 10), (10, 10, 10))

    @dataclasses.dataclass
    class Fill:  # eq=True without frozen: unhashable
        calls: int = 0

        def __call__(self, image, draw, key):
            draw.rectangle((0, 0, 9, 9), fill=key)

        def pixels(self, key):
            self.calls += 1
            return np.full((10, 10, 3), key, dtype=np.uint8)

    paint = Fill()
    with pytest.raises(TypeError):
        hash(paint)
    scene = Scene((20, 10), lambda: background, lambda state: {"box": Layer((0, 0, 10, 10), state["c"], paint)})
    frame = scene.frame({"c": (1, 2, 3)})
    for color in ((200, 0, 0), (0, 200, 0)):
        frame = scene.frame({"c": color}, frame)
        assert np.array_equal(frame.array, scene.full_array({"c": color}))
    assert paint.calls == 2  # the repaints copied its pixels


def test_patch_cache_stays_within_its_budget() -> None:
    env = comma_env.make("maze")
    for seed in range(30):
        env.reset(seed=seed)
        env.unwrapped.image()
    assert 0 < PATCHES.used <= PATCHES.budget


@pytest.mark.parametrize("puzzle", ["wire", "maze", "atm", "telehealth", "dog", "sound", "button"])
def test_interleaved_environments_share_frames_safely(puzzle: str) -> None:
    """A new environment starts from the latest frame any environment of its class drew;
    environments stepped in turn never see each other's state."""
    rng = np.random.default_rng(11)
    envs = []
    for step in range(60):
        if step % 10 == 0:
            env = comma_env.make(puzzle)
            env.reset(seed=int(rng.integers(1000)))
            envs.append(env)
        env = envs[int(rng.integers(len(envs)))]
        if env.unwrapped.end_reason is not None:
            env.reset(seed=int(rng.integers(1000)))
        image = env.unwrapped.image()
        assert np.array_equal(image, env.unwrapped.draw.full_array(env.unwrapped.visible_state))
        if env.agent_selection == "solver":
            env.step(_random_message(rng, env.unwrapped.infos["solver"]["valid_actions"]))
        else:
            env.step("")


def test_environments_deepcopy_and_pickle_with_their_frames() -> None:
    """Search methods clone environments: the clone draws on from the shared frame and
    both continue independently and correctly."""
    import copy
    import pickle

    env = comma_env.make("wire")
    env.reset(seed=8)
    before = env.unwrapped.image()
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert clone.unwrapped.draw is env.unwrapped.draw
        assert np.array_equal(clone.unwrapped.image(), before)
        clone.step("cut_wire_1")
        assert np.array_equal(clone.unwrapped.image(), clone.unwrapped.draw.full_array(clone.unwrapped.visible_state))
    assert env.unwrapped.image() is before


def test_patches_found_by_layer_identity_stay_within_the_cache() -> None:
    """The layer index of the patch cache (a layer object drawn alone in its box is found by
    identity) holds only patches the cache holds, at most LAYERS_PER_KEY layers per key,
    forgets a layer with its key, and gives a layer used through it a second chance before
    eviction, as an LRU hit would."""
    from comma_env.drawing.scene import LAYERS_PER_KEY, _PatchCache

    def paint(image, draw, key) -> None:  # never called: the cache only stores
        raise AssertionError

    cache = _PatchCache(budget=8 * 100)  # eight 100-byte patches
    patch = np.zeros(100, dtype=np.uint8)
    layers = [Layer((0, 0, 1, 1), index, paint) for index in range(12)]
    keys = [(1, (0, 0, 1, 1), (layer,)) for layer in layers]
    for key, layer in zip(keys[:6], layers[:6], strict=True):
        cache.put(key, patch.copy())
        cache.remember_layer(key, layer)
    assert all(cache.of_layer(1, layer) is not None for layer in layers[:6])
    assert cache.of_layer(2, layers[0]) is None  # another scene: not this layer's patch
    equal_layers = [Layer((0, 0, 1, 1), 0, paint) for _ in range(LAYERS_PER_KEY + 2)]  # made anew each time
    for layer in equal_layers:
        cache.remember_layer(keys[0], layer)
    assert len(cache._layers_of[keys[0]]) == LAYERS_PER_KEY  # bounded: the oldest are forgotten
    assert cache.of_layer(1, equal_layers[0]) is None and cache.of_layer(1, equal_layers[-1]) is not None
    for entry in cache._by_layer.values():  # the looks above were uses: start afresh
        entry[4] = False
    cache.of_layer(1, layers[1])  # used through the index: survives the next evictions
    for key in keys[6:]:
        cache.put(key, patch.copy())
    assert keys[1] in cache._entries and cache.used <= cache.budget
    assert keys[2] not in cache._entries and cache.of_layer(1, layers[2]) is None  # evicted with its key
    assert set(cache._layers_of) <= set(cache._entries)
    assert all(entry[2] in cache._entries for entry in cache._by_layer.values())
    cache.clear()
    assert not cache._by_layer and not cache._layers_of and cache.used == 0


@pytest.mark.parametrize("puzzle", ALL_PUZZLES)
def test_recurring_layers_are_found_by_identity(puzzle: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over random play, the patch cache's layer index misses a repainted layer only the
    first time its look appears, once per object showing it: the puzzle hands out one layer
    object per look (or a few, at most `LAYERS_PER_KEY`, which the index keeps). A layer made
    anew on every call would miss every time and pay for hashing its key and indexing it
    again (Button's and Dog's lamp did, on 40% and 22% of their learner steps)."""
    from comma_env.drawing import scene as scene_module
    from comma_env.drawing.scene import LAYERS_PER_KEY

    misses: dict[Layer, int] = {}
    looked_up = scene_module._PatchCache.of_layer

    def counted(cache: scene_module._PatchCache, scene_id: int, layer: Layer) -> np.ndarray | None:
        found = looked_up(cache, scene_id, layer)
        if found is None:
            misses[layer] = misses.get(layer, 0) + 1
        return found

    monkeypatch.setattr(scene_module._PatchCache, "of_layer", counted)
    PATCHES.clear()  # every look starts unseen; the budget holds all of one puzzle's
    env = comma_env.make(puzzle)
    rng = np.random.default_rng(3)
    for seed in range(40):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if agent == "solver" and not (terminated or truncated):
                env.unwrapped.image()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(_random_message(rng, info["valid_actions"]) if agent == "solver" else "")
    assert PATCHES.used < PATCHES.budget  # nothing was evicted: a second miss is the puzzle's
    worst = max(misses.values(), default=0)  # a look a few objects show misses once per object
    assert worst <= LAYERS_PER_KEY, {layer.key: count for layer, count in misses.items() if count > LAYERS_PER_KEY}
