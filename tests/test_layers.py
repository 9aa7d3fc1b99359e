"""The layered search (``solve(..., method="layers")``, :mod:`bakersdozen._layers`).

Its verdicts are checked against the exhaustive search of tests/brute.py,
its count of stored positions against an independent enumeration written
here (a depth-first walk over the engine's own search moves, positions
keyed exactly), and its winning lines by :func:`bakersdozen.check`.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen.cards import Card, Suit
from bakersdozen import _layers, _search
from bakersdozen._position import Position
from bakersdozen.cli import main
from bakersdozen.rules import BAKERS_DOZEN, PORTUGUESE_SOLITAIRE, RulesError
from bakersdozen.solver import SEARCH_METHODS, LayersSearch, _engine_args, _to_move
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

#: Winnable positions of PySol deals, small enough for the layered search,
#: which lists nearly every position of a winnable deal before its first win
#: (whole winnable deals are too large: deal 1 ran out of 4 GiB): each the
#: position after the first moves of the default search's winning line of
#: the deal, with the positions the layered search stores and generates.
MIDGAME = {
    "24 after 47 moves": ("bakers_dozen", (
        "Foundations: H-9 C-6 D-9 S-9\nKD\nKC QC JS\nQD TD\n:\nKH QH JH TH\nJD TC\n"
        "7C QS JC\n:\n:\nKS TS 9C 8C\n:\n:\n:\n")),   # 20,071 stored, 79,340 generated
    "2 after 64 moves": ("bakers_dozen", (
        "Foundations: H-A C-9 D-5 S-8\nJH 9H 9D 8D\nTH\n:\n:\n7D\nKH QH JD TD 9S 8H\n"
        "KD QS JS TC\n5H 4H\n:\n7H 6H\nKC QC JC TS\n3H\nKS 2H 6D QD\n")),  # 79 stored
    "3 after 68 moves": ("bakers_dozen", (
        "Foundations: H-8 C-4 D-7 S-7\n5C\nKD QS JH TC 9H\n:\n8C 7C 6C\nKS QH JD TS 9C\n"
        "JC TD\n:\nKH QC JS TH 9D 8S\n:\n:\n:\n9S 8D\nKC QD\n")),  # 26 stored
    "Good Measure 2 after 37 moves": ("good_measure", (
        "Foundations: H-3 C-J D-2 S-0\nJH\nTH\n5S 4H 3S\nAS 9H KD QS\n"
        "7D TS 9D 8S 7H 6D 5D 4D\nKH KS QD JD TD\n8D 2S QH\n5H\n3D 9S 4S 6H QC JS\n"
        "KC 8H 7S 6S\n")),  # 62,693 stored, 216,037 generated
    # Portuguese Solitaire: Kings (only) go into empty columns
    "Portuguese 8 after 62 moves": ("portuguese_solitaire", (
        "Foundations: H-J C-9 D-9 S-7\n:\n:\nKH QS\nTD\nKD KS QC\n:\nKC QD JD\n:\n8S TC\n"
        ":\n:\nJC QH JS TS 9S\n:\n")),  # 11,452 stored, 21,905 generated
    "Portuguese 3 after 59 moves": ("portuguese_solitaire", (
        "Foundations: H-3 C-K D-6 S-T\nKS\nKH QH JD TD 9H\n:\n7H\n:\n8H\nTH\n:\n7D 6H 5H\n"
        "JH\n9D 8D\nJS 4H KD QD\nQS\n")),  # 39,970 stored, 102,178 generated
}


def reduced_portuguese(rng: random.Random, ranks: int, ncols: int, home: int = 0) -> Deal:
    """A random position of Portuguese Solitaire's play with a pack of ranks
    1..ranks: :func:`reduced_deal`'s, the Kings left where they were dealt."""
    found = tuple(rng.randint(0, home) for _ in range(4))
    cards = [Card(r, Suit(s)) for s in range(4) for r in range(found[s] + 1, ranks + 1)]
    rng.shuffle(cards)
    n = len(cards)
    columns = tuple(tuple(cards[i * n // ncols:(i + 1) * n // ncols]) for i in range(ncols))
    return Deal(columns, found, ranks, rules=PORTUGUESE_SOLITAIRE)  # type: ignore[arg-type]


def midgame(name: str) -> Deal:
    game, text = MIDGAME[name]
    return Deal.from_text(text, rules=game)


def _no_default_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("the default search ran: the layers gave no line")


@contextlib.contextmanager
def refusing_default_search() -> Iterator[None]:
    """A block in which making a DepthFirstSearch fails the test: a line the
    layered search returns there is its own."""
    with mock.patch.object(_search, "DepthFirstSearch", _no_default_search):
        yield

Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def _key(position: Position) -> Key:
    return tuple(sorted(tuple(c) for c in position.columns)), tuple(position.foundations)


def stuck_cards(columns: Sequence[Sequence[int]], foundations: Sequence[int],
                ranks: int) -> set[int]:
    """The cards that can never move where Kings (only) go into empty
    columns, as sets (the engine's bitboard version is
    ``_position.deadlock_set_but``): the greatest set F of tableau cards
    other than Kings each of which has a lower card of its suit beneath a
    card of F, and each card one rank higher of which is home or beneath a
    card of F."""
    home = {4 * (r - 1) + p for p in range(4) for r in range(1, foundations[p] + 1)}
    stuck = {c for column in columns for c in column if c // 4 + 1 != ranks}
    while True:
        beneath = set()
        for column in columns:
            heights = [i for i, c in enumerate(column) if c in stuck]
            if heights:
                beneath.update(column[:max(heights)])
        kept = {y for y in stuck
                if any(c % 4 == y % 4 and c < y for c in beneath)
                and all(4 * (y // 4 + 1) + p in home | beneath for p in range(4))}
        if kept == stuck:
            return stuck
        stuck = kept


def kept_moves(position: Position, kings: bool, ranks: int) -> list[tuple[int, int, int]]:
    """The engine's search moves of *position*; where Kings go into empty
    columns (*kings*), as the layered search plays them: none if some cards
    can never move (:func:`stuck_cards`), and a safe foundation move played
    alone is the lowest card's (the search's first column's depends on the
    columns' order, which rebuilding a position changes)."""
    if kings:
        if stuck_cards(position.columns, position.foundations, ranks):
            return []
        lowest = min(position.foundations)  # all four cards of rank r - 2 home: r is safe
        safe = [move for move in position.legal_moves()
                if move[2] == -1 and move[0] // 4 + 1 <= max(2, lowest + 2)]
        if safe:
            return [min(safe)]
    return list(position.search_moves())


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
    kings = tuple(play)[2] == 2     # empty columns take Kings only
    root = Position(*args)
    seen = {_key(root)}
    # a frame: the Position it is in, its moves still to try, its depth in that Position
    stack: list[tuple[Position, Iterator[tuple[int, int, int]], int]] = [
        (root, iter(kept_moves(root, kings, ranks)), 0)]
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
            stack.append((position, iter(kept_moves(position, kings, ranks)), depth + 1))
        else:
            fresh = Position(position.columns, position.foundations, ranks, play)
            position.unmake()
            stack.append((fresh, iter(kept_moves(fresh, kings, ranks)), 0))
    return len(seen)


def layered(deal: Deal, memory_mb: float = MEMORY_MB, **limits: float) -> tuple[int, ...]:
    """``LayeredSearch(...).run(...)`` of *deal*, less the move list: the
    line of a win, replayed as it is (not shortened) by the checker."""
    status, raw, nodes, rounds, stored = _layers.LayeredSearch(
        *_engine_args(deal), memory_mb=memory_mb).run(**limits)
    assert rounds == 1
    if status == _search.SOLVED:
        assert_raw_line_wins(deal, raw)
    else:
        assert raw == []
    return status, nodes, stored


def assert_line_wins(deal: Deal, moves: Sequence[object]) -> None:
    assert moves and check(deal, moves).won  # type: ignore[arg-type]


def assert_raw_line_wins(deal: Deal, raw: Sequence[tuple[int, int, int]]) -> None:
    """The engine's line *raw* replays, move by move, to a win (none needed for a won deal)."""
    moves = [_to_move(m) for m in raw]
    assert check(deal, moves).won and (moves or not deal.cards_left)


# -- verdicts against brute force ----------------------------------------------

def test_layers_is_a_search_method() -> None:
    assert "layers" in SEARCH_METHODS and "layers" in SURVEY_METHODS


@settings(max_examples=160, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2), portuguese=st.booleans())
def test_layers_agree_with_brute_force(seed: int, ranks: int, ncols: int, home: int,
                                       portuguese: bool) -> None:
    # a winnable pack's line is the layers' own: the default search never
    # runs.  Portuguese Solitaire: Kings go into empty columns, a rebuilt
    # position holds them in the first such columns, and its line is
    # replayed in the deal's own
    deal = (reduced_portuguese if portuguese else reduced_deal)(random.Random(seed), ranks,
                                                                ncols, home)
    with refusing_default_search():
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


# -- winning lines traced back through the layers ----------------------------------

@pytest.mark.parametrize("name", list(MIDGAME))
def test_winnable_positions_of_pysol_deals_get_the_layers_line(name: str) -> None:
    deal = midgame(name)
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    status, raw, _nodes, _rounds, stored = search.run()
    assert status == _search.SOLVED and stored > 1
    assert_raw_line_wins(deal, raw)  # the line as traced, move by move
    assert search.stats["kept"] == 1 and search.stats["kept_bytes"] > 0
    with refusing_default_search():
        solution = solve(deal, time_limit=None, method="layers", memory_mb=MEMORY_MB)
    assert solution.verdict is Verdict.SOLVED and solution.reason is None
    assert_line_wins(deal, solution.moves)


def test_the_kept_stream_changes_no_count() -> None:
    # the same positions stored, generated and lost, with or without the stream
    deal = Deal.pysol(16780)
    kept = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    plain = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    plain.keep_lines = False
    assert kept.run() == plain.run() == (_search.UNSOLVABLE, [], 623365, 1, 235290)
    assert kept.stats["kept_bytes"] > 0 and plain.stats["kept_bytes"] == 0
    same = ("layers", "largest", "lost", "peak_positions", "top_progress")
    assert {k: kept.stats[k] for k in same} == {k: plain.stats[k] for k in same}
    with pytest.raises(RuntimeError, match="before the search"):
        kept.keep_lines = True


def test_a_stream_that_outgrows_the_budget_is_let_go() -> None:
    # The layers of this position fit in 0.2 MiB, not with the stream beside
    # them: the stream goes, the search ends as without it, and the line
    # comes from the default search
    deal = midgame("24 after 47 moves")
    budget = 0.2
    plain = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    plain.keep_lines = False
    status, raw, nodes, _rounds, stored = plain.run()
    assert status == _search.SOLVED and raw == []
    assert plain.stats["peak_bytes"] < budget * 2**20
    kept = _layers.LayeredSearch(*_engine_args(deal), memory_mb=MEMORY_MB)
    kept.run()
    assert kept.stats["peak_bytes"] > budget * 2**20
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=budget)
    assert search.run() == (_search.SOLVED, [], nodes, 1, stored)
    assert search.stats["kept"] == 0 and search.stats["kept_bytes"] == 0
    assert search.stats["peak_bytes"] <= budget * 2**20
    # solve() takes 1 MiB at least: the search method, with the default search after it
    status, raw, more, _rounds, _stored = LayersSearch(*_engine_args(deal), memory_mb=budget).run()
    assert status == _search.SOLVED and more > nodes
    assert_raw_line_wins(deal, raw)


# -- every reachable position, counted -------------------------------------------

@settings(max_examples=250, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2), portuguese=st.booleans())
def test_layers_store_every_reachable_position(seed: int, ranks: int, ncols: int,
                                               home: int, portuguese: bool) -> None:
    # An unsolvable pack: the layers hold every position the search moves
    # reach, each once (Portuguese Solitaire: up to column order, the walk's
    # key sorting the columns).  A solvable one: the search stops at its
    # first win, having stored some of them.
    deal = (reduced_portuguese if portuguese else reduced_deal)(random.Random(seed), ranks,
                                                                ncols, home)
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
                          "most_progress", "peak_bytes", "budget", "kept", "kept_bytes"}
    assert stats["kept"] == 1 and 0 < stats["kept_bytes"] <= stats["peak_bytes"]
    assert 0 < stats["progress"] <= stats["top_progress"] <= stats["most_progress"]
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
    (72, "portuguese_solitaire", 55), (9757, "portuguese_solitaire", 5291),
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

@pytest.mark.parametrize("number", [4660, 5257, 9757, 18483])
def test_portuguese_unsolvable_deals(number: int) -> None:
    # proved by the default search too (18483 after 6 million positions)
    deal = Deal.pysol(number, game="portuguese_solitaire")
    solution = solve(deal, time_limit=None, method="layers")
    assert solution.verdict is Verdict.UNSOLVABLE and solution.reason is None
    assert solve(deal, time_limit=None).verdict is Verdict.UNSOLVABLE


@pytest.mark.parametrize("game", ["spanish_patience", "spanish_patience_ii", "castles_in_spain"])
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


def test_a_win_within_max_nodes_needs_no_more_nodes_for_its_line() -> None:
    # one card left: the layered search wins with its first node, and its
    # line comes from the layers, not from a search that would need a node more
    deal = Deal(((Card(13, Suit.HEARTS),),) + ((),) * 12, (13, 13, 12, 13), 13)
    with refusing_default_search():
        won = solve(deal, method="layers", max_nodes=1, time_limit=None)
    assert (won.verdict, won.reason, won.nodes) == (Verdict.SOLVED, None, 1)
    assert [str(m) for m in won.moves] == ["KH 1>F"] and check(deal, won.moves).won


def test_node_limit_holds_when_the_layers_keep_no_line() -> None:
    # with the kept stream let go, a win needs the default search, which
    # may not take a node beyond max_nodes
    deal = Deal(((Card(13, Suit.HEARTS),),) + ((),) * 12, (13, 13, 12, 13), 13)
    original = _layers.LayeredSearch

    def without_lines(*args: object, **kwargs: object) -> _layers.LayeredSearch:
        search = original(*args, **kwargs)  # type: ignore[arg-type]
        search.keep_lines = False
        return search

    with mock.patch.object(_layers, "LayeredSearch", without_lines):
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
    assert "--layers plays Baker's Dozen's play knobs" in err and "--proof" in err
    assert "foundation_build=" in err and "kings_only" in err
    assert main(["solve", "--deal", "4660", "--layers", "--game", "portuguese_solitaire"]) == 1
    assert "verdict: unsolvable" in capsys.readouterr().out
    # a knob it does play is not named as the one in the way
    assert main(["solve", "--deal", "3", "--layers", "--game", "portuguese_solitaire",
                 "--move-unit", "sequence"]) == 2
    err = capsys.readouterr().err
    assert "has moves=sequence:" in err


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
