"""The fast clip synthesis (comma_env/audio/synth.py) makes the same clips as the original
one-sine-per-tone synthesis kept in tests/support/audio_reference.py: same RNG consumption (so the
episodes after a clip are unchanged), same samples to float32 rounding, same WAV files to
one 16-bit step."""

from __future__ import annotations

import numpy as np
import pytest

from comma_env.audio.synth import SAMPLES, SIGNATURES, _moving_average, synthesize
from comma_env.audio.wav import wav_bytes
from tests.support import audio_reference

TOLERANCE = 1e-5
"""Largest difference allowed from the reference clip (peak 0.8; one 16-bit step is 3e-5)."""


@pytest.mark.parametrize("signature", SIGNATURES, ids=lambda s: s.name)
def test_clips_equal_the_reference_synthesis(signature) -> None:
    for seed in range(12):
        fast_rng, reference_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        fast = synthesize(signature, fast_rng)
        reference = audio_reference.synthesize(signature.name, reference_rng)
        assert fast_rng.bit_generator.state == reference_rng.bit_generator.state  # the RNG stream is unchanged
        assert fast.dtype == np.float32 and fast.shape == (SAMPLES,) and fast.flags.writeable
        assert np.max(np.abs(fast.astype(np.float64) - reference)) <= TOLERANCE, (signature.name, seed)
        assert abs(float(np.max(np.abs(fast))) - 0.8) <= 1e-6
        pcm = np.frombuffer(wav_bytes(fast, 16000)[44:], dtype="<i2").astype(np.int32)
        reference_pcm = np.frombuffer(wav_bytes(reference, 16000)[44:], dtype="<i2").astype(np.int32)
        assert np.max(np.abs(pcm - reference_pcm)) <= 1


def test_clips_are_new_arrays_that_callers_may_keep() -> None:
    """Cached parts (the telephone's ring, fixed envelopes) never leak out as shared arrays."""
    telephone = next(s for s in SIGNATURES if s.name == "Telephone")
    first = synthesize(telephone, np.random.default_rng(0))
    second = synthesize(telephone, np.random.default_rng(1))
    assert np.array_equal(first, second) and not np.shares_memory(first, second)
    first[:] = 0
    assert np.max(np.abs(synthesize(telephone, np.random.default_rng(2)))) == pytest.approx(0.8)


def test_moving_average_is_numpys_same_mode_convolution() -> None:
    x = np.random.default_rng(5).standard_normal(999)
    for width in (2, 4, 5, 12):
        assert np.allclose(_moving_average(x, width), np.convolve(x, np.ones(width) / width, mode="same"), atol=1e-14)
