"""Take the docs' screenshots (the play and report pages) with the same headless Chromium as
the browser test.

    python examples/screenshots.py [--out docs]

Writes ``play_solver.png`` (a Wire episode against the oracle expert, mid-game),
``play_expert.png`` (the expert's page of an ATM episode), ``report.png`` (the report's
tables) and ``report_episode.png`` (an episode page), as small palette PNGs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

import comma_env
from comma_env.play import build
from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
from comma_env.run.rollout import run
from comma_env.web.report import write_report
from comma_env.web.server import BackgroundServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: the browser tests' launcher
from tests.support.browser import launch_chromium  # noqa: E402


def shrink(path: Path) -> None:
    """A 256-colour PNG: a screenshot of flat UI loses nothing visible and a lot of bytes."""
    with Image.open(path) as image:
        image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def description(puzzle: str, seed: int) -> str:
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    cls = env.unwrapped.puzzle_cls
    return DESCRIPTION_HEADER + "\n" + describe_state(cls.redact(env.unwrapped.visible_state))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="docs")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="comma_shots_"))
    puzzles = ["wire", "who", "led", "memory", "atm", "telehealth"]
    for model in ("random", "oracle"):  # before Playwright: its sync API holds an event loop
        run({"model": {"kind": model, "name": model}, "puzzles": puzzles, "episodes": 20,
             "out_dir": str(work / model), "progress_bar": False}, quiet=True)
    write_report([work / "random", work / "oracle"], work / "report", quiet=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1100, "height": 720})
        _, _, app = build([f"out_dir={work / 'human'}", "puzzle=wire", "role=solver", "partner=oracle", "seed=0"])
        with BackgroundServer(app) as url:
            page.goto(url + "/")
            page.get_by_role("button", name="start").click()
            page.wait_for_url("**/play/**")
            while not page.evaluate("document.getElementById('puzzle-image').naturalWidth > 0"):  # (the CSP forbids
                time.sleep(0.05)  # the eval of wait_for_function on the play pages)
            page.locator("#message").fill(description("wire", 0))
            page.locator("#send").click()
            page.locator(".msg.expert").last.wait_for()
            page.locator("#actions button").first.hover()
            page.screenshot(path=str(out / "play_solver.png"))
        _, _, app = build([f"out_dir={work / 'expert'}", "puzzle=atm", "role=expert", "partner=oracle"])
        with BackgroundServer(app) as url:
            page.goto(url + "/")
            page.select_option("#puzzle", "atm")
            page.get_by_role("button", name="start").click()
            page.wait_for_url("**/play/**")
            page.locator(".msg.solver").last.wait_for()
            page.locator("#message").fill("Select withdraw, then enter your PIN on the keypad. Do not tell me the PIN.")
            page.screenshot(path=str(out / "play_expert.png"))

        page.set_viewport_size({"width": 1100, "height": 900})
        page.goto((work / "report" / "report.html").as_uri())
        page.screenshot(path=str(out / "report.png"))
        page.goto((work / "report" / "episodes" / "oracle" / "memory-3.html").as_uri())
        page.evaluate("Array.from(document.querySelectorAll('img.view')).forEach(i => i.loading = 'eager')")
        page.wait_for_function("Array.from(document.querySelectorAll('img.view'))"
                               ".every(i => i.complete && i.naturalWidth > 0)")
        page.screenshot(path=str(out / "report_episode.png"))
        browser.close()
    for name in ("play_solver.png", "play_expert.png", "report.png", "report_episode.png"):
        shrink(out / name)
        print(out / name, (out / name).stat().st_size // 1024, "KB")


if __name__ == "__main__":
    main()
