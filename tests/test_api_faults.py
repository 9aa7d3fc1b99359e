"""Faults a new user met in the Python API, each with the test that shows it fixed.

- :func:`bakersdozen.survey` played every deal as Baker's Dozen, whatever
  its game: a Spanish Patience deal came back "solved" with a line the
  game's rules refuse, a Good Measure deal raised a bare ValueError.  It
  now plays ``deal.rules`` (or ``rules=``, as :func:`bakersdozen.solve`),
  and a record names the game its line was played by;
- a bad value given to a public function raised a plain ValueError a
  program could not tell from any other; every one is now an error of the
  package (a :class:`~bakersdozen.BakersDozenError` that is also a
  ValueError) whose message names the argument, and a wrong type is a
  TypeError;
- ``time_limit=float("inf")`` was refused, where the command line takes
  ``inf``: it means no limit everywhere a time limit is taken.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import bakersdozen
from bakersdozen import (
    ArgumentError, BakersDozenError, Card, Deal, Move, PositionError, RulesError,
    Verdict, check, deadlock, legal_moves, solve,
)
from bakersdozen.records import Record
from bakersdozen.rules import PRESETS
from bakersdozen.solver import perft, simplify
from bakersdozen.stats import percentile, wilson_interval

MEMORY_MB = 64
#: Deals per preset: enough that each game wins some and (Good Measure) loses some.
DEALS = (1, 2, 3, 4)


# -- the survey plays each deal's game --------------------------------------------------


def _replays(deal: Deal, record: Record) -> None:
    """The record's line wins *deal* under the deal's own rules (the independent checker)."""
    assert record.game == deal.rules.name
    if record.solved:
        assert record.moves is not None and len(record.moves) == record.length
        assert check(deal, record.moves).won, (deal.rules.name, record.deal)
    else:
        assert record.moves == ()


@pytest.mark.parametrize("game", sorted(PRESETS))
def test_survey_plays_each_deal_by_its_own_rules(game: str) -> None:
    deals = [Deal.pysol(n, game) for n in DEALS]
    records = list(bakersdozen.survey(deals, jobs=1, moves=True, time_limit=20,
                                      memory_mb=MEMORY_MB))
    assert len(records) == len(deals)
    by_id = {record.deal: record for record in records}
    for deal in deals:
        record = by_id[bakersdozen.records.board_id(deal)]
        _replays(deal, record)
        # the verdict is solve()'s for the same deal (whose rules are deal.rules)
        assert record.verdict is solve(deal, time_limit=20, memory_mb=MEMORY_MB).verdict


@pytest.mark.parametrize("game", sorted(PRESETS))
def test_survey_rules_deals_numbers_for_that_game(game: str) -> None:
    records = list(bakersdozen.survey(list(DEALS), jobs=1, moves=True, time_limit=20,
                                      memory_mb=MEMORY_MB, rules=game))
    assert sorted(record.deal for record in records) == list(DEALS)
    for record in records:
        assert isinstance(record.deal, int)
        _replays(Deal.pysol(record.deal, game), record)


def test_survey_rules_as_solve_rules() -> None:
    # rules= plays a Deal by those rules, as solve(rules=) does
    spanish = Deal.pysol(1, "spanish_patience")
    (record,) = bakersdozen.survey([spanish], jobs=1, moves=True, rules="bakers_dozen",
                                   memory_mb=MEMORY_MB)
    assert record.game == "bakers_dozen"
    assert check(spanish.with_rules("bakers_dozen"), record.moves or ()).won
    # a 13-column deal is no position of Good Measure (10 columns): the package's error
    with pytest.raises(RulesError, match="Good Measure"):
        list(bakersdozen.survey([Deal.pysol(1)], jobs=1, rules="good_measure"))
    with pytest.raises(RulesError, match="no_such_game"):
        bakersdozen.survey([1], jobs=1, rules="no_such_game")
    with pytest.raises(TypeError, match="rules"):
        bakersdozen.survey([1], jobs=1, rules=5)  # type: ignore[arg-type]
    # the layered search refuses other play at the call, not deal by deal
    with pytest.raises(RulesError, match="layered search"):
        bakersdozen.survey([1], jobs=1, method="layers", rules="spanish_patience")


def test_survey_in_worker_processes_plays_each_deal_by_its_rules() -> None:
    # Deal 1 of Baker's Dozen and of Spanish Patience are the same cards, so
    # the same board id: name them (a board id is the board's text alone).
    deals = {f"{game}-1": Deal.pysol(1, game) for game in sorted(PRESETS)}
    records = list(bakersdozen.survey(list(deals.items()), jobs=2, moves=True,
                                      memory_mb=MEMORY_MB))
    assert sorted(record.deal for record in records) == sorted(deals)
    for record in records:
        _replays(deals[str(record.deal)], record)


# -- every bad value is the package's error, naming its argument ----------------------


DEAL_1 = Deal.pysol(1)
COLUMNS = DEAL_1.columns
LINE = solve(DEAL_1, memory_mb=MEMORY_MB).moves


def _survey(*args: Any, **kwargs: Any) -> list[Record]:
    return list(bakersdozen.survey(*args, **kwargs))


#: (call, the text the message must hold): each a bad value given to a public entry point.
BAD_VALUES: list[tuple[str, Callable[[], object], str]] = [
    ("solve rules", lambda: solve(DEAL_1, rules="good_measure"), "Good Measure"),
    ("solve method", lambda: solve(DEAL_1, method="bfs"), "method"),
    ("solve time_limit", lambda: solve(DEAL_1, time_limit=-1), "time_limit"),
    ("solve time_limit nan", lambda: solve(DEAL_1, time_limit=math.nan), "time_limit"),
    ("solve max_nodes", lambda: solve(DEAL_1, max_nodes=0), "max_nodes"),
    ("solve memory_mb", lambda: solve(DEAL_1, memory_mb=0.5), "memory_mb"),
    ("solve seed", lambda: solve(DEAL_1, seed=-1), "seed"),
    ("hint rules", lambda: bakersdozen.hint(DEAL_1, rules="good_measure"), "Good Measure"),
    ("hint time_limit", lambda: bakersdozen.hint(DEAL_1, time_limit=0), "time_limit"),
    ("review max_nodes", lambda: bakersdozen.review(DEAL_1, [], max_nodes=-5), "max_nodes"),
    ("review rules", lambda: bakersdozen.review(DEAL_1, [], rules="good_measure"), "Good"),
    ("legal_moves rules", lambda: legal_moves(DEAL_1, rules="good_measure"), "Good Measure"),
    ("perft depth", lambda: perft(DEAL_1, 99), "depth"),
    ("perft rules", lambda: perft(DEAL_1, 1, rules="good_measure"), "Good Measure"),
    ("deadlock rules", lambda: deadlock(DEAL_1, rules="good_measure"), "Good Measure"),
    ("simplify line", lambda: simplify(DEAL_1, LINE[:5]), "moves"),
    ("survey id", lambda: _survey([("55", DEAL_1)], jobs=1), "deal id"),
    ("survey number id", lambda: _survey([(7, DEAL_1)], jobs=1), "deal id"),
    ("survey deal", lambda: _survey([0], jobs=1), "deal"),
    ("survey jobs", lambda: _survey([1], jobs=0), "jobs"),
    ("survey method", lambda: _survey([1], jobs=1, method="shortest"), "method"),
    ("survey time_limit", lambda: _survey([1], jobs=1, time_limit=-2), "time_limit"),
    ("survey memory_mb", lambda: _survey([1], jobs=1, memory_mb=0), "memory_mb"),
    ("survey rules", lambda: _survey([DEAL_1], jobs=1, rules="good_measure"), "Good Measure"),
    ("Deal columns", lambda: Deal(COLUMNS + ((),)), "Deal.columns"),
    ("Deal ranks", lambda: Deal(COLUMNS, ranks=14), "Deal.ranks"),
    ("Deal foundations", lambda: Deal(COLUMNS, (0, 0, 0, 14)), "Deal.foundations"),
    ("Deal foundations count", lambda: Deal(COLUMNS, (0, 0, 0)), "Deal.foundations"),
    ("Deal missing card", lambda: Deal(COLUMNS[:-1] + ((),)), "missing"),
    ("Deal with_rules", lambda: DEAL_1.with_rules("good_measure"), "Good Measure"),
    ("Move source", lambda: Move(Card(1, 0), 14, 2), "Move.source"),
    ("Move target", lambda: Move(Card(1, 0), 1, -1), "Move.target"),
    ("Move same", lambda: Move(Card(1, 0), 3, 3), "Move.source"),
    ("Move foundations", lambda: Move(Card(1, 0), 0, 0), "FOUNDATION"),
    ("Card rank", lambda: Card(14, 0), "Card.rank"),
    ("Card suit", lambda: Card(1, 7), "Card.suit"),  # type: ignore[arg-type]
    ("Card index", lambda: Card.from_index(52), "index"),
    ("Rules knob", lambda: bakersdozen.BAKERS_DOZEN.replace(columns=99), "columns"),
    ("find_rules", lambda: bakersdozen.find_rules("no_such_game"), "no_such_game"),
    ("Deal.pysol number", lambda: Deal.pysol(0), "0"),
    ("Deal.pysol game", lambda: Deal.pysol(1, "no_such_game"), "no_such_game"),
    ("check move", lambda: check(DEAL_1, ["AS 1>F"]), "move 1"),
    ("replay_html move", lambda: bakersdozen.replay_html(DEAL_1, ["AS 1>F"]), "move 1"),
    ("Record.from_json", lambda: Record.from_json({"deal": "x", "verdict": "won"}), "record"),
    ("percentile", lambda: percentile([1.0], 0), "percentile"),
    ("wilson_interval", lambda: wilson_interval(5, 3), "successes"),
]


@pytest.mark.parametrize("call, words", [(c, w) for _, c, w in BAD_VALUES],
                         ids=[name for name, _, _ in BAD_VALUES])
def test_bad_values_are_the_packages_errors(call: Callable[[], object], words: str) -> None:
    with pytest.raises(BakersDozenError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


#: A wrong type stays a TypeError.
BAD_TYPES: list[tuple[str, Callable[[], object], str]] = [
    ("Move card", lambda: Move(None, 1, 2), "Move.card"),  # type: ignore[arg-type]
    ("Move source", lambda: Move(Card(1, 0), "1", 2), "Move.source"),  # type: ignore[arg-type]
    ("Deal rules", lambda: Deal(COLUMNS, rules="bakers_dozen"), "Deal.rules"),  # type: ignore[arg-type]
    ("Deal ranks", lambda: Deal(COLUMNS, ranks=13.0), "Deal.ranks"),  # type: ignore[arg-type]
    ("Deal card", lambda: Deal(COLUMNS[:-1] + (("7D",),)), "Deal.columns"),  # type: ignore[arg-type]
    ("Deal columns", lambda: Deal(5), "Deal.columns"),  # type: ignore[arg-type]
    ("Card rank", lambda: Card("A", 0), "Card.rank"),  # type: ignore[arg-type]
    ("solve time_limit", lambda: solve(DEAL_1, time_limit="10"), "time_limit"),  # type: ignore[arg-type]
    ("solve rules", lambda: solve(DEAL_1, rules=3), "rules"),  # type: ignore[arg-type]
    ("survey jobs", lambda: _survey([1], jobs="2"), "jobs"),  # type: ignore[arg-type]
    ("survey deal", lambda: _survey([1.5], jobs=1), "deal"),  # type: ignore[list-item]
    ("hint memory_mb", lambda: bakersdozen.hint(DEAL_1, memory_mb="64"), "memory_mb"),  # type: ignore[arg-type]
    ("find_rules", lambda: bakersdozen.find_rules(5), "str"),  # type: ignore[arg-type]
    ("Rules bool", lambda: bakersdozen.BAKERS_DOZEN.replace(foundation_return=1), "bool"),
    ("Deal.pysol game", lambda: Deal.pysol(1, game=5), "str"),  # type: ignore[arg-type]
    ("deadlock rules", lambda: deadlock(DEAL_1, rules=1.5), "rules"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call, words", [(c, w) for _, c, w in BAD_TYPES],
                         ids=[name for name, _, _ in BAD_TYPES])
def test_bad_types_are_type_errors(call: Callable[[], object], words: str) -> None:
    with pytest.raises(TypeError, match=words):
        call()


def test_error_classes() -> None:
    for error in (ArgumentError, PositionError, RulesError, bakersdozen.ParseError,
                  bakersdozen.IllegalMoveError):
        assert issubclass(error, BakersDozenError) and issubclass(error, ValueError)
    assert issubclass(PositionError, ArgumentError)


# -- time_limit=inf is no limit --------------------------------------------------


def test_infinite_time_limit_is_no_limit() -> None:
    solution = solve(DEAL_1, time_limit=math.inf, memory_mb=MEMORY_MB)
    assert solution.verdict is Verdict.SOLVED and check(DEAL_1, solution.moves).won
    assert bakersdozen.hint(DEAL_1, time_limit=math.inf, memory_mb=MEMORY_MB).move is not None
    assert bakersdozen.review(DEAL_1, LINE[:3], time_limit=math.inf,
                              memory_mb=MEMORY_MB).verdict is Verdict.SOLVED
    (record,) = bakersdozen.survey([1], jobs=1, time_limit=math.inf, memory_mb=MEMORY_MB)
    assert record.solved and record.time_limit is None  # JSON has no inf
    assert Record.from_json(record.to_json()) == record
    # -inf and nan are no limits at all
    for bad in (-math.inf, math.nan):
        with pytest.raises(ArgumentError, match="time_limit"):
            solve(DEAL_1, time_limit=bad)
