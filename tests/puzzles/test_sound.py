"""Sound: the manual's option list parsed and compared with the code, the keypad rules, the
clips (deterministic per seed, distinct signatures a listener can tell apart), the audio
observation, and the clip as an ``input_audio`` part or in words."""

from __future__ import annotations

import base64
import io
import wave

import numpy as np
import pytest

import comma_env
from comma_env.audio.synth import SAMPLE_RATE, SAMPLES, SIGNATURES, synthesize
from comma_env.audio.wav import wav_bytes
from comma_env.protocol.prompts import AUDIO_DESCRIPTION_TITLE, AUDIO_MARK, audio_parts, solver_messages
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.sound import SYMBOL_ACTIONS, SoundPuzzle, code_actions, code_for
from tests.support.listener import decode_wav, identify


def _manual_rows() -> list[list[str]]:
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in read_manual("sound.md").splitlines()
            if line.startswith("| ") and "`" in line]
    return rows


def test_manual_option_list_matches_code() -> None:
    rows = _manual_rows()
    assert [(name, description, code.strip("`")) for name, description, code in rows] == [
        (s.name, s.description, s.code) for s in SIGNATURES]
    for symbol, action in SYMBOL_ACTIONS.items():
        assert f"`{symbol}` (`{action}`)" in " ".join(read_manual("sound.md").split())


def test_codes_are_distinct_four_symbol_codes() -> None:
    codes = [s.code for s in SIGNATURES]
    assert len(set(codes)) == len(codes) == 12
    assert all(len(c) == 4 and set(c) <= set("$*&#") for c in codes)
    assert len({s.name for s in SIGNATURES}) == len({s.description for s in SIGNATURES}) == 12


def _puzzle(name: str) -> SoundPuzzle:
    puzzle = SoundPuzzle(np.random.default_rng(0))
    puzzle.signature = next(s for s in SIGNATURES if s.name == name)
    return puzzle


def test_correct_code_disarms() -> None:
    puzzle = _puzzle("Police siren")
    for i, action in enumerate(code_actions("&#$*")):
        assert puzzle.apply(action) and puzzle.progress == (i + 1) / 4
    assert puzzle.solved and puzzle.visible_state()["code_entered"] == "&#$*"


def test_wrong_symbol_is_a_strike_and_clears_the_entry() -> None:
    puzzle = _puzzle("Cow")  # &*#$
    assert puzzle.apply("press_ampersand") and puzzle.apply("press_star")
    assert not puzzle.apply("press_dollar")
    assert puzzle.visible_state()["code_entered"] == "" and puzzle.progress == 0.5  # best prefix kept
    for action in code_actions("&*#$"):
        assert puzzle.apply(action)
    assert puzzle.solved


def test_expert_advice_by_description_or_name() -> None:
    for signature in SIGNATURES:
        assert code_for(signature.description) == code_for(signature.name.upper()) == signature.code
        assert SoundPuzzle.expert_advice({"sound_heard": signature.description,
                                          "code_entered": signature.code[:2]}, {}) == \
            code_actions(signature.code[2:])
    assert SoundPuzzle.expert_advice({"sound_heard": "a kazoo"}, {}) == []


def test_clips_deterministic_per_seed_and_in_range() -> None:
    env = comma_env.make("sound")
    clips = []
    for seed in (3, 3, 4):
        env.reset(seed=seed)
        observation = env.observe("solver")
        assert observation["audio"].dtype == np.float32 and observation["audio"].shape == (SAMPLES,)
        assert int(observation["sample_rate"]) == SAMPLE_RATE
        assert env.observation_space("solver").contains(observation)
        assert not observation["audio"].flags.writeable
        clips.append(observation["audio"])
    assert np.array_equal(clips[0], clips[1]) and not np.array_equal(clips[0], clips[2])


def test_signatures_are_told_apart_on_unseen_instances() -> None:
    """A nearest-centroid listener trained on seeds 0-9 names every clip of seeds 100-119,
    also after the WAV round trip a chat model receives."""
    for signature in SIGNATURES:
        for seed in range(100, 120):
            clip = synthesize(signature, np.random.default_rng(seed))
            assert identify(clip) == signature, (signature.name, seed)
            if seed < 103:
                assert identify(decode_wav(wav_bytes(clip, SAMPLE_RATE))) == signature


