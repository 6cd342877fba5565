"""The environments' Gymnasium spaces: plain `Box`es for the picture and the clip (each
environment's own: tests/protocol/test_contracts.py)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import comma_env


def test_the_picture_and_the_clip_are_boxes_of_their_shapes() -> None:
    image = comma_env.make("telehealth").observation_space("solver")["image"]
    assert type(image) is spaces.Box and image == spaces.Box(0, 255, (512, 768, 3), np.uint8)
    sound = comma_env.make("sound").observation_space("solver")
    samples = comma_env.make("sound").unwrapped.puzzle_cls.audio_samples
    assert sound["audio"] == spaces.Box(-1.0, 1.0, (samples,), np.float32)
    assert sound["sample_rate"].shape == () and sound["sample_rate"].dtype == np.int32
    text = comma_env.make("wire", solver_view="text").observation_space("solver")
    assert "image" not in text.spaces and "text" in text.spaces
