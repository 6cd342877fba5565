"""Locate files that ship with the package (manuals, Hydra configs, fonts), inside an installed
wheel or beside the package in a source checkout."""

from __future__ import annotations

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


def read_manual(file: str) -> str:
    """A manual by file name in `manuals_dir`, or by absolute path (puzzles from outside)."""
    path = Path(file)
    if not path.is_absolute():
        path = manuals_dir() / file
    return path.read_text(encoding="utf-8").strip()


def font_path(name: str = "DejaVuSans.ttf") -> Path:
    """A font file shipped with the package (DejaVu, see assets/fonts/LICENSE_DEJAVU)."""
    return _PACKAGE_DIR / "assets" / "fonts" / name


def install_hint(extra: str) -> str:
    """A pip command that installs `extra`: editable from a checkout, else its requirements from the wheel."""
    root = _PACKAGE_DIR.parent
    if (root / "pyproject.toml").is_file():
        return f'pip install -e "{root}[{extra}]"'
    from importlib import metadata

    try:
        requirements = metadata.requires("comma-env") or []
    except metadata.PackageNotFoundError:
        requirements = []
    wanted = [r.split(";")[0].strip() for r in requirements
              if ";" in r and f'extra == "{extra}"' in r.split(";", 1)[1].replace("'", '"')]
    if not wanted:
        raise KeyError(f"comma-env has no extra named {extra!r}")
    return "pip install " + " ".join(f'"{r}"' for r in wanted)
