"""Every ```python block of the README and of every docs page runs as written: page by page,
in page order, the blocks of one page sharing one namespace (as a reader pasting them into
one interpreter would). Commands that need a GPU, a server or an API key are ```bash blocks,
output is ```text: only Python is executed.

A page may need what its prose supplies (a reader's own policy): `PRELUDE` gives it, and
`SHRINK` makes a long loop short. Both are listed here, per page, so the exceptions are
visible."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.docs_blocks import ROOT, documentation_pages, python_blocks

PRELUDE: dict[str, str] = {
    # the group rollout calls the reader's `policy(observation, info)`
    "docs/training-environments.md": (
        "def policy(observation, info):  # cut the wires in order\n"
        "    return f\"cut_wire_{info['turn'] + 1}\" if 'turn' in info else 'cut_wire_1'\n"
    ),
    # the TRL recipe and the two learners run with their folders on the path
    "docs/training-trainers.md": (
        "import sys\n"
        f"sys.path[:0] = [{str(ROOT / 'examples' / 'recipes')!r}, {str(ROOT / 'examples')!r}]\n"
    ),
}
SHRINK: dict[str, list[tuple[str, str]]] = {
    # 24 episodes, not 800
    "docs/training-environments.md": [("seeds=range(100), group_size=8", "seeds=range(3), group_size=8")],
}

PAGES = [p for p in documentation_pages() if python_blocks(p)]


@pytest.fixture
def leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What a page's blocks add to the process is gone after its test: the folders they put
    on `sys.path`, the modules they import from the repository's examples, the puzzles they
    register (adding-a-puzzle.md registers its example, `lamps`). The tests that run after
    this one in the same process, in whatever order (xdist's workers run files in another
    order than one process does), see the suite as it was."""
    from pettingzoo.env_registry.registration import aec_registry

    from comma_env import registry

    monkeypatch.setattr(sys, "path", list(sys.path))
    modules, puzzles, ids = set(sys.modules), set(registry.SPECS), set(aec_registry)
    yield
    for name in set(registry.SPECS) - puzzles:
        registry.unregister_puzzle(name)
    for env_id in set(aec_registry) - ids:  # ids registered by other means than a puzzle
        aec_registry.pop(env_id, None)
    examples = str(ROOT / "examples")
    for name in set(sys.modules) - modules:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(examples):
            sys.modules.pop(name, None)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_python_block_of_the_page_runs(page: Path, tmp_path, monkeypatch, leaves_nothing_behind):
    name = page.relative_to(ROOT).as_posix()
    monkeypatch.chdir(tmp_path)  # a block that writes files writes them here
    for variable in ("OPENAI_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)  # no block may depend on a key
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    if name in PRELUDE:
        exec(compile(PRELUDE[name], f"{name} (prelude)", "exec"), namespace)
    for line, source in python_blocks(page):
        for old, new in SHRINK.get(name, []):
            source = source.replace(old, new)
        code = compile("\n" * line + source, str(page), "exec")  # tracebacks point at the page's lines
        exec(code, namespace)
    for value in list(namespace.values()):  # environments the page left open
        close = getattr(value, "close", None)
        if callable(close) and type(value).__module__.startswith(("comma_env", "gymnasium", "pettingzoo")):
            close()


def test_the_shrunk_text_is_still_on_its_page():
    """A `SHRINK` that no longer matches would silently run the long loop (or nothing)."""
    for name, pairs in SHRINK.items():
        text = (ROOT / name).read_text(encoding="utf-8")
        for old, _ in pairs:
            assert old in text, f"{name}: {old!r} is gone; update SHRINK"
