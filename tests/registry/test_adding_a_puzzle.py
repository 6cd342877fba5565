"""docs/adding-a-puzzle.md tells the truth: a puzzle made of rules, a spec, a drawing, a
manual and an entry module (examples/new_puzzle/, copied here into a temporary folder) is
registered from its spec, and registering it is all it takes for the generic checks of
tests/registry/ to collect it and pass; a rules module with a ``SPEC`` in comma_env/puzzles/
is discovered; the page's code runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

import comma_env.puzzles
from comma_env import registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "new_puzzle"
MODULES = ("lamps", "lamps_drawing", "lamps_v0")


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Whatever a test registers is forgotten afterwards (other tests see the suite as it was)."""
    yield
    registry.unregister_puzzle("lamps")
    for name in MODULES:
        sys.modules.pop(name, None)


@pytest.fixture
def lamps_in_a_temporary_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_registry: None) -> str:
    for name in (*MODULES, "lamps.md"):
        source = EXAMPLE / (name if name.endswith(".md") else f"{name}.py")
        shutil.copy(source, tmp_path / source.name)
    monkeypatch.syspath_prepend(str(tmp_path))
    import lamps

    assert Path(lamps.__file__).parent == tmp_path
    registry.register_puzzle(lamps.SPEC)
    registry.register_puzzle(lamps.SPEC)  # again: a no-op
    return "lamps"


PLUGIN = """# Registers Lamps before the tests are collected (a pytest plugin: pytest -p lamps_plugin).
import lamps

from comma_env.registry import register_puzzle

register_puzzle(lamps.SPEC)
"""

NEEDS_MORE_THAN_LAMPS = {
    # Lamps has no phrasebook for the natural-language oracle
    "test_natural_oracle.py::test_natural_oracle_solves_every_paper_instance_without_naming_actions",
    "test_natural_oracle.py::test_expert_never_names_an_action_on_more_seeds_and_policy_seeds",
    "test_natural_oracle.py::test_phrasebook_is_linear_on_100kb_lines",
    "test_specs.py::test_phrasebook_is_named_by_the_spec",
    # nor instances that published numbers were measured on
    "test_instances.py::test_seeds_give_the_same_instances_as_before",
}
"""The generic checks of tests/registry/ that need what a puzzle may leave out of its spec."""


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on tests/registry/ (but this file) in a fresh process, Lamps registered by a plugin."""
    (folder / "lamps_plugin.py").write_text(PLUGIN)
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "pytest", "-p", "lamps_plugin", "-n", "0", "-q", "-p", "no:cacheprovider",
               "tests/registry", "--ignore", "tests/registry/test_adding_a_puzzle.py", *args]
    return subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600)


def _checks(test_ids: list[str], puzzle: str) -> set[str]:
    """file::function of the ids among `test_ids` that run on `puzzle`."""
    found = set()
    for test_id in test_ids:
        path, _, rest = test_id.partition("::")
        function, _, params = rest.partition("[")
        if puzzle in params.rstrip("]").split("-"):
            found.add(f"{Path(path).name}::{function}")
    return found


def test_registering_a_puzzle_is_what_gets_it_the_generic_checks(tmp_path: Path) -> None:
    """Lamps, registered by a plugin before collection, is collected by every generic check
    that collects Wire (less those needing what Lamps' spec leaves out), and passes them all."""
    for name in (*MODULES, "lamps.md"):
        source = EXAMPLE / (name if name.endswith(".md") else f"{name}.py")
        shutil.copy(source, tmp_path / source.name)
    collected = _pytest(tmp_path, "--collect-only")
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    test_ids = [line for line in collected.stdout.splitlines() if line.startswith("tests/")]
    lamps, wire = _checks(test_ids, "lamps"), _checks(test_ids, "wire")
    assert NEEDS_MORE_THAN_LAMPS <= wire and lamps == wire - NEEDS_MORE_THAN_LAMPS
    report = tmp_path / "report.xml"
    ran = _pytest(tmp_path, "-k", "lamps", f"--junitxml={report}")
    assert ran.returncode == 0, ran.stdout[-5000:]
    cases = ElementTree.parse(report).getroot().iter("testcase")
    passed = {f"{Path(case.get('classname', '').replace('.', '/')).name}.py::{case.get('name', '').partition('[')[0]}"
              for case in cases if not list(case)}
    assert passed == lamps


def test_a_different_puzzle_cannot_take_a_registered_name(lamps_in_a_temporary_module: str) -> None:
    from dataclasses import replace

    import lamps

    with pytest.raises(ValueError, match="already registered"):
        registry.register_puzzle(replace(lamps.SPEC, rules=None, title="Other"))


def test_an_unregistered_puzzle_is_gone_and_can_be_registered_again(lamps_in_a_temporary_module: str) -> None:
    from pettingzoo.env_registry.registration import aec_registry

    import lamps

    registry.unregister_puzzle("lamps")
    registry.unregister_puzzle("lamps")  # again: a no-op
    assert "lamps" not in registry.SPECS and "lamps" not in registry.VERSIONS and "lamps" not in registry.TITLES
    assert lamps.SPEC.env_id not in aec_registry
    registry.register_puzzle(lamps.SPEC)  # registered afresh
    assert registry.SPECS["lamps"] is lamps.SPEC and lamps.SPEC.env_id in aec_registry


def test_a_rules_module_in_the_puzzles_package_is_discovered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            clean_registry: None) -> None:
    shutil.copy(EXAMPLE / "lamps.py", tmp_path / "lamps.py")
    monkeypatch.setattr(comma_env.puzzles, "__path__", [*comma_env.puzzles.__path__, str(tmp_path)])
    try:
        found = registry._discover()
    finally:
        sys.modules.pop("comma_env.puzzles.lamps", None)
    assert "lamps" in found and found["lamps"].rules.__module__ == "comma_env.puzzles.lamps"
    assert list(found)[:10] == list(registry.COMMA_PUZZLES)  # the suite's order is kept


def test_the_page_code_runs(monkeypatch: pytest.MonkeyPatch, clean_registry: None) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the page adds the example's folder
    page = (ROOT / "docs" / "adding-a-puzzle.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, flags=re.S | re.M)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/adding-a-puzzle.md", "exec"), namespace)
    for included in re.findall(r"```\{literalinclude\} (\S+)", page):
        assert (ROOT / "docs" / included).resolve().is_file(), included
