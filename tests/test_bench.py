"""``bakersdozen bench``: output shape, bad arguments, and the fc-solve comparison.

Fast tests only: two or three easy deals.  The comparison with Freecell
Solver is tested against a fake ``fc-solve`` written here, which prints the
verdict lines of the real one (taken from its main.c), so that the whole
path (finding the program, probing it for 13 stacks, running it per deal
under the time limit, parsing its verdicts) runs without Freecell Solver.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from bakersdozen import Deal, check, solve
from bakersdozen.bench import (
    FcSolveUnavailable,
    find_fc_solve,
    parse_deals,
    parse_fc_solve,
    perft_speed,
    run_fc_solve,
)
from bakersdozen.cli import main
from bakersdozen.stats import percentile

import children

EASY = "1,24,64"  # two quick wins and a quick proof of unsolvability

FAKE_FC_SOLVE = """\
#!{python}
import os, sys, time
board = sys.stdin.read()
if "--game" not in sys.argv or "bakers_dozen" not in sys.argv:
    print("wrong arguments", sys.argv); sys.exit(5)
mode = os.environ.get("FAKE_FC_MODE", "solved")
if mode == "stacks":
    sys.stderr.write('The game "bakers_dozen" exceeds the maximal number of stacks in the '
                     'program.\\nModify the file "config.h" and recompile, if you wish to '
                     'solve one of its boards.\\n')
    sys.exit(255)
if board.startswith("AC AD AH AS"):  # the probe board
    mode = "solved"
if mode == "sleep":
    time.sleep(30)
messages = {{
    "solved": "This game is solveable.",
    "unsolvable": "I could not solve this game.",
    "iters": "Iterations count exceeded.",
    "garbage": "Segmentation fault",
}}
print("-=-=-=-=-=-=-=-=-=-=-=-")
print(messages[mode])
print("Total number of states checked is 1234.")
print("This scan generated 1240 states.")
"""


@pytest.fixture
def fake_fc_solve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake fc-solve, alone on PATH; its verdict is set by FAKE_FC_MODE."""
    program = tmp_path / "fc-solve"
    program.write_text(FAKE_FC_SOLVE.format(python=sys.executable))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    return program


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["bench", "--json", *args]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


# -- deal lists and figures --------------------------------------------------


def test_parse_deals() -> None:
    assert parse_deals("1-100") == list(range(1, 101))
    assert parse_deals("1-5,9") == [1, 2, 3, 4, 5, 9]
    assert parse_deals(" 7 , 3-4,3 ") == [7, 3, 4]
    assert parse_deals(str(2**64 - 1)) == [2**64 - 1]


@pytest.mark.parametrize("spec", ["", "1,", "x", "1-", "-3", "5-1", "0", "1-x", str(2**64)])
def test_parse_deals_refuses(spec: str) -> None:
    with pytest.raises(ValueError, match="deal range"):
        parse_deals(spec)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50
    assert percentile(values, 90) == 90
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([3.0, 1.0, 2.0], 50) == 2
    assert percentile([5.0], 99) == 5


# -- the command ---------------------------------------------------------------


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--deals", EASY, "--time-limit", "5", "--per-deal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PySol deals 1,24,64, time limit 5 s")
    rows = {line.split("  ")[0].strip(): line.split()[-1] for line in out.splitlines() if "  " in line}
    assert rows["deals"] == "3"
    assert rows["decided"] == "3"
    assert rows["solved"] == "2"
    assert rows["unsolvable"] == "1"
    assert rows["unknown"] == "0"
    for label in ("p50 seconds", "p90 seconds", "p99 seconds", "max seconds",
                  "nodes per second", "median solution length", "peak RSS (process)"):
        assert label in out
    assert "peak of the whole process" in out
    assert "unsolvable" in out.split("bakersdozen: deal verdict")[1]


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--deals", EASY, "--time-limit", "5")
    assert report["settings"]["deals"] == "1,24,64"
    assert report["settings"]["time_limit"] == 5
    assert report["settings"]["jobs"] == 1
    assert set(report["machine"]) >= {"cpu", "cpus", "python"}
    assert list(report["solvers"]) == ["bakersdozen"]
    ours = report["solvers"]["bakersdozen"]
    summary = ours["summary"]
    assert (summary["deals"], summary["decided"], summary["solved"]) == (3, 3, 2)
    assert (summary["unsolvable"], summary["unknown"]) == (1, 0)
    assert summary["unknown_deals"] == []
    assert 0 < summary["p50_seconds"] <= summary["p90_seconds"] <= summary["max_seconds"]
    assert summary["nodes"] > 0 and summary["nodes_per_second"] > 0
    assert summary["peak_rss_mb"] > 0
    deals = {d["deal"]: d for d in ours["deals"]}
    assert sorted(deals) == [1, 24, 64]
    assert deals[64]["verdict"] == "unsolvable" and deals[64]["length"] is None
    # The lengths are those of lines that the checker accepts.
    for number in (1, 24):
        assert deals[number]["verdict"] == "solved"
        deal = Deal.pysol(number)
        solution = solve(deal, time_limit=5)
        assert check(deal, solution.moves).won
        assert deals[number]["length"] == len(solution.moves)
    assert summary["median_solution_length"] == (deals[1]["length"] + deals[24]["length"]) / 2
    assert "perft" not in report


