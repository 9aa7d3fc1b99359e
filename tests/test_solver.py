"""The engine's verdicts, witnessed from outside the engine.

- Every winning line is replayed by ``bakersdozen.check`` (which shares no
  code with the engine).
- Every verdict on a reduced pack is compared with an exhaustive
  pure-Python search (``tests/brute.py``).
- Published facts: PySol deals 64 and 477 are unsolvable (Freecell Solver
  proved both; earlier measurements), most of deals 1-100 are
  solvable.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Card, Deal, Solution, Suit, Verdict, check, legal_moves, solve
from bakersdozen import _position, _search
from bakersdozen.cli import main
from bakersdozen.solver import _engine_args, simplify

from brute import brute_force_solvable
from children import default_sigint


def reduced_deal(rng: random.Random, ranks: int, ncols: int, home: int = 0) -> Deal:
    """A random position of a pack of ranks 1..ranks.

    Cards of rank <= *home* of some suits start on the foundations (a random
    height per suit up to *home*); the rest are shuffled into *ncols*
    columns of near-equal height with the stable Kings rule (top rank to
    the bottom).
    """
    found = tuple(rng.randint(0, home) for _ in range(4))
    cards = [Card(r, Suit(s)) for s in range(4) for r in range(found[s] + 1, ranks + 1)]
    rng.shuffle(cards)
    n = len(cards)
    columns = [cards[i * n // ncols:(i + 1) * n // ncols] for i in range(ncols)]
    columns = [
        [c for c in col if c.rank == ranks] + [c for c in col if c.rank != ranks]
        for col in columns
    ]
    return Deal(tuple(map(tuple, columns)), found, ranks)  # type: ignore[arg-type]


def assert_wins(deal: Deal, solution: Solution) -> None:
    assert solution.verdict is Verdict.SOLVED
    assert solution.reason is None
    assert check(deal, solution.moves).won


# -- soundness and completeness against brute force -------------------------

@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.integers(3, 5),
    ncols=st.integers(2, 7),
    home=st.integers(0, 2),
)
def test_verdict_matches_brute_force(seed: int, ranks: int, ncols: int, home: int) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    expected = brute_force_solvable(deal)
    solution = solve(deal, time_limit=None)
    if expected:
        assert_wins(deal, solution)
    else:
        assert solution.verdict is Verdict.UNSOLVABLE
        assert solution.moves == ()


def test_brute_force_sample_has_both_verdicts() -> None:
    """The comparison above means something only if both verdicts occur."""
    rng = random.Random(2026)
    verdicts = {True: 0, False: 0}
    for _ in range(300):
        deal = reduced_deal(rng, rng.randint(3, 5), rng.randint(2, 7))
        expected = brute_force_solvable(deal)
        verdicts[expected] += 1
        assert solve(deal, time_limit=None).solved is expected
    assert verdicts[True] >= 30 and verdicts[False] >= 30, verdicts


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(4, 6), ncols=st.integers(3, 7))
def test_tiny_table_evicts_but_stays_sound(seed: int, ranks: int, ncols: int) -> None:
    """A table of a few hundred entries forces replacement on every search.

    Evicting entries may cost time, never correctness: a decided verdict
    must still match brute force.
    """
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    status, raw, nodes, rounds, used = _search.DepthFirstSearch(
        *_engine_args(deal), memory_mb=0.004
    ).run(max_nodes=2_000_000)
    assert used <= 256  # 4096 bytes of 16-byte entries
    if status == _search.SOLVED:
        assert brute_force_solvable(deal)
        moves = simplify(deal, tuple(_moves(raw)))
        assert check(deal, moves).won
    elif status == _search.UNSOLVABLE:
        assert not brute_force_solvable(deal)
    else:
        assert status in (_search.NODE_LIMIT, _search.OUT_OF_MEMORY)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(4, 6), ncols=st.integers(3, 7))
def test_tiny_rounds_reuse_proofs_soundly(seed: int, ranks: int, ncols: int) -> None:
    """Rounds of a few positions each: almost every verdict then rests on
    positions proven dead in earlier rounds (the Tarjan bookkeeping)."""
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    status, raw, _nodes, rounds, _used = _search.DepthFirstSearch(*_engine_args(deal)).run(
        base_budget=2, growth=1.01, max_nodes=5_000_000
    )
    assert status in (_search.SOLVED, _search.UNSOLVABLE)
    assert (status == _search.SOLVED) is brute_force_solvable(deal)
    if status == _search.SOLVED:
        assert check(deal, simplify(deal, tuple(_moves(raw)))).won


def _moves(raw):  # type: ignore[no-untyped-def]
    from bakersdozen.solver import _to_move

    return [_to_move(m) for m in raw]


# -- published facts -------------------------------------------------------

def test_deal_64_is_unsolvable() -> None:
    assert solve(Deal.pysol(64), time_limit=60).verdict is Verdict.UNSOLVABLE


def test_deal_477_is_unsolvable() -> None:
    solution = solve(Deal.pysol(477), time_limit=120)
    assert solution.verdict is Verdict.UNSOLVABLE


def test_most_of_deals_1_to_100_are_solvable() -> None:
    solved = 0
    for n in range(1, 101):
        deal = Deal.pysol(n)
        solution = solve(deal, time_limit=3)
        if solution.solved:
            assert_wins(deal, solution)
            solved += 1
        elif n == 64:
            assert solution.verdict is Verdict.UNSOLVABLE
    assert solved >= 95


def test_a_won_position_is_solved_with_no_moves() -> None:
    deal = Deal((), (13, 13, 13, 13))
    solution = solve(deal)
    assert solution.verdict is Verdict.SOLVED and solution.moves == ()


# -- limits, interrupts, threads, determinism ------------------------------

HARD = 417  # undecided after 100 million states (earlier measurements); minutes for us


def test_max_nodes_is_exact() -> None:
    solution = solve(Deal.pysol(HARD), max_nodes=12_345, time_limit=None)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.reason == "max_nodes"
    assert solution.nodes == 12_345
    assert solution.moves == ()


def test_time_limit_is_honoured() -> None:
    solution = solve(Deal.pysol(HARD), time_limit=0.4)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.reason == "time_limit"
    assert 0.4 <= solution.seconds < 0.4 * 1.1 + 0.05


def test_memory_budget_bounds_the_whole_search() -> None:
    """memory_mb bounds the table, the path, its move lists and the Tarjan
    stack together; deal 417's path outgrows 1 MiB in the proof phase."""
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(HARD)), memory_mb=1)
    status, _raw, nodes, _rounds, used = search.run(max_nodes=30_000_000)
    stats = search.stats
    assert used * 16 <= stats["table_bytes"] <= 0.75 * 2**20
    assert stats["bytes"] <= stats["budget"] == 2**20
    assert status == _search.OUT_OF_MEMORY and stats["proof"]
    assert 1_500_000 <= nodes < 30_000_000


