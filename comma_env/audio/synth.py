"""Sound signatures a listener can tell apart and put into words, synthesised with numpy.

Each signature differs in pitch, rhythm and movement; every clip is a deterministic function of
an RNG, peak 0.8, equal within 1e-5 to the plain synthesis in `tests/support/audio_reference.py`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

SAMPLE_RATE = 16000
SECONDS = 2.0
SAMPLES = int(SAMPLE_RATE * SECONDS)

Synth = Callable[[np.random.Generator], np.ndarray]
"""rng -> the raw clip (`SAMPLES` samples, any scale): normalised by `synthesize`."""


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


TIME = _frozen(np.arange(SAMPLES, dtype=np.float64) / SAMPLE_RATE)
"""Sample times in seconds."""


def _sin(cycles: np.ndarray) -> np.ndarray:
    """sin(2 pi cycles) as float32: the phase reduced to one turn in float64, the sine of the
    reduced angle in float32 (numpy vectorises float32 sines, not float64 ones)."""
    turn = np.floor(cycles)
    np.subtract(cycles, turn, out=turn)
    turn *= 2 * np.pi
    return np.sin(turn.astype(np.float32))


def _sin_cos(cycles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sin and cos of 2 pi cycles as float32 (see `_sin`)."""
    turn = np.floor(cycles)
    np.subtract(cycles, turn, out=turn)
    turn *= 2 * np.pi
    angle = turn.astype(np.float32)
    return np.sin(angle), np.cos(angle)


BLOCK = 256
"""Samples per block of `_linear_wave` (divides `SAMPLES`)."""
_BLOCK_STARTS = np.arange(0, SAMPLES, BLOCK, dtype=np.float64)
_IN_BLOCK = np.arange(BLOCK, dtype=np.float64)
COUNT = _frozen(np.arange(1, SAMPLES + 1, dtype=np.float64))
"""1, 2, ..., SAMPLES: the running sum of a constant 1 (a steady tone's phase in samples)."""


def _linear_wave(freq: float, offset: float = 0.0, cosine: bool = False) -> np.ndarray:
    """sin (or cos) of 2 pi freq (n + offset) / rate for every sample n, accurate to float64,
    by angle addition: one float64 sine and cosine per block start and per position in a
    block (250 + 512) instead of one per sample."""
    step = 2 * np.pi * freq / SAMPLE_RATE
    start, inside = step * (_BLOCK_STARTS + offset), step * _IN_BLOCK
    sin_start, cos_start = np.sin(start)[:, None], np.cos(start)[:, None]
    sin_inside, cos_inside = np.sin(inside), np.cos(inside)
    if cosine:  # cos(a + b) = cos a cos b - sin a sin b
        wave = cos_start * cos_inside
        wave -= sin_start * sin_inside
    else:  # sin(a + b) = sin a cos b + cos a sin b
        wave = sin_start * cos_inside
        wave += cos_start * sin_inside
    return wave.reshape(-1)


def _wobble_phase(mean: float, depth: float, rate: float) -> np.ndarray:
    """Phase in cycles of a tone whose frequency is ``mean + depth * sin(2 pi rate t)``: the running
    sum of that frequency in closed form, exact to float64."""
    half = np.pi * rate / SAMPLE_RATE
    swing = _linear_wave(rate, offset=0.5, cosine=True)
    swing -= np.cos(half)
    swing *= -depth / (2 * np.sin(half))
    swing += mean * COUNT
    swing /= SAMPLE_RATE
    return swing


def _phase(freq: np.ndarray) -> np.ndarray:
    """Phase in cycles of a tone of (time-varying) frequency `freq`, integrated in float64."""
    return np.cumsum(freq, dtype=np.float64) / SAMPLE_RATE


def _harmonics(cycles: np.ndarray, weights: Sequence[float]) -> np.ndarray:
    """sum_k weights[k-1] * sin(2 pi k cycles), from one sine and cosine (Chebyshev
    recurrence sin((k+1)x) = 2 cos(x) sin(kx) - sin((k-1)x), in float32)."""
    sine, cosine = _sin_cos(cycles)
    twice_cos = cosine * np.float32(2)
    previous, current = np.zeros_like(sine), sine
    out = sine * np.float32(weights[0])
    scratch = np.empty_like(sine)
    for weight in weights[1:]:
        np.multiply(twice_cos, current, out=scratch)
        scratch -= previous
        previous, current, scratch = current, scratch, previous
        out += np.float32(weight) * current
    return out


