"""Sphinx configuration: the user guide (docs/*.md) and the API reference.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
after ``pip install ".[docs]"``: autodoc imports the *installed* package (its
engine is compiled), so the build needs the package installed, not its
source on ``sys.path``.
"""

from __future__ import annotations

import bakersdozen

project = "bakersdozen"
author = "The bakersdozen developers"
copyright = "the bakersdozen developers (MIT licence)"
release = bakersdozen.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# make_screenshot.py, make_play_screenshot.py (with screenshot.py) and pysolfc_session.py
# are scripts that drive a browser and PySolFC: never run or read here.
exclude_patterns = ["_build", "make_screenshot.py", "make_play_screenshot.py", "screenshot.py",
                    "pysolfc_session.py"]

# Every cross-reference must resolve: a broken one fails the -W build.
nitpicky = True
nitpick_ignore_regex = [
    # Types from the standard library and from Dask, which this build does
    # not link to (intersphinx would fetch their inventories from the network).
    ("py:class", r"(collections\.abc|concurrent\.futures|distributed|pathlib|os)\..*"),
    # Annotations left as text because they name a type imported only for
    # type checkers (``Client``, ``Task``), which leaves the others beside it
    # unevaluated; ``Task`` is bakersdozen.survey.tasks.Task.
    ("py:class", r"Executor|Client|Task"),
    # Type variables of generic signatures (``submit(fn: Callable[..., T])``).
    ("py:class", r"bakersdozen\.survey\.\w+\.T"),
]

# MyST: the pages link to each other's headings as [text](rules.md#the-knobs).
myst_heading_anchors = 4

# Docstrings are numpydoc style; numpydoc reads them.  Members come from
# autodoc's :members: (no autosummary tables), and a parameter's type is
# prose ("tuple of Move", "int or None"), not a cross-reference target.
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"bakersdozen {release}"
