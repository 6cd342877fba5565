"""The leaderboard end to end: a random run, an oracle run (the paper's protocol: the ten
puzzles, seeds 0-99), a tampered copy of the random run and the oracle's episodes of three
puzzles go through ``python -m comma_env.leaderboard``; the tampered copy is not verified, the
three puzzles stand apart (other settings), the others are ranked, and the site is read in a
real browser (Debian's Chromium through Playwright) from the disk."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from comma_env.leaderboard.cli import main
from comma_env.registry import COMMA_PUZZLES

TAMPERED = "random, <script>tampered</script>"


def rollout(folder: Path, kind: str) -> None:
    from comma_env.run.rollout import run

    run({"model": {"kind": kind, "name": kind}, "episodes": 100, "out_dir": str(folder), "progress_bar": False},
        quiet=True)


def tamper(source: Path, folder: Path) -> None:
    """A copy of `source` claiming a success it did not earn and missing an expert reply."""
    shutil.copytree(source, folder)
    lines = (folder / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    failed = next(i for i, r in enumerate(records) if r["puzzle"] == "wire" and not r["success"])
    records[failed].update(success=True, progress=1.0)
    longer = next(i for i, r in enumerate(records) if r["puzzle"] == "led" and len(r["transcript"]) >= 3)
    records[longer]["transcript"][0]["expert"] = None
    (folder / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (folder / "submission.json").write_text(json.dumps({"name": TAMPERED}), encoding="utf-8")


def three_puzzles(source: Path, folder: Path) -> None:
    """A copy of `source` holding only its Wire, Who and LED episodes."""
    shutil.copytree(source, folder)
    lines = (folder / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if json.loads(line)["puzzle"] in ("wire", "who", "led")]
    (folder / "episodes.jsonl").write_text("".join(line + "\n" for line in kept), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("leaderboard")
    rollout(root / "random", "random")
    rollout(root / "oracle", "oracle")
    tamper(root / "random", root / "tampered")
    three_puzzles(root / "oracle", root / "three")
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main([str(root / name) for name in ("random", "oracle", "tampered", "three")]
                    + ["--out", str(root / "site"), "--workers", "2"])
    assert code == 0
    return root, printed.getvalue()


def test_the_tampered_copy_is_not_verified_and_the_others_are_ranked(site):
    root, printed = site
    assert f"{TAMPERED}: NOT verified, 1000 episodes, 2 differ" in printed
    assert "oracle: verified (rank 1), 1000 episodes, 0 differ" in printed
    assert "three: verified (other settings), 300 episodes, 0 differ" in printed
    data = json.loads((root / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    entries = {e["name"]: e for e in data["entries"]}
    assert list(entries) == ["oracle", "random", "three", TAMPERED]  # ranked, other settings, not verified
    three = entries["three"]
    assert (three["verified"], three["rank"], three["status"]) == (True, None, "other settings")
    assert three["departures"] == ["puzzles: missing keypad, memory, password, maze, color, atm, telehealth"]
    assert (entries["oracle"]["verified"], entries["oracle"]["mismatches"], entries["oracle"]["rank"]) == (True, 0, 1)
    assert (entries["random"]["verified"], entries["random"]["rank"]) == (True, 2)
    bad = entries[TAMPERED]
    assert (bad["verified"], bad["mismatches"], bad["rank"], bad["status"]) == (False, 2, None, "not verified")
    said = {d["puzzle"]: d["differences"] for d in bad["differences"]}
    assert said["wire"] == ["success: True recorded, False replayed", "progress: 1.0 recorded, 0.0 replayed"]
    assert said["led"] == ["turn 1: the expert's reply is missing"]
    # a verified entry's scores are its own run's (the rollout's results.json), recomputed by the replay
    own = json.loads((root / "random" / "results.json").read_text(encoding="utf-8"))
    assert set(entries["random"]["puzzles"]) == set(COMMA_PUZZLES)
    for puzzle, scores in entries["random"]["puzzles"].items():
        for key in ("n", "sr", "sr_se", "psr", "psr_se", "mistakes", "turns"):
            assert scores[key] == pytest.approx(own["puzzles"][puzzle][key]), (puzzle, key)
    assert entries["oracle"]["overall"]["sr"] == 100.0
    [pair] = [c for c in data["comparisons"] if {c["a"], c["b"]} == {"oracle", "random"}]
    overall = next(r for r in pair["rows"] if r["puzzle"] == "overall" and r["metric"] == "psr")
    assert pair["shared"] == 1000 and overall["better"] == ("a" if pair["a"] == "oracle" else "b")
    assert len(data["published"]) == len([r for r in data["published"] if r["metric"] == "psr"]) * 2


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [value for name, value in attrs if name in ("href", "src") and value]


def test_every_link_is_relative_and_lands_on_a_page_of_the_site(site):
    root, _ = site
    pages = list((root / "site").rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.links:
            assert "://" not in link and not link.startswith("/"), (page, link)
            assert (page.parent / link).resolve().is_file(), (page, link)


def test_the_site_reads_in_a_browser_from_the_disk(site, browser):
    root, _ = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto((root / "site" / "index.html").as_uri())

    psr = page.locator("table.main").first
    entry_rows = psr.locator("tr.entry")
    assert entry_rows.count() == 2
    assert re.match(r"1\s+oracle", entry_rows.nth(0).inner_text())
    assert re.match(r"2\s+random", entry_rows.nth(1).inner_text())
    assert psr.locator("tr.published").count() == 11 and psr.locator("tr.human").count() == 1
    assert "Human + GPT-4o" in psr.locator("tr.human").inner_text()
    assert "Realistic scripted pair" in psr.locator("tr.reference").inner_text()
    grey = psr.locator("tr.published td").nth(2).evaluate("cell => getComputedStyle(cell).color")
    black = entry_rows.nth(0).locator("td").nth(2).evaluate("cell => getComputedStyle(cell).color")
    assert grey == "rgb(119, 119, 119)" and grey != black  # the paper's rows are greyed
    bars = entry_rows.nth(1).locator(".bar .ci")
    assert bars.count() == 11 and bars.first.evaluate("bar => bar.getBoundingClientRect().width") > 0
    assert page.evaluate("document.scripts.length") == 0

    others = page.locator("h2", has_text="Other settings").locator("xpath=following-sibling::table[1]")
    assert re.search(r"three\s.*puzzles: missing keypad", others.inner_text())

    page.get_by_role("link", name=TAMPERED).click()  # the name is shown as text, never run
    assert page.url.endswith("/entries/random_script_tampered_script.html")
    text = page.locator("main").inner_text()
    assert "not verified" in text and "success: True recorded, False replayed" in text
    assert "turn 1: the expert's reply is missing" in text
    page.locator("a", has_text="Wire seed").first.click()
    assert "Turn 1" in page.locator("main").inner_text()

    page.goto((root / "site" / "index.html").as_uri())
    page.locator("tr", has_text="1. oracle").locator("td.better a").click()
    assert "oracle beats random on Overall" in page.locator("main").inner_text()
    assert not problems, problems
