"""bakersdozen: a solver for the solitaire game Baker's Dozen.

The public API (rules in RULES.md, formats in NOTATION.md):

- :class:`Card`, :class:`Suit`: card values;
- :class:`Deal`: a position (13 columns bottom → top, foundations), with
  :meth:`Deal.from_text` / :meth:`Deal.to_text` (board text),
  :meth:`Deal.pysol` (PySol deal numbers) and :meth:`Deal.legal_moves`;
- :class:`Move` and :data:`FOUNDATION`: one move, ``"7C 1>2"``, ``"AS 3>F"``;
- :func:`check`: an independent replay of a move list;
- :func:`solve`, :class:`Solution`, :class:`Verdict`: the solver;
- :func:`survey`, :class:`SurveyRecord`, :func:`summarize`, :class:`Summary`,
  :func:`parse_deal_range`: many deals at once;
- :class:`BakersDozenError`, :class:`ParseError`, :class:`IllegalMoveError`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .cards import Card, Suit
from .check import CheckResult, check
from .errors import BakersDozenError, IllegalMoveError, ParseError
from .model import FOUNDATION, Deal, Move
from .replay import replay_html
from .solver import Solution, Verdict, solve
from .survey import Summary, SurveyRecord, parse_deal_range, summarize, survey

try:
    __version__ = version("bakersdozen")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Card",
    "Suit",
    "Move",
    "Deal",
    "FOUNDATION",
    "check",
    "CheckResult",
    "replay_html",
    "solve",
    "Solution",
    "Verdict",
    "survey",
    "SurveyRecord",
    "Summary",
    "summarize",
    "parse_deal_range",
    "BakersDozenError",
    "ParseError",
    "IllegalMoveError",
    "__version__",
]
