"""The package's modules import each other without a cycle, counting every import statement
at any depth (inside functions too), as the architecture page says. A cycle would tie
together rooms that the page draws apart and make import order matter."""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from tests.support.script_files import load_script

ROOT = Path(__file__).resolve().parents[2]
GRAPH = load_script(ROOT / "examples" / "import_graph.py")  # what a module imports, shared with the picture


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The module `name` refers to (``pkg.mod.attr`` -> ``pkg.mod``), if it is one of ours."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that `module` imports anywhere in its file, leaving out its own packages
    and subpackages (importing ``pkg.sub`` runs ``pkg`` first by design)."""
    targets: set[str] = set()
    for name in GRAPH.imported_names(module, path):
        target = _known(name, modules)
        if target and target != module and not module.startswith(target + ".") \
                and not target.startswith(module + "."):
            targets.add(target)
    return targets


def import_cycle(root: Path, package: str) -> list[str] | None:
    """One import cycle among `package`'s modules (first module repeated last), or None."""
    modules = GRAPH.module_files(root, package)
    graph = {module: imports_of(module, path, modules) for module, path in modules.items()}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        return list(error.args[1])
    return None


def test_the_package_has_no_import_cycle():
    cycle = import_cycle(ROOT, "comma_env")
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_a_cycle_is_found_through_relative_and_function_level_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def later():\n    from pkg import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    assert import_cycle(tmp_path, "pkg") is not None
    (package / "c.py").write_text("import pkg.sub\n")  # the package of b, not a module in the loop
    assert import_cycle(tmp_path, "pkg") is None
