"""bakersdozen: a solver for the solitaire game Baker's Dozen.

The public API (the rules and formats are described in the repository's ``docs/``):

- :class:`Card`, :class:`Suit`: card values;
- :class:`Rules`, :func:`find_rules`, :data:`BAKERS_DOZEN`: the game's rules;
- :class:`Deal`: a position (columns bottom → top, foundations), with
  :meth:`Deal.from_text` / :meth:`Deal.to_text` (board text),
  :func:`parse_board` and :meth:`Deal.pysol` (PySol deal numbers);
- :func:`legal_moves`: every legal move of a position, from the engine;
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
from .model import FOUNDATION, Deal, Move, parse_board
from .replay import replay_html
from .rules import BAKERS_DOZEN, Rules, RulesError, find_rules
from .solver import Solution, Verdict, legal_moves, solve
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
    "parse_board",
    "legal_moves",
    "Rules",
    "RulesError",
    "find_rules",
    "BAKERS_DOZEN",
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
