"""The Python examples of the project's Markdown docs, for tests that execute them as written."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRAINING_DOCS = ROOT / "docs" / "training.md"
README = ROOT / "README.md"


def python_block(marker: str, path: Path = TRAINING_DOCS) -> str:
    """The first ```python block of `path` that contains `marker`."""
    blocks = [b.split("```", 1)[0] for b in path.read_text().split("```python\n")[1:]]
    return next(b for b in blocks if marker in b)
