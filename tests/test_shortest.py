"""Shortest winning lines (``solve(..., method="shortest")``), witnessed from outside.

- On reduced packs, the length of the engine's shortest line equals the
  distance a pure-Python breadth-first search finds (``tests/brute.py``),
  and the engine's lower bound never exceeds it (it is admissible).
- Every line is replayed by ``bakersdozen.check``.
- The windowed shortening of default lines keeps them winning.
- ``optimal`` and ``lower_bound`` survive ``solve --json`` and a JSON round
  trip; records written before they existed still read.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen import _search, _shortest
from bakersdozen.cli import main
from bakersdozen.records import Record
from bakersdozen.rules import RulesError
from bakersdozen.solver import SEARCH_METHODS, _engine_args, _to_move

from brute import shortest_win_length
from test_solver import reduced_deal

DATA = Path(__file__).resolve().parent / "data"


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.integers(3, 4),
    ncols=st.integers(2, 7),
    home=st.integers(0, 2),
)
def test_shortest_length_matches_breadth_first_search(
    seed: int, ranks: int, ncols: int, home: int
) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    expected = shortest_win_length(deal)
    solution = solve(deal, time_limit=None, method="shortest", memory_mb=4)
    assert _shortest.root_bound(*_engine_args(deal)[:3]) <= (expected if expected is not None else 10**9)
    if expected is None:
        assert solution.verdict is Verdict.UNSOLVABLE
        assert not solution.optimal and solution.lower_bound == 0
        return
    assert solution.verdict is Verdict.SOLVED
    assert check(deal, solution.moves).won
    assert len(solution.moves) == expected
    assert solution.optimal and solution.lower_bound == expected


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 4), ncols=st.integers(2, 7))
def test_ida_alone_finds_the_breadth_first_length(seed: int, ranks: int, ncols: int) -> None:
    # The engine's IDA* with no upper bound (no default line to beat), on
    # deals that can be won (deciding is the depth-first search's job:
    # without a bound, IDA* on a lost deal raises its threshold up to the
    # longest path of positions before it can say so).
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    expected = shortest_win_length(deal)
    assume(expected is not None)
    assert expected is not None
    status, raw, _nodes, bound, _its = _shortest.ShortestSearch(
        *_engine_args(deal)[:3], memory_mb=1
    ).run()
    assert status == _shortest.FOUND and bound == expected == len(raw)
    assert check(deal, tuple(_to_move(m) for m in raw)).won


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(4, 6), ncols=st.integers(3, 7))
def test_default_lines_are_no_shorter_than_shortest(seed: int, ranks: int, ncols: int) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    default = solve(deal, time_limit=None, memory_mb=4)
    best = solve(deal, time_limit=None, method="shortest", memory_mb=4)
    assert default.verdict is best.verdict
    if default.solved:
        assert check(deal, default.moves).won and check(deal, best.moves).won
        assert best.lower_bound == len(best.moves) <= len(default.moves)
        assert default.lower_bound <= len(best.moves)
        assert default.optimal == (len(default.moves) == default.lower_bound)


@pytest.mark.parametrize("number", [1, 2, 3, 24])
def test_window_shortening_keeps_lines_winning(number: int) -> None:
    deal = Deal.pysol(number)
    args = _engine_args(deal)[:3]
    status, raw, *_ = _search.DepthFirstSearch(*args, memory_mb=16).run()
    assert status == _search.SOLVED
    for width, budget in ((1, 10), (2, 100), (3, 40), (4, 1000)):
        shorter = _shortest.window_shorten(*args, raw, width, budget)
        assert len(shorter) <= len(raw)
        assert check(deal, tuple(_to_move(m) for m in shorter)).won
    with pytest.raises(ValueError, match="does not win"):
        _shortest.window_shorten(*args, raw[:-1], 3, 40)
    with pytest.raises(ValueError, match="width"):
        _shortest.window_shorten(*args, raw, 0, 40)


def test_deal_1_loses_its_shuffle() -> None:
    # The default search's line for deal 1 has a 9-move shuffle that 3 moves
    # replace; the windowed shortening finds it (93 moves before it, 85 after).
    solution = solve(Deal.pysol(1))
    assert solution.solved and len(solution.moves) <= 85


def test_shortest_is_a_search_method_and_proves_deal_5() -> None:
    assert "shortest" in SEARCH_METHODS
    deal = Deal.pysol(5)
    solution = solve(deal, method="shortest", time_limit=None)
    assert solution.solved and solution.optimal
    assert len(solution.moves) == solution.lower_bound == 63
    assert check(deal, solution.moves).won
    assert len(solve(deal).moves) > 63


def test_a_limit_keeps_the_default_line_and_the_gap() -> None:
    deal = Deal.pysol(1)
    default = solve(deal)
    cut = solve(deal, method="shortest", max_nodes=default.nodes + 1000)
    assert cut.solved and not cut.optimal
    assert cut.moves == default.moves
    assert default.lower_bound <= cut.lower_bound < len(cut.moves)


def test_max_nodes_holds_for_the_whole_shortest_search() -> None:
    # IDA* once counted the node it refused at the limit: a budget of n
    # reported n + 1 positions (deal 1, max_nodes 200: 201).
    deal = Deal.pysol(1)
    for limit in range(200, 2000, 97):
        solution = solve(deal, max_nodes=limit, method="shortest", memory_mb=64)
        assert solution.verdict is Verdict.SOLVED and solution.nodes <= limit, limit
        assert check(deal, solution.moves).won


def test_an_unsolvable_deal_stays_unsolvable() -> None:
    solution = solve(Deal.pysol(64), method="shortest")
    assert solution.verdict is Verdict.UNSOLVABLE and not solution.moves


def test_won_position_needs_no_moves() -> None:
    deal = Deal(tuple(() for _ in range(3)), (3, 3, 3, 3), 3)  # type: ignore[arg-type]
    solution = solve(deal, method="shortest")
    assert solution.solved and solution.moves == () and solution.optimal


def test_cli_solve_shortest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "5", "--shortest", "--time-limit", "none"]) == 0
    out = capsys.readouterr().out
    assert "length: 63 (proven shortest)" in out
    assert main(["solve", "--deal", "5", "--shortest", "--json", "--time-limit", "none"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimal"] is True and data["lower_bound"] == data["length"] == 63
    record = Record.from_json(data)
    assert record.optimal is True and record.lower_bound == 63
    assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record
    deal = Deal.pysol(5)
    assert record.moves is not None and check(deal, record.moves).won
    assert main(["solve", "--deal", "3", "--shortest", "--max-nodes", "30000"]) == 0
    assert "every winning line needs at least" in capsys.readouterr().out


def test_records_without_the_fields_still_read() -> None:
    lines = (DATA / "survey-0.1.0.jsonl").read_text().splitlines()
    for line in lines:
        record = Record.from_json(json.loads(line))
        assert record.optimal is None and record.lower_bound is None
        assert "optimal" not in record.to_json() and "lower_bound" not in record.to_json()
    data = json.loads(lines[0])
    data.update(optimal="true", lower_bound="70")  # as a CSV cell would give them
    record = Record.from_json(data)
    assert record.optimal is True and record.lower_bound == 70
    with pytest.raises(Exception, match="not a record"):
        Record.from_json({**data, "optimal": "maybe"})


def test_hint_takes_the_first_move_of_a_proven_shortest_line() -> None:
    from bakersdozen.analysis import hint

    deal = Deal.pysol(1)
    line = solve(deal).moves
    position = check(deal, line[:-25]).position
    answer = hint(position, time_limit=None)
    assert answer.solution.solved and answer.solution.optimal
    assert answer.move == answer.solution.moves[0]
    assert len(answer.solution.moves) == answer.solution.lower_bound <= 25
    assert check(position, answer.solution.moves).won


@pytest.mark.parametrize("game", ["spanish_patience", "castles_in_spain", "spanish_patience_ii"])
def test_shortest_is_refused_where_its_proofs_do_not_hold(game: str) -> None:
    deal = Deal.pysol(2, game=game)
    with pytest.raises(RulesError, match="Baker's Dozen's play only"):
        solve(deal, method="shortest")
    solution = solve(deal, max_nodes=2_000_000)
    # the default search still reports a proven bound: the cards not home
    assert solution.lower_bound == deal.cards_left
    if solution.solved:
        assert check(deal, solution.moves).won and len(solution.moves) >= solution.lower_bound


def test_shortest_plays_good_measure_layout() -> None:
    deal = Deal.pysol(2, game="good_measure")
    solution = solve(deal, method="shortest", time_limit=30)
    assert solution.solved and check(deal, solution.moves).won
    assert solution.lower_bound <= len(solution.moves)


@pytest.mark.parametrize("flags, knobs", [
    (["--game", "castles_in_spain"], "build=alternate_colours, moves=supermove, empty_column=any_card"),
    (["--foundation-return"], "foundation_return=True"),
    (["--empty-column", "any_card"], "empty_column=any_card"),
])
def test_cli_shortest_elsewhere_names_the_knobs_and_the_way_out(
        flags: list[str], knobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    # it used to advise "use method='dfs'", the Python API's word, on the command line
    from bakersdozen.cli import main

    assert main(["solve", "--deal", "2", "--shortest", *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "method=" not in err
    assert f"has {knobs}: leave out --shortest" in err
    assert main(["solve", "--deal", "2", "--shortest", "--kings", "none",
                 "--max-nodes", "10"]) == 2  # a layout knob is fine; no PySol numbers though
    assert "no PySol deal numbers" in capsys.readouterr().err