def test_unknown_is_counted(capsys: pytest.CaptureFixture[str]) -> None:
    # Deal 18 takes millions of positions: 1 ms is far from enough to decide it.
    report = run_json(capsys, "--deals", "417", "--time-limit", "0.001")
    summary = report["solvers"]["bakersdozen"]["summary"]
    assert (summary["decided"], summary["unknown"], summary["unknown_deals"]) == (0, 1, [417])
    assert report["solvers"]["bakersdozen"]["deals"][0]["reason"] == "time_limit"


def test_jobs_use_processes(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--deals", "1,24", "--jobs", "2")
    assert report["settings"]["jobs"] == 2
    assert [d["deal"] for d in report["solvers"]["bakersdozen"]["deals"]] == [1, 24]
    assert report["solvers"]["bakersdozen"]["summary"]["solved"] == 2


def test_python_m_entry_point() -> None:
    done = children.run([sys.executable, "-m", "bakersdozen", "bench", "--deals", "24",
                         "--json"], timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["solvers"]["bakersdozen"]["summary"]["solved"] == 1


def test_perft_speed_counts() -> None:
    # PySol deal 1: 11, 110, 1041 sequences of 1, 2, 3 moves (bench/perft.json).
    result = perft_speed([1], depth=3)
    assert result["nodes"] == 1041
    assert result["depth"] == 3 and result["positions"][0]["deal"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--deals", "5-1"],
        ["--deals", "x"],
        ["--deals", "0"],
        ["--time-limit", "0"],
        ["--time-limit", "nan"],
        ["--time-limit", "soon"],
        ["--memory-mb", "-5"],
        ["--jobs", "0"],
        ["--jobs", "1.5"],
        ["--compare", "solvitaire"],
        ["--fc-solve", "/bin/true"],
        ["--compare", "fc-solve", "--jobs", "2"],
        ["--compare", "fc-solve", "--perft-only"],
        ["--fc-solve-args", "'unclosed"],
        ["--no-such-option"],
    ],
)
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--deals", "24", *args]) == 2
    captured = capsys.readouterr()
    assert "error" in captured.err
    assert captured.out == ""


# -- Freecell Solver -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "verdict", "reason"),
    [
        ("This game is solveable.", "solved", None),
        ("I could not solve this game.", "unsolvable", None),
        ("Iterations count exceeded.", "unknown", "max_iters"),
        ("Segmentation fault", "unknown", "no verdict in fc-solve output"),
        ("", "unknown", "no verdict in fc-solve output"),
        # Not a verdict: only the whole line counts.
        ("Move a card: This game is solveable. (not really)", "unknown",
         "no verdict in fc-solve output"),
    ],
)
def test_parse_fc_solve(line: str, verdict: str, reason: str | None) -> None:
    output = f"-=-=-=\n\n{line}\nTotal number of states checked is 4321.\nThis scan generated 4320 states.\n"
    assert parse_fc_solve(output) == (verdict, 4321, reason)


def test_parse_fc_solve_without_counts() -> None:
    assert parse_fc_solve("This game is solveable.\n") == ("solved", 0, None)


