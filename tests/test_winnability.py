"""Winnable deals on demand: ``winnable()``, ``winnable_deals()`` and ``bakersdozen deals``.

The expected values come from the shipped tables read here with the csv
module (not the package's reader), and from solving the deals again.
"""

from __future__ import annotations

import csv
import gzip
import io
import random
from importlib import resources

import pytest

from bakersdozen import Deal, RulesError, Verdict, check, find_rules, solve
from bakersdozen.cli import main
from bakersdozen.deals import DealNumberError
from bakersdozen.errors import ArgumentError
from bakersdozen.rules import PRESETS
from bakersdozen.winnability import (
    TableError, Winnability, table_games, table_range, winnable, winnable_deals,
)


def _csv(game: str) -> dict[int, dict[str, str]]:
    data = resources.files("bakersdozen").joinpath("tables", f"{game}.csv.gz").read_bytes()
    with gzip.open(io.BytesIO(data), "rt", newline="") as handle:
        return {int(row["deal"]): row for row in csv.DictReader(handle)}


def test_every_preset_has_a_table() -> None:
    assert table_games() == tuple(PRESETS)


@pytest.mark.parametrize("game", PRESETS)
def test_winnable_reads_the_table(game: str) -> None:
    rows = _csv(game)
    first, last = table_range(game)
    assert (first, last) == (min(rows), max(rows))
    for number in random.Random(5).sample(sorted(rows), 200) + [first, last]:
        answer = winnable(number, game)
        row = rows[number]
        assert answer == Winnability(
            number, game, Verdict(row["verdict"]), "table", int(row["positions"]),
            int(row["length"]) if row["length"] else None, row["difficulty"] or None,
        )
        assert answer.winnable is {"solved": True, "unsolvable": False, "unknown": None}[
            row["verdict"]]


def test_outside_the_table_it_solves_and_says_so() -> None:
    _, last = table_range("spanish_patience")
    answer = winnable(last + 1, "spanish_patience", time_limit=None, max_nodes=5_000_000)
    assert answer.source == "solve" and answer.game == "spanish_patience"
    expected = solve(Deal.pysol(last + 1, "spanish_patience"), time_limit=None,
                     max_nodes=5_000_000)
    assert answer.verdict is expected.verdict and answer.positions == expected.nodes
    with pytest.raises(TableError, match=f"deal {last + 1} lies outside the table"):
        winnable(last + 1, "spanish_patience", solve_outside=False)


@pytest.mark.parametrize("game", PRESETS)
def test_a_seeded_sample_of_500_is_winnable_and_resolves(game: str) -> None:
    rows = _csv(game)
    sample = winnable_deals(game, count=500, seed=1)
    assert len(sample) == len(set(sample)) == 500
    assert all(rows[n]["verdict"] == "solved" for n in sample)
    assert winnable_deals(game, count=500, seed=1) == sample
    assert winnable_deals(game, count=500, seed=2) != sample
    rules = find_rules(game)
    for number in random.Random(3).sample(sample, 50):
        deal = Deal.pysol(number, rules)
        solution = solve(deal, time_limit=None, max_nodes=max(5_000_000, 4 * int(rows[number]["positions"])))
        assert solution.verdict is Verdict.SOLVED, number
        assert check(deal, solution.moves).won


def test_all_of_a_range_in_order_and_the_other_verdicts() -> None:
    rows = _csv("bakers_dozen")
    for verdict in Verdict:
        expected = [n for n in range(1, 5001) if rows[n]["verdict"] == verdict.value]
        assert winnable_deals(first=1, last=5000, verdict=verdict) == expected
    assert winnable_deals(verdict=Verdict.UNSOLVABLE, first=1, last=500) == [64, 477]
    assert 417 not in winnable_deals(first=400, last=420)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: winnable(0), DealNumberError, "not in 1.."),
        (lambda: winnable(2**64), DealNumberError, "not in 1.."),
        (lambda: winnable(5, "no_such_game"), RulesError, "unknown game"),
        (lambda: winnable(5, find_rules("bakers_dozen").replace(empty_column="any_card")),
         RulesError, "changes knobs"),
        (lambda: winnable_deals(first=10, last=5), TableError, "empty"),
        (lambda: winnable_deals(first=1, last=10**7), TableError, "leaves the table"),
        (lambda: winnable_deals(first=1, last=100, count=200), TableError, "have 99 solved"),
        (lambda: winnable_deals(count=-1), TableError, "at least 0"),
        # random.Random(-1) is Random(1): seed -1 gave seed 1's sample
        (lambda: winnable_deals(count=3, seed=-1), ArgumentError, r"0\.\.2\*\*64-1"),
        (lambda: winnable_deals(count=3, seed=2**64), ArgumentError, r"0\.\.2\*\*64-1"),
    ],
)
def test_bad_requests_are_the_packages_errors(call, error, match) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=match) as raised:
        call()
    assert isinstance(raised.value, ValueError)