def test_memory_limit_is_a_clear_unknown() -> None:
    solution = solve(Deal.pysol(HARD), memory_mb=1, max_nodes=30_000_000, time_limit=None)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.reason == "memory_mb"
    assert solution.nodes < 30_000_000


def test_portfolio_rounds_keep_within_a_tiny_budget() -> None:
    """A portfolio round whose path outgrows the budget ends like a spent
    quota (the next order starts); only the proof phase reports memory_mb."""
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(HARD)), memory_mb=1)
    status, _raw, nodes, rounds, _used = search.run(max_nodes=1_000_000, proof_share=1.0)
    assert status == _search.NODE_LIMIT and nodes == 1_000_000 and rounds > 3
    assert search.stats["bytes"] <= 2**20


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 6), ncols=st.integers(2, 7))
def test_proof_phase_alone_agrees_with_brute_force(seed: int, ranks: int, ncols: int) -> None:
    """proof_share=0: one complete search, no restarts; its verdict is the
    brute force's, unsolvable included."""
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    search = _search.DepthFirstSearch(*_engine_args(deal), memory_mb=1)
    status, raw, _nodes, rounds, _used = search.run(proof_share=0.0)
    assert rounds == 1 and search.stats["proof"]
    expected = brute_force_solvable(deal)
    assert status == (_search.SOLVED if expected else _search.UNSOLVABLE)
    if expected:
        assert check(deal, simplify(deal, tuple(_moves(raw)))).won


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(4, 6), ncols=st.integers(3, 7),
       share=st.sampled_from([0.0, 0.001, 0.5, 1.0]), base=st.integers(1, 64))
