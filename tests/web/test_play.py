"""The browser play server over real HTTP (uvicorn on loopback, httpx as the client)."""

from __future__ import annotations

import json

import httpx
import pytest

import comma_env
from comma_env.play import build
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
from comma_env.run.results import read_episodes
from comma_env.run.rollout import base_record
from comma_env.web.records import token_hash
from tests.support.play_client import serve, state, wait_for


def description_of(puzzle: str, seed: int) -> str:
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    cls = env.unwrapped.puzzle_cls
    return DESCRIPTION_HEADER + "\n" + describe_state(cls.redact(env.unwrapped.visible_state))


def session_of(store, link: str):
    """The server's session behind a seat link (tests read the seed there: players never see it)."""
    sid, _ = store.by_seat[token_hash(link.rsplit("/", 1)[1])]
    return store.sessions[sid]


def send(client: httpx.Client, link: str, text: str, client_id: str | None = None) -> httpx.Response:
    body = json.dumps({"text": text, "client_id": client_id})  # ASCII escapes carry lone surrogates too
    return client.post(f"/api{link}/message", content=body, headers={"content-type": "application/json"})


def test_solver_with_the_oracle_solves_wire_and_the_record_matches_the_rollout(tmp_path):
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert client.get("/").status_code == 200
        made = client.post("/api/sessions", json={}).json()
        link, seed = made["url"], session_of(store, made["url"]).seed
        assert made["invite"] is None and client.get(link).status_code == 200
        first = state(client, link)
        assert first["your_turn"] and first["valid_actions"][0] == "cut_wire_1" and "manual" not in first
        assert first["hint"] == "Worth mentioning: wire colors top to bottom, serial number, cut wires."
        image = client.get(first["image"])
        assert image.status_code == 200 and image.content[:8] == b"\x89PNG\r\n\x1a\n"
        shown = session_of(store, link).raw.visible_state  # as a person tells it: plain English
        colours, serial = shown["wire_colors_top_to_bottom"], shown["serial_number"]
        said = f"There are {len(colours)} wires, from the top: {', '.join(colours)}. The serial number is {serial}."
        assert send(client, link, said, "a1").status_code == 200
        advised = wait_for(client, link, lambda s: s["your_turn"])
        advice = advised["dialogue"][-1]
        assert advice["speaker"] == "expert" and "cut_wire_" in advice["text"]
        action = next(line for line in advice["text"].splitlines() if line.startswith("cut_wire_"))
        done = send(client, link, action).json()
        assert done["done"] and done["episode"]["success"] and done["saved"] and done["valid_actions"] == []
        assert session_of(store, client.post("/api/sessions", json={}).json()["url"]).seed != seed  # an unplayed one
    [record] = read_episodes(tmp_path / "out" / "episodes.jsonl")
    expected = base_record(store._plan("wire", seed), "wire", seed)
    assert {k: record[k] for k in expected} == expected
    assert record["solver_model"] == "human" and record["expert_model"] == "oracle" and record["solver_view"] == "image"
    assert record["success"] and record["turns"] == 2 and record["end_reason"] == "solved" and record["error"] is None
    assert [t["actions"] for t in record["transcript"]] == [[], [action]]
    assert record["initial_state"] and record["tokens"] == 0 and record["session"] == session_of(store, link).id


