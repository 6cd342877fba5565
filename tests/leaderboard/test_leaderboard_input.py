"""Submissions are untrusted input: limits hold, no path leaves the submission or the site,
everything shown is escaped, and an unusable line is reported with its file and line without
stopping the other lines or the other submissions."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from comma_env.leaderboard.cli import build, main
from comma_env.leaderboard.submission import Limits, load_submission
from comma_env.run.results import read_episodes


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small random run: three puzzles, four seeds each."""
    from comma_env.run.rollout import run as rollout

    folder = tmp_path_factory.mktemp("runs") / "random"
    rollout({"model": {"kind": "random", "name": "random"}, "puzzles": ["wire", "atm", "telehealth"], "episodes": 4,
             "out_dir": str(folder), "progress_bar": False}, quiet=True)
    return folder


def copy_run(run: Path, folder: Path) -> Path:
    shutil.copytree(run, folder)
    return folder


def lines_of(folder: Path) -> list[str]:
    return (folder / "episodes.jsonl").read_text(encoding="utf-8").splitlines()


def write_lines(folder: Path, lines: list[str]) -> None:
    (folder / "episodes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def entries_of(site: Path) -> dict[str, dict]:
    return {e["name"]: e for e in json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))["entries"]}


def test_unusable_lines_are_reported_with_file_and_line_and_stop_nothing(run, tmp_path):
    clean = copy_run(run, tmp_path / "clean")
    broken = copy_run(run, tmp_path / "broken")
    lines = lines_of(broken)
    long_turn = json.loads(lines[0])
    long_turn["transcript"][0]["solver"] += "\n" + "x" * 150_000
    many_turns = json.loads(lines[1])
    many_turns["transcript"] = many_turns["transcript"] * 60
    lines[2:2] = ["{not json", json.dumps({"puzzle": "wire", "seed": "seven"}), "[1, 2]", "[" * 100_000,
                  json.dumps(long_turn), json.dumps(many_turns)]
    write_lines(broken, lines)
    board, _ = build([clean, broken], tmp_path / "site", workers=1, limits=Limits(line_bytes=100_000, turns=50))
    by_name = {e.name: e for e in board.entries}
    assert by_name["clean"].verified and by_name["clean"].status == "other settings"  # three puzzles only
    bad = by_name["broken"]
    assert not bad.verified and bad.mismatches == 0
    found = {str(p) for p in bad.submission.problems}
    assert any(p.startswith("episodes.jsonl:3: not valid JSON") for p in found), found
    assert "episodes.jsonl:4: seed has an unexpected value or type (str)" in found
    assert "episodes.jsonl:5: not a JSON object" in found
    assert any(p.startswith("episodes.jsonl:6: not valid JSON") for p in found)  # nested deeper than the parser goes
    assert any(p.startswith("episodes.jsonl:7: ") and "more than the limit" in p for p in found)
    assert "episodes.jsonl:8: a transcript of more than 50 turns" in found
    assert len(bad.records) == 12  # every usable line around the unusable ones is read
    entry = entries_of(tmp_path / "site")["broken"]
    assert entry["verified"] is False and len(entry["problems"]) == 6
    page = (tmp_path / "site" / "entries" / "broken.html").read_text(encoding="utf-8")
    assert "episodes.jsonl:8: a transcript of more than 50 turns" in page


