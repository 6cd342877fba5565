"""The schedule hint of tests/conftest.py names files that exist: a renamed file would lose its
early place on xdist's workers without a failure anywhere."""

from __future__ import annotations

from tests.conftest import LONG_FILES, TESTS


def test_the_long_files_exist() -> None:
    assert [name for name in LONG_FILES if not (TESTS / name).is_file()] == []