@cache
def _steady_tone(freq: float, samples: int = SAMPLES) -> np.ndarray:
    """A constant-frequency tone from time zero (read-only; rng-free, so computed once)."""
    return _frozen(np.sin(2 * np.pi * np.cumsum(np.full(samples, float(freq))) / SAMPLE_RATE))


@cache
def _steady_tone32(freq: float, level: float, samples: int = SAMPLES) -> np.ndarray:
    """`level` times a steady tone, as float32 (read-only)."""
    return _frozen((level * _steady_tone(freq, samples)).astype(np.float32))


@cache
def _cumulative(name: str) -> np.ndarray:
    """Running sums of the fixed frequency modulations (a tone of frequency f * m(t) has the
    phase f * cumsum(m) / rate)."""
    if name == "whistle":
        modulation = 1 + 0.01 * np.sin(2 * np.pi * 6 * TIME)
    elif name == "cow":
        modulation = 1 + 0.15 * np.sin(np.pi * np.clip(TIME / 1.6, 0, 1))
    else:
        raise KeyError(name)
    return _frozen(np.cumsum(modulation))


@cache
def _envelope(name: str) -> np.ndarray:
    """Fixed amplitude shapes (read-only float32: they multiply float32 waves)."""
    if name == "engine":
        shape = 0.8 + 0.2 * np.sin(2 * np.pi * 8 * TIME)
    elif name == "whistle":
        shape = np.clip(np.minimum(TIME, SECONDS - TIME) / 0.05, 0, 1)
    elif name == "cow":
        shape = np.sin(np.pi * np.clip((TIME - 0.1) / 1.6, 0, 1))
    else:
        raise KeyError(name)
    return _frozen(shape.astype(np.float32))


def _window(start: float, length: float) -> slice:
    """Samples from `start` for `length` seconds: short events are synthesised only there."""
    first = max(int(start * SAMPLE_RATE), 0)
    return slice(first, min(first + int(length * SAMPLE_RATE) + 1, SAMPLES))


def _decay(after: np.ndarray, rate: float) -> np.ndarray:
    """exp(-rate * after) where after >= 0 (seconds since the event), else 0 (float32)."""
    after = after.astype(np.float32, copy=False)
    level = np.maximum(after, np.float32(0))
    level *= np.float32(-rate)
    np.exp(level, out=level)
    level[after < 0] = 0
    return level


def _decay_from(start: float, rate: float) -> np.ndarray:
    """`_decay` over the whole clip for an event at `start`, exponentials only after it."""
    out = np.zeros(SAMPLES, dtype=np.float32)
    first = int(np.searchsorted(TIME, start))
    out[first:] = np.exp((-rate * (TIME[first:] - start)).astype(np.float32))
    return out


def _moving_average(x: np.ndarray, width: int) -> np.ndarray:
    """``np.convolve(x, np.ones(width) / width, mode="same")``, as sums over windows doubled
    in width (a few shifted additions instead of `width`)."""
    left = width // 2
    padded = np.zeros(x.size + width - 1, dtype=x.dtype)
    padded[left:left + x.size] = x
    total: np.ndarray | None = None
    sums, span = padded, 1  # sums[i] = padded[i:i + span].sum()
    remaining, done = width, 0
    while remaining:
        if remaining & span:
            part = sums[done:done + x.size]
            total = part.copy() if total is None else np.add(total, part, out=total)
            remaining -= span
            done += span
        if remaining:
            sums = sums[:-span] + sums[span:]
            span *= 2
    if total is None:  # width 0: no window was added
        raise ValueError(f"moving average width must be at least 1, not {width}")
    total /= width
    return total


def engine(rng: np.random.Generator) -> np.ndarray:
    low = rng.uniform(45, 60)
    cycles = _wobble_phase(low, 0.04 * low, rng.uniform(3, 5))
    return _harmonics(cycles, [1 / k for k in range(1, 7)]) * _envelope("engine")