def test_wrong_types() -> None:
    with pytest.raises(TypeError):
        winnable("5")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        winnable(True)
    with pytest.raises(TypeError):
        winnable_deals(verdict="solved")  # type: ignore[arg-type]
    for bad in ({"count": 1.5}, {"count": True}, {"count": 3, "seed": 1.5},
                {"count": 3, "seed": "x"}, {"first": "1"}):
        with pytest.raises(TypeError, match="must be an int or None"):
            winnable_deals(**bad)  # type: ignore[arg-type]


def test_cli_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "--winnable", "--count", "5", "--seed", "1"]) == 0
    out = [int(line) for line in capsys.readouterr().out.split()]
    assert out == winnable_deals(count=5, seed=1)
    assert main(["deals", "--unsolvable", "--range", "1-3000"]) == 0
    assert capsys.readouterr().out.split() == "64 477 1395 1559 2548 2662 2762 2929".split()
    assert main(["deals", "--unknown", "--game", "portuguese_solitaire", "--range", "1-2000"]) == 0
    rows = _csv("portuguese_solitaire")
    assert [int(n) for n in capsys.readouterr().out.split()] == [
        n for n in range(1, 2001) if rows[n]["verdict"] == "unknown"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deals"], "one of the arguments --winnable --unsolvable --unknown is required"),
        (["deals", "--winnable", "--unknown"], "not allowed with argument"),
        (["deals", "--winnable", "--range", "9-3"], "reversed range"),
        (["deals", "--winnable", "--range", "1-99999999"], "leaves the table"),
        (["deals", "--winnable", "--count", "0"], "--count"),
        (["deals", "--winnable", "--game", "klondike"], "unknown game 'klondike'"),
        (["deals", "--winnable", "--range", "1-10", "--count", "20"], "20 deals asked for"),
    ],
)
def test_cli_deals_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakersdozen deals: error: ") and message in err
    assert err.count("\n") == 1


# --- difficulty grades


def _graded_games() -> list[str]:
    from bakersdozen.difficulty import grade_table

    return sorted(grade_table())


def test_at_least_baker_s_dozen_is_graded() -> None:
    assert "bakers_dozen" in _graded_games()


@pytest.mark.parametrize("grade", ["easy", "medium", "hard", "expert"])
def test_winnable_deals_of_a_grade(grade: str) -> None:
    for game in _graded_games():
        rows = _csv(game)
        sample = winnable_deals(game, count=50, seed=7, difficulty=grade)
        assert len(set(sample)) == 50
        for number in sample:
            assert rows[number]["verdict"] == "solved" and rows[number]["difficulty"] == grade
            known = winnable(number, game)
            assert known.difficulty == grade and known.winnable
        every = winnable_deals(game, first=1, last=500, difficulty=grade)
        assert every == [n for n in range(1, 501) if rows[n]["difficulty"] == grade]


def test_a_grade_outside_the_graded_deals_or_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import bakersdozen.difficulty
    from bakersdozen.difficulty import grade_table

    for game in _graded_games():
        first, last = grade_table()[game]["deals"]  # type: ignore[misc]
        assert max(winnable_deals(game, difficulty="hard")) <= last
        if last < table_range(game)[1]:
            with pytest.raises(TableError, match=f"leaves the graded deals of {game} "
                                                 f"\\(deals {first}-{last}\\)"):
                winnable_deals(game, first=1, last=last + 1, difficulty="hard")
            assert winnable(last + 1, game).difficulty is None
    # a game without grades (every preset has them now: one taken out)
    shipped = dict(grade_table())
    del shipped["spanish_patience_ii"]
    monkeypatch.setattr(bakersdozen.difficulty, "_GRADES", shipped)
    for game in (g for g in PRESETS if g not in _graded_games()):
        with pytest.raises(TableError, match="no difficulty grades yet"):
            winnable_deals(game, difficulty="easy")
    assert "spanish_patience_ii" not in _graded_games()
    with pytest.raises(ArgumentError, match="only winnable deals have difficulty grades"):
        winnable_deals(verdict=Verdict.UNSOLVABLE, difficulty="easy")
    with pytest.raises(ArgumentError, match="difficulty must be one of"):
        winnable_deals(difficulty="tricky")
    with pytest.raises(TypeError, match="difficulty must be a str"):
        winnable_deals(difficulty=3)  # type: ignore[arg-type]


def test_cli_deals_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "--winnable", "--difficulty", "expert", "--count", "5", "--seed", "2"]) == 0
    out = [int(line) for line in capsys.readouterr().out.split()]
    assert out == winnable_deals(count=5, seed=2, difficulty="expert")
    assert main(["deals", "--winnable", "--difficulty", "tricky"]) == 2
    assert "invalid choice: 'tricky'" in capsys.readouterr().err
