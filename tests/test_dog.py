"""Every rule of manuals/dog.md (the count-to-digit table parsed from the manual), the
picture's guarantees (0-5 dogs, none hiding another, varied looks) and submitting on the
simulated clock."""

from __future__ import annotations

import numpy as np
import pytest

import comma_env
from comma_env.drawing.dog import PICTURE, cell_box
from comma_env.protocol.resources import load_manual
from comma_env.puzzles.dog import COATS, MAX_DOGS, POSES, DogPuzzle, seconds_to_wait


def test_manual_table_matches_rule() -> None:
    manual = load_manual("dog")
    rows = [line.strip("|").split("|") for line in manual.splitlines() if line.startswith("| ") and line[2].isdigit()]
    table = {int(a): int(b) for a, b in rows}
    assert table == {n: n for n in range(MAX_DOGS + 1)}
    for count, digit in table.items():
        puzzle = _puzzle(count, 300 + digit)
        assert puzzle.apply("submit") and puzzle.solved


def _puzzle(count: int, seconds: int) -> DogPuzzle:
    for seed in range(500):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        if puzzle.count == count:
            puzzle.time_left = seconds
            return puzzle
    raise AssertionError(count)


@pytest.mark.parametrize("count", range(MAX_DOGS + 1))
def test_submit_on_other_digit_is_a_strike(count: int) -> None:
    puzzle = _puzzle(count, 300 + (count + 1) % 10)
    assert not puzzle.apply("submit") and not puzzle.solved and puzzle.valid_actions() == ["submit"]
    puzzle.elapse(1)
    assert puzzle.apply("submit") and puzzle.progress == 1.0


def test_no_dogs_means_zero() -> None:
    puzzle = _puzzle(0, 250)
    assert puzzle.apply("submit")


def test_seconds_to_wait() -> None:
    for seconds in range(10, 100):
        for digit in range(6):
            wait = seconds_to_wait(seconds, digit)
            assert 0 <= wait < 10 and (seconds - wait) % 10 == digit


def test_every_count_coat_and_pose_occurs() -> None:
    counts, coats, poses = set(), set(), set()
    for seed in range(200):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        counts.add(puzzle.count)
        coats |= {d["coat"] for d in puzzle.dogs}
        poses |= {d["pose"] for d in puzzle.dogs}
    assert counts == set(range(MAX_DOGS + 1)) and coats == set(COATS) and poses == set(POSES)


def test_dogs_never_overlap_and_stay_in_the_picture() -> None:
    x0, y0, x1, y1 = PICTURE
    for seed in range(300):
        boxes = [cell_box(*p) for p in DogPuzzle(np.random.default_rng(seed)).places]
        for i, a in enumerate(boxes):
            assert x0 <= a[0] and a[2] <= x1 and y0 <= a[1] and a[3] <= y1
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (seed, a, b)


def test_each_dog_is_drawn_as_one_visible_silhouette() -> None:
    """Every dog's box holds a sizeable patch of non-background pixels."""
    env = comma_env.make("dog", render_mode="rgb_array")
    for seed in range(20):
        env.reset(seed=seed)
        image = env.render().astype(int)
        for place in env.unwrapped.puzzle.places:
            a, b, c, d = (int(v) for v in cell_box(*place))
            patch = image[b:d, a:c]
            background = (np.abs(patch - [150, 200, 120]).sum(-1) > 40) & (np.abs(patch - [205, 228, 245]).sum(-1) > 40)
            assert background.mean() > 0.15, (seed, place)


def test_written_description_lists_the_dogs() -> None:
    env = comma_env.make("dog", solver_view="text")
    env.reset(seed=2)
    description = env.unwrapped.describe()
    assert "dogs:" in description and "timer:" in description and "dog places" not in description


def test_sprite_caches_hold_every_dog_an_instance_can_show() -> None:
    """Dogs are stamped from cached sprites: the caches must be large enough for every
    (coat, pose, facing, scale step) or each new episode would redraw its dogs."""
    from comma_env.drawing import dog as drawing

    steps = set()
    for seed in range(2000):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        for dog, (cell, dx, dy, size) in zip(puzzle.dogs, puzzle.places, strict=True):
            steps.add(drawing.placement(dog["coat"], dog["pose"], dog["facing"], cell, dx, dy, size).scale_steps)
    assert len(POSES) * 2 * 2 * len(steps) <= drawing._shape.cache_info().maxsize
    assert len(COATS) * len(POSES) * 2 * len(steps) <= drawing._sprite.cache_info().maxsize


