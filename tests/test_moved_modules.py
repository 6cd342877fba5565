"""Old import paths (before the layout move into rooms) still work for one release, warn, and
give the very module object of the new path, so classes and module state are shared."""

from __future__ import annotations

import subprocess
import sys

import pytest

import comma_env
from comma_env._moved import MOVED_MODULES, new_name


@pytest.mark.parametrize("old", sorted(name for name in MOVED_MODULES if name.startswith("comma_env.")))
def test_an_old_comma_env_path_is_the_new_module_and_warns(old):
    code = (
        "import importlib, warnings, comma_env\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({MOVED_MODULES[old]!r})\n"
        "assert old is new, (old, new)\n"
        f"assert new.__spec__.name == {MOVED_MODULES[old]!r}, new.__spec__\n"
        "assert any(issubclass(w.category, DeprecationWarning) and 'goes in' in str(w.message) for w in caught)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_old_agents_imports_resolve_to_the_policies_package():
    code = (
        "import sys, warnings, comma_env\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import agents.factory\n"
        "import comma_env.agents.factory as new\n"
        "assert agents.factory is new and sys.modules['agents.factory'] is new\n"
        "assert not [m for m in sys.modules if m.startswith('agents.') and sys.modules[m].__spec__.name == m]\n"
        "assert any('comma_env.agents.factory' in str(w.message) for w in caught), caught\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_names_that_did_not_move_are_left_alone():
    assert new_name("comma_env.wire_v0") is None and new_name("agentsx") is None
    assert comma_env.wire_v0.env is not None


def test_the_wheel_ships_no_top_level_agents_package():
    from pathlib import Path

    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["comma_env"]
