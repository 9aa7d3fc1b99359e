"""The published table (results/): a fixed sample of its rows, solved again, gives the same verdicts.

The sample: 5 unsolvable deals drawn with a fixed seed among those proved
in under 1,000,000 positions, and 5 solved deals among those solved in
under 200,000 positions (so the test takes a few seconds).  Only verdicts are compared:
node counts may change with the engine, verdicts may not.
"""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, solve

TABLE = Path(__file__).resolve().parent.parent / "results" / "bakers_dozen_1-100000.csv.gz"


def _rows() -> list[dict[str, str]]:
    with gzip.open(TABLE, "rt", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    if not TABLE.exists():
        pytest.skip(f"{TABLE} is not in this checkout")
    return _rows()


def test_the_table_is_well_formed(rows: list[dict[str, str]]) -> None:
    assert list(rows[0]) == ["deal", "verdict", "positions", "seconds", "length"]
    deals = [int(row["deal"]) for row in rows]
    assert deals == sorted(set(deals)) and deals[0] == 1
    for row in rows:
        assert row["verdict"] in ("solved", "unsolvable", "unknown")
        assert (row["length"] != "") == (row["verdict"] == "solved")
        assert int(row["positions"]) >= 0 and float(row["seconds"]) >= 0
    assert TABLE.stat().st_size < 5 * 2**20


def _sample(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    def some(verdict: str, below: int) -> list[dict[str, str]]:
        pool = [r for r in rows if r["verdict"] == verdict and int(r["positions"]) < below]
        return random.Random(11).sample(pool, 5)

    return some("unsolvable", 1_000_000) + some("solved", 200_000)


def test_sampled_rows_solve_to_the_same_verdict(rows: list[dict[str, str]]) -> None:
    sample = _sample(rows)
    assert [r["verdict"] for r in sample] == ["unsolvable"] * 5 + ["solved"] * 5
    for row in sample:
        deal = Deal.pysol(int(row["deal"]), numbering="pysol")  # the table's numbering
        budget = max(5_000_000, 4 * int(row["positions"]))
        solution = solve(deal, time_limit=None, max_nodes=budget, memory_mb=512)
        assert solution.verdict is Verdict(row["verdict"]), row