def test_every_dog_lies_inside_its_cell() -> None:
    """Each grid cell is one layer: a dog's pixels must never reach a neighbouring cell."""
    from comma_env.drawing import dog as drawing

    for seed in range(2000):
        puzzle = DogPuzzle(np.random.default_rng(seed))
        for dog, (cell, dx, dy, size) in zip(puzzle.dogs, puzzle.places, strict=True):
            where = drawing.placement(dog["coat"], dog["pose"], dog["facing"], cell, dx, dy, size)
            height, width = drawing._shape(dog["pose"], where.mirror, dog["coat"] == "spotted",
                                           where.scale_steps).labels.shape
            x0, y0, x1, y1 = drawing.CELL_BOXES[cell]
            assert x0 <= where.x and where.x + width <= x1 and y0 <= where.y and where.y + height <= y1, (seed, cell)


def test_grid_changes_turn_one_set_of_dogs_into_the_next() -> None:
    """The grid layer's writes (what the scene copies: the park over each changed cell's old
    dog, then the new dog, band by band) turn the painted grid of one episode into the
    painted grid of the next, write inside the grid only and hand out read-only pixels; from
    an unknown picture they paint the whole grid."""
    from PIL import ImageDraw

    from comma_env.drawing.dog import GRID_BOX, draw_dog

    env = comma_env.make("dog")
    background = draw_dog.background().convert("RGB")

    def painted(key) -> np.ndarray:
        image = background.copy()
        layer.paint(image, ImageDraw.Draw(image), key)
        return np.array(image)

    shown = None
    crossing = kept = 0
    for seed in range(24):
        env.reset(seed=seed)
        layer = draw_dog.layers(env.unwrapped.visible_state)["dogs"]
        assert layer.box == GRID_BOX
        before = painted(shown) if shown is not None else np.array(background)
        writes = layer.paint.changes(shown, layer.key)
        for (x0, y0, x1, y1), pixels in writes:
            gx0, gy0, gx1, gy1 = GRID_BOX
            assert gx0 <= x0 < x1 <= gx1 and gy0 <= y0 < y1 <= gy1
            assert not pixels.flags.writeable and pixels.shape == (y1 - y0, x1 - x0, 3)
            before[y0:y1, x0:x1] = pixels
        # a dog across the horizon: two bands, the second starting where the first ends
        pairs = zip(writes, writes[1:], strict=False)  # each write and the next
        crossing += sum(a[0] == b[0] and a[2] == b[2] and a[3] == b[1] for (a, _), (b, _) in pairs)
        assert np.array_equal(before, painted(layer.key)), seed
        if shown is not None:
            kept += sum(old == new for old, new in zip(shown, layer.key, strict=True))
        shown = layer.key
    full = layer.paint.changes(None, layer.key)
    assert full[0][0] == GRID_BOX  # not known: the whole grid first
    assert crossing > 0  # dogs across the horizon (two bands) were checked too
    assert kept > 0  # and cells whose dog stayed (empty in both episodes): nothing written for them


def test_environments_stepped_in_turn_each_keep_their_grid(monkeypatch) -> None:
    """16 Dog environments drawn in turn in one process (a vector env's share) each find
    their grid layer again: it is made once per episode, not on every step."""
    from comma_env.drawing import dog as drawing

    made: list[int] = []
    grid_layer = drawing._grid_layer

    def counted(dogs, places):
        made.append(len(dogs))
        return grid_layer(dogs, places)

    monkeypatch.setattr(drawing, "_grid_layer", counted)
    monkeypatch.setattr(drawing, "_last_grid", None)
    seeds = [seed for seed in range(200) if DogPuzzle(np.random.default_rng(seed)).dogs][:32]  # no two alike
    envs = [comma_env.make("dog") for _ in range(16)]
    for seed, env in zip(seeds[:16], envs, strict=True):
        env.reset(seed=seed)
    grids = [[drawing._layers(env.unwrapped.puzzle.drawn_state())["dogs"] for env in envs] for _ in range(4)]
    assert len(made) == 16
    assert all(later[i] is grids[0][i] for later in grids[1:] for i in range(16))
    for seed, env in zip(seeds[16:], envs, strict=True):  # the next episode of each: new grids
        env.reset(seed=seed)
    for env in envs:
        drawing._layers(env.unwrapped.puzzle.drawn_state())
    assert len(made) == 32
    assert drawing._last_grid is None  # kept on each puzzle's frozen lists, not in the module