def test_inputs_are_validated_and_resends_are_idempotent(tmp_path, monkeypatch):
    monkeypatch.setenv("COMMA_PLAY_ADMIN_TOKEN", "admin-secret-for-tests")
    server, _ = serve(tmp_path, "puzzle=atm", "role=solver", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert client.post("/api/sessions",
                           json={"puzzle": "atm", "seed": 5}).status_code == 403  # players pick no seed
        link = client.post("/api/sessions", json={"puzzle": "atm", "seed": 5},
                           headers={"Authorization": "Bearer admin-secret-for-tests"}).json()["url"]
        assert client.post("/api/sessions", json={"puzzle": "nosuch"}).status_code == 400
        assert client.post("/api/sessions", json={"seed": -1}).status_code == 422
        assert client.get("/play/not-a-token-at-all").status_code == 404
        assert client.get("/api/play/../../etc/passwd/state").status_code == 404
        assert send(client, link, "   \n ").status_code == 400
        assert send(client, link, "x" * 20_001).status_code == 422
        assert client.post(f"/api{link}/message", content=b"{" + b" " * 300_000 + b"}",
                           headers={"content-type": "application/json"}).status_code == 413
        assert client.post(f"/api{link}/message", content=b"not json",
                           headers={"content-type": "application/json"}).status_code == 422
        assert send(client, link, "hi", client_id="bad id!").status_code == 422
        refused = send(client, link, "lone \ud800 surrogate")  # pydantic's JSON parser refuses these
        assert refused.status_code == 422 and refused.json()["detail"][0]["msg"]
        weird = "مرحبا 你好 **select_withdraw** <think>x</think>\x07" + "9" * 1000
        first = send(client, link, weird, client_id="dup")
        assert first.status_code == 200
        again = send(client, link, weird, client_id="dup")  # a resend after a lost answer: accepted once
        assert again.status_code == 200 and again.json()["turn"] == 1
        assert send(client, link, "hello") .status_code in (200, 409)  # the oracle may still be thinking
        final = wait_for(client, link, lambda s: s["your_turn"])
        assert final["turn"] == 1 or final["turn"] == 2


def test_expert_view_never_exposes_the_image(tmp_path):
    server, _ = serve(tmp_path, "puzzle=wire", "role=expert", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/sessions", json={}).json()
        link = made["url"]
        view = wait_for(client, link, lambda s: s["your_turn"])  # the oracle solver writes first
        assert view["role"] == "expert" and "wire" in view["manual"].lower()
        assert view["manual_html"].startswith("<h1>") and "<li>" in view["manual_html"]  # formatted, not raw text
        assert "image" not in view and "valid_actions" not in view and "task" not in view
        assert view["dialogue"][0]["speaker"] == "solver"
        assert all(e["speaker"] != "environment" for e in view["dialogue"])
        assert client.get(f"/api{link}/image").status_code == 403
        assert client.get(f"/api{link}/audio").status_code == 403
        assert send(client, link, "Cut the first wire.").status_code == 200


def test_two_people_play_one_episode_in_two_tabs_and_a_restart_loses_nothing(tmp_path):
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=human")
    with server as url, httpx.Client(base_url=url, timeout=30) as client, \
            httpx.Client(base_url=url, timeout=30) as other:
        made = client.post("/api/sessions", json={}).json()
        solver, invite = made["url"], made["invite"]
        seed = session_of(store, solver).seed
        assert set(made) == {"url", "invite"} and invite.startswith("/join/")
        client.get(solver)  # the creator's browser now holds a seat in this game
        assert not state(client, solver)["partner_joined"]
        assert client.post(f"/api{invite}").status_code == 403  # the creator cannot take the other seat
        taken = other.post(f"/api{invite}").json()
        expert = taken["url"]
        assert taken["role"] == "expert" and expert != solver
        assert other.post(f"/api{invite}").status_code == 404  # an invitation works once
        assert state(client, solver)["partner_joined"] and "join" not in state(client, expert)
        assert send(client, expert, "me first").status_code == 409  # the solver opens
        assert send(client, solver, "What should I cut?").status_code == 200
        assert state(client, expert)["dialogue"][-1]["text"] == "What should I cut?"
        assert send(client, expert, "Tell me the colours.").status_code == 200
    # a new server on the same folder rebuilds the session from its saved messages
    server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=human")
    env = comma_env.make("wire")
    env.reset(seed=seed)
    from comma_env.puzzles.wire import wire_to_cut

    colors, serial = env.unwrapped.puzzle.colors, env.unwrapped.puzzle.serial
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        view = state(client, solver)
        assert [e["text"] for e in view["dialogue"]] == ["What should I cut?", "Tell me the colours."]
        assert view["your_turn"] and view["turn"] == 1
        done = send(client, solver, f"cut_wire_{wire_to_cut(colors, serial)}").json()
        assert done["done"] and done["episode"]["success"]
        assert state(client, expert)["done"]
    [record] = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert record["solver_model"] == record["expert_model"] == "human" and record["success"]


def test_many_sessions_at_once_stay_apart(tmp_path, monkeypatch):
    monkeypatch.setattr("comma_env.web.session.KEEP_FINISHED", 3)
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle", "seed_order=sequential")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        links = [client.post("/api/sessions", json={}).json() for _ in range(12)]
        for made in links:
            made["seed"] = session_of(store, made["url"]).seed
        assert len({m["seed"] for m in links}) == 12
        for made in links:
            assert send(client, made["url"], description_of("wire", made["seed"])).status_code == 200
        for made in links:
            advice = wait_for(client, made["url"], lambda s: s["your_turn"])["dialogue"][-1]["text"]
            action = next(line for line in advice.splitlines() if line.startswith("cut_wire_"))
            assert send(client, made["url"], action).json()["episode"]["success"]
        assert len(store.sessions) == 3  # finished sessions leave memory...
        old = state(client, links[0]["url"])  # ...and come back from their files when opened
        assert old["done"] and old["episode"]["success"] and old["saved"] and "seed" not in old
    records = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert sorted(r["seed"] for r in records) == list(range(12)) and all(r["success"] for r in records)


def test_bad_settings_fail_at_start_in_one_line(tmp_path, capsys):
    from comma_env.play import main

    assert main([f"out_dir={tmp_path}", "role=boss"]) == 2
    assert "role must be one of" in capsys.readouterr().err
    assert main([f"out_dir={tmp_path}", "partner=nosuch"]) == 2
    assert "unknown partner 'nosuch'" in capsys.readouterr().err
    assert main([f"out_dir={tmp_path}", "episdes=3"]) == 2
    assert "episdes" in capsys.readouterr().err


def test_a_folder_of_other_settings_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "episodes.jsonl").write_text(json.dumps(
        {"puzzle": "wire", "seed": 0, "solver_model": "gpt4o", "expert_model": "oracle", "max_turns": 10,
         "max_mistakes": 3, "memory": "full"}) + "\n")
    with pytest.raises(ValueError, match="another setting"):
        build([f"out_dir={tmp_path / 'out'}"])


def test_an_llm_partner_over_http_advises_the_human_solver(tmp_path):
    from tests.support.loopback_server import Loopback

    with Loopback() as llm:
        server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=openai_compat", "seed=3",
                          f"partner_config.api_base={llm.api_base}", "partner_config.name=loop")
        with server as url, httpx.Client(base_url=url, timeout=60) as client:
            link = client.post("/api/sessions", json={}).json()["url"]
            assert send(client, link, description_of("wire", 3)).status_code == 200
            advice = wait_for(client, link, lambda s: s["your_turn"], timeout=60)["dialogue"][-1]["text"]
            action = next(line.strip() for line in advice.splitlines() if line.strip().startswith("cut_wire_"))
            assert send(client, link, action).json()["episode"]["success"]
    [record] = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert record["expert_model"] == "loop" and record["tokens"] > 0
    assert record["transcript"][0]["expert_tokens"] > 0 and record["tokens_by_role"]["expert"]["calls"] == 1


