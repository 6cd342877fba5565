"""Old import paths of modules that moved into the package's rooms (release 0.2), kept for
one release with a `DeprecationWarning`.

``import comma_env.core`` gives the very module object of ``comma_env.protocol.core`` (no
second copy, so classes compare equal), and ``import agents.llm`` gives
``comma_env.agents.llm`` when no other distribution installs a top-level ``agents``: a real
``agents`` on `sys.path` (openai-agents) always wins."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

MOVED_MODULES: dict[str, str] = {
    **{f"comma_env.{name}": f"comma_env.protocol.{name}" for name in (
        "core", "puzzle", "spaces", "text", "prompts", "metrics", "rewards", "clock", "resources")},
    **{f"comma_env.{name}": f"comma_env.run.{name}" for name in (
        "results", "checks", "provenance", "runlock", "redact", "config", "fidelity")},
    "comma_env.padufes": "comma_env.puzzles.padufes",
    "agents": "comma_env.agents",
}
"""Old module name -> new one. Submodules follow their package (``agents.llm``)."""

REMOVED_IN = "0.3"


def new_name(old: str) -> str | None:
    """Where the module once imported as `old` lives now, or None if it did not move."""
    if old in MOVED_MODULES:
        return MOVED_MODULES[old]
    head, _, tail = old.partition(".")
    if head == "agents" and tail:
        return f"comma_env.agents.{tail}"
    return None


class MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves an old name with the module under its new name."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        target_name = new_name(fullname)
        if target_name is None:
            return None
        if fullname == "agents" and importlib.machinery.PathFinder.find_spec("agents") is not None:
            return None  # another distribution's top-level ``agents``
        if fullname.startswith("agents.") and sys.modules.get("agents") is not sys.modules.get("comma_env.agents"):
            return None
        if importlib.util.find_spec(target_name) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=False)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        target_name = new_name(spec.name)
        assert target_name is not None
        warnings.warn(f"{spec.name} is now {target_name}; the old name goes in comma_env {REMOVED_IN}",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(target_name)
        self._specs = getattr(self, "_specs", {})
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the old name's spec on the shared module; give it back its own.
        for spec in getattr(self, "_specs", {}).values():
            if spec is not None and spec.name == module.__name__:
                module.__spec__ = spec
                module.__loader__ = spec.loader


def install() -> None:
    """Put the finder first on `sys.meta_path` (once): the old names have no files, and the
    aliased ``agents`` package must not have its submodules loaded a second time from its path."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())
