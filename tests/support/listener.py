"""A minimal listener for tests: names a Sound clip by nearest centroid over what people hear
first (loudness in 16 pitch bands, and rhythm: the spectrum of the loudness envelope).
Used by test_sound (the signatures are distinguishable) and by the loopback server's
scripted solver (an "audio model" that really decodes the WAV it is sent)."""

from __future__ import annotations

import io
import itertools
import wave
from functools import lru_cache

import numpy as np

from comma_env.audio.synth import SAMPLE_RATE, SIGNATURES, Signature, synthesize

EDGES = np.geomspace(30, 8000, 17)


def features(clip: np.ndarray) -> np.ndarray:
    c = np.asarray(clip, dtype=np.float64)
    power = np.abs(np.fft.rfft(c)) ** 2
    freqs = np.fft.rfftfreq(c.size, 1 / SAMPLE_RATE)
    bands = np.array([power[(freqs >= a) & (freqs < b)].sum() for a, b in itertools.pairwise(EDGES)])
    usable = c.size - c.size % 160
    envelope = np.sqrt((c[:usable].reshape(-1, 160) ** 2).mean(1))
    envelope = envelope / (envelope.max() or 1)
    rhythm = np.abs(np.fft.rfft(envelope - envelope.mean()))[1:40]
    return np.concatenate([np.log(bands / (bands.sum() or 1) + 1e-6), 0.5 * np.log(rhythm / (rhythm.sum() or 1) + 1e-4),
                           [3 * np.log(envelope.std() / (envelope.mean() or 1) + 1e-3)]])


@lru_cache(maxsize=1)
def centroids() -> dict[str, np.ndarray]:
    """Mean features of each signature over training instances (seeds 0-9)."""
    return {s.name: np.mean([features(synthesize(s, np.random.default_rng(k))) for k in range(10)], axis=0)
            for s in SIGNATURES}


def identify(clip: np.ndarray) -> Signature:
    heard = features(clip)
    name = min(centroids(), key=lambda n: float(np.sum((centroids()[n] - heard) ** 2)))
    return next(s for s in SIGNATURES if s.name == name)


def decode_wav(data: bytes) -> np.ndarray:
    with wave.open(io.BytesIO(data)) as wav:
        return np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2") / 32767.0
