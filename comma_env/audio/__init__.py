"""Audio for the Sound puzzle: deterministic numpy synthesis of sound signatures
(`synth`) and WAV encoding for chat models that accept audio (`wav`)."""

from comma_env.audio.synth import SIGNATURES, Signature, synthesize
from comma_env.audio.wav import wav_base64, wav_bytes

__all__ = ["SIGNATURES", "Signature", "synthesize", "wav_base64", "wav_bytes"]
