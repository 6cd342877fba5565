"""The clip synthesis (comma_env/audio/synth.py) makes the clips recorded in
tests/data/sound_clips.npz (every 16th sample of seeds 0 and 7, from the synthesis of 0.3.0):
the same samples to within 1e-5 (a 16-bit step is 3e-5) and the same RNG consumption, so the
episodes after a clip are unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from comma_env.audio.synth import SAMPLES, SIGNATURES, synthesize

RECORDED = np.load(Path(__file__).resolve().parents[1] / "data" / "sound_clips.npz")
TOLERANCE = 1e-5
"""Largest difference allowed from the recorded clip (peak 0.8)."""


@pytest.mark.parametrize("signature", SIGNATURES, ids=lambda s: s.name)
def test_clips_equal_the_recorded_ones(signature) -> None:
    for seed in (0, 7):
        rng = np.random.default_rng(seed)
        clip = synthesize(signature, rng)
        assert clip.dtype == np.float32 and clip.shape == (SAMPLES,) and clip.flags.writeable
        assert abs(float(np.max(np.abs(clip))) - 0.8) <= 1e-6
        recorded = RECORDED[f"{signature.name}/{seed}"]
        assert np.max(np.abs(clip[::16].astype(np.float64) - recorded)) <= TOLERANCE, (signature.name, seed)
        assert rng.integers(2**62, size=1) == RECORDED[f"{signature.name}/{seed}/next"]  # the RNG stream is unchanged


def test_clips_are_new_arrays_that_callers_may_keep() -> None:
    telephone = next(s for s in SIGNATURES if s.name == "Telephone")
    first = synthesize(telephone, np.random.default_rng(0))
    second = synthesize(telephone, np.random.default_rng(1))
    assert np.array_equal(first, second) and not np.shares_memory(first, second)
    first[:] = 0
    assert np.max(np.abs(synthesize(telephone, np.random.default_rng(2)))) == pytest.approx(0.8)