def test_no_path_leaves_the_submission_or_the_site(run, tmp_path):
    outside = copy_run(run, tmp_path / "outside")
    linked = copy_run(run, tmp_path / "linked")
    (linked / "episodes.shard1of2.jsonl").symlink_to(outside / "episodes.jsonl")
    (linked / "config.yaml").unlink()
    (linked / "config.yaml").symlink_to(outside / "config.yaml")
    loaded = load_submission(linked)
    assert [str(p) for p in loaded.problems] == ["episodes.shard1of2.jsonl: a symbolic link or not a regular file: "
                                                 "not read"]
    assert any(p.file == "config.yaml" for p in loaded.warnings) and len(loaded.records) == 12
    (tmp_path / "alias").symlink_to(linked)
    assert load_submission(tmp_path / "alias").problems[0].reason.startswith("not a folder")

    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    site.mkdir()
    (site / "entries").symlink_to(elsewhere)  # planted: the site must replace it, never write through it
    (site / "leaderboard.json").symlink_to(elsewhere / "stolen.json")
    build([linked], site, workers=1)
    assert list(elsewhere.iterdir()) == []
    assert (site / "entries").is_dir() and not (site / "entries").is_symlink()
    assert not (site / "leaderboard.json").is_symlink()
    every = [p for p in site.rglob("*") if p.is_file()]
    assert all(site.resolve() in p.resolve().parents for p in every)
    (site / "transcripts" / "linked" / "stale.html").write_text("a withdrawn entry's page")
    (site / "compare" / "gone").mkdir(parents=True)
    (site / "compare" / "gone" / "link").symlink_to(elsewhere)  # removed with its folder, not followed
    (elsewhere / "keep.txt").write_text("outside the site")
    build([linked], site, workers=1)
    assert not (site / "transcripts" / "linked" / "stale.html").exists() and not (site / "compare" / "gone").exists()
    assert (elsewhere / "keep.txt").read_text() == "outside the site"

    (tmp_path / "site-link").symlink_to(elsewhere)
    assert main([str(linked), "--out", str(tmp_path / "site-link")]) == 2
    assert main([str(tmp_path / "no-such-run"), "--out", str(tmp_path / "site2")]) == 2
    assert not (tmp_path / "site2").exists()


def test_everything_a_submission_says_is_escaped(run, tmp_path):
    hostile = copy_run(run, tmp_path / "hostile")
    (hostile / "submission.json").write_text(json.dumps({
        "name": "<img src=x onerror=alert(1)> & co", "description": "</p><script>alert(2)</script>",
        "url": "javascript:alert(3)"}), encoding="utf-8")
    lines = lines_of(hostile)
    first = json.loads(lines[0])
    first["transcript"][0]["solver"] += "\n</pre><script>alert(4)</script>"  # not an action line: same replay
    first["solver_model"] = "<b>bold</b>"
    lines[0] = json.dumps(first)
    write_lines(hostile, lines)
    board, _ = build([hostile], tmp_path / "site", workers=1)
    [entry] = board.entries
    assert entry.name == "<img src=x onerror=alert(1)> & co" and not entry.submission.url
    assert [p.reason for p in entry.submission.warnings] == ["url must be an http(s) address"]
    assert entry.mismatches == 0  # the text is the record's; only its display is escaped
    pages = {p: p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html")}
    assert len(pages) >= 4
    for path, html in pages.items():
        assert "<script" not in html and "<img" not in html and "<b>bold" not in html, path
        assert "javascript:" not in html, path
        assert "default-src 'none'" in html, path  # no script, no outside resource, whatever slips through
    assert any("&lt;script&gt;alert(4)&lt;/script&gt;" in html for html in pages.values())
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; co" in pages[tmp_path / "site" / "index.html"]


def test_a_changed_turn_and_an_unknown_puzzle_are_differences(run, tmp_path):
    changed = copy_run(run, tmp_path / "changed")
    lines = lines_of(changed)
    turn = json.loads(lines[0])
    turn["transcript"][0]["outcomes"] = [not x for x in turn["transcript"][0]["outcomes"]]
    unknown = json.loads(lines[1])
    unknown["puzzle"] = "nosuch"
    lines[0], lines[1] = json.dumps(turn), json.dumps(unknown)
    write_lines(changed, lines)
    board, _ = build([changed], tmp_path / "site", workers=1)
    [entry] = board.entries
    reasons = {(c.puzzle, c.seed): c.differences for _, c in entry.differing}
    assert entry.mismatches == 2 and not entry.verified
    assert "outcomes" in reasons[("wire", 0)][0]
    assert reasons[("nosuch", 1)][0].startswith("cannot rebuild the instance")
    # what an episode the replay cannot follow earns: nothing
    assert next(r for r in entry.records if r["puzzle"] == "nosuch")["progress"] == 0.0


def test_size_limits_leave_the_rest_unread(run, tmp_path):
    folder = copy_run(run, tmp_path / "big")
    size = os.path.getsize(folder / "episodes.jsonl")
    too_big = load_submission(folder, Limits(file_bytes=size - 1))
    assert too_big.records == [] and "more than the limit" in str(too_big.problems[0])
    few = load_submission(folder, Limits(episodes=5))
    assert len(few.records) == 5
    assert str(few.problems[0]) == "episodes.jsonl:6: more than 5 records: the rest are not read"
    assert len(read_episodes(folder / "episodes.jsonl", repair=False)) == 12  # the submission was only read
