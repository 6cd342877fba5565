"""The Python examples of the project's Markdown docs, for tests that execute them as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TRAINING_DOCS = [DOCS / f"{name}.md" for name in
                 ("training", "training-environments", "training-rewards", "training-trainers",
                  "training-servers", "training-export")]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """Every ```python block of `path`, in page order, with the line number of its fence."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _FENCE.finditer(text)]


def python_block(marker: str, path: Path | None = None) -> str:
    """The first ```python block of `path` (by default, of the training pages) that contains `marker`."""
    pages = TRAINING_DOCS if path is None else [path]
    return next(source for page in pages for _, source in python_blocks(page) if marker in source)


def documentation_pages() -> list[Path]:
    """The README and every Markdown page of the docs that is under version control (the
    pages the build writes from the code, ``docs/puzzles/`` and ``docs/api/``, hold no
    examples of their own)."""
    generated = {DOCS / "puzzles", DOCS / "api", DOCS / "_build", DOCS / "_generated"}
    pages = [p for p in sorted(DOCS.rglob("*.md")) if not any(g in p.parents for g in generated)]
    return [README, *pages]
