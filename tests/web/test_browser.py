"""A real browser (Debian's Chromium through Playwright) plays Wire and reads a report.

If the browser cannot start, these tests fail with the reason; they never skip.
"""

from __future__ import annotations

import re

from comma_env.play import build
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
from comma_env.run.results import read_episodes
from comma_env.web.report import write_report
from comma_env.web.server import BackgroundServer


def describe_wire(seed: int) -> str:
    import comma_env

    env = comma_env.make("wire")
    env.reset(seed=seed)
    return DESCRIPTION_HEADER + "\n" + describe_state(env.unwrapped.visible_state)


def poll(page, expression: str, timeout: float = 20.0) -> None:
    """Wait until `expression` is true (page.wait_for_function evaluates strings with eval,
    which the play pages' Content-Security-Policy forbids; page.evaluate is not affected)."""
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, expression
        time.sleep(0.05)


def images_loaded(page) -> list[int]:
    """naturalWidth of every chat image after scrolling each into view (they load lazily)."""
    return page.evaluate("""async () => {
        const images = Array.from(document.querySelectorAll('img.view'));
        for (const img of images) {
            img.scrollIntoView();
            if (!img.complete) { await new Promise(r => { img.onload = r; img.onerror = r; }); }
        }
        return images.map(img => img.naturalWidth);
    }""")


def test_play_wire_to_success_in_the_browser_then_read_the_report(browser, tmp_path):
    out = tmp_path / "human"
    _, store, app = build([f"out_dir={out}", "puzzle=wire", "role=solver", "partner=oracle"])
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with BackgroundServer(app) as url:
        page.goto(url + "/")
        page.get_by_role("button", name="start").click()
        page.wait_for_url(re.compile(r".*/play/[A-Za-z0-9_-]+$"))
        poll(page, "document.getElementById('puzzle-image').naturalWidth > 0")
        assert page.evaluate("document.getElementById('puzzle-image').naturalWidth") == 512
        assert "your turn" in page.locator("#status").inner_text()
        assert "seed" not in page.locator("#heading").inner_text()  # the page never shows the instance
        [session] = store.sessions.values()
        seed = session.seed
        assert page.locator("#actions button").count() >= 3 and page.locator("#manual").inner_text() == ""

        page.locator("#message").fill(describe_wire(seed))
        page.locator("#send").click()
        expert = page.locator(".msg.expert .text").last
        expert.wait_for()
        advice = expert.inner_text()
        action = next(line.strip() for line in advice.splitlines() if line.strip().startswith("cut_wire_"))

        page.reload()  # a reload loses nothing: the dialogue comes back from the server
        page.locator(".msg.expert").last.wait_for()
        assert page.locator(".msg.solver").count() == 1
        page.locator(f'#actions button[data-action="{action}"]').click()
        assert page.locator("#message").input_value() == action
        page.locator("#send").click()
        page.locator(".result.success").wait_for()
        assert "Solved" in page.locator("#result").inner_text() and "Saved" in page.locator("#result").inner_text()
    assert not errors, errors

    [record] = read_episodes(out / "episodes.jsonl")
    assert record["puzzle"] == "wire" and record["seed"] == seed and record["success"]
    assert record["solver_model"] == "human" and record["expert_model"] == "oracle"
    assert record["transcript"][-1]["actions"] == [action]

    write_report([out], tmp_path / "report", workers=1, quiet=True)
    page.goto((tmp_path / "report" / "report.html").as_uri())
    assert "human / oracle" in page.locator("table.comparison.psr").inner_text()
    page.locator("#episode-table tbody tr").first.wait_for()
    page.select_option("#filters select[name=outcome]", "failure")
    assert page.locator("#episode-table tbody tr").count() == 0
    page.select_option("#filters select[name=outcome]", "success")
    page.locator("#episode-table tbody a").first.click()
    page.wait_for_url(re.compile(r".*/episodes/human/wire-\d+\.html$"))
    widths = images_loaded(page)
    assert len(widths) == 3 and all(w == 512 for w in widths)  # two turns and the final state
    assert page.locator(".bubble.expert").count() == 1  # the solve ends the episode before a reply
    assert not errors, errors
    page.close()
