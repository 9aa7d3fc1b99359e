"""``hint --json`` and ``review --json``, ``--deal N``: against solve(), the checker and review()."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, check, deadlock, solve
from bakersdozen.analysis import hint, review
from bakersdozen.cli import main
from bakersdozen.records import board_id, move_from_json, move_to_json
from lines import MEMORY_MB, along_lines, lost_game

#: The keys of the hint object, in order (docs/serve.md).
HINT_KEYS = ["verdict", "move", "reason", "deadlock", "nodes", "seconds", "record"]
#: The keys of the review object, in order (docs/serve.md).
REVIEW_KEYS = ["verdict", "losing_move", "played", "alternative", "start", "end", "moves",
               "undecided", "reason", "solves", "nodes", "seconds"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    status = main(argv)
    out, err = capsys.readouterr()
    assert out.count("\n") == 1, out  # one JSON object, one line
    return status, json.loads(out)


def _hint_json(position: Deal, tmp_path: Path, capsys: pytest.CaptureFixture[str],
               *flags: str) -> tuple[int, dict[str, object]]:
    board = tmp_path / "position.txt"
    board.write_text(position.to_text(), encoding="utf-8")
    return _run(["hint", str(board), "--json", "--memory-mb", str(MEMORY_MB), *flags], capsys)


def test_every_hinted_move_along_winning_lines_keeps_a_win(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    positions = along_lines([1, 2, 24, 100], 5, random.Random(22))
    assert len(positions) == 20
    for position in positions:
        status, data = _hint_json(position, tmp_path, capsys)
        assert status == 0 and list(data) == HINT_KEYS
        assert data["verdict"] == "winnable" and data["reason"] is None and data["deadlock"] == []
        move = move_from_json(data["move"])
        record = data["record"]
        assert isinstance(record, dict)
        assert record["deal"] == board_id(position) and record["verdict"] == "solved"
        line = tuple(move_from_json(m) for m in record["moves"])  # type: ignore[union-attr]
        assert line[0] == move and check(position, line).won  # the line the move starts
        # the hinted move keeps a winning line, by an independent solve (another move order)
        after = check(position, [move]).position
        again = solve(after, memory_mb=MEMORY_MB, seed=98765)
        assert again.verdict is Verdict.SOLVED and check(after, again.moves).won
        assert isinstance(data["nodes"], int) and data["nodes"] >= record["nodes"]  # type: ignore[operator]


@pytest.mark.parametrize(("number", "seed"), [(1, 1), (2, 2), (8, 3)])
def test_after_the_move_review_names_hint_json_says_lost(
        number: int, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal, played, k = lost_game(number, random.Random(seed))
    lost = check(deal, played[: k + 1]).position
    status, data = _hint_json(lost, tmp_path, capsys)
    assert status == 1 and list(data) == HINT_KEYS
    assert data["verdict"] == "lost" and data["move"] is None and data["reason"] is None
    assert data["deadlock"] == [str(card) for card in deadlock(lost)]
    assert data["record"]["verdict"] == "unsolvable"  # type: ignore[index]
    # and the position before the losing move gets a winning hint
    status, data = _hint_json(check(deal, played[:k]).position, tmp_path, capsys)
    assert status == 0 and data["verdict"] == "winnable"
    # review --json of the whole game names the same move, with a winning alternative
    board = tmp_path / "deal.txt"
    board.write_text(deal.to_text(), encoding="utf-8")
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(map(str, played)) + "\n", encoding="utf-8")
    status, data = _run(["review", str(board), str(moves), "--json", "--memory-mb",
                         str(MEMORY_MB)], capsys)
    assert status == 1 and list(data) == REVIEW_KEYS
    assert data["verdict"] == "lost" and data["losing_move"] == k + 1
    assert data["played"] == move_to_json(played[k])
    assert data["start"] == "winnable" and data["end"] == "lost" and data["moves"] == len(played)
    alternative = [move_from_json(m) for m in data["alternative"]]  # type: ignore[union-attr]
    assert check(check(deal, played[:k]).position, alternative).won
    # --deal N reads the same game from PySol's deal
    status, again = _run(["review", "--deal", str(number), str(moves), "--json",
                          "--memory-mb", str(MEMORY_MB)], capsys)
    assert status == 1
    assert {key: again[key] for key in ("verdict", "losing_move", "played", "start", "end")} == {
        key: data[key] for key in ("verdict", "losing_move", "played", "start", "end")}


def test_hint_deal_flag_reads_pysol_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, by_number = _run(["hint", "--deal", "64", "--json", "--memory-mb", "64"], capsys)
    status_file, by_file = _hint_json(Deal.pysol(64), tmp_path, capsys)
    assert status == status_file == 1
    for data in (by_number, by_file):
        data.pop("seconds")
        data["record"].pop("seconds")  # type: ignore[attr-defined]
    assert by_number == by_file and by_number["verdict"] == "lost"
    assert by_number["deadlock"] == [str(card) for card in deadlock(Deal.pysol(64))] != []
    status, data = _run(["hint", "--deal", "1", "--json", "--memory-mb", "64"], capsys)
    assert status == 0 and data["verdict"] == "winnable"
    assert check(Deal.pysol(1), [move_from_json(data["move"])])
    assert main(["hint", "--deal", "1"]) == 0
    assert capsys.readouterr().out.startswith("hint: ")


def test_hint_json_of_a_won_position_and_of_a_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    status, data = _hint_json(check(deal, line).position, tmp_path, capsys)
    assert status == 0 and data["verdict"] == "won" and data["move"] is None
    status, data = _run(["hint", "--deal", "417", "--max-nodes", "1000", "--json",
                         "--memory-mb", "64"], capsys)
    assert status == 3 and data["verdict"] == "unknown" and data["move"] is None
    assert data["reason"] == "max_nodes" and data["record"]["max_nodes"] == 1000  # type: ignore[index]


def test_review_json_of_a_winnable_a_won_and_a_lost_deal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    moves = tmp_path / "moves.txt"
    for played, status, verdict in ((line[:30], 0, "winnable"), (line, 0, "won")):
        moves.write_text("\n".join(map(str, played)) + "\n", encoding="utf-8")
        code, data = _run(["review", "--deal", "1", str(moves), "--json"], capsys)
        assert (code, data["verdict"], data["end"]) == (status, verdict, verdict)
        assert data["losing_move"] is None and data["played"] is None and data["alternative"] == []
    moves.write_text("", encoding="utf-8")
    code, data = _run(["review", "--deal", "64", str(moves), "--json", "--memory-mb", "64"],
                      capsys)
    assert code == 1 and data["verdict"] == data["start"] == data["end"] == "lost"
    assert data["losing_move"] is None  # no move lost it: it was never winnable


def test_a_review_whose_deal_a_limit_left_open_but_whose_end_is_lost(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # It once said "unknown: a limit stopped the solve of the position after
    # the last move", when that position was proven lost and the limit had
    # stopped the solve of the deal.
    rng = random.Random(5)
    deal = Deal.pysol(1)
    played, position = [], deal
    while not deadlock(position):
        from bakersdozen import legal_moves

        options = legal_moves(position)
        assert options, "random play ran out of moves before a deadlock"
        played.append(rng.choice(options))
        position = check(position, [played[-1]]).position
    assert solve(deal, max_nodes=50).verdict is Verdict.UNKNOWN
    result = review(deal, played, max_nodes=50)
    assert result.verdict is Verdict.UNSOLVABLE and result.start_verdict is Verdict.UNKNOWN
    assert result.reason == "max_nodes" and result.losing_move is None
    assert result.describe(tuple(played)).startswith("lost (proven: no winning line after the "
                                                     "last move), but a limit stopped the solve "
                                                     "of the deal itself")
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(map(str, played)) + "\n", encoding="utf-8")
    status, data = _run(["review", "--deal", "1", str(moves), "--json", "--max-nodes", "50"],
                        capsys)
    assert status == 3 and data["verdict"] == "unknown" and data["end"] == "lost"
    assert data["start"] == "unknown" and data["reason"] == "max_nodes"


def test_a_review_answered_despite_a_limit_gives_no_reason() -> None:
    # The end is winnable, so the review is answered, though the limit
    # stopped the deal's own solve: its reason once came along all the same.
    from bakersdozen.records import review_to_json

    deal = Deal.pysol(1)
    line = solve(deal).moves
    result = review(deal, line[:70], max_nodes=50)
    assert result.verdict is Verdict.SOLVED and result.start_verdict is Verdict.UNKNOWN
    assert result.reason is None
    data = review_to_json(result, line[:70])
    assert (data["verdict"], data["start"], data["end"]) == ("winnable", "unknown", "winnable")
    stopped = review(deal, line[:10], max_nodes=50)  # neither end decided: open, and why
    assert stopped.verdict is Verdict.UNKNOWN and stopped.reason == "max_nodes"
    assert review_to_json(stopped, line[:10])["verdict"] == "unknown"


def test_the_limits_of_a_hint_cover_both_of_its_searches() -> None:
    # The shortest search once got the whole max_nodes again after the
    # default search, and the time limit again (up to 0.1 s more).
    deal = Deal.pysol(1)
    for limit in (500, 5000, 50_000):
        answer = hint(deal, max_nodes=limit, memory_mb=MEMORY_MB)
        assert answer.verdict is Verdict.SOLVED
        assert answer.solution.nodes <= answer.nodes <= limit
    assert hint(deal, max_nodes=117, memory_mb=MEMORY_MB).nodes <= 117


@pytest.mark.parametrize(("argv", "words"), [
    (["review", "BOARD"], "give the board file and the moves file, or --deal N"),
    (["review", "--deal", "1"], "give the board file and the moves file, or --deal N"),
    (["review", "--deal", "1", "BOARD", "BOARD"], "with --deal N give only the moves file"),
    (["hint"], "one of the arguments file --deal is required"),
    (["hint", "BOARD", "--deal", "1"], "argument --deal: not allowed with argument file"),
    (["hint", "--deal", "0"], "argument --deal: a PySol deal number must be at least 1"),
])
def test_deal_and_file_arguments_are_checked(
        argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(Deal.pysol(1).to_text(), encoding="utf-8")
    assert main([str(board) if word == "BOARD" else word for word in argv]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"bakersdozen {argv[0]}: error: {words}") and err.count("\n") == 1, err
    assert out == ""
