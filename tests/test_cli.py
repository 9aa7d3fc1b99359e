"""The command line, through main([...])."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from bakersdozen import Deal
from bakersdozen.cli import main
import children
from conftest import DEAL_1


def test_deal_24(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "24"]) == 0
    out = capsys.readouterr().out
    # docs/notation.md's published check value, then the full oracle output.
    assert out.splitlines()[:2] == ["KD 8H AC AS", "KC 3D 8C 2S"]
    game = Game("bakers_dozen", 24, RandomBase.DEALS_PYSOL)
    assert out == game.calc_layout_string(CardRenderer(True))


def test_deal_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "1"]) == 0
    assert capsys.readouterr().out == DEAL_1


@pytest.mark.parametrize("argv", [["deal", "0"], ["deal", str(2**64)], ["deal", "x"], ["deal"],
                                  [], ["nosuchcommand"], ["show"]])
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "deal" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert "bakersdozen" in capsys.readouterr().out


def test_show_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1.lower().replace("\n", "\r\n"), encoding="utf-8")
    assert main(["show", str(board)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == [str(n) for n in range(1, 14)]
    assert lines[1].split()[:4] == ["6♥", "2♥", "9♣", "K♣"]
    assert "10♥" in out
    assert "kings moved" not in out
    assert err == ""


def test_show_says_kings_rule_applied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "kings.txt"
    board.write_text(DEAL_1.replace("KC TH AH 6S", "TH AH KC 6S"), encoding="utf-8")
    assert main(["show", str(board)]) == 0
    out = capsys.readouterr().out
    assert "kings moved to the bottom" in out
    assert out.splitlines()[1].split()[3] == "K♣"


def test_show_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEAL_1))
    assert main(["show", "-"]) == 0
    assert "♣" in capsys.readouterr().out


def test_show_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "bad.txt"
    board.write_text(DEAL_1.replace("JS", "JX"), encoding="utf-8")
    assert main(["show", str(board)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert str(board) in err and "line 6" in err and "'JX'" in err


def test_show_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    assert main(["show", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err


def test_show_empty_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["show", "-"]) == 2
    assert "<stdin>" in capsys.readouterr().err


def test_python_dash_m() -> None:
    result = children.run([sys.executable, "-m", "bakersdozen", "deal", "24"], timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("KD 8H AC AS\nKC 3D 8C 2S\n")


def test_command_table_matches_the_modules() -> None:
    import importlib

    from bakersdozen.cli import COMMANDS

    for name, help in COMMANDS.items():
        module = importlib.import_module(f"bakersdozen.cli.{name}")
        assert module.HELP == help
        assert callable(module.add_arguments) and callable(module.run)


def test_only_the_command_run_is_imported() -> None:
    code = ("import sys; from bakersdozen.cli import main; main(['deal', '1']); "
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = children.run([sys.executable, "-c", code], timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.split())
    assert "bakersdozen.cli.deal" in loaded
    assert not loaded & {"bakersdozen.cli.survey", "bakersdozen.cli.bench", "bakersdozen.survey",
                         "bakersdozen.records", "json", "tqdm"}


# -- hint, review, replay -----------------------------------------------------


def _lost_game() -> tuple[Deal, list[str], int]:
    """Deal 1, its winning line up to a point, then a move that loses (proven)."""
    from bakersdozen import Verdict, check, legal_moves, solve

    deal = Deal.pysol(1)
    line = solve(deal).moves
    for k in range(len(line)):
        position = check(deal, line[:k]).position
        for move in legal_moves(position):
            after = check(position, [move]).position
            if move != line[k] and solve(after, memory_mb=64).verdict is Verdict.UNSOLVABLE:
                return deal, [str(m) for m in (*line[:k], move)], k
    raise AssertionError("no losing move on deal 1's line")


def test_hint_and_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bakersdozen import check, deadlock

    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    assert main(["hint", str(board), "--memory-mb", "64"]) == 0
    assert capsys.readouterr().out.startswith("hint: ")
    deal, played, _ = _lost_game()
    lost = tmp_path / "lost.txt"
    lost.write_text(check(deal, played).position.to_text(), encoding="utf-8")
    assert main(["hint", str(lost), "--memory-mb", "64"]) == 1
    out = capsys.readouterr().out
    stuck = deadlock(check(deal, played).position)
    if stuck:  # lost at once: the cards that can never move are named
        assert out == f"lost: no winning line from here ({' '.join(map(str, stuck))} can never move)\n"
    else:
        assert out == "lost: no winning line from here\n"


def test_review_names_the_losing_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal, played, k = _lost_game()
    board = tmp_path / "deal1.txt"
    board.write_text(deal.to_text(), encoding="utf-8")
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(played) + "\n", encoding="utf-8")
    assert main(["review", str(board), str(moves), "--memory-mb", "64"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"lost at move {k + 1}: {played[k]} (proven")
    assert "winning alternative" in out
    moves.write_text("\n".join(played[:k]) + "\n", encoding="utf-8")
    assert main(["review", str(board), str(moves), "--memory-mb", "64"]) == 0
    assert capsys.readouterr().out.startswith("still winnable")
    moves.write_text(played[0] + "\nQS 9>1\n", encoding="utf-8")
    assert main(["review", str(board), str(moves)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "move 2 'QS 9>1' cannot be played" in err


def test_replay_and_solve_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    assert main(["solve", str(board), "--json", "--html", str(tmp_path / "a.html")]) == 0
    record = capsys.readouterr().out
    (tmp_path / "s.json").write_text(record, encoding="utf-8")
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "replay-data" in page
    assert main(["replay", str(board), str(tmp_path / "s.json"),
                 "--html", str(tmp_path / "b.html")]) == 0
    again = (tmp_path / "b.html").read_text(encoding="utf-8")
    moves = json.loads(record)["moves"]
    assert f"{len(moves)} moves" in again
    assert main(["replay", str(board), str(tmp_path / "missing.json"),
                 "--html", str(tmp_path / "c.html")]) == 2
    assert "missing.json" in capsys.readouterr().err
    assert not (tmp_path / "c.html").exists()


def test_a_record_of_another_game_is_refused_with_the_flags_to_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    flags = ["--move-unit", "sequence", "--empty-column", "kings_only", "--foundation-return"]
    for game, knobs in (("castles_in_spain", []), ("bakers_dozen", flags)):
        board = tmp_path / f"{game}.txt"
        assert main(["deal", "1", "--game", game, *knobs]) == 0
        board.write_text(capsys.readouterr().out, encoding="utf-8")
        record = tmp_path / f"{game}.json"
        assert main(["solve", "--deal", "1", "--game", game, *knobs, "--json"]) == 0
        record.write_text(capsys.readouterr().out, encoding="utf-8")
        named = json.loads(record.read_text(encoding="utf-8"))["game"]
        for command in (["replay", str(board), str(record), "--html", str(tmp_path / "r.html")],
                        ["review", str(board), str(record)]):
            assert main(command) == 2  # read under plain Baker's Dozen
            err = capsys.readouterr().err.splitlines()[-1]
            assert f"solved under {named} " in err and "not bakers_dozen" in err
            assert err.endswith("pass " + " ".join(["--game", game, *knobs]))
            assert main([*command, "--game", game, *knobs]) == 0  # the advice works
            capsys.readouterr()
        assert (tmp_path / "r.html").exists()


def test_a_record_of_no_known_game_is_refused_without_advice_that_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it advised "pass --game klondike", which argparse refuses in turn
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    record = tmp_path / "r.json"
    record.write_text('{"game": "klondike", "moves": [{"card": "AD", "source": 1, '
                      '"target": "foundation"}]}', encoding="utf-8")
    for command in (["review", str(board), str(record)],
                    ["show", str(board), "--moves", str(record)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--game klondike" not in err, err
        assert "the record's \"game\" 'klondike' is no game this package plays" in err


def test_replay_counts_moves_from_one_as_review_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    moves = tmp_path / "moves.txt"
    moves.write_text("AD F>1\n", encoding="utf-8")  # a foundation return, under no return
    for command in (["replay", str(board), str(moves), "--html", str(tmp_path / "r.html")],
                    ["review", str(board), str(moves)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "move 1 'AD F>1'" in err, err
        assert "foundation_return is off" in err
    assert not (tmp_path / "r.html").exists()


# -- the game and its knobs ----------------------------------------------------


@pytest.mark.parametrize("command", [["deal", "1"], ["solve", "--deal", "1"],
                                     ["survey", "1-2"], ["bench", "--deals", "1"]])
def test_unknown_game_lists_the_presets(command: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--game", "klondike"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game 'klondike'" in err and "bakers_dozen" in err


def test_game_by_name_and_knobs_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["solve", "--deal", "1", "--game", "Baker's Dozen", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "bakers_dozen"
    assert main(["bench", "--deals", "1", "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["game"] == "bakers_dozen" and settings["rules"]["moves"] == "one_card"


def test_solve_json_records_its_method(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["solve", "--deal", "3266", "--json", "--memory-mb", "64"]) == 1
    assert "method" not in json.loads(capsys.readouterr().out)  # "dfs": as before
    assert main(["solve", "--deal", "3266", "--json", "--memory-mb", "64", "--proof"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "proof" and data["verdict"] == "unsolvable"


@pytest.mark.parametrize("argv, says", [
    (["--deal", "6686", "--game", "good_measure"], "unsolvable (proved by a complete search"),
    (["--deal", "1"], "solved (a winning line found in"),
    (["--deal", "417"], None),     # unknown in the table too
    (["--deal", "200000"], None),  # outside the table
])
def test_an_unknown_solve_says_what_the_table_knows(
    argv: list[str], says: str | None, capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from bakersdozen import winnable

    assert main(["solve", *argv, "--max-nodes", "100", "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verdict"] == "unknown"  # the search's own, not the table's
    if says is None:
        assert "table" not in captured.err
        return
    game = argv[3] if len(argv) > 2 else "bakers_dozen"
    known = winnable(int(argv[1]), game, solve_outside=False)
    assert f"says deal {argv[1]} of {game} is {says}" in captured.err
    assert f" {known.positions:,} positions" in captured.err


@pytest.mark.parametrize("argv", [
    ["solve", "--deal", "6686", "--game", "good_measure", "--max-nodes", "10", "--json"],
    ["solve", "BOARD", "--max-nodes", "10", "--json"],  # the Kings note
    ["survey", "1-2", "--jobs", "1", "--max-nodes", "10", "--format", "jsonl"],
    ["show", "BOARD", "--text"],
])
def test_closed_standard_error_keeps_notes_out_of_the_output(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import json

    lines = DEAL_1.splitlines()
    assert lines[3].startswith("KC ")
    lines[3] = " ".join(reversed(lines[3].split()))  # KC on top: the Kings rule moves it
    (tmp_path / "board.txt").write_text("\n".join(lines) + "\n")
    argv = [str(tmp_path / "board.txt") if arg == "BOARD" else arg for arg in argv]
    monkeypatch.setattr(sys, "stderr", None)  # as Python sets it under 2>&-
    assert main(argv) in (0, 3)
    out = capsys.readouterr().out
    assert "note" not in out
    if argv[0] != "show":
        for line in out.splitlines():
            json.loads(line)  # each line a record


def test_a_damaged_table_is_a_note_for_solve_and_an_error_for_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gzip
    import json
    from importlib import resources

    from bakersdozen import winnability

    (tmp_path / "tables").mkdir()
    for name in winnability.table_games():
        whole = resources.files("bakersdozen").joinpath("tables", f"{name}.csv.gz").read_bytes()
        (tmp_path / "tables" / f"{name}.csv.gz").write_bytes(whole)
    assert gzip.decompress((tmp_path / "tables" / "good_measure.csv.gz").read_bytes())
    cut = (tmp_path / "tables" / "good_measure.csv.gz").read_bytes()[:5000]
    (tmp_path / "tables" / "good_measure.csv.gz").write_bytes(cut)  # a truncated install
    monkeypatch.setattr(winnability.resources, "files", lambda package: tmp_path)
    monkeypatch.setattr(winnability, "_TABLES", {})

    with pytest.raises(winnability.TableError, match="the table of 'good_measure' is damaged"):
        winnability.winnable(6686, "good_measure")
    assert main(["solve", "--deal", "6686", "--game", "good_measure", "--max-nodes", "10",
                 "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verdict"] == "unknown"
    assert "note: the table of 'good_measure' is damaged" in captured.err
    assert "Traceback" not in captured.err
    assert main(["deals", "--winnable", "--game", "good_measure", "--count", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is damaged" in err


def test_an_unknown_hint_says_what_the_table_knows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "--deal", "6686", "--game", "good_measure", "--max-nodes", "100"]) == 3
    assert "says deal 6686 of good_measure is unsolvable" in capsys.readouterr().err


def test_survey_proof_flag_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--proof run the complete search alone, without the restart rounds" in help_text
    assert "not by the limits or the method they were made with" in help_text


def test_a_survey_file_holds_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.jsonl"
    assert main(["survey", "1-2", "--jobs", "1", "--output", str(out)]) == 0
    capsys.readouterr()
    assert main(["survey", "1-2", "--jobs", "1", "--output", str(out),
                 "--empty-column", "any_card"]) == 2
    err = capsys.readouterr().err
    assert "holds records of the game 'bakers_dozen'" in err
    assert "'bakers_dozen+empty_column=any_card'" in err


# -- limits the parser accepts are the limits solve() accepts -------------------


_LIMIT_COMMANDS = {
    "solve": ["solve", "--deal", "1"],
    "hint": ["hint", "BOARD"],
    "review": ["review", "BOARD", "BOARD"],
    "survey": ["survey", "1-3", "--jobs", "1"],
    "bench": ["bench", "--deals", "1-3"],
}


@pytest.mark.parametrize("command", list(_LIMIT_COMMANDS))
@pytest.mark.parametrize(("flag", "value", "words"), [
    ("--memory-mb", "0.5", "argument --memory-mb: must be in 1..1048576 MiB, not 0.5"),
    ("--memory-mb", "1e9", "argument --memory-mb: must be in 1..1048576 MiB, not 1e9"),
    ("--memory-mb", "nan", "argument --memory-mb: must be in 1..1048576 MiB, not nan"),
    ("--time-limit", "1e300", "argument --time-limit: must be seconds > 0 and below 1e15"),
    ("--time-limit", "1e15", "argument --time-limit: must be seconds > 0 and below 1e15"),
])
def test_limits_out_of_the_api_range_are_usage_errors(
        command: str, flag: str, value: str, words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    argv = [str(board) if word == "BOARD" else word for word in _LIMIT_COMMANDS[command]]
    assert main([*argv, flag, value]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith(f"bakersdozen {command}: error: {words}"), err
    assert out == ""


def test_limit_ranges_match_the_api_and_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    from bakersdozen import solver
    from bakersdozen.cli import _common

    assert _common.MAX_MEMORY_MB == solver.MAX_MEMORY_MB == 1048576
    assert _common.MAX_TIME_LIMIT == solver.MAX_TIME_LIMIT == 1e15
    # the edges the parser accepts, solve() accepts
    for value in ("1", "1048576"):
        solver._check_limit("memory_mb", _common.memory_mb(value), optional=False)
    for value in ("1e-300", "999999999999999.9"):
        solver._check_limit("time_limit", _common.time_limit(value))
    for command in _LIMIT_COMMANDS:
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "1..1048576" in text, command
        assert "below 1e15" in text, command


@pytest.mark.parametrize("command", [["review", "-", "-"],
                                     ["replay", "-", "-", "--html", "PAGE"],
                                     ["show", "-", "--moves", "-"]])
def test_board_and_moves_cannot_both_be_stdin(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # the board once used up standard input and the moves read as none:
    # "still winnable after all 0 moves", exit 0
    page = tmp_path / "r.html"
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEAL_1))
    assert main([str(page) if word == "PAGE" else word for word in command]) == 2
    out, err = capsys.readouterr()
    assert err == (f"bakersdozen {command[0]}: error: the board and the moves cannot both be "
                   "standard input (-): give one of them as a file\n")
    assert out == "" and not page.exists()


# -- output files: checked before the work, never made up -------------------------


def test_survey_output_in_a_missing_directory_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # filelock once made the missing directory (and the file) without a word
    missing = tmp_path / "resluts"
    assert main(["survey", "1-3", "--jobs", "1", "--output", str(missing / "s.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert err == (f"bakersdozen survey: error: {missing / 's.jsonl'}: cannot write there: "
                   f"{missing} does not exist\n")
    assert out == "" and not missing.exists()
    plain = tmp_path / "plain"
    plain.write_text("", encoding="utf-8")
    assert main(["survey", "1-3", "--jobs", "1", "--output", str(plain / "s.jsonl")]) == 2
    assert capsys.readouterr().err.endswith(f"{plain} is not a directory\n")


def test_solve_html_of_a_won_position_says_so(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # it said "no winning line" of a position whose winning line is empty
    won = tmp_path / "won.txt"
    won.write_text("Foundations: H-K C-K D-K S-K\n" + ":\n" * 13)
    assert main(["solve", str(won), "--html", str(tmp_path / "w.html")]) == 0
    err = capsys.readouterr().err
    assert "note: the position is won already, nothing to replay" in err
    assert "no winning line" not in err and not (tmp_path / "w.html").exists()
    assert main(["solve", "--deal", "64", "--html", str(tmp_path / "l.html")]) == 1
    assert "note: no winning line, so no page written" in capsys.readouterr().err


def test_solve_checks_the_html_path_before_solving(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import bakersdozen.solver

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the page's path was checked")

    monkeypatch.setattr(bakersdozen.solver, "solve", no_solve)
    for page, reason in ((tmp_path / "missing" / "x.html", "No such file or directory"),
                         (tmp_path, "Is a directory")):
        assert main(["solve", "--deal", "1", "--html", str(page)]) == 2
        out, err = capsys.readouterr()
        assert err == f"bakersdozen solve: error: {page}: {reason}\n" and out == ""
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(("argv", "flag"), [
    (["solve", "--deal", "1", "--html", ""], "--html"),
    (["replay", "BOARD", "BOARD", "--html", ""], "--html"),
    (["survey", "1-3", "--jobs", "1", "-o", ""], "--output/-o"),
    (["survey", "--boards", ""], "--boards"),
    (["survey", "--summary", ""], "--summary"),
    (["solve", ""], "file"),
    (["show", ""], "file"),
    (["hint", ""], "file"),
    (["review", "BOARD", ""], "moves"),
    (["show", "BOARD", "--moves", ""], "--moves"),
])
def test_an_empty_file_name_is_refused(
        argv: list[str], flag: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # solve --html "" once wrote no page without a word; survey -o "" wrote to stdout
    board = tmp_path / "deal1.txt"
    board.write_text(DEAL_1, encoding="utf-8")
    assert main([str(board) if word == "BOARD" else word for word in argv]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"bakersdozen {argv[0]}: error: argument {flag}: the file name is "
                          "empty (see ") and err.count("\n") == 1, err
    assert out == ""
