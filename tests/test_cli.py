"""The command line, through main([...])."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from bakersdozen.cli import main
from conftest import DEAL_1


def test_deal_24(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "24"]) == 0
    out = capsys.readouterr().out
    # NOTATION.md's published check value, then the full oracle output.
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
    result = subprocess.run(
        [sys.executable, "-m", "bakersdozen", "deal", "24"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
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
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    loaded = set(done.stderr.split())
    assert "bakersdozen.cli.deal" in loaded
    assert not loaded & {"bakersdozen.cli.survey", "bakersdozen.cli.bench", "bakersdozen.survey",
                         "bakersdozen.records", "json", "tqdm"}
