"""Collection mode over real HTTP: consent, lobby, random pairing on the schedule, records,
abandoned games, the admin page, and a restart that neither loses nor repeats a game."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from comma_env.play import build_study, main
from comma_env.run.results import build_results, read_episodes
from comma_env.web.server import BackgroundServer

ADMIN = "study-admin-token-for-tests-42"


def start(out: Path, *args: str) -> tuple[BackgroundServer, object]:
    cfg, store, app, lobby = build_study([str(out), *args])
    return BackgroundServer(app), lobby


def join(client: httpx.Client, **extra) -> dict:
    response = client.post("/api/lobby/join", json={"consent": True, **extra})
    response.raise_for_status()
    return response.json()


def until_paired(client: httpx.Client, token: str, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    status = client.get(f"/api/lobby/{token}").json()
    while status["status"] != "paired":
        assert time.monotonic() < deadline, status
        status = client.get(f"/api/lobby/{token}", params={"since": status["version"]}).json()
    return status


def play_out(client: httpx.Client, seats: dict[str, str]) -> dict:
    """Both seats talk until the turn limit ends the game."""
    while True:
        view = client.get(f"/api{seats['solver']}/state").json()
        if view["done"]:
            return view
        role = view["to_move"]
        answer = client.post(f"/api{seats[role]}/message", json={"text": f"hello from the {role}"})
        assert answer.status_code == 200, answer.text


def test_four_participants_two_games_records_abandon_admin_and_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("COMMA_PLAY_ADMIN_TOKEN", ADMIN)
    out = tmp_path / "study"
    args = ("puzzles=[wire,atm]", "games_per_puzzle=2", "max_turns=2", "pair_same_address_after_seconds=0")
    server, lobby = start(out, *args)
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert "study" in client.get("/").text.lower()
        texts = client.get("/api/study/text").json()
        assert "<h1>" in texts["instructions_html"] and "Consent" in texts["consent_html"]
        assert client.post("/api/lobby/join", json={"consent": False}).status_code == 400
        people = [join(client) for _ in range(4)]
        assert len({p["participant"] for p in people}) == 4
        seats = [until_paired(client, p["token"]) for p in people]
        assert sorted(s["role"] for s in seats) == ["expert", "expert", "solver", "solver"]
        games: dict[str, dict[str, str]] = {}
        for seat in seats:
            view = client.get(f"/api{seat['url']}/state").json()
            assert view["role"] == seat["role"] and view["study"]
            assert "/play/" not in json.dumps(view).replace(seat["url"], "")
            games.setdefault(view["puzzle"], {})[seat["role"]] = seat["url"]
        assert sorted(games) == ["atm", "wire"]  # the schedule interleaves puzzles
        finished = play_out(client, games["wire"])
        assert finished["done"] and finished["saved"]
        # the atm pair: the expert leaves mid-game
        client.post(f"/api{games['atm']['solver']}/message", json={"text": "hi"})
        left = client.post(f"/api{games['atm']['expert']}/leave").json()
        assert left["done"] and left["error"].startswith("the game was ended")
        assert client.get("/api/admin/progress").status_code == 403
        progress = client.get("/api/admin/progress", headers={"Authorization": f"Bearer {ADMIN}"}).json()
        assert progress["puzzles"]["wire"] == {"target": 2, "finished": 1, "solved": 0, "abandoned": 0, "failed": 0,
                                               "in_play": 0}
        assert progress["puzzles"]["atm"]["abandoned"] == 1 and progress["puzzles"]["atm"]["finished"] == 0
        # the wire pair comes back to the lobby and gets the next slot: the abandoned atm game again
        again = [join(client, token=p["token"]) for p, s in zip(people, seats, strict=True)
                 if s["url"] in games["wire"].values()]
        assert {a["participant"] for a in again} <= {p["participant"] for p in people}
        second = [until_paired(client, a["token"]) for a in again]
        view = client.get(f"/api{second[0]['url']}/state").json()
        assert view["puzzle"] == "atm" and not view["done"]
        client.post(f"/api{next(s['url'] for s in second if s['role'] == 'solver')}/message", json={"text": "hi"})
        before = client.get(f"/api{second[0]['url']}/state").json()
    records = read_episodes(out / "episodes.jsonl")
    assert len(records) == 2
    done, abandoned = records
    assert done["solver_model"] == done["expert_model"] == "human" and not done["error"]
    assert set(done["participants"]) == {"solver", "expert"} and done["participants"]["solver"].startswith("p")
    assert abandoned["end_reason"] == "abandoned" and abandoned["error"] == "abandoned: the expert left"
    summary = build_results(records)
    assert summary["overall"]["n"] == 1 and summary["overall"]["errors"] == 1  # counted apart from the rates
    from comma_env.web.report import write_report

    write_report([out], tmp_path / "report", workers=1, quiet=True)  # the report reads a study folder as it is
    page = (tmp_path / "report" / "report.html").read_text()
    assert "COMMA report: human" in page and '"e":"abandoned"' in page
    from comma_env.run.merge import merge

    merged = merge([out], quiet=True)  # so does merge: the same tables, the abandoned game an error
    assert merged["overall"]["n"] == 1 and merged["overall"]["errors"] == 1
    # a restart: same schedule, the game in play comes back, nothing is written twice
    seeds = json.loads((out / "study.json").read_text())["seeds"]
    server, lobby = start(out, *args)
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        view = client.get(f"/api{second[0]['url']}/state").json()
        assert view["puzzle"] == "atm" and (view["turn"], view["dialogue"]) == (before["turn"], before["dialogue"])
        assert len(view["dialogue"]) == 1 and view["to_move"] == "expert"
        progress = client.get("/api/admin/progress", headers={"Authorization": f"Bearer {ADMIN}"}).json()
        assert progress["puzzles"]["atm"]["in_play"] == 1 and progress["puzzles"]["wire"]["finished"] == 1
        # a participant whose lobby place was lost in the restart rejoins under the same anonymous id,
        # and the lobby still knows which instances they have seen
        pid = done["participants"]["solver"]
        rejoined = join(client, participant=pid)
        assert rejoined["participant"] == pid
        from comma_env.web.study import Slot

        assert Slot("wire", done["seed"]) in lobby.find(rejoined["token"]).seen
    assert json.loads((out / "study.json").read_text())["seeds"] == seeds
    assert len(read_episodes(out / "episodes.jsonl")) == 2
    assert oct((out / "study.json").stat().st_mode & 0o777) == "0o600"


def test_study_settings_are_checked(tmp_path, capsys):
    out = tmp_path / "s"
    with pytest.raises(ValueError, match="puzzles must list"):
        build_study([str(out), "puzzles=[asympuzl]"])
    build_study([str(out), "puzzles=[wire]", "games_per_puzzle=3", "seeds=[0,1,2]"])
    with pytest.raises(ValueError, match="use those settings to resume"):
        build_study([str(out), "puzzles=[wire,atm]", "games_per_puzzle=3"])
    assert main(["collect", str(out), "games_per_puzzle=oops"]) == 2
    assert "games_per_puzzle" in capsys.readouterr().err


def test_people_from_one_address_are_paired_with_others_first(tmp_path):
    server, lobby = start(tmp_path / "s", "puzzles=[wire]", "games_per_puzzle=4", "pair_same_address_after_seconds=600")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(5):  # random draws: never two of one address while others wait
            people = []
            for address in ("198.51.100.1", "198.51.100.1", "203.0.113.9", "203.0.113.9"):
                people.append((address, client.post("/api/lobby/join", json={"consent": True},
                                                    headers={"X-Forwarded-For": address}).json()))
            for _, person in people:
                seat = until_paired(client, person["token"])
                state = client.get(f"/api{seat['url']}/state").json()
                client.post(f"/api{seat['url']}/leave")  # free the slot for the next round
                assert state["puzzle"] == "wire"
            games = {}
            for session in lobby.store.sessions.values():
                if session.participants:
                    games[session.id] = {p.address for p in lobby.by_token.values()
                                         if p.id in session.participants.values()}
            assert games and all(len(addresses) == 2 for addresses in games.values())
            for session in list(lobby.store.sessions.values()):
                lobby.store.sessions.pop(session.id)


def test_a_player_whose_page_stops_polling_has_left(tmp_path):
    server, lobby = start(tmp_path / "s", "puzzles=[wire]", "games_per_puzzle=2", "leave_after_seconds=1",
                          "pair_same_address_after_seconds=0")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        a, b = join(client), join(client)
        seats = {s["role"]: s["url"] for s in (until_paired(client, a["token"]), until_paired(client, b["token"]))}
        deadline = time.monotonic() + 10
        while True:  # only the solver's page keeps polling
            view = client.get(f"/api{seats['solver']}/state", params={"since": -1}).json()
            if view["done"]:
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
    [record] = read_episodes(tmp_path / "s" / "episodes.jsonl")
    assert record["end_reason"] == "abandoned" and record["error"] == "abandoned: the expert left"


def test_a_player_waiting_in_a_long_poll_is_present(tmp_path):
    import threading

    server, lobby = start(tmp_path / "s", "puzzles=[wire]", "games_per_puzzle=2", "leave_after_seconds=1",
                          "pair_same_address_after_seconds=0")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        a, b = join(client), join(client)
        seats = {s["role"]: s["url"] for s in (until_paired(client, a["token"]), until_paired(client, b["token"]))}
        version = client.get(f"/api{seats['expert']}/state").json()["version"]
        answered: list[dict] = []
        waiting = threading.Thread(target=lambda: answered.append(
            client.get(f"/api{seats['expert']}/state", params={"since": version}).json()))
        waiting.start()  # the expert's page waits for news (up to 20 s), longer than leave_after_seconds
        for _ in range(15):  # the solver's page polls now and then, for 3 s
            assert not client.get(f"/api{seats['solver']}/state").json()["done"]
            time.sleep(0.2)
        assert client.post(f"/api{seats['solver']}/message", json={"text": "still here?"}).status_code == 200
        waiting.join(10)
        assert answered and answered[0]["dialogue"][-1]["text"] == "still here?" and not answered[0]["done"]


def test_stopping_the_server_ends_a_waiting_participants_lobby_poll_at_once(tmp_path):
    """The lobby's long poll, like a game's, returns when the server stops, instead of being
    cancelled after the grace period (tests/web/test_play.py has the game's)."""
    import threading

    server, lobby = start(tmp_path / "study", "puzzles=[wire]", "games_per_puzzle=1")
    answers: list[int] = []
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        joined = join(client)  # alone: nobody to pair with, so the poll waits
        assert joined["status"] == "waiting", joined

        def poll() -> None:
            with httpx.Client(base_url=url, timeout=30) as poller:
                answers.append(poller.get(f"/api/lobby/{joined['token']}",
                                          params={"since": joined["version"]}).status_code)

        poller = threading.Thread(target=poll)
        poller.start()
        time.sleep(0.5)  # the request reaches the server and waits (nothing changes the lobby)
        assert not answers
        started = time.monotonic()
    stopped = time.monotonic() - started
    poller.join(timeout=10)
    assert answers == [200]
    assert stopped < 1.5, stopped


def test_newcomers_wait_while_the_last_slots_are_in_play_and_get_an_abandoned_one(tmp_path):
    """The study is complete only when its games are recorded; slots merely in play keep
    newcomers waiting, and a game abandoned mid-way goes to them."""
    server, lobby = start(tmp_path / "study", "puzzles=[wire]", "games_per_puzzle=1", "max_turns=2",
                          "pair_same_address_after_seconds=0")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        first = [join(client) for _ in range(2)]
        seats = {s["role"]: s["url"] for s in (until_paired(client, p["token"]) for p in first)}
        late = [join(client) for _ in range(2)]
        for person in late:
            status = client.get(f"/api/lobby/{person['token']}").json()
            assert status["status"] == "busy", status  # not "full": the one slot is only in play
        client.post(f"/api{seats['solver']}/message", json={"text": "hi"})
        assert client.post(f"/api{seats['expert']}/leave").json()["done"]
        paired = [until_paired(client, p["token"]) for p in late]
        assert sorted(p["role"] for p in paired) == ["expert", "solver"]
        view = client.get(f"/api{paired[0]['url']}/state").json()
        assert view["puzzle"] == "wire" and not view["done"]
        new_seats = {p["role"]: p["url"] for p in paired}
        assert play_out(client, new_seats)["saved"]
        after = join(client)
        assert after["status"] == "full"  # now every game is recorded


def test_a_torn_last_line_never_swallows_the_next_record(tmp_path):
    """A crash or a full disk leaves half a line at the end of episodes.jsonl: the server cuts
    it on start, and a tear that appears while it runs is cut before the next append, so every
    game reported as saved can be read back."""
    out = tmp_path / "study"
    out.mkdir()
    torn = '{"puzzle": "wire", "seed": 3, "succ'
    (out / "episodes.jsonl").write_text(torn)
    server, _ = start(out, "puzzles=[wire]", "games_per_puzzle=2", "max_turns=2", "pair_same_address_after_seconds=0")
    assert (out / "episodes.jsonl").read_text() == ""  # repaired on start
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        for game in range(2):
            people = [join(client) for _ in range(2)]
            seats = {s["role"]: s["url"] for s in (until_paired(client, p["token"]) for p in people)}
            with (out / "episodes.jsonl").open("a") as handle:
                handle.write(torn)  # torn again while the server runs
            assert play_out(client, seats)["saved"]
            records = read_episodes(out / "episodes.jsonl", repair=False)
            assert len(records) == game + 1 and all(r.get("session") for r in records)


def test_one_person_in_two_browsers_is_never_paired_with_themselves(tmp_path):
    server, _ = start(tmp_path / "study", "puzzles=[wire]", "games_per_puzzle=2", "pair_same_address_after_seconds=0")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        first = join(client)
        second = join(client, participant=first["participant"])  # the same anonymous id, another tab
        assert second["participant"] == first["participant"]
        assert client.get(f"/api/lobby/{second['token']}").json()["status"] == "waiting"
        stranger = join(client)
        assert until_paired(client, stranger["token"])["status"] == "paired"
