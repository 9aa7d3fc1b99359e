"""bakersdozen: a solver for the solitaire game Baker's Dozen.

The public API:

- :class:`Card`, :class:`Suit`: card values;
- :class:`Deal`: a position (13 columns bottom → top, foundations), with
  :meth:`Deal.from_text` / :meth:`Deal.to_text` (board text),
  :meth:`Deal.pysol` (PySol deal numbers) and :meth:`Deal.legal_moves`;
- :class:`Move` and :data:`FOUNDATION`: one move, ``"7C 1>2"``, ``"AS 3>F"``;
- :func:`check`: an independent replay of a move list;
- :func:`solve`, :class:`Solution`, :class:`Verdict`: the solver;
- :class:`Record`: the result record of a solved deal (``solve --json``,
  surveys, ``bench --json``);
- :func:`survey`, :func:`summarize`, :class:`Summary`,
  :func:`parse_deal_range`: many deals at once (:mod:`bakersdozen.survey`,
  loaded on first use);
- :class:`BakersDozenError`, :class:`ParseError`, :class:`IllegalMoveError`.

Importing the package loads neither the command line nor the survey.
"""

from __future__ import annotations

from typing import Any

from ._version import __version__
from .cards import Card, Suit
from .check import CheckResult, check
from .errors import BakersDozenError, IllegalMoveError, ParseError
from .model import FOUNDATION, Deal, Move
from .solution import Solution, Verdict
from .solver import solve

__all__ = [
    "Card",
    "Suit",
    "Move",
    "Deal",
    "FOUNDATION",
    "check",
    "CheckResult",
    "solve",
    "Solution",
    "Verdict",
    "Record",
    "SurveyRecord",
    "survey",
    "Summary",
    "summarize",
    "parse_deal_range",
    "BakersDozenError",
    "ParseError",
    "IllegalMoveError",
    "__version__",
]

_LAZY = {
    "Record": ("bakersdozen.records", "Record"),
    "SurveyRecord": ("bakersdozen.records", "Record"),  # its 0.1.0 name
    "survey": ("bakersdozen.survey", None),
    "summarize": ("bakersdozen.stats", "summarize"),
    "Summary": ("bakersdozen.stats", "Summary"),
    "parse_deal_range": ("bakersdozen.survey.tasks", "parse_deal_range"),
}


def __getattr__(name: str) -> Any:
    """Load the record and survey names on first use (``bakersdozen.survey`` is the callable module).

    They are not needed to solve one deal, and a command-line call pays
    for every module it imports.
    """
    if name in _LAZY:
        import importlib

        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name)
        return module if attribute is None else getattr(module, attribute)
    raise AttributeError(f"module 'bakersdozen' has no attribute {name!r}")
