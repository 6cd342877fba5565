"""A study in a real browser: four participants (four Chromium contexts, so four separate
browsers as far as the server knows) agree to the consent text, wait in the lobby, are
paired into two games and finish them; the records land in episodes.jsonl.

If the browser cannot start, this test fails with the reason; it never skips.
"""

from __future__ import annotations

import re
import time

from comma_env.play import build, build_study
from comma_env.run.results import read_episodes
from comma_env.web.server import BackgroundServer


def test_four_participants_are_paired_into_two_games_and_finish_them(browser, tmp_path, monkeypatch):
    monkeypatch.setenv("COMMA_PLAY_ADMIN_TOKEN", "browser-admin-token-for-tests")
    out = tmp_path / "study"
    # all four browsers share the loopback address: let one address pair at once
    _, store, app, _ = build_study([str(out), "puzzles=[wire,atm]", "games_per_puzzle=2", "max_turns=2",
                                    "pair_same_address_after_seconds=0"])
    contexts = [browser.new_context(viewport={"width": 1100, "height": 800}) for _ in range(4)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    with BackgroundServer(app) as url:
        for page in pages:
            page.goto(url + "/")
            page.locator("#consent h2").wait_for()
            assert "Consent" in page.locator("#consent").inner_text()
            page.get_by_role("button", name="join the study").click()
            assert "tick the box" in page.locator("#error").inner_text()  # consent first
            page.locator("#agreed").check()
            page.get_by_role("button", name="join the study").click()
        for page in pages:
            page.wait_for_url(re.compile(r".*/play/[A-Za-z0-9_-]+$"), timeout=20_000)
            page.locator("#heading").wait_for()
        page_roles = {}
        for page in pages:  # (no wait_for_function: the pages' CSP forbids the eval it relies on)
            page.locator("#heading", has_text="you are the").wait_for()
            page_roles[page] = page.locator("#heading").inner_text().rsplit(" ", 1)[1]
        assert sorted(page_roles.values()) == ["expert", "expert", "solver", "solver"]
        for page, role in page_roles.items():
            if role == "expert":  # the manual is formatted Markdown, not raw text
                assert page.locator("#manual h1").count() == 1 and page.locator("#manual li").count() > 0
                assert "seed" not in page.locator("#heading").inner_text()
        deadline = time.monotonic() + 60
        while not all(page.locator("#result").is_visible() for page in pages):
            assert time.monotonic() < deadline, [p.locator("#status").inner_text() for p in pages]
            for page in pages:
                if page.evaluate("document.body.dataset.yourTurn") == "1" and page.locator("#send").is_enabled():
                    page.locator("#message").fill(f"a message from the {page_roles[page]}")
                    page.locator("#send").click()
                    page.locator("body[data-your-turn='0']").wait_for(state="attached")
            time.sleep(0.1)
        for page in pages:
            assert "Saved" in page.locator("#result").inner_text()
        back = pages[0]  # after a game, "back to the lobby" queues the same participant again at once
        back.get_by_role("link", name="back to the lobby").click()
        back.locator("#lobby", has_text="Waiting for a partner").wait_for()
        assert back.locator("#agree").is_hidden()
        back.get_by_role("button", name="stop waiting").click()
        back.locator("#agree").wait_for()  # and can stop waiting
        admin = contexts[1].new_page()  # the admin page: progress per puzzle, behind the token
        admin.goto(url + "/admin")
        admin.locator("#token").fill("wrong")
        admin.get_by_role("button", name="show").click()
        admin.locator("#error", has_text="wrong").wait_for()
        admin.locator("#token").fill("browser-admin-token-for-tests")
        admin.get_by_role("button", name="show").click()
        admin.locator("#table tbody tr").nth(1).wait_for()
        rows = admin.locator("#table tbody tr").all_inner_texts()
        assert [r.split("\t")[:3] for r in rows] == [["wire", "2", "1"], ["atm", "2", "1"]]
    assert not errors, errors
    records = read_episodes(out / "episodes.jsonl")
    assert sorted(r["puzzle"] for r in records) == ["atm", "wire"]
    assert all(r["solver_model"] == r["expert_model"] == "human" and r["error"] is None for r in records)
    ids = [pid for r in records for pid in r["participants"].values()]
    assert len(set(ids)) == 4
    for context in contexts:
        context.close()


def test_an_invitation_gives_the_second_person_the_other_seat(browser, tmp_path):
    _, store, app = build([f"out_dir={tmp_path / 'out'}", "puzzle=wire", "role=solver", "partner=human"])
    first, second = browser.new_context(), browser.new_context()
    starter, invited = first.new_page(), second.new_page()
    with BackgroundServer(app) as url:
        starter.goto(url + "/")
        starter.locator("#about", has_text="invitation").wait_for()
        starter.get_by_role("button", name="start").click()
        starter.wait_for_url(re.compile(r".*/play/[A-Za-z0-9_-]+$"))  # the fragment is dropped from the address
        link = starter.locator("#join a.join-link")
        link.wait_for()
        starter.locator("#status", has_text="waiting for your partner").wait_for()
        invitation = link.get_attribute("href")
        assert invitation.startswith("/join/")
        starter.goto(url + invitation)  # the starter's own browser cannot take the second seat
        starter.get_by_role("button", name="take the seat").click()
        starter.locator("#error", has_text="already play").wait_for()
        invited.goto(url + invitation)
        invited.get_by_role("button", name="take the seat").click()
        invited.wait_for_url(re.compile(r".*/play/[A-Za-z0-9_-]+$"))
        invited.locator("#heading", has_text="you are the expert").wait_for()
        assert invited.locator("#manual h1").count() == 1
        starter.go_back()
        starter.locator("#status", has_text="your turn").wait_for()
        assert starter.locator("#join").is_hidden()  # the invitation is spent
    first.close()
    second.close()
