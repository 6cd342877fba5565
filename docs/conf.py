"""Sphinx configuration of the comma_env documentation (Sphinx + furo + MyST, as PettingZoo
and Gymnasium). Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html``."""

from __future__ import annotations

import builtins
import logging
import sys
from pathlib import Path

from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the checkout's comma_env, for autodoc and the puzzle pages
sys.path.insert(0, str(DOCS / "_ext"))

import comma_env  # noqa: E402

project = "comma_env"
author = "comma_env contributors"
copyright = "comma_env contributors"  # noqa: A001  (Sphinx's name)
release = comma_env.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "comma_pages",  # docs/_ext/comma_pages.py: one page per puzzle, from the code
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "_ext", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links resolve

autodoc_member_order = "bysource"
autodoc_typehints = "description"
# each name is documented where it is defined, not again where a module re-exports it in __all__
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False,
                           "ignore-module-all": True}
# heavy or slow to import (openenv loads gradio: seconds); autodoc documents our code, not theirs
autodoc_mock_imports = ["torch", "transformers", "trl", "vllm", "llama_cpp", "openenv", "ray"]
napoleon_google_docstring = True
napoleon_numpy_docstring = False
default_role = "code"  # `name` in docstrings reads as code, as it does in the Markdown pages
nitpicky = False
# the API pages' objects stay out of the table of contents: their module headings are its entries
# (furo copies the whole site's table of contents into every page's navigation)
toc_object_entries = False

html_theme = "furo"
html_title = f"comma_env {release}"
html_static_path: list[str] = []


class _DocstringMarkupFilter(logging.Filter):
    """The package's docstrings are written for readers of the source (Markdown-like lists
    and emphasis), not as strict reStructuredText, so docutils' complaints about their
    markup are dropped. Only those: every other warning still fails the build (a broken
    link, a missing page, an unresolved or ambiguous API reference, a docstring that does
    not import)."""

    def filter(self, record: logging.LogRecord) -> bool:
        in_docstring = "docstring of " in str(getattr(record, "location", ""))
        return not (getattr(record, "type", None) == "docutils" and in_docstring)


def _own_reference_missing(app, env, node, contnode) -> None:  # noqa: ANN001  (Sphinx's objects)
    """A reference to this package's own API that resolves to nothing is an error (a renamed
    or removed name the docs still point at). Outside references (numpy, typing) may stay
    plain text, so `nitpicky` stays off. Private names and type variables (``T``) are not
    documented, so references to them (base classes, annotations) are left unlinked."""
    target = str(node.get("reftarget", ""))
    last = target.rsplit(".", 1)[-1]
    private_or_typevar = last.startswith("_") or (len(last) == 1 and last.isupper())
    if node.get("refdomain") == "py" and target.split(".")[0] == "comma_env" and not private_or_typevar:
        from sphinx.util import logging as sphinx_logging

        sphinx_logging.getLogger(__name__).warning("unresolved reference to comma_env's API: %s", target,
                                                   location=node)


class _OutsideTypesExact(SphinxPostTransform):
    """A type in a docstring's fields (``:type:``, ``:rtype:``) is looked up by any name
    ending in it. For builtins (``str``) and other packages' qualified names
    (``pathlib.Path``) only the exact name is looked up: nothing here defines them, and an
    attribute of ours that ends the same way (``.bytes``) is not what the type means."""

    default_priority = 5  # before Sphinx's ReferencesResolver (10)

    def run(self, **kwargs: object) -> None:
        for node in self.document.findall(addnodes.pending_xref):
            target = str(node.get("reftarget", ""))
            outside = hasattr(builtins, target) or ("." in target and not target.startswith("comma_env."))
            if node.get("refdomain") == "py" and node.hasattr("refspecific") and outside:
                del node["refspecific"]


def setup(app) -> None:  # noqa: ANN001  (Sphinx's application object)
    logging.getLogger("sphinx.sphinx.util.docutils").addFilter(_DocstringMarkupFilter())
    app.connect("missing-reference", _own_reference_missing)
    app.add_post_transform(_OutsideTypesExact)
