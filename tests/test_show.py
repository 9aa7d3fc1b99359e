"""``bakersdozen show --moves``: the position after some moves, as a tableau or board text.

The expected positions come from a small replay written here (Baker's
Dozen moves one top card at a time: pop it, push it on a column or a
foundation), not from the checker that ``show`` uses; the board text that
``show --text`` prints is read back by ``hint`` and ``solve``, and their
lines are replayed with :func:`bakersdozen.check`.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bakersdozen import Deal, Move, Verdict, check, find_rules, solve
from bakersdozen.cli import main
from conftest import DEAL_1


def _replay(deal: Deal, moves: list[Move]) -> tuple[list[list[str]], list[int]]:
    """Columns (card names, bottom → top) and foundation heights after *moves*: one card a move."""
    columns = [[str(card) for card in column] for column in deal.columns]
    foundations = list(deal.foundations)
    for move in moves:
        card = columns[move.source - 1].pop()
        assert card == str(move.card), move
        if move.to_foundation:
            assert foundations[move.card.suit] == move.card.rank - 1, move
            foundations[move.card.suit] += 1
        else:
            columns[move.target - 1].append(card)
    return columns, foundations


@pytest.fixture(scope="module")
def line() -> list[Move]:
    """Deal 1's winning line, replayed by the checker."""
    deal = Deal.pysol(1)
    solution = solve(deal, time_limit=None, max_nodes=10**6)
    assert solution.verdict is Verdict.SOLVED and check(deal, solution.moves).won
    return list(solution.moves)


def _moves_file(path: Path, moves: list[Move]) -> Path:
    path.write_text("# a played game\n\n" + "".join(f"{m}\n" for m in moves), encoding="utf-8")
    return path


@pytest.mark.parametrize("k", [0, 1, 7, 30, 60])
def test_text_after_k_moves_is_the_position_and_reads_back(
        k: int, line: list[Move], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = _moves_file(tmp_path / "moves.txt", line[:k])
    assert main(["show", "--deal", "1", "--moves", str(moves), "--text"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    position = Deal.from_text(out)
    columns, foundations = _replay(Deal.pysol(1), line[:k])
    assert [[str(c) for c in column] for column in position.columns] == columns
    assert list(position.foundations) == foundations
    assert out.startswith("Foundations: ") == any(foundations)
    # the tableau shows the same position
    assert main(["show", "--deal", "1", "--moves", str(moves)]) == 0
    assert capsys.readouterr().out == position.pretty()
    # the rest of the winning line plays from the printed position
    assert check(position, line[k:]).won


def test_hint_and_solve_read_what_show_prints(
        line: list[Move], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    moves = _moves_file(tmp_path / "moves.txt", line[:25])
    assert main(["show", str(board), "--moves", str(moves), "--text"]) == 0
    position_file = tmp_path / "position.txt"
    position_file.write_text(capsys.readouterr().out, encoding="utf-8")
    position = Deal.from_text(position_file.read_text(encoding="utf-8"))

    assert main(["hint", str(position_file), "--memory-mb", "64"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hint: ")
    hinted = Move.from_text(out.removeprefix("hint: ").strip())
    after = check(position, [hinted]).position
    rest = solve(after, time_limit=None, max_nodes=10**6, memory_mb=64)
    assert rest.verdict is Verdict.SOLVED and check(after, rest.moves).won  # still winnable

    assert main(["solve", str(position_file), "--json", "--memory-mb", "64"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "solved"
    solved = [Move.from_text(f"{m['card']} {m['source']}>{'F' if m['target'] == 'foundation' else m['target']}")
              for m in record["moves"]]
    assert check(position, solved).won
    assert check(Deal.pysol(1), [*line[:25], *solved]).won  # the whole game, replayed


def test_a_solve_json_record_is_a_move_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "1", "--json"]) == 0
    record = tmp_path / "s.json"
    record.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["show", "--deal", "1", "--moves", str(record), "--text"]) == 0
    won = Deal.from_text(capsys.readouterr().out)
    assert won.is_won and won.foundations == (13, 13, 13, 13)


def test_board_on_stdin_and_another_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    game = ["--game", "good_measure"]
    rules = find_rules("good_measure")
    deal = Deal.pysol(4, game=rules)
    solution = solve(deal, time_limit=None, max_nodes=10**6)
    assert solution.verdict is Verdict.SOLVED and check(deal, solution.moves).won
    first = list(solution.moves[:12])
    moves = _moves_file(tmp_path / "moves.txt", first)
    monkeypatch.setattr(sys, "stdin", io.StringIO(deal.to_text()))
    assert main(["show", "-", "--moves", str(moves), "--text", *game]) == 0
    text = capsys.readouterr().out
    expected = check(deal, first).position
    assert Deal.from_text(text, rules=rules) == expected
    assert text.startswith("Foundations: ")  # Good Measure starts with its Aces home
    position_file = tmp_path / "position.txt"
    position_file.write_text(text, encoding="utf-8")
    assert main(["solve", str(position_file), *game, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["game"] == "good_measure" and record["verdict"] == "solved"
    # the same moves from Baker's Dozen's deal 4 are not legal
    assert main(["show", "--deal", "4", "--moves", str(moves)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_an_illegal_move_is_named_with_the_checkers_reason(
        line: list[Move], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text(f"{line[0]}\n# a comment\n\nKC 4>2\n{line[1]}\n", encoding="utf-8")
    assert main(["show", "--deal", "1", "--moves", str(moves), "--text"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"bakersdozen show: error: {moves}: move 2 'KC 4>2' is illegal: KC is not "
                   "the top card of column 4 (the top is 6S; KC is under other cards, and one "
                   "card moves at a time (moves=one_card))\n")


@pytest.mark.parametrize(("text", "words"), [
    ("AD 1>F\nXX 4>2\n", "line 2: 'XX 4>2': unknown card 'XX'"),
    ('{"moves": 3}', "moves"),
])
def test_an_unreadable_move_list(text: str, words: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text(text, encoding="utf-8")
    assert main(["show", "--deal", "1", "--moves", str(moves)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"bakersdozen show: error: {moves}: ") and words in err, err


def test_show_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    assert main(["show", "--deal", "1", "--text"]) == 0
    assert capsys.readouterr().out == DEAL_1  # no move: the deal itself
    for argv in (["show", str(board), "--deal", "1"], ["show"],
                 ["show", "--deal", "0"], ["show", str(board), "--moves", str(tmp_path / "no")]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("bakersdozen show: error: ") and err.count("\n") == 1
