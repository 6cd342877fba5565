"""Import a script of `examples/` (or a recipe), or a module its neighbours import, as
`python path` would: with the file's folder first on `sys.path` while it loads, so its
imports of neighbouring modules (``from linear_policy import ...``) find them."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The module in the file `path`, executed under `name` (default: the file's stem); not
    put in `sys.modules` (the neighbours it imports are)."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    with _on_path(path.parent):
        spec.loader.exec_module(module)
    return module


def import_example(name: str, folder: Path = EXAMPLES) -> ModuleType:
    """The module `name` of `folder` (``examples/`` by default), imported once into
    `sys.modules` under its name, as its neighbours import it."""
    with _on_path(folder):
        return importlib.import_module(name)


@contextmanager
def _on_path(folder: Path) -> Iterator[None]:
    """`folder` first on `sys.path` inside the ``with`` block."""
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
