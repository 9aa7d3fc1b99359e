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
- :func:`hint`, :func:`review`: the next move from any position, and the
  move that lost a game (:mod:`bakersdozen.analysis`, loaded on first use);
- :func:`replay_html`: a solution as a self-contained web page
  (:mod:`bakersdozen.replay`, loaded on first use);
- :func:`solve`, :class:`Solution`, :class:`Verdict`: the solver;
- :func:`deadlock`: the cards of a position that can never move (a proof
  that it is lost, when there are any);
- :class:`Record`: the result record of a solved deal (``solve --json``,
  surveys, ``bench --json``);
- :func:`survey`, :func:`summarize`, :class:`Summary`,
  :func:`parse_deal_range`: many deals at once (:mod:`bakersdozen.survey`,
  loaded on first use);
- :func:`winnable`, :func:`winnable_deals`, :class:`Winnability`: winnable
  deal numbers from the published tables shipped with the package
  (:mod:`bakersdozen.winnability`, loaded on first use);
- :func:`rate`, :class:`Rating`: how hard a winnable deal is, from the
  moves along a winning line that lose (:mod:`bakersdozen.difficulty`,
  loaded on first use);
- :class:`BakersDozenError`, the root of the package's errors, and beneath
  it :class:`ArgumentError` (a value out of range; :class:`PositionError`
  for cards that are not a position), :class:`ParseError`,
  :class:`IllegalMoveError` and :class:`RulesError`, each also a
  ``ValueError``.  A wrong *type* is a ``TypeError``.

Importing the package loads neither the command line nor the survey.
"""

from __future__ import annotations

from ._version import __version__
from .cards import Card, Suit
from .check import CheckResult, check
from .errors import ArgumentError, BakersDozenError, IllegalMoveError, ParseError, PositionError
from .model import FOUNDATION, Deal, Move, parse_board
from .rules import BAKERS_DOZEN, Rules, RulesError, find_rules
from .solution import Solution, Verdict
from .solver import deadlock, legal_moves, solve

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any

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
    "hint",
    "review",
    "solve",
    "deadlock",
    "Solution",
    "Verdict",
    "Record",
    "SurveyRecord",
    "survey",
    "Summary",
    "summarize",
    "parse_deal_range",
    "winnable",
    "winnable_deals",
    "Winnability",
    "verify_certificate",
    "CertificateReport",
    "rate",
    "Rating",
    "BakersDozenError",
    "ArgumentError",
    "PositionError",
    "ParseError",
    "IllegalMoveError",
    "__version__",
]

_LAZY = {
    "replay_html": ("bakersdozen.replay", "replay_html"),
    "hint": ("bakersdozen.analysis", "hint"),
    "review": ("bakersdozen.analysis", "review"),
    "Record": ("bakersdozen.records", "Record"),
    "SurveyRecord": ("bakersdozen.records", "Record"),  # its 0.1.0 name
    "survey": ("bakersdozen.survey", None),
    "summarize": ("bakersdozen.stats", "summarize"),
    "Summary": ("bakersdozen.stats", "Summary"),
    "parse_deal_range": ("bakersdozen.survey.tasks", "parse_deal_range"),
    "winnable": ("bakersdozen.winnability", "winnable"),
    "winnable_deals": ("bakersdozen.winnability", "winnable_deals"),
    "Winnability": ("bakersdozen.winnability", "Winnability"),
    "verify_certificate": ("bakersdozen.verify", "verify_certificate"),
    "CertificateReport": ("bakersdozen.verify", "CertificateReport"),
    "rate": ("bakersdozen.difficulty", "rate"),
    "Rating": ("bakersdozen.difficulty", "Rating"),
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