def test_parse_fc_solve_too_many_stacks() -> None:
    text = 'The game "bakers_dozen" exceeds the maximal number of stacks in the program.\n'
    with pytest.raises(FcSolveUnavailable, match="fewer than 13 stacks"):
        parse_fc_solve(text)


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``bench --compare fc-solve`` *args*: exit 2, nothing on stdout, one line."""
    assert main(["bench", "--deals", "24", "--compare", "fc-solve", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("bakersdozen bench: error: --compare fc-solve: ")
    return lines[0]


def test_fc_solve_not_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FcSolveUnavailable, match="fc-solve not found on PATH.*--fc-solve PATH"):
        find_fc_solve()
    # A comparison asked for and not made is an error (it once exited 0, benchmarking
    # bakersdozen alone), whether the program was named or looked for on PATH.
    assert "fc-solve not found on PATH" in _refused(capsys)
    assert "not found or not executable" in _refused(
        capsys, "--fc-solve", str(tmp_path / "nope"))


def test_fc_solve_with_too_few_stacks(
    fake_fc_solve: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAKE_FC_MODE", "stacks")  # answers as Debian's 10-stack build
    assert "fewer than 13 stacks" in _refused(capsys)
    assert "fewer than 13 stacks" in _refused(capsys, "--fc-solve", str(fake_fc_solve))
    assert "fewer than 13 stacks" in _refused(capsys, "--json")


@pytest.mark.parametrize(
    ("mode", "verdict", "reason"),
    [
        ("solved", "solved", None),
        ("unsolvable", "unsolvable", None),
        ("iters", "unknown", "max_iters"),
        ("garbage", "unknown", "no verdict in fc-solve output"),
    ],
)
def test_compare_with_fake_fc_solve(
    mode: str, verdict: str, reason: str | None, fake_fc_solve: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAKE_FC_MODE", mode)
    report = run_json(capsys, "--deals", "1,24", "--compare", "fc-solve")
    assert report["settings"]["fc_solve"] == str(fake_fc_solve)
    assert list(report["solvers"]) == ["bakersdozen", "fc-solve"]
    theirs = report["solvers"]["fc-solve"]
    assert [d["verdict"] for d in theirs["deals"]] == [verdict, verdict]
    assert [d["reason"] for d in theirs["deals"]] == [reason, reason]
    assert [d["nodes"] for d in theirs["deals"]] == [1234, 1234]
    assert theirs["summary"][verdict] == 2
    assert report["solvers"]["bakersdozen"]["summary"]["solved"] == 2
    # Both say "solved" or one is undecided: no disagreement; a proof of
    # unsolvability against our checked win is one.
    expected = [1, 24] if mode == "unsolvable" else []
    assert [d["deal"] for d in report["disagreements"]] == expected
    main(["bench", "--deals", "1,24", "--compare", "fc-solve"])
    table = capsys.readouterr().out
    assert "fc-solve" in table.splitlines()[1]
    assert ("VERDICTS DISAGREE" in table) == (mode == "unsolvable")


def test_fc_solve_killed_at_time_limit_is_unknown(
    fake_fc_solve: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_FC_MODE", "sleep")
    program = find_fc_solve()  # the probe board is answered at once
    result = run_fc_solve(program, 24, time_limit=0.5)
    assert (result.verdict.value, result.reason, result.nodes) == ("unknown", "time_limit", 0)
    assert 0.5 <= result.seconds < 5


def test_fc_solve_gets_board_and_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fake that records what it was given.
    log = tmp_path / "log.json"
    program = tmp_path / "fc-solve"
    program.write_text(
        f"#!{sys.executable}\nimport json, os, sys\n"
        f"json.dump({{'argv': sys.argv[1:], 'stdin': sys.stdin.read(),"
        f" 'quiet': os.environ.get('FREECELL_SOLVER_QUIET')}}, open({str(log)!r}, 'w'))\n"
        "print('I could not solve this game.')\n"
    )
    program.chmod(0o755)
    result = run_fc_solve(str(program), 64, time_limit=5, extra=["-l", "lg"])
    assert result.verdict.value == "unsolvable"
    seen = json.loads(log.read_text())
    assert seen["argv"] == ["--game", "bakers_dozen", "-l", "lg"]
    assert seen["stdin"] == Deal.pysol(64).to_text()
    assert seen["quiet"] == "1"