def test_portfolio_and_proof_phase_agree(
    seed: int, ranks: int, ncols: int, share: float, base: int
) -> None:
    """Whatever the split between the portfolio and the proof phase, and
    however small the rounds, a decided verdict is the brute force's."""
    deal = reduced_deal(random.Random(seed), ranks, ncols)
    search = _search.DepthFirstSearch(*_engine_args(deal), memory_mb=0.01)
    status, raw, _nodes, _rounds, _used = search.run(
        max_nodes=200_000, proof_share=share, base_budget=base, growth=1.01
    )
    if status in (_search.SOLVED, _search.UNSOLVABLE):
        assert (status == _search.SOLVED) is brute_force_solvable(deal)
    else:
        assert status in (_search.NODE_LIMIT, _search.OUT_OF_MEMORY)
    if status == _search.SOLVED:
        assert check(deal, simplify(deal, tuple(_moves(raw)))).won


def test_proof_share_is_checked() -> None:
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(5)))
    with pytest.raises(ValueError, match="proof_share"):
        search.run(proof_share=1.5)


def test_ctrl_c_stops_a_solve_quickly() -> None:
    # SIGINT raises here even when the test run was started with it ignored (nohup, `&`)
    with default_sigint():
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        start = time.perf_counter()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                solve(Deal.pysol(HARD), time_limit=60)
        finally:
            timer.cancel()
            timer.join()
    assert time.perf_counter() - start < 1.5
    # the interpreter is healthy: solving still works
    assert solve(Deal.pysol(1)).solved


def test_search_releases_the_gil() -> None:
    """A Python thread keeps running while another thread searches."""
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        solve(Deal.pysol(HARD), time_limit=0.5)
    finally:
        done.set()
        thread.join()
    assert ticks > 50


def test_threads_solve_different_deals_at_once() -> None:
    numbers = [1, 2, 3, 5, 7, 64]
    expected = {n: solve(Deal.pysol(n), time_limit=None) for n in numbers}
    results: dict[int, Solution] = {}

    def work(n: int) -> None:
        results[n] = solve(Deal.pysol(n), time_limit=None)

    threads = [threading.Thread(target=work, args=(n,)) for n in numbers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in numbers:
        assert results[n].verdict is expected[n].verdict
        assert results[n].moves == expected[n].moves
        assert results[n].nodes == expected[n].nodes


def test_solve_is_deterministic() -> None:
    deal = Deal.pysol(2)
    a = solve(deal, time_limit=None)
    b = solve(deal, time_limit=None)
    assert (a.verdict, a.moves, a.nodes, a.rounds) == (b.verdict, b.moves, b.nodes, b.rounds)


def test_another_seed_is_another_valid_search() -> None:
    deal = Deal.pysol(2)
    for seed in (1, 2, 3):
        assert_wins(deal, solve(deal, time_limit=None, seed=seed))


# -- solutions -------------------------------------------------------------

@pytest.mark.parametrize("number", [1, 2, 5, 16, 24, 33])
def test_solutions_have_no_move_straight_back(number: int) -> None:
    deal = Deal.pysol(number)
    moves = solve(deal).moves
    for first, second in zip(moves, moves[1:]):
        assert not (
            first.card == second.card and second.target == first.source
        ), f"{first} then {second}"
    # a card's next move never returns it to the column it left, if the line
    # still wins without both moves (simplify removed all such pairs)
    assert simplify(deal, moves) == moves


def test_simplify_removes_planted_detours() -> None:
    """Plant "move a card away and straight back" pairs; simplify drops them."""
    from reference import reference_moves

    deal = Deal.pysol(1)
    moves = list(solve(deal).moves)
    planted = list(moves)
    inserted = 0
    for i in range(len(moves) - 1, -1, -1):
        position = check(deal, moves[:i]).position
        for move in sorted(reference_moves(position), key=str):
            if move.target == 0:
                continue
            back = type(move)(move.card, move.target, move.source)
            after = check(position, [move]).position
            if back in reference_moves(after):
                planted[i:i] = [move, back]
                inserted += 1
                break
    assert inserted >= 3
    assert check(deal, planted).won
    assert len(simplify(deal, tuple(planted))) <= len(moves)


def test_simplify_rejects_a_line_that_does_not_win() -> None:
    deal = Deal.pysol(1)
    with pytest.raises(ValueError):
        simplify(deal, solve(deal).moves[:-1])


# -- bad arguments ---------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"time_limit": -1}, ValueError),
        ({"time_limit": float("nan")}, ValueError),
        ({"time_limit": "10"}, TypeError),
        ({"max_nodes": 0}, ValueError),
        ({"max_nodes": 1.5}, TypeError),
        ({"memory_mb": 0.5}, ValueError),
        ({"seed": -1}, ValueError),
        ({"seed": 2**64}, ValueError),
        ({"seed": "1"}, TypeError),
        ({"max_nodes": 2**64}, ValueError),
        ({"time_limit": 10**400}, ValueError),
        ({"memory_mb": 10**400}, ValueError),
        ({"memory_mb": None}, TypeError),
        ({"memory_mb": 1e13}, ValueError),  # once hung in the table sizing loop
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        solve(Deal.pysol(1), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0.5, 2**20 + 1, 1e15, 1e300, 10**400, float("inf"), float("nan")])
def test_memory_mb_out_of_range_names_the_range(value: float) -> None:
    # 1e15 and above once said "must be a positive finite number", which they are
    with pytest.raises(ValueError, match=r"^memory_mb must be in 1\.\.2\*\*20 \(MiB\), not "):
        solve(Deal.pysol(1), memory_mb=value)


