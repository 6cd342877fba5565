"""The report as a reader sees it in a 1280-px browser window (Debian's Chromium): ten
puzzles' tables fit, the two meanings of "turns" have two names, and a report written
without episode pages says so where the reader looks, with the command that serves them."""

from __future__ import annotations

from pathlib import Path

import pytest

from comma_env.registry import COMMA_PUZZLES
from comma_env.run.rollout import run
from comma_env.web.report import write_report


@pytest.fixture(scope="module")
def ten_puzzle_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("runs") / "ten"
    model = {"kind": "random", "name": "qwen2-vl-7b-instruct"}  # a label as long as a real model's
    run({"model": model, "puzzles": list(COMMA_PUZZLES), "episodes": 2, "out_dir": str(folder),
         "progress_bar": False}, quiet=True)
    return folder


def open_report(browser, report: Path):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(report.as_uri())
    return page


def test_ten_puzzles_fit_a_1280_px_window(ten_puzzle_run, browser, tmp_path):
    assert len(COMMA_PUZZLES) == 10
    stats = write_report([ten_puzzle_run], tmp_path / "rep", quiet=True)
    page = open_report(browser, stats.path)
    try:
        overflow = page.evaluate("""() => Array.from(document.querySelectorAll('table')).map(t => {
            const last = t.querySelector('thead th:last-child').getBoundingClientRect();
            return [t.querySelector('thead th:last-child').textContent, last.right <= window.innerWidth];
        })""")
        assert overflow and all(fits for _, fits in overflow), overflow  # the Overall column is on screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        headers = page.evaluate("""() => Array.from(document.querySelectorAll('table'))
            .map(t => Array.from(t.querySelectorAll('thead th')).map(h => h.textContent))""")
    finally:
        page.close()
    run_header, episode_header = headers[2], headers[-1]
    run_turns = [h for h in run_header if "turns" in h]
    episode_turns = [h for h in episode_header if "turns" in h]
    assert len(run_turns) == len(episode_turns) == 1 and run_turns != episode_turns
    assert "played" in episode_turns[0]


def test_a_report_without_episode_pages_says_so_above_the_index(ten_puzzle_run, browser, tmp_path):
    stats = write_report([ten_puzzle_run], tmp_path / "rep", pages="none", quiet=True)
    page = open_report(browser, stats.path)
    try:
        note = page.locator("#served-note")
        assert note.is_visible() and "--serve" in note.inner_text()
        before_table = page.evaluate("""() => !!(document.getElementById('served-note')
            .compareDocumentPosition(document.getElementById('episode-table')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
        assert before_table
        assert "--serve" in page.locator("header").inner_text()
    finally:
        page.close()
