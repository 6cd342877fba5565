"""Import a script of `examples/` (or a recipe) from its file, as `python path` would run it,
without putting its folder on `sys.path`."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The module in the file `path`, executed under `name` (default: the file's stem)."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
