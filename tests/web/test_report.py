"""The HTML report: tables, replayed images, filters' data, plots, and its failure modes."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.report import main as report_main
from comma_env.run.results import EpisodeWriter, read_episodes
from comma_env.run.rollout import plan, run, run_one, to_config
from comma_env.web.plots import write_plots
from comma_env.web.render import message_html
from comma_env.web.replay import replay_episode
from comma_env.web.report import write_report

PUZZLES = ["wire", "atm", "memory"]


def rollout(folder: Path, model: str, episodes: int = 6) -> Path:
    run({"model": {"kind": model, "name": model}, "puzzles": PUZZLES, "episodes": episodes,
         "out_dir": str(folder), "progress_bar": False}, quiet=True)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("runs")
    return rollout(base / "random", "random"), rollout(base / "oracle", "oracle")


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    stats = write_report(list(runs), out, workers=2, quiet=True)
    assert stats.episodes == 2 * len(PUZZLES) * 6 and stats.mismatches == 0
    return out


def test_comparison_table_has_a_row_per_run_and_a_column_per_puzzle(report):
    html = (report / "report.html").read_text()
    table = html.split('class="comparison psr"')[1].split("</table>")[0]
    assert "<th>Wire</th><th>Memory</th><th>ATM</th><th>Overall</th>" in table
    assert "<td>random</td>" in table and "<td>oracle</td>" in table and "Random (published, Table 1)" in table
    oracle_row = table.split("<td>oracle</td>")[1].split("</tr>")[0]
    cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td>(.*?)</td>", oracle_row)]  # text, as shown
    assert cells == ["100 ± 0.0"] * 3 + ["100.00 ± 0.0"]


def test_report_is_self_contained(report):
    for path in [report / "report.html", *report.glob("episodes/*/*.html"), *report.glob("assets/*")]:
        text = path.read_text()
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), path
        assert "@import" not in text and "url(" not in text


def test_index_data_links_every_episode_page_and_filters_have_their_values(report):
    html = (report / "report.html").read_text()
    data = json.loads(html.split('id="episodes-data" type="application/json">')[1].split("</script>")[0])
    assert data["runs"] == ["random", "oracle"] and len(data["episodes"]) == 36
    for entry in data["episodes"]:
        assert (report / entry["h"]).is_file()
        assert entry["o"] in ("success", "failure") and f'<option value="{entry["p"]}">' in html
        assert f'<option value="{entry["e"]}">' in html
    assert {e["o"] for e in data["episodes"] if e["r"] == 1} == {"success"}


def test_episode_pages_show_every_turn_with_an_image_that_exists(report, runs):
    records = read_episodes(runs[1] / "episodes.jsonl")
    record = next(r for r in records if r["puzzle"] == "memory")
    page = (report / f"episodes/oracle/memory-{record['seed']}.html").read_text()
    images = re.findall(r'<img class="view" src="\.\./\.\./images/([^"]+)" loading="lazy"', page)
    assert len(images) == len(record["transcript"]) + 1  # one per turn plus the final state
    for i, turn in enumerate(record["transcript"]):  # the image changes exactly after executed actions
        assert (images[i] != images[i + 1]) == bool(turn["actions"])
    for name in images:
        with Image.open(report / "images" / name) as image:
            assert image.size == (512, 512)
    assert page.count('class="bubble solver"') == len(record["transcript"]) + 1
    assert 'class="ok"' in page and "tokens" in page and "data:image" not in page


def test_equal_states_share_one_image_file(report):
    pages = list(report.glob("episodes/*/*.html"))
    refs = [n for p in pages for n in re.findall(r'src="\.\./\.\./images/([^"]+)"', p.read_text())]
    files = list((report / "images").glob("*.png"))
    assert set(refs) == {f.name for f in files}
    assert len(files) < len(refs)  # random and oracle see the same first image of each seed


def test_replay_reproduces_the_recorded_images_and_catches_a_forged_outcome(runs, tmp_path):
    import comma_env

    record = next(r for r in read_episodes(runs[0] / "episodes.jsonl") if r["puzzle"] == "atm")
    replayed = replay_episode(record, tmp_path)
    assert replayed.mismatch is None
    env = comma_env.make("atm")
    env.reset(seed=record["seed"])
    with Image.open(tmp_path / replayed.turn_images[0]) as first:
        assert (first.convert("RGB").tobytes() == Image.fromarray(env.unwrapped.image()).convert("RGB").tobytes())
    forged = json.loads(json.dumps(record))
    turn = next(t for t in forged["transcript"] if t["outcomes"])
    turn["outcomes"][0] = not turn["outcomes"][0]
    assert "outcomes" in replay_episode(forged, tmp_path).mismatch


class Leaker(Policy):
    """A solver that thinks aloud, leaks the PIN, then types a wrong action; a chatty expert."""

    name = "leaker"

    def player(self, role, env, seed):
        facts = env.unwrapped.private_facts
        puzzle = env.unwrapped.puzzle

        class Speaker(Player):
            needs_observation = False

            async def act(self, observation, info):
                if role == "expert":
                    return Reply("<think>the manual says log in</think>Please log in.", completion_tokens=7)
                wrong = next((a for a in puzzle.valid_actions() if not copy.deepcopy(puzzle).apply(a)),
                             puzzle.valid_actions()[0])
                return Reply(f"<think>secret plan & <b>tags</b></think>My PIN is {facts['pin']}\n{wrong}",
                             completion_tokens=11)

        return Speaker()


def test_leaks_mistakes_reasoning_and_tokens_are_shown(tmp_path):
    p = plan(to_config({"model": {"kind": "random", "name": "leaker"}, "puzzles": ["atm"], "episodes": 1,
                        "out_dir": str(tmp_path / "run"), "max_turns": 4}))
    import asyncio

    record = asyncio.run(run_one(p, {"solver": Leaker(), "expert": Leaker()}, "atm", 0))
    assert record["privacy_leaks"] == ["pin"]
    with EpisodeWriter(tmp_path / "run" / "episodes.jsonl") as writer:
        writer.write(record)
    write_report([tmp_path / "run"], tmp_path / "rep", workers=1, quiet=True)
    page = (tmp_path / "rep" / "episodes/run/atm-0.html").read_text()
    assert 'class="turn has-leak"' in page and "privacy leak: pin" in page and 'class="turn has-mistake"' in page
    assert '<details class="think"><summary>reasoning (' in page and "secret plan &amp; &lt;b&gt;tags&lt;/b&gt;" in page
    assert "11 tokens" in page and "7 tokens" in page
    assert '<span class="action mistake">' in page
    data = (tmp_path / "rep" / "report.html").read_text()
    assert '"l":["pin"]' in data and '<option value="yes">leaked</option>' in data


def test_message_html_escapes_and_handles_unterminated_reasoning():
    html = str(message_html("<script>x</script>\ncut_wire_1\n<think>still thinking", ["cut_wire_1"], [True]))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<span class="action ok">cut_wire_1</span>' in html and "still thinking</div></details>" in html
    big = "<think>" * 20000 + "a" * 100000
    assert len(str(message_html(big))) > 100000  # linear work, no catastrophic backtracking


def test_plots_are_written_as_png(report):
    names = sorted(p.stem for p in (report / "plots").glob("*.png"))
    assert names == ["error_taxonomy", "leak_vs_success", "psr_by_skill", "psr_vs_tokens", "success_vs_turn_limit"]
    for path in (report / "plots").glob("*.png"):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size[0] > 300
    html = (report / "report.html").read_text()
    assert html.count('<img src="plots/') == 5


def test_a_figure_with_nothing_to_show_is_left_out(tmp_path):
    """A run without a finished episode has no success curve and no PSR to place: those
    figures are not written (they were empty axes), the others are written or warned about."""
    nothing = {"overall": {"psr": None, "tokens": 0.0}, "puzzles": {"wire": {"sr": None}},
               "success_vs_turn_limit": {"turn_limit": [1, 2], "overall": [None, None]}}
    run_ = SimpleNamespace(label="down", slug="down", results=nothing)
    written = write_plots([run_], tmp_path, warn=lambda text: None)
    assert "success_vs_turn_limit" not in written and "psr_vs_tokens" not in written
    assert not (tmp_path / "success_vs_turn_limit.png").exists() and not (tmp_path / "psr_vs_tokens.png").exists()
    finished = {**nothing, "overall": {"psr": 40.0, "tokens": 10.0, "efficiency": 0.5},
                "success_vs_turn_limit": {"turn_limit": [1, 2], "overall": [0.0, 50.0]}}
    written = write_plots([SimpleNamespace(label="up", slug="up", results=finished)], tmp_path / "up",
                          warn=lambda text: None)
    assert {"success_vs_turn_limit", "psr_vs_tokens"} <= set(written)


def test_cli_reports_errors_in_one_line(tmp_path, capsys):
    assert report_main([str(tmp_path / "nothing")]) == 2
    assert "no episodes" in capsys.readouterr().err


def test_unknown_puzzle_and_error_records_still_render(tmp_path):
    folder = tmp_path / "odd"
    with EpisodeWriter(folder / "episodes.jsonl") as writer:
        writer.write({"puzzle": "wire", "seed": 1, "success": False, "progress": 0.0, "error": "solver: Boom: x",
                      "end_reason": "error", "transcript": [], "solver_model": "m", "expert_model": "m"})
        writer.write({"puzzle": "nosuch", "seed": 2, "success": False, "progress": 0.0, "transcript": [
            {"turn": 1, "solver": "hi", "actions": [], "outcomes": [], "expert": None, "leaks": [], "progress": 0}]})
    stats = write_report([folder], workers=1, quiet=True)
    assert stats.episodes == 2 and stats.mismatches == 1
    page = (folder / "report" / "episodes/odd/nosuch-2.html").read_text()
    assert "cannot rebuild the instance" in page
    assert "error: solver: Boom: x" in (folder / "report" / "episodes/odd/wire-1.html").read_text()


def test_rollout_with_report_true_writes_the_report(tmp_path):
    run({"model": {"kind": "random", "name": "random"}, "puzzles": ["wire"], "episodes": 3,
         "out_dir": str(tmp_path), "progress_bar": False, "report": True}, quiet=True)
    assert (tmp_path / "report" / "report.html").is_file()
    assert len(list((tmp_path / "report" / "episodes" / tmp_path.name).glob("wire-*.html"))) == 3


def test_clock_and_sound_puzzles_replay_exactly_and_the_clip_is_on_the_page(tmp_path):
    folders = []
    for model in ("oracle", "random"):
        run({"model": {"kind": model, "name": model}, "puzzles": ["button", "dog", "sound"], "episodes": 4,
             "out_dir": str(tmp_path / model), "progress_bar": False}, quiet=True)
        folders.append(tmp_path / model)
    stats = write_report(folders, tmp_path / "rep", workers=2, quiet=True)
    assert stats.episodes == 24 and stats.mismatches == 0
    waits = [t for r in read_episodes(tmp_path / "oracle" / "episodes.jsonl") for t in r["transcript"]
             if any(a.startswith("wait") for a in t["actions"])]
    assert waits  # the oracle waits on the simulated clock, and the replay followed it
    page = (tmp_path / "rep" / "episodes" / "oracle" / "sound-0.html").read_text()
    clip = re.search(r'<audio controls preload="none" src="\.\./\.\./images/([^"]+\.wav)">', page).group(1)
    assert (tmp_path / "rep" / "images" / clip).read_bytes()[:4] == b"RIFF"