def test_every_signature_occurs_in_the_100_instances() -> None:
    names = {SoundPuzzle(np.random.default_rng(seed)).signature.name for seed in range(100)}
    assert names == {s.name for s in SIGNATURES}


def test_text_view_describes_the_clip_and_image_still_shows_the_module() -> None:
    env = comma_env.make("sound", solver_view="text", render_mode="rgb_array")
    env.reset(seed=5)
    described = env.unwrapped.describe()
    assert env.unwrapped.puzzle.signature.description in described
    assert "audio" in env.observe("solver") and "image" not in env.observe("solver")
    assert env.render().shape == (512, 512, 3)


def test_wav_round_trip() -> None:
    clip = synthesize(SIGNATURES[0], np.random.default_rng(1))
    with wave.open(io.BytesIO(wav_bytes(clip, SAMPLE_RATE))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate(), wav.getnframes()) == \
            (1, 2, SAMPLE_RATE, SAMPLES)
        decoded = np.frombuffer(wav.readframes(SAMPLES), dtype="<i2") / 32767
    assert np.max(np.abs(decoded - clip)) < 1e-4


@pytest.mark.parametrize("accepts_audio", [True, False])
def test_chat_parts_audio_or_words(accepts_audio: bool) -> None:
    env = comma_env.make("sound")
    env.reset(seed=6)
    observation, _, _, _, info = env.last()
    messages = solver_messages(info, None, audio=audio_parts(observation, info, accepts_audio))
    parts = messages[-1]["content"]
    audio = [p for p in parts if p["type"] == "input_audio"]
    texts = "\n".join(p.get("text", "") for p in parts)
    assert parts[-1]["text"].startswith("Write your next message")
    if accepts_audio:
        assert len(audio) == 1 and audio[0]["input_audio"]["format"] == "wav"
        raw = base64.b64decode(audio[0]["input_audio"]["data"])
        assert raw == wav_bytes(observation["audio"], SAMPLE_RATE)
        assert AUDIO_DESCRIPTION_TITLE not in texts
    else:
        assert not audio and env.unwrapped.puzzle.signature.description in texts
    # obs["text"] renders what a model without audio input is sent: the clip in words
    text = observation["text"]
    assert env.unwrapped.puzzle.signature.description in text and AUDIO_MARK not in text
    # puzzles without sound get nothing
    wire = comma_env.make("wire")
    wire.reset(seed=0)
    wire_obs, _, _, _, wire_info = wire.last()
    assert audio_parts(wire_obs, wire_info, accepts_audio) == []


def test_human_solver_gets_the_clip_as_a_wav_file(tmp_path, capsys) -> None:
    import asyncio

    from comma_env.agents.human import HumanPlayer

    env = comma_env.make("sound")
    env.reset(seed=8)
    observation, _, _, _, info = env.last()
    answers = iter(["press_hash", ""])
    player = HumanPlayer("solver", read_line=lambda prompt: next(answers), image_dir=str(tmp_path))
    reply = asyncio.run(player.act(observation, info))
    assert reply.text == "press_hash"
    wav = next(tmp_path.glob("comma_human_sound_*.wav"))
    assert wav.read_bytes() == wav_bytes(observation["audio"], SAMPLE_RATE)
    assert str(wav) in capsys.readouterr().out


def test_heartbeat_rate_is_what_the_manual_says() -> None:
    """"A little more than once a second": the beat period, measured from the clip's envelope
    by autocorrelation, lies under one second for every instance."""
    from comma_env.audio.synth import SAMPLE_RATE, SIGNATURES, synthesize

    heartbeat = next(s for s in SIGNATURES if s.name == "Heartbeat")
    assert "a little more than once a second" in heartbeat.description
    frame = SAMPLE_RATE // 100  # 10 ms
    for seed in range(20):
        clip = synthesize(heartbeat, np.random.default_rng(seed))
        envelope = np.abs(clip[: len(clip) // frame * frame]).reshape(-1, frame).mean(axis=1)
        envelope = envelope - envelope.mean()
        lags = range(50, 121)  # 0.5 .. 1.2 s
        scores = [float(np.dot(envelope[:-lag], envelope[lag:])) / (len(envelope) - lag) for lag in lags]
        period = lags[int(np.argmax(scores))] / 100
        assert 0.7 <= period < 0.95, (seed, period)
