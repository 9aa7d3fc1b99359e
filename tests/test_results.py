"""The published tables (shipped in the package, bakersdozen/tables/; results/README.md): a fixed sample of each table's rows, solved again, gives the same verdicts.

The sample: up to 5 unsolvable deals drawn with a fixed seed among those
proved in under 1,000,000 positions, and 5 solved deals among those solved
in under 200,000 positions (so the test takes a few seconds per table).
Only verdicts are compared: node counts may change with the engine,
verdicts may not.  Every table uses PySolFC's numbering, each deal dealt by
its game's own rule (``Deal.pysol(n, game=...)``).
"""

from __future__ import annotations

import csv
import gzip
import random
from importlib import resources
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, check, solve

RESULTS = Path(str(resources.files("bakersdozen").joinpath("tables")))

#: file -> (game, first deal, last deal)
TABLES = {
    "bakers_dozen.csv.gz": ("bakers_dozen", 1, 100_000),
    "good_measure.csv.gz": ("good_measure", 1, 32_000),
    "spanish_patience.csv.gz": ("spanish_patience", 1, 32_000),
    "spanish_patience_ii.csv.gz": ("spanish_patience_ii", 1, 32_000),
    "portuguese_solitaire.csv.gz": ("portuguese_solitaire", 1, 32_000),
    "castles_in_spain.csv.gz": ("castles_in_spain", 1, 32_000),
}


def _rows(name: str) -> list[dict[str, str]]:
    path = RESULTS / name
    if not path.exists():
        pytest.skip(f"{path} is not in this checkout")
    with gzip.open(path, "rt", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("name", TABLES)
def test_the_table_is_well_formed(name: str) -> None:
    rows = _rows(name)
    _, first, last = TABLES[name]
    assert list(rows[0]) == ["deal", "verdict", "positions", "seconds", "length", "difficulty"]
    deals = [int(row["deal"]) for row in rows]
    assert deals == list(range(first, last + 1))
    for row in rows:
        assert row["verdict"] in ("solved", "unsolvable", "unknown")
        assert (row["length"] != "") == (row["verdict"] == "solved")
        assert row["difficulty"] in ("", "easy", "medium", "hard", "expert")
        assert row["difficulty"] == "" or row["verdict"] == "solved"  # only a won deal is graded
        assert int(row["positions"]) >= 0 and float(row["seconds"]) >= 0
    assert (RESULTS / name).stat().st_size < 5 * 2**20


def _sample(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    def some(verdict: str, below: int) -> list[dict[str, str]]:
        pool = [r for r in rows if r["verdict"] == verdict and int(r["positions"]) < below]
        return random.Random(11).sample(pool, min(5, len(pool)))

    return some("unsolvable", 1_000_000) + some("solved", 200_000)


@pytest.mark.parametrize("name", TABLES)
def test_sampled_rows_solve_to_the_same_verdict(name: str) -> None:
    game = TABLES[name][0]
    sample = _sample(_rows(name))
    assert sum(r["verdict"] == "unsolvable" for r in sample) >= 3
    assert sum(r["verdict"] == "solved" for r in sample) == 5
    for row in sample:
        deal = Deal.pysol(int(row["deal"]), game=game)
        budget = max(5_000_000, 4 * int(row["positions"]))
        solution = solve(deal, time_limit=None, max_nodes=budget, memory_mb=512)
        assert solution.verdict is Verdict(row["verdict"]), row
        if solution.solved:
            assert check(deal, solution.moves).won
