"""16-bit PCM WAV encoding of a float waveform (stdlib `wave`), for ``input_audio`` parts."""

from __future__ import annotations

import base64
import io
import wave

import numpy as np


def wav_bytes(waveform: np.ndarray, sample_rate: int) -> bytes:
    """Mono 16-bit WAV file bytes of a float waveform in [-1, 1]."""
    pcm = (np.clip(np.asarray(waveform, dtype=np.float32), -1.0, 1.0) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(int(sample_rate))
        out.writeframes(pcm.tobytes())
    return buffer.getvalue()


def wav_base64(waveform: np.ndarray, sample_rate: int) -> str:
    """The WAV file as base64 text, as OpenAI-style ``input_audio.data`` expects."""
    return base64.b64encode(wav_bytes(waveform, sample_rate)).decode("ascii")