def test_a_puzzles_grid_is_kept_on_its_frozen_lists_and_goes_with_them() -> None:
    """The dogs an environment draws are the puzzle's frozen lists: the grid is made once
    for them and kept on them, and a copied or unpickled puzzle (new lists, no memo) draws the
    same picture with a grid of its own."""
    import copy
    import gc
    import json
    import pickle
    import sys

    from comma_env.drawing import dog as drawing
    from comma_env.protocol.frozen import FrozenDict, FrozenList

    puzzle = next(p for seed in range(100) if len((p := DogPuzzle(np.random.default_rng(seed))).dogs) >= 2)
    del p  # the walrus binds it here too
    state = puzzle.drawn_state()
    assert type(state["dogs"]) is FrozenList and all(type(dog) is FrozenDict for dog in state["dogs"])
    assert type(state["dog_places"]) is FrozenList and all(type(place) is FrozenList for place in state["dog_places"])
    assert state == puzzle.visible_state()
    grid = drawing._layers(state)["dogs"]
    assert puzzle.places.memo[0] is puzzle.dogs and puzzle.places.memo[1]["dogs"] is grid
    assert drawing._layers(puzzle.drawn_state())["dogs"] is grid
    with pytest.raises(TypeError):
        state["dogs"][0]["coat"] = "black"  # what would make a kept grid wrong cannot happen
    with pytest.raises(TypeError):
        state["dog_places"][0][1] += 0.01
    for twin in (copy.deepcopy(puzzle), pickle.loads(pickle.dumps(puzzle))):
        assert twin.places.memo is None and type(twin.places[0]) is FrozenList
        twin_grid = drawing._layers(twin.drawn_state())["dogs"]
        assert twin_grid is not grid and twin_grid == grid
        assert np.array_equal(drawing.draw_dog.frame(twin.drawn_state()).array, drawing.draw_dog.full_array(state))
    edited = copy.deepcopy(twin)  # the way to edit an instance: new, plain lists
    edited.dogs = [dict(dog, coat="black") for dog in twin.dogs]
    edited.places = [list(place) for place in twin.places]
    assert edited.state_key() == json.dumps(edited.visible_state(), sort_keys=True)
    assert edited.visible_state()["dogs"][0]["coat"] == "black"
    assert np.array_equal(drawing.draw_dog.frame(edited.drawn_state()).array,
                          drawing.draw_dog.full_array(edited.visible_state()))
    del puzzle, state, twin, twin_grid, edited
    gc.collect()
    assert sys.getrefcount(grid) == 2  # this name and the call's argument: nothing else kept it


def test_a_changed_set_of_dogs_is_drawn_anew() -> None:
    """The kept grids are found by the dogs' values, not by which lists hold them: a state
    changed in place after a drawing gets its own grid."""
    from comma_env.drawing import dog as drawing

    puzzle = next(p for seed in range(100) if (p := DogPuzzle(np.random.default_rng(seed))).dogs)
    state = puzzle.visible_state()
    first = drawing._layers(state)["dogs"]
    coats = [coat for coat in drawing.COAT_RGB if coat != state["dogs"][0]["coat"]]
    state["dogs"][0]["coat"] = coats[0]  # the same places (the same filing key), another coat
    changed = drawing._layers(state)["dogs"]
    assert changed is not first and changed.key != first.key
    assert changed.key[int(state["dog_places"][0][0])].coat == coats[0]
    state["dog_places"][0][1] += 0.01  # moved: another filing key
    assert drawing._layers(state)["dogs"].key != changed.key
    assert np.array_equal(drawing.draw_dog.frame(state).array, drawing.draw_dog.full_array(state))
