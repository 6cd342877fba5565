"""The reference synthesis of the Sound puzzle's clips: the original, plain numpy version
(float64 throughout, one full-length sine per tone), kept to test that the fast synthesis in
`comma_env.audio.synth` produces the same clips and consumes the RNG identically."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

SAMPLE_RATE = 16000
SECONDS = 2.0
SAMPLES = int(SAMPLE_RATE * SECONDS)

Synth = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _tone(t: np.ndarray, freq: float | np.ndarray) -> np.ndarray:
    """A sine of (possibly time-varying) frequency, by integrating the phase."""
    freq = np.broadcast_to(np.asarray(freq, dtype=np.float64), t.shape)
    return np.sin(2 * np.pi * np.cumsum(freq) / SAMPLE_RATE)


def _decay(t: np.ndarray, start: float, rate: float) -> np.ndarray:
    after = t - start
    return np.where(after >= 0, np.exp(-rate * np.clip(after, 0, None)), 0.0)


def _window(t: np.ndarray, start: float, length: float) -> slice:
    """Samples from `start` for `length` seconds: short events are synthesised only there."""
    first = max(int(start * SAMPLE_RATE), 0)
    return slice(first, min(first + int(length * SAMPLE_RATE) + 1, t.size))


def _lowpass(x: np.ndarray, width: int) -> np.ndarray:
    return np.convolve(x, np.ones(width) / width, mode="same")


def engine(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    base = rng.uniform(45, 60) * (1 + 0.04 * np.sin(2 * np.pi * rng.uniform(3, 5) * t))
    return sum(_tone(t, base * k) / k for k in range(1, 7)) * (0.8 + 0.2 * np.sin(2 * np.pi * 8 * t))


def birdsong(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros_like(t)
    start = rng.uniform(0.0, 0.1)
    while start < SECONDS - 0.1:
        length = rng.uniform(0.06, 0.12)
        span = _window(t, start, length)
        phase = np.clip((t[span] - start) / length, 0, 1)
        freq = rng.uniform(2800, 3400) + 1500 * np.sin(np.pi * phase)
        out[span] += np.sin(np.pi * phase) * _tone(t[span], freq)
        start += length + rng.uniform(0.05, 0.2)
    return out


def siren(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    period = rng.uniform(0.9, 1.1)
    freq = 750 + 350 * np.sin(2 * np.pi * t / period)
    return _tone(t, freq) + 0.3 * _tone(t, 2 * freq)


def dripping(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros_like(t)
    for start in np.arange(rng.uniform(0.05, 0.2), SECONDS, rng.uniform(0.35, 0.45)):
        span = _window(t, start, 0.2)
        freq = rng.uniform(900, 1200) * (1 + 0.8 * np.clip(t[span] - start, 0, 0.05) / 0.05)
        out[span] += _decay(t[span], start, 60) * _tone(t[span], freq)
    return out


def clock_ticking(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.standard_normal(t.size)
    out = np.zeros_like(t)
    for i, start in enumerate(np.arange(0.05, SECONDS, 0.5)):
        span = _window(t, start, 0.03)
        source = noise if i % 2 else np.roll(noise, 500)
        out[span] += _decay(t[span], start, 400) * source[span] * (1.0 if i % 2 else 0.7)
    return out


def heartbeat(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros_like(t)
    period = rng.uniform(0.75, 0.9)
    for start in np.arange(0.1, SECONDS, period):
        for offset, level in ((0.0, 1.0), (0.18, 0.7)):
            span = _window(t, start + offset, 0.3)
            out[span] += level * _decay(t[span], start + offset, 25) * _tone(t[span], 55)
    return out


def phone_ringing(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ring = (np.floor(t / 0.05) % 2 == 0) & ((t % 1.0) < 0.6)
    return ring * (_tone(t, 440) + _tone(t, 480)) / 2


def doorbell(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    high = rng.uniform(640, 680)
    return _decay(t, 0.05, 2.5) * _tone(t, high) + _decay(t, 0.8, 2.0) * _tone(t, high * 0.8)


def rain(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.standard_normal(t.size)
    hiss = noise - _lowpass(noise, 4)
    drops = np.zeros_like(t)
    for start in rng.uniform(0, SECONDS, 40):
        span = _window(t, start, 0.03)
        drops[span] += _decay(t[span], start, 300) * noise[span] * 2
    return 0.6 * hiss + drops


def whistle(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    freq = rng.uniform(2300, 2600) * (1 + 0.01 * np.sin(2 * np.pi * 6 * t))
    return _tone(t, freq) * np.clip(np.minimum(t, SECONDS - t) / 0.05, 0, 1)


def cow(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    base = rng.uniform(110, 140) * (1 + 0.15 * np.sin(np.pi * np.clip(t / 1.6, 0, 1)))
    voice = sum(_tone(t, base * k) * (1.0 if k in (3, 4) else 0.4) / k for k in range(1, 9))
    return voice * np.sin(np.pi * np.clip((t - 0.1) / 1.6, 0, 1))


def fan(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = _lowpass(rng.standard_normal(t.size), 12)
    return noise * (0.85 + 0.15 * np.sin(2 * np.pi * rng.uniform(11, 14) * t)) + 0.2 * _tone(t, 100)


REFERENCE: dict[str, Synth] = {
    "Car engine": engine, "Birdsong": birdsong, "Police siren": siren, "Dripping tap": dripping,
    "Ticking clock": clock_ticking, "Heartbeat": heartbeat, "Telephone": phone_ringing, "Doorbell": doorbell,
    "Rain": rain, "Whistle": whistle, "Cow": cow, "Extractor fan": fan,
}


def synthesize(name: str, rng: np.random.Generator) -> np.ndarray:
    """The clip of the sound called `name`: float32, peak 0.8 (as the original did it)."""
    t = np.arange(SAMPLES, dtype=np.float64) / SAMPLE_RATE
    clip = np.asarray(REFERENCE[name](t, rng), dtype=np.float64)
    peak = float(np.max(np.abs(clip))) or 1.0
    return (0.8 * clip / peak).astype(np.float32)
