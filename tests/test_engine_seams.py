"""The seams of the engine: search methods by name, the rules the engine
accepts, and the search object that owns the engine's memory."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen import _search
from bakersdozen.rules import BAKERS_DOZEN, RulesError
from bakersdozen.solver import (
    SEARCH_METHODS,
    _engine_args,
    legal_moves,
    simplify,
)
from bakersdozen.cli import main
from brute import brute_force_solvable
from reference import family_moves
from test_solver import reduced_deal

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "bakersdozen"

# Each value of a play knob other than Baker's Dozen's.
OTHER_PLAY = [
    ("build", "same_suit"),
    ("build", "alternate_colours"),
    ("build", "other_suit"),
    ("moves", "sequence"),
    ("moves", "supermove"),
    ("empty_column", "any_card"),
    ("empty_column", "kings_only"),
    ("foundation_build", "any_suit"),
    ("foundation_build", "alternate_colours"),
    ("foundation_return", True),
]


# -- search methods by name ----------------------------------------------------

def test_dfs_is_the_default_method() -> None:
    deal = Deal.pysol(24)
    default = solve(deal, time_limit=None)
    named = solve(deal, time_limit=None, method="dfs")
    assert named.verdict is default.verdict is Verdict.SOLVED
    assert (named.moves, named.nodes, named.rounds) == (default.moves, default.nodes, default.rounds)
    assert "dfs" in SEARCH_METHODS


def test_an_unknown_method_is_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match=r"'astar'.*dfs, shortest"):
        solve(Deal.pysol(1), method="astar")
    with pytest.raises(TypeError):
        solve(Deal.pysol(1), method=None)  # type: ignore[arg-type]


def test_the_proof_method_is_the_proof_phase_alone() -> None:
    # method="proof" is DepthFirstSearch.run(proof_share=0) behind solve():
    # the same positions, one round, and the verdicts of "dfs"
    assert "proof" in SEARCH_METHODS
    for number in (1, 24, 64, 477, 3266, 5143):
        deal = Deal.pysol(number)
        proof = solve(deal, time_limit=None, max_nodes=5_000_000, method="proof")
        status, _raw, nodes, rounds, _used = _search.DepthFirstSearch(
            *_engine_args(deal), memory_mb=512
        ).run(max_nodes=5_000_000, proof_share=0.0)
        assert (proof.nodes, proof.rounds) == (nodes, rounds) and rounds <= 1
        assert proof.verdict is solve(deal, time_limit=None, max_nodes=5_000_000).verdict
        assert proof.verdict is (Verdict.SOLVED if number in (1, 24) else Verdict.UNSOLVABLE)
        if proof.solved:
            assert check(deal, proof.moves).won


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2))
def test_the_proof_method_agrees_with_brute_force(seed: int, ranks: int, ncols: int,
                                                  home: int) -> None:
    deal = reduced_deal(random.Random(seed), ranks, ncols, home)
    solution = solve(deal, time_limit=None, method="proof")
    assert solution.verdict is (Verdict.SOLVED if brute_force_solvable(deal) else Verdict.UNSOLVABLE)


def test_cli_proof_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "3266", "--proof"]) == 1
    assert "verdict: unsolvable" in capsys.readouterr().out
    assert main(["solve", "--deal", "1", "--proof"]) == 0
    assert "verdict: solved" in capsys.readouterr().out
    assert main(["solve", "--deal", "1", "--proof", "--shortest"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


# -- the rules the engine plays ------------------------------------------------

def test_the_engine_plays_bakers_dozen() -> None:
    deal = Deal.pysol(1)
    for rules in (None, BAKERS_DOZEN, "bakers_dozen", "Baker's Dozen"):
        assert solve(deal, rules=rules).solved
    assert legal_moves(deal, rules=BAKERS_DOZEN) == legal_moves(deal)


@pytest.mark.parametrize(("knob", "value"), OTHER_PLAY)
def test_every_play_knob_is_played(knob: str, value: object) -> None:
    # the engine's moves are the reference's, and solve()/simplify() play by
    # the rules given (check() replays the line under them)
    rules = BAKERS_DOZEN.replace(**{knob: value})
    deal = Deal.pysol(1)
    played = deal.with_rules(rules)
    assert set(legal_moves(deal, rules=rules)) == family_moves(played)
    solution = solve(deal, rules=rules, time_limit=30)
    assert solution.verdict in (Verdict.SOLVED, Verdict.UNSOLVABLE)
    if solution.solved:
        assert check(played, solution.moves).won
        assert check(played, simplify(deal, solution.moves, rules=rules)).won


def test_layout_knobs_need_nothing_of_the_engine() -> None:
    # the Kings rule acts at the deal only; the engine takes the position as it is
    assert solve(Deal.pysol(1), rules=BAKERS_DOZEN.replace(kings="swap")).solved


def test_rules_of_the_wrong_kind_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown game"):
        solve(Deal.pysol(1), rules="klondike")
    with pytest.raises(TypeError):
        solve(Deal.pysol(1), rules=13)  # type: ignore[arg-type]


# -- the search object -----------------------------------------------------------

def test_a_search_runs_once_and_reports_like_solve() -> None:
    deal = Deal.pysol(100)
    search = _search.DepthFirstSearch(*_engine_args(deal), memory_mb=64)
    status, raw, nodes, rounds, entries = search.run(max_nodes=2_000_000)
    assert status == _search.SOLVED and 0 < entries <= nodes
    solution = solve(deal, time_limit=None, max_nodes=2_000_000)
    assert (nodes, rounds) == (solution.nodes, solution.rounds)
    with pytest.raises(RuntimeError, match="once"):
        search.run()


def test_a_search_refuses_bad_budgets() -> None:
    args = _engine_args(Deal.pysol(1))
    for memory_mb in (0.0, -1.0, float("nan"), 2.0**21):
        with pytest.raises(ValueError, match="memory_mb"):
            _search.DepthFirstSearch(*args, memory_mb=memory_mb)
    with pytest.raises(ValueError, match="growth"):
        _search.DepthFirstSearch(*args).run(growth=0.5)


def test_a_search_of_a_bad_position_frees_what_it_took() -> None:
    # __cinit__ raises before allocating: __dealloc__ must cope with NULLs
    with pytest.raises(ValueError, match="appears twice"):
        _search.DepthFirstSearch([[0, 0]], (0, 0, 0, 0), 1)


def _address_space_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1])
    raise AssertionError("no VmSize")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_searches_give_their_memory_back() -> None:
    # each search maps at least 0.5 MiB (table, stack, move lists): 200 of
    # them leaking would add 100 MiB of address space
    deal = Deal.pysol(24)
    _search.DepthFirstSearch(*_engine_args(deal)).run()
    before = _address_space_kib()
    for _ in range(200):
        status, *_ = _search.DepthFirstSearch(*_engine_args(deal), memory_mb=256).run()
        assert status == _search.SOLVED
    assert _address_space_kib() - before < 20 * 1024


# -- the docs the engine points to ---------------------------------------------

def test_the_engine_cites_no_file_outside_the_repository() -> None:
    files = [
        PACKAGE / f"_{module}.{ext}"
        for module in ("position", "table", "search", "layers")
        for ext in ("pyx", "pxd", "pyi")
    ]
    files += [PACKAGE / "solver.py", PACKAGE.parent.parent / "setup.py"]
    files = [path for path in files if path.exists()]     # _table has no stub, _layers no .pxd
    assert len(files) == 12
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(RULES|NOTATION|ENGINE_NOTES)\.md", text), path.name


def test_the_engine_docs_exist() -> None:
    text = (PACKAGE.parent.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    for topic in ("Zobrist", "transposition table", "Luby", "Proof", "knobs"):
        assert topic in text
