"""Solving fixed sets of PySol deals (wall-clock time of ``solve()``).

Easy deals take a millisecond, hard ones millions of positions, and the
unsolvable ones need a complete enumeration (published: Freecell Solver
proved deals 64 and 477 unsolvable).  Every winning line is replayed by
:func:`bakersdozen.check`.

``test_suite_1_100`` runs the whole ``bakersdozen bench`` suite once (PySol
deals 1-100, 10 s each) and prints its table; run it with ``-s`` to see it.
"""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from bakersdozen import Deal, Solution, Verdict, check, solve
from bakersdozen.bench import format_table, parse_deals, peak_rss_mb, run_ours, summarise

EASY = [1, 5, 24]
# the three slowest wins of PySol deals 1-300 at commit 8a9dfcc: 100 (which
# no solver decided in 10 s before), 184 and 238 (some 20 million positions)
HARD = [100, 184, 238]
UNSOLVABLE = [64, 477]
TIME_LIMIT = 60.0


def _solve(number: int) -> Solution:
    return solve(Deal.pysol(number), time_limit=TIME_LIMIT)


def _checked(benchmark: BenchmarkFixture, number: int, rounds: int) -> Solution:
    solution: Solution = benchmark.pedantic(_solve, args=(number,), rounds=rounds, iterations=1)
    benchmark.extra_info.update(
        verdict=solution.verdict.value, nodes=solution.nodes, moves=len(solution.moves),
        nodes_per_second=solution.nodes_per_second,
    )
    return solution


@pytest.mark.parametrize("number", EASY)
def test_easy(benchmark: BenchmarkFixture, number: int) -> None:
    solution = _checked(benchmark, number, rounds=20)
    assert solution.verdict is Verdict.SOLVED
    assert check(Deal.pysol(number), solution.moves).won


@pytest.mark.parametrize("number", HARD)
def test_hard(benchmark: BenchmarkFixture, number: int) -> None:
    solution = _checked(benchmark, number, rounds=2)
    assert solution.verdict is Verdict.SOLVED
    assert check(Deal.pysol(number), solution.moves).won


@pytest.mark.parametrize("number", UNSOLVABLE)
def test_unsolvable(benchmark: BenchmarkFixture, number: int) -> None:
    solution = _checked(benchmark, number, rounds=2)
    assert solution.verdict is Verdict.UNSOLVABLE
    assert solution.moves == ()


def test_suite_1_100(benchmark: BenchmarkFixture) -> None:
    """PySol deals 1-100 at 10 s each: the figures of issue 3 (decided,
    solved, unsolvable, unknown, p50/p90/max seconds, nodes per second,
    median solution length).  Each line is checked inside run_ours."""
    numbers = parse_deals("1-100")
    results = benchmark.pedantic(run_ours, args=(numbers, 10.0, 512), rounds=1, iterations=1)
    summary = summarise(results)
    summary["peak_rss_mb"] = peak_rss_mb()
    benchmark.extra_info.update({k: v for k, v in summary.items() if k != "unknown_deals"})
    benchmark.extra_info["unknown_deals"] = summary["unknown_deals"]
    report = {
        "settings": {"deals": "1-100", "time_limit": 10.0, "memory_mb": 512, "jobs": 1,
                     "per_deal": False},
        "solvers": {"bakersdozen": {"summary": summary}},
        "notes": ["peak RSS is the whole pytest process's peak (ru_maxrss)"],
    }
    print()
    print(format_table(report), end="")
    assert summary["deals"] == 100
    assert summary["decided"] == 100   # issue 3's target, met since 8a9dfcc
    # No deal in 1-100 is expected to be unsolvable except those proved so by the
    # engine; a solved/unsolvable verdict on 64 is published (unsolvable).
    assert next(r for r in results if r.deal == 64).verdict == "unsolvable"