def _segments(starts: list[float], lengths: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The samples of several `_window`s laid end to end: (sample index, window number,
    position in the window), so that many short events are synthesised in one pass."""
    spans = [_window(start, length) for start, length in zip(starts, lengths, strict=True)]
    sizes = np.array([max(span.stop - span.start, 0) for span in spans], dtype=np.int64)
    which = np.repeat(np.arange(len(spans)), sizes)
    position = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    index = np.array([span.start for span in spans], dtype=np.int64)[which] + position
    return index, which, position


def birdsong(rng: np.random.Generator) -> np.ndarray:
    starts, lengths, pitches = [], [], []
    start = rng.uniform(0.0, 0.1)
    while start < SECONDS - 0.1:  # the same draws, in the same order, as chirp by chirp
        length = rng.uniform(0.06, 0.12)
        starts.append(start)
        lengths.append(length)
        pitches.append(rng.uniform(2800, 3400))
        start += length + rng.uniform(0.05, 0.2)
    out = np.zeros(SAMPLES, dtype=np.float32)
    if not starts:
        return out
    index, which, position = _segments(starts, lengths)
    begin, length = np.array(starts)[which], np.array(lengths)[which]
    arch = _sin(np.clip((TIME[index] - begin) / length, 0, 1) / 2)  # sin(pi * phase)
    freq = np.array(pitches)[which] + 1500 * arch.astype(np.float64)
    # each chirp's phase starts afresh: a running sum over all chirps minus its value before the chirp
    running = np.cumsum(freq)
    running -= np.repeat(running[position == 0] - freq[position == 0], np.bincount(which))
    out[index] = arch * _sin(running / SAMPLE_RATE)  # chirps never overlap: gaps are at least as long as a chirp
    return out


def siren(rng: np.random.Generator) -> np.ndarray:
    period = rng.uniform(0.9, 1.1)
    sine, cosine = _sin_cos(_wobble_phase(750, 350, 1 / period))
    return sine + 0.6 * sine * cosine  # the octave: sin(2x) = 2 sin(x) cos(x)


def dripping(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(SAMPLES)
    for start in np.arange(rng.uniform(0.05, 0.2), SECONDS, rng.uniform(0.35, 0.45)):
        span = _window(start, 0.2)
        after = TIME[span] - start
        freq = rng.uniform(900, 1200) * (1 + 0.8 * np.clip(after, 0, 0.05) / 0.05)
        out[span] += _decay(after, 60) * _sin(_phase(freq))
    return out


def clock_ticking(rng: np.random.Generator) -> np.ndarray:
    noise = rng.standard_normal(SAMPLES)
    out = np.zeros(SAMPLES, dtype=np.float32)
    for i, start in enumerate(np.arange(0.05, SECONDS, 0.5)):
        span = _window(start, 0.03)
        # the soft ticks use the noise 500 samples earlier (a rolled copy of it)
        source = noise[span] if i % 2 else np.take(noise, np.arange(span.start - 500, span.stop - 500), mode="wrap")
        out[span] += _decay(TIME[span] - start, 400) * source * (1.0 if i % 2 else 0.7)
    return out


def heartbeat(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(SAMPLES, dtype=np.float32)
    period = rng.uniform(0.75, 0.9)
    thump = _steady_tone32(55.0, 1.0, _window(0.0, 0.3).stop)
    for start in np.arange(0.1, SECONDS, period):
        for offset, level in ((0.0, 1.0), (0.18, 0.7)):
            span = _window(start + offset, 0.3)
            length = len(range(SAMPLES)[span])
            out[span] += np.float32(level) * _decay(TIME[span] - (start + offset), 25) * thump[:length]
    return out


@cache
def _telephone() -> np.ndarray:
    ring = (np.floor(TIME / 0.05) % 2 == 0) & ((TIME % 1.0) < 0.6)
    return _frozen(ring * (_steady_tone(440.0) + _steady_tone(480.0)) / 2)


def phone_ringing(rng: np.random.Generator) -> np.ndarray:
    return _telephone()  # no variation per instance


def doorbell(rng: np.random.Generator) -> np.ndarray:
    high = rng.uniform(640, 680)
    ding = _decay_from(0.05, 2.5) * _linear_wave(high, offset=1.0)
    ding += _decay_from(0.8, 2.0) * _linear_wave(high * 0.8, offset=1.0)
    return ding


_DROP_SAMPLES = int(0.03 * SAMPLE_RATE) + 1


def rain(rng: np.random.Generator) -> np.ndarray:
    noise = rng.standard_normal(SAMPLES).astype(np.float32)  # drawn in float64: the RNG stream is unchanged
    hiss = noise - np.convolve(noise, np.full(4, 0.25, dtype=np.float32), mode="same")
    hiss *= np.float32(0.6)
    # forty drops at once: every drop's window as one row, summed into the clip in drop order
    starts = rng.uniform(0, SECONDS, 40)
    first = (starts * SAMPLE_RATE).astype(np.int64)
    # sample time - start, at the window's first sample
    lag = ((first - starts * SAMPLE_RATE) / SAMPLE_RATE).astype(np.float32)
    after = lag[:, None] + np.arange(_DROP_SAMPLES, dtype=np.float32) / np.float32(SAMPLE_RATE)
    index = first[:, None].astype(np.int32) + np.arange(_DROP_SAMPLES, dtype=np.int32)
    outside = index >= SAMPLES  # the end of a drop near the end of the clip: weight 0
    np.minimum(index, SAMPLES - 1, out=index)
    drops = _decay(after, 300) * noise[index]
    drops *= np.float32(2)
    drops[outside] = 0
    return hiss + np.bincount(index.reshape(-1), weights=drops.reshape(-1), minlength=SAMPLES)


def whistle(rng: np.random.Generator) -> np.ndarray:
    pitch = rng.uniform(2300, 2600)
    return _sin(pitch * _cumulative("whistle") / SAMPLE_RATE) * _envelope("whistle")


def cow(rng: np.random.Generator) -> np.ndarray:
    low = rng.uniform(110, 140)
    weights = [(1.0 if k in (3, 4) else 0.4) / k for k in range(1, 9)]
    return _harmonics(low * _cumulative("cow") / SAMPLE_RATE, weights) * _envelope("cow")


def fan(rng: np.random.Generator) -> np.ndarray:
    noise = _moving_average(rng.standard_normal(SAMPLES).astype(np.float32), 12)
    flutter = _sin(rng.uniform(11, 14) * TIME)
    flutter *= np.float32(0.15)
    flutter += np.float32(0.85)
    flutter *= noise
    flutter += _steady_tone32(100.0, 0.2)
    return flutter


@dataclass(frozen=True)
class Signature:
    """One sound of the Sound puzzle: its name, how it sounds, its code and its synthesis."""

    name: str
    description: str
    code: str
    synth: Synth


SIGNATURES: tuple[Signature, ...] = (
    Signature("Car engine", "a low, rumbling hum that throbs quickly, steady in pitch", "$*&#", engine),
    Signature("Birdsong", "quick, very high chirps that swoop up and down, with short gaps", "*$#&", birdsong),
    Signature("Police siren", "a loud tone that slides up and down, about once a second", "&#$*", siren),
    Signature("Dripping tap", "single short plinks, evenly spaced, a few per second", "#&*$", dripping),
    Signature("Ticking clock", "dry clicks, exactly two per second, alternating louder and softer", "$&#*",
              clock_ticking),
    Signature("Heartbeat", "very low soft thumps in pairs (lub-dub), a little more than once a second", "*#$&",
              heartbeat),
    Signature("Telephone", "a buzzing two-tone ring for about half a second, then silence, repeating", "&$*#",
              phone_ringing),
    Signature("Doorbell", "two clear bell notes, the second lower (ding-dong), fading out", "#*&$", doorbell),
    Signature("Rain", "a soft hiss with many random tiny taps", "$#*&", rain),
    Signature("Whistle", "one long, very high, pure steady note", "*&$#", whistle),
    Signature("Cow", "a long, low, droning moo that rises a little and fades", "&*#$", cow),
    Signature("Extractor fan", "a steady dull whoosh of air with a faint flutter", "#$&*", fan),
)


def synthesize(signature: Signature, rng: np.random.Generator) -> np.ndarray:
    """The clip of `signature`: float32, `SAMPLES` samples at `SAMPLE_RATE`, peak 0.8."""
    clip = signature.synth(rng)
    peak = float(max(np.max(clip), -np.min(clip))) or 1.0
    out = np.empty(SAMPLES, dtype=np.float32)
    np.multiply(clip, 0.8 / peak, out=out, casting="same_kind")  # scaled and rounded in one pass
    return out
