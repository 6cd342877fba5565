"""COMMA v1's puzzles through the real rollout CLI: the scripted oracle pair, and chat models
over the loopback OpenAI-compatible server, once with the Sound clip as an ``input_audio``
part (WAV) and once described in words for a model without audio."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import comma_env
from comma_env.audio.synth import SIGNATURES
from comma_env.audio.wav import wav_bytes
from tests.run.test_llm_rollout import rollout
from tests.support.loopback_server import Loopback

V1 = "puzzles=[button,dog,sound]"


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]


def test_oracle_rollout_solves_button_dog_sound(tmp_path: Path) -> None:
    out = tmp_path / "oracle"
    done = rollout("model=oracle", V1, "episodes=20", f"out_dir={out}")
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    assert len(records) == 60 and all(r["success"] and r["mistakes"] == 0 and r["error"] is None for r in records)
    assert {r["audio_input"] for r in records if r["puzzle"] == "sound"} == {"description"}
    assert {r["audio_input"] for r in records if r["puzzle"] != "sound"} == {None}
    results = json.loads((out / "results.json").read_text())
    assert set(results["puzzles"]) == {"button", "dog", "sound"} and results["overall"]["sr"] == 100.0


def test_random_rollout_under_v1_protocol(tmp_path: Path) -> None:
    out = tmp_path / "random"
    done = rollout("protocol=v1", V1, "episodes=30", f"out_dir={out}")
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    assert {(r["max_turns"], r["max_mistakes"]) for r in records} == {(20, 21)}
    assert all(r["success"] for r in records if r["puzzle"] in ("button", "dog"))
    assert any(r["end_reason"] != "mistakes" and r["mistakes"] >= 3 for r in records)  # no three-mistake limit
    # the comparison row is the first paper's random baseline, not the final paper's
    table = (out / "results.md").read_text()
    assert "| Random (first paper, protocol=v1) | 100 | 100 | - | - |" in table
    assert "Random (paper)" not in table
    assert "first paper PSR/SR" in done.stdout + done.stderr


@pytest.mark.parametrize("audio", [True, False])
def test_llm_rollout_over_loopback_with_audio_or_words(tmp_path: Path, audio: bool) -> None:
    out = tmp_path / f"audio-{audio}"
    with Loopback() as server:
        done = rollout("model=openai_compat", f"model.api_base={server.api_base}", "model.name=loopback",
                       "model.vision=false", f"model.audio={str(audio).lower()}", V1, "episodes=3", f"out_dir={out}")
        requests = server.requests()
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    assert len(records) == 9 and all(r["error"] is None for r in records)
    assert all(r["success"] for r in records), [(r["puzzle"], r["seed"], r["end_reason"]) for r in records
                                                if not r["success"]]
    used = "audio" if audio else "description"
    assert {r["audio_input"] for r in records if r["puzzle"] == "sound"} == {used}
    assert json.loads((out / "results.json").read_text())["models"]["audio_input"] == [used]
    assert f"Sound clips reached the solver as: {used}." in (out / "results.md").read_text()
    solver = [r for r in requests if r["role"] == "solver"]
    sound_requests = [r for r in solver if any("four-symbol code" in m["text"] for m in r["messages"])]
    other_requests = [r for r in solver if r not in sound_requests]
    assert sound_requests and other_requests and not any(r["audios"] for r in other_requests)
    if audio:
        env = comma_env.make("sound")
        expected = set()
        for seed in range(3):
            env.reset(seed=seed)
            clip = env.observe("solver")["audio"]
            expected.add(hashlib.sha256(wav_bytes(clip, 16000)).hexdigest()[:16])
        sent = {a["sha"] for r in sound_requests for a in r["audios"]}
        assert all(len(r["audios"]) == 1 and r["audios"][0]["wav"] and r["audios"][0]["format"] == "wav"
                   for r in sound_requests)
        assert sent == expected  # exactly the clips of seeds 0-2, byte for byte
    else:
        assert not any(r["audios"] for r in sound_requests)
        assert all(any("What the sound clip sounds like" in m["text"] for m in r["messages"]) for r in sound_requests)


def test_audio_sent_to_a_text_only_server_is_a_recorded_error(tmp_path: Path) -> None:
    """A model wrongly marked `audio=true`: its Sound episodes end with an error record (and
    are replayed on resume), the other puzzles play on."""
    out = tmp_path / "text-only"
    with Loopback("--text-only") as server:
        done = rollout("model=openai_compat", f"model.api_base={server.api_base}", "model.name=loopback",
                       "model.vision=false", "model.audio=true", "model.max_retries=0", V1, "episodes=2",
                       f"out_dir={out}")
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    assert len(records) == 6
    for record in records:
        if record["puzzle"] == "sound":
            assert record["error"] and "audio" in record["error"] and not record["success"]
        else:
            assert record["error"] is None and record["success"]
    assert json.loads((out / "results.json").read_text())["puzzles"]["sound"]["errors"] == 2


def test_audio_model_over_loopback_solves_sound_from_the_clip_alone(tmp_path: Path) -> None:
    """Image view, `model.audio=true`: the solver's requests hold the picture and the WAV and
    no words about the sound; the loopback server's scripted solver decodes the WAV, names
    the sound, and the pair solves every instance."""
    out = tmp_path / "listening"
    with Loopback() as server:
        done = rollout("model=openai_compat", f"model.api_base={server.api_base}", "model.name=loopback",
                       "model.audio=true", "puzzles=[sound]", "episodes=6", f"out_dir={out}")
        requests = server.requests()
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    assert len(records) == 6 and all(r["success"] and r["error"] is None for r in records)
    assert {r["solver_view"] for r in records} == {"image"} and {r["audio_input"] for r in records} == {"audio"}
    solver = [r for r in requests if r["role"] == "solver"]
    assert solver and all(r["images"] and len(r["audios"]) == 1 and r["audios"][0]["wav"] for r in solver)
    first_turns = [r for r in solver if not any(m["role"] == "assistant" for m in r["messages"])]
    words = [s.description for s in SIGNATURES]
    assert len(first_turns) == 6 and not any(w in m["text"] for r in first_turns for m in r["messages"] for w in words)
