"""The zero-copy drawing path gives exactly Pillow's pixels and never mutates an image
already handed out as an observation."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.drawing.common import ARRAY_KEY, canvas, editable_copy, observation_array


def test_drawing_in_place_matches_pillow_conversion() -> None:
    image, draw = canvas((300, 200), "TEST")
    draw.rectangle((10, 40, 120, 90), fill=(200, 10, 10))
    draw.text((150, 60), "abc", fill=(0, 0, 0))
    fast = observation_array(image)
    slow = np.asarray(image.convert("RGB"))
    assert fast.shape == (200, 300, 3) and np.array_equal(fast, slow)
    assert fast.base is image.info[ARRAY_KEY][0]  # no copy was made


def test_copy_of_an_edited_image_falls_back_to_conversion() -> None:
    image, draw = canvas((64, 64))
    copied = image.copy()
    Image.Image.paste(copied, (1, 2, 3), (0, 0, 10, 10))
    assert np.array_equal(observation_array(copied), np.asarray(copied.convert("RGB")))


def test_templates_are_not_modified_by_their_copies() -> None:
    template, _ = canvas((64, 64), None)
    before = np.asarray(template.convert("RGB")).copy()
    copy, draw = editable_copy(template)
    draw.rectangle((0, 0, 63, 63), fill=(1, 2, 3))
    assert np.array_equal(np.asarray(template.convert("RGB")), before)


def test_observations_stay_valid_after_the_state_changes() -> None:
    env = comma_env.make("wire")
    env.reset(seed=2)
    first = env.observe("solver")["image"]
    snapshot = first.copy()
    env.step("cut_wire_1\ncut_wire_2")
    env.step("ok")
    second = env.observe("solver")["image"]
    assert not np.array_equal(first, second)
    assert np.array_equal(first, snapshot)
    assert not first.flags.writeable


def test_an_instances_layers_are_kept_on_its_frozen_colours() -> None:
    """The wire colours an environment draws are the puzzle's frozen list: the uncut layers
    are made once for it and kept on it; a copied or unpickled puzzle draws the same picture,
    and an instance given new, plain colours is drawn with them."""
    import copy
    import pickle

    from comma_env.drawing import wire as drawing
    from comma_env.protocol.frozen import FrozenList
    from comma_env.puzzles.wire import WirePuzzle

    puzzle = WirePuzzle(np.random.default_rng(4))
    state = puzzle.drawn_state()
    assert type(state["wire_colors_top_to_bottom"]) is FrozenList and state == puzzle.visible_state()
    layers = drawing._layers(state)
    assert puzzle.colors.memo == (puzzle.serial, layers)
    assert drawing._layers(puzzle.drawn_state()) is layers  # no wire cut: the kept mapping itself
    with pytest.raises(TypeError):
        puzzle.colors[0] = "red"
    for twin in (copy.deepcopy(puzzle), pickle.loads(pickle.dumps(puzzle))):
        assert twin.colors.memo is None and drawing._layers(twin.drawn_state()) == layers
    puzzle.apply("cut_wire_1")
    picture = drawing.draw_wire.frame(puzzle.drawn_state()).array
    assert np.array_equal(picture, drawing.draw_wire.full_array(puzzle.visible_state()))
    puzzle.colors = ["red"] * len(puzzle.colors)  # the way to edit an instance: a new list
    assert np.array_equal(drawing.draw_wire.frame(puzzle.drawn_state()).array,
                          drawing.draw_wire.full_array(puzzle.visible_state()))
    assert drawing.draw_wire.full_array(puzzle.visible_state()).tobytes() != picture.tobytes()