@pytest.mark.parametrize("value", [1e15, 1e300, 10**400])
def test_huge_time_limit_names_the_bound(value: float) -> None:
    with pytest.raises(ValueError, match=r"^time_limit must be a positive number below 1e15"):
        solve(Deal.pysol(1), time_limit=value)


@pytest.mark.parametrize("value", ["no", 0, 1, None])
def test_verify_must_be_a_bool(value: object) -> None:
    # verify='no' was once taken as true
    with pytest.raises(TypeError, match=r"^verify must be a bool, not "):
        solve(Deal.pysol(1), verify=value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("depth", "error", "words"), [
    (2.5, TypeError, "depth must be an int, not 2.5"),  # once ran depth 2
    ("2", TypeError, "depth must be an int, not '2'"),
    (True, TypeError, "depth must be an int, not True"),
    (-1, ValueError, "depth must be in 0..32, not -1"),
    (33, ValueError, "depth must be in 0..32, not 33"),
    (10**6, ValueError, "depth must be in 0..32"),  # once crashed the process (C stack)
    (2**70, ValueError, "depth must be in 0..32"),  # once an OverflowError about C long
])
def test_perft_depth_is_checked(depth: object, error: type, words: str) -> None:
    from bakersdozen.solver import MAX_PERFT_DEPTH, perft

    assert MAX_PERFT_DEPTH == 32
    with pytest.raises(error, match="^perft\\(\\) " + re.escape(words)):
        perft(Deal.pysol(1), depth)  # type: ignore[arg-type]
    assert perft(Deal.pysol(1), 0) == 1 and perft(Deal.pysol(1), 1) == len(legal_moves(Deal.pysol(1)))


@pytest.mark.parametrize("deal", [None, "KC TH AH 6S", 1])
def test_deadlock_needs_a_deal(deal: object) -> None:
    from bakersdozen import deadlock

    # None once raised AttributeError: 'NoneType' object has no attribute 'columns'
    with pytest.raises(TypeError, match=rf"^deadlock\(\) needs a Deal, not {type(deal).__name__}$"):
        deadlock(deal)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be"):
        deadlock(Deal.pysol(1), rules=3)  # type: ignore[arg-type]
    assert deadlock(Deal.pysol(477), rules="bakers_dozen")


def test_solve_needs_a_deal() -> None:
    with pytest.raises(TypeError, match="Deal"):
        solve("KC TH AH 6S")  # type: ignore[arg-type]


# -- engine internals: Zobrist keys ----------------------------------------

@settings(max_examples=60, deadline=None)
@given(number=st.integers(1, 10**6), seed=st.integers(0, 2**32 - 1))
def test_incremental_keys_match_full_recomputation(number: int, seed: int) -> None:
    rng = random.Random(seed)
    position = _position.Position(*_engine_args(Deal.pysol(number)))
    played = 0
    for _ in range(60):
        moves = position.legal_moves()
        if not moves or rng.random() < 0.15 and played:
            if not played:
                break
            position.unmake()
            played -= 1
        else:
            position.make(rng.choice(moves))
            played += 1
        assert position.key == position.full_key()
    while played:
        position.unmake()
        played -= 1
    assert position.key == _position.Position(*_engine_args(Deal.pysol(number))).key


