"""Write a measured table into the documentation: ``docs/_generated/NAME.md``.

Every number in the docs comes from a script of this folder. Most scripts that measure a
table call `write_table`, which puts a header line in front of it (the command that wrote
it, the machine and the versions that matter); the others write a header of the same kind
themselves. So a reader sees how and on what it was measured, and nobody edits these files
by hand. There is no date: the team's rule is that docs say
nothing of who measured a number when. Pages include them with MyST's ``{include}``
directive.
"""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata
from pathlib import Path

GENERATED = Path(__file__).resolve().parents[1] / "docs" / "_generated"

_VERSIONED = ("comma-env", "numpy", "pillow", "pettingzoo", "gymnasium")


def _version(distribution: str) -> str:
    if distribution == "comma-env":  # the tree that ran; an editable install's metadata can lag behind it
        import comma_env

        return comma_env.__version__
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


def provenance(extra_packages: tuple[str, ...] = ()) -> str:
    """One line: machine, CPU count, Python and package versions (no date: what ran, not when)."""
    versions = ", ".join(f"{name} {_version(name)}" for name in _VERSIONED + extra_packages)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{platform.machine()} ({cpus} CPUs usable), {platform.system()}, "
            f"Python {platform.python_version()}; {versions}")


def write_table(name: str, table: str, note: str = "", extra_packages: tuple[str, ...] = ()) -> Path:
    """Write `table` (Markdown) to ``docs/_generated/<name>.md`` under a provenance header.

    `note` is one short sentence about the run's settings (rounds, episodes, seeds)."""
    command = " ".join(["python", f"examples/{Path(sys.argv[0]).name}", *sys.argv[1:]])
    header = (f"% Written by `{command}`; do not edit by hand, rerun the script.\n\n"
              f"*Measured by `{command}` on {provenance(extra_packages)}.*"
              + (f" {note}" if note else "") + "\n\n")
    GENERATED.mkdir(parents=True, exist_ok=True)
    path = GENERATED / f"{name}.md"
    path.write_text(header + table.rstrip() + "\n", encoding="utf-8")
    return path


def measured_at() -> str:
    """The git commit of the package being measured, short, with "+changes" when comma_env/ or examples/ have
    uncommitted changes: a row measured on a set kept outside the repository says which code it measured."""
    import subprocess

    root = GENERATED.parents[1]
    git = ["git", "-C", str(root)]
    head = subprocess.run([*git, "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True)
    if head.returncode:
        return "?"
    dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no", "--", "comma_env", "examples"],
                           capture_output=True, text=True).stdout.strip()
    return head.stdout.strip() + ("+changes" if dirty else "")
