"""Which modules of a package import what, read from the source: every import statement at
any depth (inside functions too). The architecture picture (`architecture.py`) groups these
imports into rooms; the import-cycle test (`tests/project/test_import_graph.py`) checks them module by
module. Each applies its own rules to the names this module finds.
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `package` under `root`."""
    found = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported_names(module: str, path: Path) -> list[str]:
    """Every dotted name the module `module` (source file `path`) imports: ``import a.b`` gives
    ``a.b``; ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a module or a name in
    ``a``); relative imports are resolved against the module's package."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[:len(package) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            names.extend([base, *(f"{base}.{alias.name}" for alias in node.names)])
    return names