def test_key_ignores_column_order_and_sees_everything_else() -> None:
    columns, found, ranks, _play = _engine_args(Deal.pysol(7))
    key = _position.Position(columns, found, ranks).key
    shuffled = columns[:]
    random.Random(1).shuffle(shuffled)
    assert _position.Position(shuffled, found, ranks).key == key
    # swapping two cards of one column changes the key
    changed = [col[:] for col in columns]
    changed[0][1], changed[0][2] = changed[0][2], changed[0][1]
    assert _position.Position(changed, found, ranks).key != key


# -- the command line --------------------------------------------------------

def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "solved" and record["reason"] is None
    assert isinstance(record["nodes"], int) and isinstance(record["seconds"], float)
    deal = Deal.pysol(1)
    from bakersdozen import Move
    from bakersdozen.model import FOUNDATION

    moves = [
        Move(
            Card.from_text(m["card"]), m["source"],
            FOUNDATION if m["target"] == "foundation" else m["target"],
        )
        for m in record["moves"]
    ]
    assert check(deal, moves).won
    assert any(m["target"] == "foundation" for m in record["moves"])


def test_cli_solve_plain_and_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert main(["solve", "--deal", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verdict: solved")
    assert "   1. " in out and "nodes: " in out and "seconds: " in out
    assert main(["solve", "--deal", "64"]) == 1
    assert capsys.readouterr().out.startswith("verdict: unsolvable")
    assert main(["solve", "--deal", str(HARD), "--max-nodes", "1000"]) == 3
    assert "max_nodes" in capsys.readouterr().out
    board = tmp_path / "deal.txt"
    board.write_text(Deal.pysol(5).to_text())
    assert main(["solve", str(board), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "solved"


def test_cli_solve_bad_input(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    board = tmp_path / "bad.txt"
    board.write_text("KC TH AH 6S\nXX\n")
    assert main(["solve", str(board)]) == 2
    err = capsys.readouterr().err
    assert "bad.txt" in err and "'XX'" in err
    assert main(["solve", "--deal", "5", "--time-limit", "0"]) == 2
    assert main(["solve", "--deal", "5", "--max-nodes", str(10**30)]) == 2
    assert main(["solve"]) == 2
    # a deal whose line breaks were lost is refused, not judged unsolvable
    board.write_text(Deal.pysol(1).to_text().replace("\n", " "))
    assert main(["solve", str(board)]) == 2
    assert "13" in capsys.readouterr().err


def test_table_grows_when_the_path_pins_it() -> None:
    """Deal 55656 in the proof phase with 1,000 MiB: a path of 8,000
    positions soon pins most of the first table (3,000 buckets, 192,000
    bytes), the positions it refuses are forgotten as soon as they are left
    and searched again, and the slots left empty are never filled, so the
    load alone never made the table grow (an engine before the fix stayed at
    192,000 bytes through 35 million positions).  The refused positions make
    it grow."""
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(55656)), memory_mb=1000)
    status, _raw, nodes, _rounds, _used = search.run(max_nodes=300_000, proof_share=0.0)
    stats = search.stats
    assert (status, nodes) == (_search.NODE_LIMIT, 300_000)
    assert stats["proof"] and stats["max_depth"] > 8000
    assert stats["table_bytes"] >= 4 * 192_000
    assert stats["bytes"] <= stats["budget"]


def test_table_grows_in_place_and_keeps_an_unsolvable_proof() -> None:
    """Deal 6574 (unsolvable: half a million positions to explore) fills a
    table that doubles in place several times (bucket count not a power of
    two: 48 MiB of 64-byte buckets); the verdict stays unsolvable and the
    search within its budget."""
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(6574)), memory_mb=64)
    status, _raw, _nodes, _rounds, used = search.run(max_nodes=100_000_000)
    stats = search.stats
    assert status == _search.UNSOLVABLE
    assert stats["table_bytes"] >= 8 * 3072 * 64 and used * 16 <= stats["table_bytes"]
    assert stats["bytes"] <= stats["budget"] == 64 * 2**20
