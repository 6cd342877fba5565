"""Locate files that ship with the package: manuals, Hydra configs and fonts.

In a wheel, `manuals/` and `conf/` are installed inside the package as
`comma_env/manuals` and `comma_env/conf`; in a source checkout (editable install) they
sit beside the package at the repository root. Both layouts are searched, so the package
finds its data from any working directory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # comma_env/


def _data_dir(name: str) -> Path:
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"comma_env data folder {name!r} not found next to {_PACKAGE_DIR}; "
        "reinstall the package (pip install .)"
    )


def manuals_dir() -> Path:
    """Folder holding one manual file per puzzle."""
    return _data_dir("manuals")


def conf_dir() -> Path:
    """Folder holding the Hydra configuration tree."""
    return _data_dir("conf")


def load_manual(puzzle: str) -> str:
    """The expert's manual for `puzzle`, exactly as the expert sees it."""
    return read_manual(f"{puzzle}.md")


@cache
def read_manual(file: str) -> str:
    """A manual by file name in `manuals_dir` (a `PuzzleSpec`'s ``manual``), or by absolute
    path for puzzles that ship outside the package."""
    path = Path(file)
    if not path.is_absolute():
        path = manuals_dir() / file
    return path.read_text(encoding="utf-8").strip()


def font_path(name: str = "DejaVuSans.ttf") -> Path:
    """A font file shipped with the package (DejaVu, see assets/fonts/LICENSE_DEJAVU)."""
    return _PACKAGE_DIR / "assets" / "fonts" / name