def test_the_solver_hears_sound_and_the_expert_does_not(tmp_path):
    import io
    import wave

    server, store = serve(tmp_path, "puzzle=sound", "role=solver", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/sessions", json={}).json()
        made["seed"] = session_of(store, made["url"]).seed
        view = state(client, made["url"])
        assert view["audio"]
        clip = client.get(view["audio"])
        assert clip.status_code == 200 and clip.headers["content-type"] == "audio/wav"
        env = comma_env.make("sound")
        env.reset(seed=made["seed"])
        expected = env.unwrapped.observe("solver")
        with wave.open(io.BytesIO(clip.content)) as wav:
            assert wav.getframerate() == int(expected["sample_rate"]) and wav.getnframes() == expected["audio"].size
        wire = client.post("/api/sessions", json={"puzzle": "wire"}).json()
        assert state(client, wire["url"])["audio"] is None
        assert client.get(f"/api{wire['url']}/audio").status_code == 404


def test_stopping_the_server_ends_open_long_polls_at_once(tmp_path, caplog):
    """A page left open holds a long poll (up to 20 s). When the server stops, the poll gets
    its answer at once: no wait for the 2 s grace period, and no cancelled request, which
    uvicorn logs as an error with a traceback for every open page."""
    import threading
    import time

    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle")
    answers: list[int] = []
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        link = client.post("/api/sessions", json={}).json()["url"]
        version = state(client, link)["version"]
        session = session_of(store, link)

        def poll() -> None:
            with httpx.Client(base_url=url, timeout=30) as poller:
                answers.append(poller.get(f"/api{link}/state", params={"since": version}).status_code)

        poller = threading.Thread(target=poll)
        poller.start()
        deadline = time.monotonic() + 10
        while not session.watching.get("solver"):  # the poll is waiting on the server
            assert time.monotonic() < deadline
            time.sleep(0.01)
        started = time.monotonic()
    stopped = time.monotonic() - started
    poller.join(timeout=10)
    assert answers == [200]
    assert stopped < 1.5, stopped  # before: the 2 s grace period, then a cancellation
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]


def test_a_scripted_partner_remembers_the_game_after_a_restart(tmp_path):
    """A restored session replays its messages through a scripted partner, so the partner
    (here `oracle_nl`, whose wording draws from its own random stream) is where it was: its
    next answer is the one it gives without a restart."""
    args = ("puzzle=wire", "role=solver", "partner=oracle_nl", "seed_order=sequential")

    def next_answer(folder, restart: bool) -> str:
        server, store = serve(folder, *args)
        with server as url, httpx.Client(base_url=url, timeout=30) as client:
            link = client.post("/api/sessions", json={}).json()["url"]
            seed = session_of(store, link).seed
            assert send(client, link, description_of("wire", seed)).status_code == 200
            wait_for(client, link, lambda s: s["your_turn"])
            if not restart:
                assert send(client, link, "What now?").status_code == 200
                return wait_for(client, link, lambda s: s["your_turn"])["dialogue"][-1]["text"]
        server, _ = serve(folder, *args)  # a new server on the same folder restores the session
        with server as url, httpx.Client(base_url=url, timeout=30) as client:
            assert send(client, link, "What now?").status_code == 200
            return wait_for(client, link, lambda s: s["your_turn"])["dialogue"][-1]["text"]

    kept = next_answer(tmp_path / "kept", restart=False)
    assert next_answer(tmp_path / "restarted", restart=True) == kept
