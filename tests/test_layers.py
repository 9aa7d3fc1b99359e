"""The layered search (``solve(..., method="layers")``, :mod:`bakersdozen._layers`).

Its verdicts are checked against the exhaustive search of tests/brute.py,
its count of stored positions against an independent enumeration written
here (a depth-first walk over the engine's own search moves, positions
keyed exactly), and its winning lines by :func:`bakersdozen.check`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen.cards import Card, Suit
from bakersdozen import _layers, _search
from bakersdozen._position import Position
from bakersdozen.cli import main
from bakersdozen.rules import BAKERS_DOZEN, RulesError
from bakersdozen.solver import SEARCH_METHODS, _engine_args
from bakersdozen.survey import read_records
from bakersdozen.survey.tasks import SURVEY_METHODS
from brute import brute_force_solvable
from test_solver import reduced_deal

#: Small enough for the layers of a test deal, cheap to allocate.
MEMORY_MB = 64

#: PySol deals no line wins: 64 and 477 are lost as dealt (a deadlock), 3266
#: and 5143 are lost after a search.
UNSOLVABLE = (64, 477, 3266, 5143)

#: Good Measure deals the default search proves unsolvable in well under a
#: second (found by solving deals 1..300 with time_limit=2), each after a
#: search of some thousands of positions or more.
GOOD_MEASURE_UNSOLVABLE = (14, 78, 111, 178)

#: Moves made in one Position before the walk goes on from a new one (< 4096).
DEPTH = 4000

Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def _key(position: Position) -> Key:
    return tuple(sorted(tuple(c) for c in position.columns)), tuple(position.foundations)


def reachable_positions(
    args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
) -> int:
    """Distinct positions reached from *args* by the engine's search moves
    (the root, and every position reached, with moves or not).

    A depth-first walk with make/unmake.  A Position keeps at most 4096
    moves to unmake, and a walk can go deeper: every DEPTH moves it goes on
    from a new Position of the same columns, in the same order
    (``search_moves`` reads the position alone, not the moves that led to it).
    """
    _columns, _foundations, ranks, play = args
    root = Position(*args)
    seen = {_key(root)}
    # a frame: the Position it is in, its moves still to try, its depth in that Position
    stack: list[tuple[Position, Iterator[tuple[int, int, int]], int]] = [
        (root, iter(root.search_moves()), 0)]
    while stack:
        position, moves, depth = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            if depth:
                position.unmake()
            continue
        position.make(move)
        key = _key(position)
        if key in seen:
            position.unmake()
            continue
        seen.add(key)
        if depth + 1 < DEPTH:
            stack.append((position, iter(position.search_moves()), depth + 1))
        else:
            fresh = Position(position.columns, position.foundations, ranks, play)
            position.unmake()
            stack.append((fresh, iter(fresh.search_moves()), 0))
    return len(seen)


def layered(deal: Deal, memory_mb: float = MEMORY_MB, **limits: float) -> tuple[int, ...]:
    """``LayeredSearch(...).run(...)`` of *deal*, less the (empty) move list."""
    status, raw, nodes, rounds, stored = _layers.LayeredSearch(
        *_engine_args(deal), memory_mb=memory_mb).run(**limits)
    assert raw == [] and rounds == 1
    return status, nodes, stored


def assert_line_wins(deal: Deal, moves: Sequence[object]) -> None:
    assert moves and check(deal, moves).won  # type: ignore[arg-type]


# -- verdicts against brute force ----------------------------------------------

def test_layers_is_a_search_method() -> None:
    assert "layers" in SEARCH_METHODS and "layers" in SURVEY_METHODS


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2))
def test_layers_agree_with_brute_force(seed: int, ranks: int, ncols: int, home: int) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    solution = solve(deal, time_limit=None, method="layers")
    expected = brute_force_solvable(deal)
    assert solution.verdict is (Verdict.SOLVED if expected else Verdict.UNSOLVABLE)
    assert solution.reason is None
    if solution.solved:
        assert_line_wins(deal, solution.moves)


def test_a_winnable_reduced_pack_is_won_with_a_checked_line() -> None:
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    assert brute_force_solvable(deal)
    status, _nodes, stored = layered(deal)
    assert status == _search.SOLVED and stored >= 1
    solution = solve(deal, time_limit=None, method="layers")
    assert solution.verdict is Verdict.SOLVED and solution.reason is None
    assert_line_wins(deal, solution.moves)


# -- every reachable position, counted -------------------------------------------

@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2))
def test_layers_store_every_reachable_position(seed: int, ranks: int, ncols: int,
                                               home: int) -> None:
    # An unsolvable pack: the layers hold every position the search moves
    # reach, each once.  A solvable one: the search stops at its first win,
    # having stored some of them.
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    status, _nodes, stored = layered(deal)
    expected = reachable_positions(_engine_args(deal))
    if brute_force_solvable(deal):
        assert status == _search.SOLVED and 1 <= stored <= expected
    else:
        assert status == _search.UNSOLVABLE and stored == expected


def test_deal_16780_has_235290_positions() -> None:
    deal = Deal.pysol(16780)
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    status, _raw, nodes, _rounds, stored = search.run()
    assert status == _search.UNSOLVABLE
    assert stored == reachable_positions(_engine_args(deal)) == 235290
    assert nodes >= stored - 1  # every stored position but the root was generated
    stats = search.stats
    assert set(stats) == {"layers", "largest", "peak_positions", "lost", "progress", "top_progress",
                          "peak_bytes", "budget"}
    assert 0 < stats["progress"] <= stats["top_progress"]
    assert stats["budget"] == MEMORY_MB * 2**20
    assert 0 < stats["peak_bytes"] <= stats["budget"]
    assert 0 < stats["largest"] <= stats["peak_positions"] <= stored
    assert 1 < stats["layers"] <= stored and stats["lost"] <= stored


@pytest.mark.parametrize("words", [2, 3, 64])
def test_a_small_work_stack_expands_every_position_once(words: int) -> None:
    # the layers' positions wait in their hash sets, marked when they go on
    # the stack: a stack of a few words sweeps the sets many times, and the
    # counts are those of a stack that holds every layer
    deal = Deal.pysol(16780)
    whole = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    assert whole.stack_words >= 2**17  # 1/16 of 64 MiB, in words: more than any layer
    expected = whole.run()
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    search.stack_words = words
    assert search.run() == expected == (_search.UNSOLVABLE, [], 623365, 1, 235290)
    assert search.stats["lost"] == whole.stats["lost"]
    assert search.stats["largest"] == whole.stats["largest"] == 1920


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2), words=st.integers(2, 6))
def test_a_small_work_stack_stores_every_reachable_position(seed: int, ranks: int, ncols: int,
                                                            home: int, words: int) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    search.stack_words = words
    status, _raw, _nodes, _rounds, stored = search.run()
    if status == _search.UNSOLVABLE:
        assert stored == reachable_positions(_engine_args(deal))
    else:
        assert status == _search.SOLVED and brute_force_solvable(deal)


def test_stack_words_are_checked() -> None:
    with pytest.raises(ValueError, match="stack_words"):
        _layers.LayeredSearch(*_engine_args(Deal.pysol(1))).stack_words = 1


@pytest.mark.parametrize(("number", "game", "count"), [
    (3266, "bakers_dozen", 6685), (5143, "bakers_dozen", 2529),
    (14, "good_measure", 650), (78, "good_measure", 23138), (111, "good_measure", 4841),
])
def test_unsolvable_deals_have_every_reachable_position(number: int, game: str,
                                                        count: int) -> None:
    deal = Deal.pysol(number, game=game)
    status, _nodes, stored = layered(deal)
    assert status == _search.UNSOLVABLE
    assert stored == reachable_positions(_engine_args(deal)) == count


# -- known verdicts ----------------------------------------------------------------

@pytest.mark.parametrize("number", UNSOLVABLE)
def test_known_unsolvable_deals(number: int) -> None:
    deal = Deal.pysol(number)
    solution = solve(deal, time_limit=None, method="layers")
    assert solution.verdict is Verdict.UNSOLVABLE and solution.reason is None
    assert not solution.moves
    proof = solve(deal, time_limit=None, method="proof")
    assert proof.verdict is solution.verdict
    status, nodes, stored = layered(deal)
    assert status == _search.UNSOLVABLE and nodes == solution.nodes
    if number in (64, 477):  # lost as dealt: the root alone, never expanded
        assert (nodes, stored) == (0, 1)
    else:
        assert stored > 1


@pytest.mark.parametrize("number", GOOD_MEASURE_UNSOLVABLE)
def test_good_measure_unsolvable_deals(number: int) -> None:
    deal = Deal.pysol(number, game="good_measure")
    assert solve(deal, time_limit=10).verdict is Verdict.UNSOLVABLE
    solution = solve(deal, time_limit=None, method="layers")
    assert solution.verdict is Verdict.UNSOLVABLE and solution.nodes > 0


# -- refusals ------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["spanish_patience", "portuguese_solitaire"])
def test_other_play_is_refused(game: str) -> None:
    with pytest.raises(RulesError, match="Baker's Dozen's play"):
        solve(Deal.pysol(1), rules=game, method="layers")
    with pytest.raises(ValueError, match="Baker's Dozen's play"):
        _layers.LayeredSearch(*_engine_args(Deal.pysol(1), BAKERS_DOZEN.replace(
            build="same_suit")))


def test_bad_budgets_are_refused() -> None:
    args = _engine_args(Deal.pysol(1))
    for memory_mb in (0.0, -1.0, float("nan"), 2.0**21):
        with pytest.raises(ValueError, match="memory_mb"):
            _layers.LayeredSearch(*args, memory_mb=memory_mb)


def test_a_layered_search_runs_once() -> None:
    search = _layers.LayeredSearch(*_engine_args(Deal.pysol(3266)), memory_mb=MEMORY_MB)
    assert search.run()[0] == _search.UNSOLVABLE
    with pytest.raises(RuntimeError, match="once"):
        search.run()


def test_a_bad_position_is_refused() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        _layers.LayeredSearch([[0, 0]], (0, 0, 0, 0), 1)


# -- limits --------------------------------------------------------------------------

def test_memory_limit() -> None:
    solution = solve(Deal.pysol(24), method="layers", memory_mb=16, time_limit=None)
    assert (solution.verdict, solution.reason) == (Verdict.UNKNOWN, "memory_mb")
    assert layered(Deal.pysol(24), memory_mb=16)[0] == _search.OUT_OF_MEMORY


def test_node_limit() -> None:
    solution = solve(Deal.pysol(24), method="layers", max_nodes=1000, time_limit=None)
    assert (solution.verdict, solution.reason) == (Verdict.UNKNOWN, "max_nodes")
    assert solution.nodes == 1000
    status, nodes, _stored = layered(Deal.pysol(24), max_nodes=1000)
    assert (status, nodes) == (_search.NODE_LIMIT, 1000)


def test_node_limit_holds_when_the_layers_reach_a_win() -> None:
    # one card left: the layered search wins with its first node, and has
    # no line; the default search may not take a node beyond max_nodes
    deal = Deal(((Card(13, Suit.HEARTS),),) + ((),) * 12, (13, 13, 12, 13), 13)
    capped = solve(deal, method="layers", max_nodes=1, time_limit=None)
    assert (capped.verdict, capped.reason, capped.nodes) == (Verdict.UNKNOWN, "max_nodes", 1)
    won = solve(deal, method="layers", max_nodes=2, time_limit=None)
    assert won.verdict is Verdict.SOLVED and won.nodes == 2 and check(deal, won.moves).won


def test_time_limit() -> None:
    # deal 1's layers are wide: no win within 10 s, let alone 0.05 s
    solution = solve(Deal.pysol(1), method="layers", time_limit=0.05)
    assert (solution.verdict, solution.reason) == (Verdict.UNKNOWN, "time_limit")


# -- the command line ----------------------------------------------------------------

def test_cli_solve_layers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "3266", "--layers"]) == 1
    assert "verdict: unsolvable" in capsys.readouterr().out
    assert main(["solve", "--deal", "3266", "--layers", "--proof"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["solve", "--deal", "5", "--layers", "--game", "spanish_patience"]) == 2
    err = capsys.readouterr().err
    assert "--layers plays Baker's Dozen's play knobs only" in err and "--proof" in err


def test_cli_survey_refuses_other_play_before_writing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "refused.jsonl"
    assert main(["survey", "1-3", "--layers", "--game", "spanish_patience", "--jobs", "1",
                 "--output", str(out)]) == 2
    assert "--proof" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_cli_survey_layers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "layers.jsonl"
    assert main(["survey", "3266,5143,477", "--layers", "--jobs", "1", "--time-limit", "none",
                 "--memory-mb", str(MEMORY_MB), "--output", str(out)]) == 0
    capsys.readouterr()
    lines = _jsonl(out)
    assert sorted(line["deal"] for line in lines) == [477, 3266, 5143]  # type: ignore[type-var]
    assert {line["method"] for line in lines} == {"layers"}
    assert {line["verdict"] for line in lines} == {"unsolvable"}
    assert {r.method for r in read_records(str(out))} == {"layers"}
    assert main(["survey", "1-2", "--layers", "--proof", "--output", str(out)]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_cli_retry_unknown_with_layers(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "retry.jsonl"
    base = ["--jobs", "1", "--memory-mb", str(MEMORY_MB), "--output", str(out)]
    assert main(["survey", "3266,5143", "--max-nodes", "200", *base]) == 0
    first = read_records(str(out))
    assert {r.verdict for r in first} == {Verdict.UNKNOWN}
    capsys.readouterr()
    assert main(["survey", "--retry-unknown", "--layers", "--time-limit", "none", *base]) == 0
    assert "unknown 0" in capsys.readouterr().out
    records = read_records(str(out))
    retried = records[len(first):]
    assert sorted(r.deal for r in retried) == [3266, 5143]
    assert {r.method for r in retried} == {"layers"}
    assert {r.verdict for r in retried} == {Verdict.UNSOLVABLE}
