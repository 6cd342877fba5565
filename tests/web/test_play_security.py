"""The play server against the attacks of issue 22, over real HTTP on loopback.

Each test replays one finding: the expert rebuilding the solver's secrets (seed in the
view, the other seat's link), partner errors quoting secrets, chunked bodies past the
limit, creation floods, DNS rebinding (Host/Origin), plaintext tokens on disk, missing
security headers, and AsymPuzl answering 500.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator

import httpx

from comma_env.run.results import read_episodes
from tests.support.play_client import serve, state, wait_for
from tests.support.quoting_llm import QuotingLLM, atm_secrets

ADMIN = "admin-secret-for-tests-0123456789"


# -- finding 1: the expert's view carries no seed, and seeds are not handed out in order ----------
def test_no_view_carries_the_seed_and_seeds_are_random(tmp_path):
    server, store = serve(tmp_path, "puzzle=atm", "role=expert", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        made = [client.post("/api/sessions", json={}).json() for _ in range(3)]
        assert all(set(m) == {"url", "invite"} for m in made)  # no id, no seed
        sessions = list(store.sessions.values())
        seeds = sorted(s.seed for s in sessions)
        assert seeds != [0, 1, 2] and len(set(seeds)) == 3  # not 0, 1, 2... (a guessable order)
        assert all(len(s.id) == 24 for s in sessions)  # random ids (96 bits), not counters
        view = wait_for(client, made[0]["url"], lambda s: s["your_turn"])
        text = json.dumps(view)
        assert "seed" not in view and '"seed"' not in text
        assert all(str(s.seed) not in text for s in sessions if len(str(s.seed)) > 3)
        assert "seed" not in client.get("/api/config").text and "out_dir" not in client.get("/api/config").json()


# -- finding 2: the creator holds only their own seat; the other is a one-time invite --------------
def test_each_player_gets_only_their_own_seat(tmp_path):
    server, store = serve(tmp_path, "puzzle=atm", "role=expert", "partner=human")
    with server as url, httpx.Client(base_url=url, timeout=30) as expert_browser, \
            httpx.Client(base_url=url, timeout=30) as solver_browser:
        made = expert_browser.post("/api/sessions", json={}).json()
        expert = made["url"]
        expert_browser.get(expert)
        view = state(expert_browser, expert)
        assert "/play/" not in json.dumps(view).replace(expert, "")  # no other seat anywhere in the state
        assert expert_browser.post(f"/api{made['invite']}").status_code == 403  # not both seats from one browser
        assert expert_browser.get(f"/api{expert}/image").status_code == 403
        assert expert_browser.get(f"/api{expert}/audio").status_code == 403
        solver = solver_browser.post(f"/api{made['invite']}").json()
        assert solver["role"] == "solver"
        assert solver_browser.get(f"/api{solver['url']}/image").status_code == 200
        assert solver_browser.post(f"/api{made['invite']}").status_code == 404  # used up
        assert "/play/" not in json.dumps(state(solver_browser, solver["url"])).replace(solver["url"], "")
        # what held keeps holding: the solver's PIN key presses reach the expert masked
        typed = solver_browser.post(f"/api{solver['url']}/message", json={"text": "select_withdraw\npress_1\npress_8"})
        assert typed.status_code == 200
        relayed = state(expert_browser, expert)["dialogue"][-1]["text"]
        assert "press_*" in relayed and "press_1" not in relayed and "press_8" not in relayed


# -- finding 3: partner errors reach players as a generic line; the detail stays in the record ------
def test_a_partner_error_quoting_the_solvers_secrets_never_reaches_the_expert(tmp_path):
    with QuotingLLM() as api_base:
        server, store = serve(tmp_path, "puzzle=atm", "role=expert", "partner=openai_compat",
                              f"partner_config.api_base={api_base}", "partner_config.vision=false",
                              "partner_config.max_retries=0")
        with server as url, httpx.Client(base_url=url, timeout=60) as client:
            link = client.post("/api/sessions", json={}).json()["url"]
            view = wait_for(client, link, lambda s: s["done"], timeout=60)
            seed = next(iter(store.sessions.values())).seed
            text = json.dumps(view)
            assert view["error"] and "error on the server or the partner's side" in view["error"]
            assert not any(secret in text for secret in atm_secrets(seed))
    [record] = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert record["error"].startswith("solver:") and record["end_reason"] == "error"  # the detail is kept
    assert atm_secrets(seed)[0] in record["error"]  # (the server's record, not the player's page)


# -- finding 4: the body limit holds for chunked bodies -------------------------------------------
def test_a_chunked_body_past_the_limit_is_refused(tmp_path):
    server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle")

    def chunks(total: int) -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(total // 65536):
            yield b"x" * 65536
        yield b'"}'

    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        link = client.post("/api/sessions", json={}).json()["url"]
        try:
            refused = client.post(f"/api{link}/message", content=chunks(2 * 2**20),
                                  headers={"content-type": "application/json"})
            assert refused.status_code == 413
        except httpx.TransportError:
            pass  # the server answered 413 and closed before the client finished sending: also refused
        assert "transfer-encoding" not in client.build_request("POST", "/", content=b"x").headers
        small = client.post(f"/api{link}/message", content=chunks(0), headers={"content-type": "application/json"})
        assert small.status_code == 400  # a small chunked body is read (and this one is an empty message)
        assert state(client, link)["turn"] == 0


# -- finding 5: creation is limited per client and in total; idle sessions expire -----------------
def test_creation_limits_per_client_and_total_with_an_admin_override(tmp_path, monkeypatch):
    monkeypatch.setenv("COMMA_PLAY_ADMIN_TOKEN", ADMIN)
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle", "max_creations_per_client=3",
                          "max_sessions=5", "trusted_proxies=[127.0.0.1]")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert [client.post("/api/sessions", json={}).status_code for _ in range(4)] == [200, 200, 200, 429]
        other = {"X-Forwarded-For": "198.51.100.7"}  # another client behind the (trusted, loopback) proxy
        assert client.post("/api/sessions", json={}, headers=other).status_code == 200
        admin = {"Authorization": f"Bearer {ADMIN}"}
        assert client.post("/api/sessions", json={}, headers={"Authorization": "Bearer wrong"}).status_code == 429
        assert client.post("/api/sessions", json={},
                           headers=admin).status_code == 200  # the admin passes the client limit
        assert client.post("/api/sessions", json={}, headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 429
        assert client.post("/api/sessions", json={}, headers=admin).status_code == 429  # 5 unfinished: the total holds


def test_by_default_no_client_sets_its_own_address(tmp_path):
    """Without a named proxy, X-Forwarded-For is a header like any other: a local client
    cannot pass as many clients to escape the per-client limit (issue 58)."""
    server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle", "max_creations_per_client=2")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        codes = [client.post("/api/sessions", json={}, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                 for i in range(3)]
    assert codes == [200, 200, 429]


def test_idle_sessions_expire_as_abandoned_and_free_their_place(tmp_path):
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle", "max_sessions=2",
                          "idle_expire_seconds=1")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        links = [client.post("/api/sessions", json={}).json()["url"] for _ in range(2)]
        assert client.post("/api/sessions", json={}).status_code == 429
        view = wait_for(client, links[0], lambda s: s["done"], timeout=10)
        assert view["error"].startswith("the game was ended")
        assert client.post("/api/sessions", json={}).status_code == 200
        # the second game expires in the same sweep or the next one (a quarter of the idle
        # time later): wait for it before the server stops (reading it is not a move)
        wait_for(client, links[1], lambda s: s["done"], timeout=10)
    records = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert len(records) == 2 and all(r["end_reason"] == "abandoned" and r["error"].startswith("abandoned")
                                     for r in records)
    # a restart does not bring them back to life
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle", "max_sessions=2")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert state(client, links[0])["done"]
    assert len(read_episodes(tmp_path / "out" / "episodes.jsonl")) == 2  # each expired game is written once


# -- finding 6: Host and Origin are checked (DNS rebinding, cross-site requests) --------------------
def test_host_and_origin_must_be_on_the_allow_list(tmp_path):
    server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        rebound = {"Host": "attacker.example"}
        assert client.get("/api/config", headers=rebound).status_code == 421
        assert client.post("/api/sessions", json={}, headers=rebound).status_code == 421
        assert client.post("/api/sessions", json={}, headers={"Origin": "http://attacker.example"}).status_code == 403
        assert client.post("/api/sessions", json={}, headers={"Origin": "null"}).status_code == 403
        link = client.post("/api/sessions", json={}, headers={"Origin": url}).json()["url"]
        assert client.get(f"/api{link}/image", headers=rebound).status_code == 421
        assert client.get("/", headers={"Host": f"localhost:{url.rsplit(':', 1)[1]}"}).status_code == 200
    server, _ = serve(tmp_path, "puzzle=wire", "allowed_hosts=[play.example.org]")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert client.get("/api/config").status_code == 421  # 127.0.0.1 is no longer a name it answers to
        assert client.get("/api/config", headers={"Host": "play.example.org"}).status_code == 200
        assert client.post("/api/sessions", json={}, headers={"Host": "play.example.org",
                                                              "Origin": "https://play.example.org"}).status_code == 200


# -- finding 8: asympuzl, tokens on disk, security headers ---------------------------------------
def test_session_files_hold_hashes_only_with_owner_only_modes(tmp_path):
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=human")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/sessions", json={}).json()
        token, invite = made["url"].rsplit("/", 1)[1], made["invite"].rsplit("/", 1)[1]
    folder = tmp_path / "out" / "sessions"
    [path] = list(folder.glob("*.json"))
    text = path.read_text()
    assert token not in text and invite not in text
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and stat.S_IMODE(os.stat(folder).st_mode) == 0o700


def test_pages_send_security_headers_and_asympuzl_is_a_clear_400(tmp_path):
    server, _ = serve(tmp_path, "puzzle=wire", "role=solver", "partner=oracle")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        for path in ("/", "/static/play.js", "/api/config", "/play/not-a-token-at-all"):
            headers = client.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer", path
        refused = client.post("/api/sessions", json={"puzzle": "asympuzl"})
        assert refused.status_code == 400 and "cannot be played here" in refused.json()["detail"]
        assert client.post("/api/sessions", json={"puzzle": "nosuch"}).status_code == 400


def test_a_crash_between_the_record_and_the_session_file_writes_the_game_once(tmp_path):
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=human")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        link = client.post("/api/sessions", json={}).json()["url"]
        assert client.post(f"/api{link}/leave").json()["done"]
    [path] = list((tmp_path / "out" / "sessions").glob("*.json"))
    data = json.loads(path.read_text())
    data["saved"] = False  # as if the server died after appending the record, before marking the file
    path.write_text(json.dumps(data))
    server, store = serve(tmp_path, "puzzle=wire", "role=solver", "partner=human")
    with server as url, httpx.Client(base_url=url, timeout=30) as client:
        assert state(client, link)["done"]
    assert len(read_episodes(tmp_path / "out" / "episodes.jsonl")) == 1


def test_manuals_and_study_texts_are_markdown_with_raw_html_escaped():
    from comma_env.web.server import manual_html

    html = manual_html("# Title\n\n- **bold** item\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n")
    assert "<h1>Title</h1>" in html and "<li><strong>bold</strong> item</li>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html
