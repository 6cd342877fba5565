"""The documentation site builds with warnings as errors, and the README stays a front door.

The build (`sphinx-build -W --keep-going -b html`) fails on a broken cross-reference, a
missing page, a page outside every toctree, an include that is gone, or an API reference
that does not import or resolve. It writes the per-puzzle and API pages from the code
(`docs/_ext/comma_pages.py`) into the source tree's git-ignored `docs/puzzles/` and
`docs/api/`, and the HTML into a temporary folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GENERATED = ROOT / "docs" / "_generated"

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# When something was measured: an ISO date (not a model's version suffix such as
# gpt-4o-2024-05-13), a UTC/GMT time, or a date with a month name or in digits with a year.
MEASURED_WHEN = re.compile(r"(?<![\w-])20\d\d-[01]\d-[0-3]\d(?![\w-])|\bUTC\b|\bGMT\b"
                           rf"|\b\d{{1,2}} {_MONTH},? 20\d\d\b|\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? 20\d\d\b"
                           r"|\b\d{1,2}[./]\d{1,2}[./]20\d\d\b")


@pytest.mark.timeout(600)
def test_the_site_builds_with_warnings_as_errors(site_build):
    """In one process the build runs in the background from the start of the session; on an
    xdist worker it starts here, in the worker that runs this test (tests/support/site_build.py)."""
    pytest.importorskip("sphinx")
    pytest.importorskip("furo")
    pytest.importorskip("myst_parser")
    code, stdout, stderr = site_build.wait(timeout=590)
    assert code == 0, stdout[-3000:] + stderr[-6000:]
    html = site_build.html
    from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES

    for puzzle in COMMA_PUZZLES + V1_PUZZLES:  # a page per puzzle, with its picture
        page = (html / "puzzles" / f"{puzzle}.html").read_text(encoding="utf-8")
        assert f"{puzzle}.png" in page and "manual" in page, puzzle
    api = (html / "api" / "comma_env.protocol.html").read_text(encoding="utf-8")
    assert "comma_env.protocol.core.CommaEnv" in api or "CommaEnv" in api
    for name in ("speed", "fidelity_random"):  # the measured tables reach their pages
        first_row = next(line for line in (GENERATED / f"{name}.md").read_text().splitlines() if line.startswith("| "))
        cell = first_row.split("|")[1].strip()
        page = "performance" if name == "speed" else "fidelity"
        assert cell in (html / f"{page}.html").read_text(encoding="utf-8"), (name, cell)


def test_the_readme_is_read_in_five_minutes():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250 and len(text.encode()) <= 25_000
    assert not MEASURED_WHEN.search(text) and "load average" not in text, "no dates or load averages"
    assert "docs/images/gallery.png" in text and (ROOT / "docs" / "images" / "gallery.png").is_file()


def test_the_docs_say_what_a_number_was_measured_on_but_not_when():
    """Team rule: a number in the docs names its script, machine and versions, never a date
    or a clock time (who measured it when is no part of the number). The generated tables,
    the pages and the logs beside the pictures are checked. docs/changelog.md only includes
    CHANGELOG.md, so release dates would never show up here as page text."""
    docs = ROOT / "docs"
    files = sorted([*GENERATED.glob("*.md"), *docs.glob("*.md"), *(docs / "images").glob("*.json")])
    assert len(files) > 20 and GENERATED / "speed.md" in files
    found = {str(path.relative_to(ROOT)): match.group()
             for path in files if (match := MEASURED_WHEN.search(path.read_text(encoding="utf-8")))}
    assert not found, found


def test_ci_runs_exactly_the_readmes_second_command():
    commands = re.findall(r"```bash\n(.*?)\n```", README.read_text(encoding="utf-8"), re.DOTALL)
    first, second = commands[0], commands[1]
    assert first.endswith("python -m comma_env.rollout")
    assert second.endswith("&& pytest -q")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == second
    # the getting-started page shows the same test command (a copy of it drifted once)
    assert second in (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8").splitlines()


def test_every_generated_table_names_its_script_and_is_included():
    pages = {p: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}
    for table in GENERATED.glob("*.md"):
        head = table.read_text(encoding="utf-8").splitlines()[:3]
        match = re.search(r"(examples/\w+\.py)", "\n".join(head))
        assert match and (ROOT / match.group(1)).is_file(), (table.name, head)
        assert any(f"_generated/{table.name}" in text for text in pages.values()), f"{table.name} is on no page"


def test_the_readmes_links_and_pictures_point_at_files():
    """The README is read on the forge and on PyPI, outside the site: every relative link and
    picture must name a file of the checkout."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    relative = [t for t in targets if "://" not in t]
    assert relative
    for target in relative:
        assert (ROOT / target).is_file(), target


@pytest.mark.timeout(600)
def test_the_build_fails_on_a_broken_link_a_missing_page_and_an_unresolved_api_reference(tmp_path):
    """The strict build is only worth something if it does fail: a site with the real
    configuration (conf.py and its extension) gets a page with one fault of each kind, and
    each must be reported. The site holds only that page, and the generated puzzle and API
    pages are switched off: they take most of a full build's time and play no part here."""
    pytest.importorskip("sphinx")
    import shutil

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(ROOT / "docs" / "conf.py", docs)
    shutil.copytree(ROOT / "docs" / "_ext", docs / "_ext")
    (docs / "faults.md").write_text(
        "# Faults\n\n"
        "A link to [a page that is not there](no-such-page.md).\n\n"
        "A reference to {py:func}`comma_env.registry.no_such_function`.\n\n"
        "```{toctree}\nno-such-toctree-entry\n```\n", encoding="utf-8")
    (docs / "index.md").write_text("# comma_env\n\n```{toctree}\nfaults\n```\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                           "-D", "comma_generated_pages=0", str(docs), str(tmp_path / "html")],
                          capture_output=True, text=True, timeout=600, env=env)
    report = done.stdout + done.stderr
    assert done.returncode != 0
    assert report.count("WARNING") + report.count("ERROR") == 3, report  # the three faults, nothing else
    assert "no-such-page" in report  # the broken link
    assert "no-such-toctree-entry" in report  # the missing page
    assert "comma_env.registry.no_such_function" in report  # the unresolved API reference


def test_the_index_starts_with_an_install_line_and_a_first_example():
    """Issue 58: the index had neither, and repeated the table of contents as a bare list
    (the toctrees are the sidebar's, hidden on the page)."""
    from tests.support.docs_blocks import python_blocks

    index = ROOT / "docs" / "index.md"
    text = index.read_text(encoding="utf-8")
    install = text.index("pip install")
    blocks = python_blocks(index)
    assert blocks and "env.step(" in blocks[0][1] and install < text.index("```python")
    trees = re.findall(r"```\{toctree\}\n(.*?)```", text, re.DOTALL)
    assert trees and all(":hidden:" in tree for tree in trees)
    fenced = re.findall(r"^```[a-z]+\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)  # fit the column
    assert all(len(line) <= 88 for block in fenced for line in block.splitlines())
