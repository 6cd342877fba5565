"""docs/adding-a-puzzle.md tells the truth: a puzzle made of rules, a spec, a drawing, a
manual and an entry module (examples/new_puzzle/, copied here into a temporary module) is
registered from its spec and passes the same generic tests as every puzzle of the suite;
a rules module with a ``SPEC`` in comma_env/puzzles/ is discovered; the page's code runs."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

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


def test_the_generic_tests_pass_on_a_new_puzzle(lamps_in_a_temporary_module: str) -> None:
    from tests.registry import test_api, test_oracle, test_specs, test_visible_state

    name = lamps_in_a_temporary_module
    generic = [
        test_api.test_api_test, test_api.test_seed_test, test_api.test_registered_in_pettingzoo,
        test_api.test_versioned_module_has_facts_table, test_api.test_same_seed_same_image_bytes,
        test_api.test_images_are_legible_size, test_api.test_visible_state_is_json,
        test_api.test_the_picture_is_the_drawing_of_the_visible_state,
        test_visible_state.test_visible_state_keys_are_documented_and_json,
        test_specs.test_rules_class_takes_its_facts_from_the_spec, test_specs.test_raw_env_is_a_class_statement,
        test_specs.test_facts_table_matches_the_spec,
        test_oracle.test_oracle_solves_seeds_0_to_99,
    ]
    for check in generic:
        check(name)
    assert registry.SPECS[name].suite == "extra" and name not in registry.COMMA_PUZZLES
    assert registry.puzzle_title(name) == "Lamps"


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
