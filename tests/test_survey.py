"""Surveys: deal ranges, records, output files, resume after a kill, summaries.

Expected values come from outside the survey code: :func:`bakersdozen.solve`
on the same deals, the standard library's ``json`` and ``csv`` readers, and
the Wilson intervals published by Newcombe (1998).  Every winning line is
replayed by :func:`bakersdozen.check`.
"""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import children
from test_layers import midgame
from test_progress import _most_progress

import bakersdozen
from bakersdozen import Deal, ParseError, SurveyRecord, Verdict, check, solve
from bakersdozen.cli import main
from bakersdozen import _disk
from bakersdozen.errors import ArgumentError
from bakersdozen.records import FIELDS, DealId, board_id, move_from_json
from bakersdozen.survey.codecs import (
    CSV_FIELDS, CSV_FIELDS_NO_PROGRESS, CSV_FIELDS_NO_RESUMED, format_record, header, parse,
)
from bakersdozen.survey.tasks import MAX_WORK_DIR_NAME, DealSpec, work_dir_name
from bakersdozen.survey import (
    Limits,
    RecordWriter,
    parse_deal_range,
    read_records,
    solve_task,
    split_boards,
    summarize,
    survey,
    wilson_interval,
)

#: Small enough for a table allocated per deal to be cheap in tests.
MEMORY_MB = 64


def _replay(deal: Deal, moves: object) -> None:
    assert isinstance(moves, (list, tuple)) and moves
    assert check(deal, [move_from_json(m) if isinstance(m, dict) else m for m in moves]).won


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- deal ranges ---------------------------------------------------------------


def test_parse_deal_range() -> None:
    assert parse_deal_range("1-5,9,20-22") == [1, 2, 3, 4, 5, 9, 20, 21, 22]
    assert parse_deal_range("7") == [7]
    assert parse_deal_range(" 30 - 32 , 1 ") == [30, 31, 32, 1]
    assert parse_deal_range("1-3,2,3-4") == [1, 2, 3, 4]  # each deal once, first place kept
    assert parse_deal_range(f"{2**64 - 1}") == [2**64 - 1]
    assert bakersdozen.parse_deal_range is parse_deal_range


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("5-1", "'5-1'"),
        ("a-3", "'a-3'"),
        ("0", "'0'"),
        ("", "''"),
        ("  ", "'  '"),
        ("1--3", "'1--3'"),
        ("1,,3", "item 2"),
        ("1-3,", "item 2"),
        ("3-x", "'3-x'"),
        ("1.5", "'1.5'"),
        (str(2**64), f"'{2**64}'"),
    ],
)
def test_bad_deal_range(text: str, quoted: str) -> None:
    with pytest.raises(ParseError) as error:
        parse_deal_range(text)
    assert quoted in str(error.value)
    assert isinstance(error.value, ValueError)


def test_reversed_range_message() -> None:
    with pytest.raises(ParseError, match=r"reversed range \(5 > 1\); write '1-5'"):
        parse_deal_range("5-1")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["survey", "5-1"], "'5-1'"),
        (["survey", "1--3"], "'1--3'"),
        (["survey"], "give deal numbers"),
        (["survey", "1-3", "--jobs", "0"], "--jobs"),
        (["survey", "1-3", "--time-limit", "-1"], "--time-limit"),
        (["survey", "1-3", "--output", "out.txt"], "suffix"),
        (["survey", "--boards", "no/such/file.txt"], "no/such/file.txt"),
        (["survey", "--summary", "no/such/file.jsonl"], "no/such/file.jsonl"),
        (["survey", "--retry-unknown", "--output", "none.jsonl"], "no such survey"),
        (["survey", "--retry-unknown"], "needs --output"),
    ],
)
def test_cli_bad_input(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert not (tmp_path / "none.jsonl").exists()


# -- records against solve() --------------------------------------------------


def test_records_match_solve() -> None:
    deals = [1, 2, 3, 5, 64]  # 64 is unsolvable
    records = list(bakersdozen.survey(
        deals, jobs=2, time_limit=60.0, memory_mb=MEMORY_MB, moves=True
    ))
    assert sorted(r.deal for r in records) == sorted(deals)  # type: ignore[type-var]
    for record in records:
        deal = Deal.pysol(int(record.deal))
        solution = solve(deal, time_limit=60.0, memory_mb=MEMORY_MB)
        assert record.verdict is solution.verdict
        assert record.nodes == solution.nodes
        assert record.moves == solution.moves
        assert record.reason is None
        if solution.verdict is Verdict.SOLVED:
            assert record.length == len(solution.moves)
            _replay(deal, record.moves)
        else:
            assert record.length is None
    verdicts = {r.deal: r.verdict for r in records}
    assert verdicts[64] is Verdict.UNSOLVABLE


def test_api_inputs_in_process() -> None:
    """jobs=1 solves in this process; Deals and (id, Deal) pairs are accepted."""
    deal = Deal.pysol(4)
    records = list(bakersdozen.survey(
        [1, deal, ("mine", Deal.pysol(10))], jobs=1, max_nodes=100_000, memory_mb=MEMORY_MB
    ))
    assert [r.deal for r in records][::2] == [1, "mine"]
    assert records[1].deal == board_id(deal) and records[1].deal.startswith("board-")
    assert all(r.verdict is Verdict.SOLVED and r.moves is None for r in records)
    assert records[1].nodes == solve(deal, max_nodes=100_000, memory_mb=MEMORY_MB).nodes
    again = SurveyRecord.from_json(json.loads(json.dumps(records[0].to_json())))
    assert again == records[0]


def test_api_checks_arguments_at_the_call() -> None:
    with pytest.raises(ValueError):
        bakersdozen.survey([1], jobs=0)
    with pytest.raises(ValueError):
        bakersdozen.survey([1], time_limit=-1.0)
    with pytest.raises(ValueError):
        list(bakersdozen.survey([0], jobs=1))


# -- output files ------------------------------------------------------------


def test_jsonl_and_csv_are_standard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--jobs", "2", "--time-limit", "2", "--memory-mb", str(MEMORY_MB), "--moves"]
    jsonl, table = tmp_path / "s.jsonl", tmp_path / "s.csv"
    assert main(["survey", "1-6,64", "--output", str(jsonl), *common]) == 0
    out = capsys.readouterr().out
    assert "Wilson" in out and "deals: 7" in out
    assert main(["survey", "1-6,64", "--output", str(table), *common]) == 0
    lines = _jsonl(jsonl)
    with open(table, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(lines) == len(rows) == 7
    by_deal = {row["deal"]: row for row in rows}
    for line in lines:
        row = by_deal[str(line["deal"])]
        assert row["verdict"] == line["verdict"]
        assert int(row["nodes"]) == line["nodes"]
        deal = Deal.pysol(int(str(line["deal"])))
        if line["verdict"] == "solved":
            assert int(row["length"]) == line["length"] == len(line["moves"])  # type: ignore[arg-type]
            _replay(deal, line["moves"])
            assert json.loads(row["moves"]) == line["moves"]  # one move shape everywhere
        else:
            assert row["length"] == "" and line["length"] is None
    assert by_deal["64"]["verdict"] == "unsolvable"
    # Both formats read back to the same records (two runs: seconds differ;
    # CSV writes no moves and an empty list of moves the same way, and does
    # not carry optimal and lower_bound, which JSON Lines does).
    assert all(r.lower_bound is not None for r in read_records(str(jsonl)) if r.solved)

    def same(path: Path) -> list[SurveyRecord]:
        return sorted((replace(r, seconds=0.0, moves=r.moves or None, optimal=None,
                               lower_bound=None, deadlock=())
                       for r in read_records(str(path))), key=lambda r: r.deal)

    assert same(jsonl) == same(table)


def test_stdout_is_jsonl(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "1,4", "--jobs", "1", "--memory-mb", str(MEMORY_MB)]) == 0
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert sorted(r["deal"] for r in records) == [1, 4]
    assert "moves" not in records[0]
    assert "deals: 2" in captured.err  # the summary goes to stderr


# -- resume after a real kill ------------------------------------------------


def test_resume_after_kill(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    # 400 deals, so that the kill lands mid-run even when this test is starved of the CPU
    # for a while on a loaded machine (with 40, the survey once wrote them all first)
    argv = [sys.executable, "-m", "bakersdozen", "survey", "1-400", "--jobs", "2",
            "--time-limit", "1", "--memory-mb", str(MEMORY_MB), "--output", str(out)]
    with children.started(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL) as process:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGKILL)  # the survey and its workers
        assert process.wait(10) == -signal.SIGKILL, "the survey ended before it could be killed"
    written = out.read_bytes().count(b"\n")
    assert 3 <= written < 400
    with open(out, "ab") as handle:  # as if killed in the middle of a line
        handle.write(b'{"deal":"7","verdict":"sol')

    resumed = children.run(argv, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert "torn last line" in resumed.stderr
    assert f"{written} deals already recorded" in resumed.stderr
    lines = _jsonl(out)
    counts = Counter(str(line["deal"]) for line in lines)
    assert counts == Counter(str(n) for n in range(1, 401))  # each deal exactly once
    assert "deals: 400" in resumed.stdout
    assert "deal/s" not in resumed.stderr and "%|" not in resumed.stderr  # no bar: not a terminal


def test_jsonl_read_as_csv_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.jsonl"
    assert main(["survey", "1-2", "--jobs", "1", "--output", str(out)]) == 0
    capsys.readouterr()
    # once: header '{"deal":1,game:"bakers_dozen",...' is not a survey's
    for argv in (["survey", "1-2", "--output", str(out)], ["survey", "--summary", str(out)]):
        assert main([*argv, "--format", "csv"]) == 2
        assert capsys.readouterr().err == (
            f"bakersdozen survey: error: {out}: a JSON Lines survey, not CSV (--format jsonl)\n")


def test_one_survey_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "busy.jsonl"
    writer = RecordWriter(str(out), "jsonl")  # another survey holds the file
    try:
        assert main(["survey", "1", "--jobs", "1", "--output", str(out)]) == 2
        assert "another survey is writing to this file" in capsys.readouterr().err
    finally:
        writer.close()
    assert out.read_text() == ""
    # where no lock file can be made, it says so, not that another survey writes
    if os.path.isdir("/proc/self"):
        assert main(["survey", "1", "--jobs", "1", "--output", "/proc/self/x.jsonl"]) == 2
        err = capsys.readouterr().err
        assert "cannot write there (/proc/self/x.jsonl.lock)" in err and "another" not in err


# -- retry of the unknowns ---------------------------------------------------


def test_retry_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "retry.csv"
    base = ["--jobs", "2", "--memory-mb", str(MEMORY_MB), "--output", str(out), "--moves"]
    assert main(["survey", "1-12", "--max-nodes", "500", *base]) == 0
    first = read_records(str(out))
    unknown = {r.deal for r in first if r.verdict is Verdict.UNKNOWN}
    assert unknown and all(r.reason == "max_nodes" for r in first if r.deal in unknown)
    capsys.readouterr()

    assert main(["survey", "--retry-unknown", "--max-nodes", "2000000", *base]) == 0
    assert "unknown 0" in capsys.readouterr().out
    records = read_records(str(out))
    assert records[:12] == first  # appended, never rewritten
    retried = records[12:]
    assert sorted(r.deal for r in retried) == sorted(unknown)
    for record in retried:
        deal = Deal.pysol(int(record.deal))
        solution = solve(deal, max_nodes=2_000_000, memory_mb=MEMORY_MB)
        assert (record.verdict, record.nodes) == (solution.verdict, solution.nodes)
        assert record.max_nodes == 2_000_000
        _replay(deal, record.moves)
    summary = summarize(records)  # the latest record of a deal wins
    assert (summary.total, summary.solved, summary.unknown) == (12, 12, 0)

    # Nothing left to retry: nothing is run, nothing is appended.
    assert main(["survey", "--retry-unknown", "--max-nodes", "2000000", *base]) == 0
    assert read_records(str(out)) == records


# -- the proof method -------------------------------------------------------

#: Unsolvable deals (3266 and 5143 searched, 477 and 64 deadlocked as dealt)
#: and solvable ones.
PROOF_DEALS = [3266, 5143, 477, 64, 1, 2, 24]


def test_proof_survey_gives_the_verdicts_of_dfs() -> None:
    dfs = list(bakersdozen.survey(PROOF_DEALS, jobs=1, time_limit=None, memory_mb=MEMORY_MB))
    proof = list(bakersdozen.survey(PROOF_DEALS, jobs=1, time_limit=None, memory_mb=MEMORY_MB,
                                    method="proof", moves=True))
    assert {r.deal: r.verdict for r in proof} == {r.deal: r.verdict for r in dfs}
    assert [r.deal for r in proof if r.verdict is Verdict.UNSOLVABLE] == [3266, 5143, 477, 64]
    assert {r.method for r in proof} == {"proof"} and {r.method for r in dfs} == {"dfs"}
    for record in proof:  # each record is what solve(method="proof") gives
        deal = Deal.pysol(int(record.deal))
        solution = solve(deal, time_limit=None, memory_mb=MEMORY_MB, method="proof")
        assert (record.verdict, record.nodes, record.moves) == (
            solution.verdict, solution.nodes, solution.moves)
        if record.solved:
            _replay(deal, record.moves)
        data = json.loads(json.dumps(record.to_json()))
        assert data["method"] == "proof"
        assert SurveyRecord.from_json(data) == record
    for record in dfs:  # the default search writes the records it always wrote
        data = record.to_json()
        assert "method" not in data
        assert SurveyRecord.from_json(json.loads(json.dumps(data))).method == "dfs"


def test_unknown_survey_method_is_refused_at_the_call() -> None:
    for method in ("bfs", "Proof", ""):
        with pytest.raises(ValueError, match=r"one of 'dfs', 'proof', 'layers', not"):
            bakersdozen.survey([1], jobs=1, method=method)
    with pytest.raises(ValueError, match=r"method='shortest'\) per deal"):
        bakersdozen.survey([1], jobs=1, method="shortest")
    with pytest.raises(TypeError, match="method must be a str"):
        bakersdozen.survey([1], jobs=1, method=None)  # type: ignore[arg-type]


def test_records_without_a_method_read_as_dfs() -> None:
    data = {"deal": 1, "verdict": "solved", "reason": None, "seconds": 0.1, "nodes": 117,
            "length": 85, "time_limit": 10.0, "max_nodes": None, "memory_mb": 512.0, "seed": 0}
    assert SurveyRecord.from_json(data).method == "dfs"
    assert SurveyRecord.from_json({**data, "method": ""}).method == "dfs"  # an empty cell
    assert SurveyRecord.from_json({**data, "method": "proof"}).method == "proof"
    with pytest.raises(ParseError, match="method must be a string"):
        SurveyRecord.from_json({**data, "method": 3})


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_proof_survey(tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    out = tmp_path / "proof.jsonl"
    deals = ",".join(map(str, PROOF_DEALS))
    assert main(["survey", deals, "--proof", "--jobs", jobs, "--time-limit", "none",
                 "--memory-mb", str(MEMORY_MB), "--output", str(out)]) == 0
    assert "solved 3" in capsys.readouterr().out
    lines = _jsonl(out)
    assert sorted(line["deal"] for line in lines) == sorted(PROOF_DEALS)  # type: ignore[type-var]
    assert {line["method"] for line in lines} == {"proof"}
    verdicts = {r.deal: r.verdict for r in read_records(str(out))}
    assert verdicts == {r.deal: r.verdict for r in bakersdozen.survey(
        PROOF_DEALS, jobs=1, time_limit=None, memory_mb=MEMORY_MB)}
    # CSV says which search made each record, as JSON Lines does
    table = tmp_path / "proof.csv"
    assert main(["survey", "1,64", "--proof", "--jobs", jobs, "--memory-mb", str(MEMORY_MB),
                 "--output", str(table)]) == 0
    assert table.read_text().splitlines()[0] == ",".join(CSV_FIELDS)
    assert {r.method for r in read_records(str(table))} == {"proof"}


def test_retry_unknown_with_proof(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "retry.jsonl"
    base = ["--jobs", "1", "--memory-mb", str(MEMORY_MB), "--output", str(out)]
    assert main(["survey", "1,2,3266,5143", "--max-nodes", "200", *base]) == 0
    first = read_records(str(out))
    unknown = {r.deal for r in first if r.verdict is Verdict.UNKNOWN}
    assert {3266, 5143} <= unknown
    capsys.readouterr()
    # Resuming with --proof skips what is recorded, whatever made it: nothing to do.
    assert main(["survey", "1,2,3266,5143", "--proof", "--max-nodes", "200", *base]) == 0
    assert read_records(str(out)) == first
    # The proof pass over the unknowns appends records that say how they were made.
    assert main(["survey", "--retry-unknown", "--proof", "--time-limit", "none", *base]) == 0
    assert "unknown 0" in capsys.readouterr().out
    records = read_records(str(out))
    retried = records[len(first):]
    assert sorted(r.deal for r in retried) == sorted(unknown)  # type: ignore[type-var]
    assert {r.method for r in retried} == {"proof"}
    assert {r.method for r in first} == {"dfs"}
    latest = {r.deal: r for r in records}
    assert latest[3266].verdict is latest[5143].verdict is Verdict.UNSOLVABLE


# -- summaries ---------------------------------------------------------------


def test_wilson_interval_published_values() -> None:
    # Newcombe, Statistics in Medicine 17 (1998) 857-872, Table II, method 3.
    for (successes, trials), expected in {
        (81, 263): (0.2553, 0.3662),
        (15, 148): (0.0624, 0.1605),
        (0, 20): (0.0, 0.1611),
        (1, 29): (0.0061, 0.1718),
    }.items():
        low, high = wilson_interval(successes, trials)
        assert low == pytest.approx(expected[0], abs=5e-5)
        assert high == pytest.approx(expected[1], abs=5e-5)


def _record(deal: int, verdict: str, seconds: float, length: int | None) -> str:
    return json.dumps({
        "deal": str(deal), "verdict": verdict, "seconds": seconds, "nodes": 10,
        "reason": "time_limit" if verdict == "unknown" else None, "length": length,
    })


def test_summary_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 81 solved, 182 unsolvable, 3 unknown; deal 1 was unknown, then solved.
    lines = [_record(1, "unknown", 10.0, None)]
    lines += [_record(n, "solved", n / 100, 100 + n) for n in range(1, 82)]
    lines += [_record(n, "unsolvable", 0.5, None) for n in range(82, 264)]
    lines += [_record(n, "unknown", 10.0, None) for n in range(264, 267)]
    path = tmp_path / "hand.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["survey", "--summary", str(path)]) == 0
    out = capsys.readouterr().out
    assert "deals: 266 (solved 81, unsolvable 182, unknown 3)" in out
    # Wilson interval for 81/263, as published by Newcombe (1998): 0.2553-0.3662.
    assert "30.80 %, 95 % CI 25.53 % to 36.62 %" in out
    assert "Wilson score interval; Wilson 1927" in out
    # Bounds: 81/266 and 84/266.
    assert "between 30.45 % (every unknown unsolvable) and 31.58 % (every unknown solvable)" in out
    # Nearest rank over 266 times, sorted: 0.01..0.49 (ranks 1-49), 0.5 x 183
    # (50-232), 0.51..0.81 (233-263), 10.0 x 3 (264-266).  p50 = rank 133,
    # p90 = rank ceil(239.4) = 240 = 0.58, p99 = rank ceil(263.34) = 264.
    assert "p50 0.500  p90 0.580  p99 10.000  max 10.000" in out
    # Lengths 101..181: p50 = 41st = 141, p90 = 73rd = 173, p99 = 81st = 181.
    assert "p50 141  p90 173  p99 181  max 181" in out
    assert "unknown (stopped by time_limit: 3 deals): deals 264, 265, 266" in out


def test_summary_lists_few_unknowns() -> None:
    records = [SurveyRecord(n, Verdict.UNKNOWN, "time_limit", 1.0, 1, None)
               for n in range(100, 0, -1)]
    text = summarize(records).format()
    assert "unknown (stopped by time_limit: 100 deals): deals 1, 2, 3," in text
    assert "... and 50 more" in text


def test_summary_ranks_the_layered_unknowns_furthest_first() -> None:
    def unknown(deal: int, progress: tuple[int, int] | None) -> SurveyRecord:
        return SurveyRecord(deal, Verdict.UNKNOWN, "time_limit", 1.0, 1, None,
                            method="layers" if progress else "dfs", layer_progress=progress)

    records = [unknown(5, (18, 103)), unknown(6, None), unknown(7, (40, 100)),
               unknown(8, (18, 103)), unknown(9, (0, 0)), unknown(10, (0, 50)),
               SurveyRecord(7, Verdict.UNSOLVABLE, None, 2.0, 9, None, method="layers"),
               SurveyRecord(11, Verdict.UNKNOWN, "time_limit", 1.0, 1, None,
                            layer_progress=(50, 100))]
    summary = summarize(records)
    # 7's latest record decided it; 6 was not searched by layers, nor 11
    # (whatever it says); a most of 0 goes last; ties keep deal order
    assert summary.furthest == ((5, 18, 103), (8, 18, 103), (10, 0, 50), (9, 0, 0))
    assert ("layered search stopped at progress (of a won position's), furthest first: "
            "5 18/103, 8 18/103, 10 0/50, 9 0/0\n") in summary.format()
    assert "layered search" not in summarize(records[1:2]).format()
    many = [unknown(n, (n, 200)) for n in range(1, 61)]
    text = summarize(many).format()
    assert "furthest first: 60 60/200, 59 59/200," in text and "... and 10 more" in text


# -- boards files ------------------------------------------------------------


def _mid_game_with_empty_column() -> Deal:
    deal = Deal.pysol(1)
    moves = solve(deal, memory_mb=MEMORY_MB).moves
    for k in range(len(moves)):
        position = check(deal, moves[:k]).position
        if any(not column for column in position.columns):
            return position
    raise AssertionError("no empty column on the way")  # pragma: no cover


def test_split_boards() -> None:
    one, two = Deal.pysol(1).to_text(), Deal.pysol(2).to_text()
    mid = _mid_game_with_empty_column()
    blank = "\n".join("" if line == ":" else line for line in mid.to_text().splitlines()) + "\n"
    assert "\n\n" in blank.strip("\n")  # the empty column is a blank line
    text = f"\n{one}\n\n{blank}\n{two}\n"
    boards = split_boards(text)
    assert [Deal.from_text(b) for _, b in boards] == [Deal.pysol(1), mid, Deal.pysol(2)]
    assert boards[0][0] == 2
    dashed = split_boards(f"{one}---\n{two}\n---\n")
    assert [Deal.from_text(b) for _, b in dashed] == [Deal.pysol(1), Deal.pysol(2)]
    with pytest.raises(ParseError, match="more than 13 column lines"):
        split_boards(one + two)


def test_survey_boards_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    mid = _mid_game_with_empty_column()
    Path("boards.txt").write_text(f"{Deal.pysol(3).to_text()}\n{mid.to_text()}\n")
    argv = ["survey", "--boards", "boards.txt", "--jobs", "2", "--moves",
            "--memory-mb", str(MEMORY_MB), "--output", "boards.jsonl"]
    assert main(argv) == 0
    lines = {str(line["deal"]): line for line in _jsonl(Path("boards.jsonl"))}
    assert sorted(lines) == sorted([board_id(Deal.pysol(3)), board_id(mid)])
    for key, deal in ((board_id(Deal.pysol(3)), Deal.pysol(3)), (board_id(mid), mid)):
        assert lines[key]["nodes"] == solve(deal, memory_mb=MEMORY_MB).nodes
        _replay(deal, lines[key]["moves"])
    assert main(argv) == 0  # resumed: nothing to do
    assert len(_jsonl(Path("boards.jsonl"))) == 2
    capsys.readouterr()
    Path("bad.txt").write_text(Deal.pysol(3).to_text().replace("4", "X", 1))
    assert main(["survey", "--boards", "bad.txt"]) == 2
    assert "bad.txt: board 1" in capsys.readouterr().err


def test_summarize_needs_records() -> None:
    with pytest.raises(TypeError, match="Records"):
        summarize([1])  # type: ignore[list-item]


# -- CSV keeps what a reader needs to trust a verdict ---------------------------------


def _csv_round_trip(records: list[SurveyRecord]) -> list[SurveyRecord]:
    text = header("csv") + "".join(format_record(r, "csv") for r in records)
    return parse("t.csv", "csv", text.encode())


def test_csv_round_trip_keeps_method_optimal_bound_deadlock() -> None:
    deals = {1: Deal.pysol(1), 64: Deal.pysol(64), 477: Deal.pysol(477)}
    records = []
    for method in ("dfs", "proof", "layers"):
        for number, deal in deals.items():
            solution = solve(deal, time_limit=None, memory_mb=MEMORY_MB, method=method)
            records.append(SurveyRecord.from_solution(
                number, solution, time_limit=None, max_nodes=None, memory_mb=MEMORY_MB,
                seed=0, moves=True, method=method))
    shortest = solve(deals[1], memory_mb=MEMORY_MB, method="shortest")
    records.append(SurveyRecord.from_solution(1, shortest, time_limit=10.0, max_nodes=None,
                                              memory_mb=MEMORY_MB, seed=0, method="shortest"))
    # deal 477 is deadlocked as dealt: its records name the cards
    assert all(r.deadlock for r in records if r.deal == 477)
    assert {r.method for r in records} == {"dfs", "proof", "layers", "shortest"}
    assert any(r.optimal for r in records) and any(r.optimal is False for r in records)
    assert _csv_round_trip(records) == records
    for record in records:
        if record.solved:
            assert record.moves and check(deals[int(record.deal)], record.moves).won


def test_csv_written_before_the_method_column_is_read_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.csv"
    old.write_text(",".join(FIELDS) + "\n"
                   "1,bakers_dozen,solved,,0.001,117,85,10.0,,64.0,0,\n"
                   "64,bakers_dozen,unsolvable,,0.5,4000,,10.0,,64.0,0,\n")
    records = read_records(str(old))
    assert [(r.deal, r.method, r.optimal, r.lower_bound, r.deadlock) for r in records] == [
        (1, "dfs", None, None, ()), (64, "dfs", None, None, ())]
    # resuming it with the default search keeps its columns, so it stays readable
    common = ["--jobs", "1", "--memory-mb", str(MEMORY_MB), "--output", str(old)]
    assert main(["survey", "1-3", *common]) == 0
    assert old.read_text().splitlines()[0] == ",".join(FIELDS)
    assert sorted(r.deal for r in read_records(str(old))) == [1, 2, 3, 64]
    # a --proof pass could not say which records it made: refused before any solving
    capsys.readouterr()
    assert main(["survey", "4", "--proof", *common]) == 2
    error = capsys.readouterr().err
    assert "method column" in error and error.count("\n") == 1
    assert 4 not in {r.deal for r in read_records(str(old))}


def test_layer_progress_says_how_far_a_stopped_layered_search_got(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.pysol(1)  # its layers are wide: the search stops at its limit
    most = _most_progress(deal)
    stopped = solve(deal, max_nodes=300_000, memory_mb=MEMORY_MB, method="layers")
    assert stopped.verdict is Verdict.UNKNOWN and stopped.reason == "max_nodes"
    assert stopped.layer_progress is not None
    value = stopped.layer_progress[0]
    assert stopped.layer_progress == (value, most) and 0 < value < most
    # on disk, from the same limit: the same value
    on_disk = solve(deal, max_nodes=300_000, memory_mb=MEMORY_MB, method="layers",
                    work_dir=tmp_path / "work")
    assert on_disk.layer_progress == (value, most)
    # decided, or another search: none
    assert solve(Deal.pysol(DISK_DEAL), memory_mb=MEMORY_MB, method="layers").layer_progress \
        is None
    assert solve(deal, max_nodes=1000, memory_mb=MEMORY_MB, method="proof").layer_progress \
        is None
    record = SurveyRecord.from_solution(1, stopped, time_limit=None, max_nodes=300_000,
                                        memory_mb=MEMORY_MB, seed=0, method="layers")
    assert record.to_json()["layer_progress"] == [value, most]
    assert SurveyRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert _csv_round_trip([record]) == [record]
    # a CSV file of the header before layer_progress takes the record without it
    old = ",".join(CSV_FIELDS_NO_PROGRESS) + "\n"
    assert parse("o.csv", "csv", (old + format_record(record, "csv", CSV_FIELDS_NO_PROGRESS))
                 .encode()) == [replace(record, layer_progress=None)]
    for bad in ([3, 2], [1], [1, "2"], [True, 2], [-1, 2], "1/x", "5/3", "1/2/3",
                "\u0661/\u0662", "1/\u00b2", 7):  # digits other than ASCII's too
        with pytest.raises(ParseError, match="layer_progress"):
            SurveyRecord.from_json({**record.to_json(), "layer_progress": bad})
    # only an unknown of the layered search has one
    for other in ({"verdict": "unsolvable", "reason": None}, {"method": "proof"}, {"method": None}):
        with pytest.raises(ParseError, match="layer_progress is only in"):
            SurveyRecord.from_json({**record.to_json(), **other})
    # a survey's records carry it
    out = tmp_path / "s.jsonl"
    assert main(["survey", "1", "--layers", "--max-nodes", "300000", "--jobs", "1",
                 "--memory-mb", str(MEMORY_MB), "--output", str(out)]) == 0
    assert [r.layer_progress for r in read_records(str(out))] == [(value, most)]
    # a CSV file of the earlier header: appended to, with a word that it is left out
    old_csv = tmp_path / "old.csv"
    old_csv.write_text(old)
    capsys.readouterr()
    assert main(["survey", "1", "--layers", "--max-nodes", "300000", "--jobs", "1",
                 "--memory-mb", str(MEMORY_MB), "--output", str(old_csv)]) == 0
    assert "without a layer_progress column" in capsys.readouterr().err
    assert [r.layer_progress for r in read_records(str(old_csv))] == [None]
    # and solve says it in words
    capsys.readouterr()
    assert main(["solve", "--deal", "1", "--layers", "--max-nodes", "300000",
                 "--memory-mb", str(MEMORY_MB)]) == 3
    assert f"layer progress: {value} of {most} " in capsys.readouterr().out


# -- the layered search on disk: survey --layers --work-dir ----------------------------

#: PySol deal 16780: unsolvable, 623,365 positions generated by the layered search
#: (tests/test_disk_layers.py), a few tenths of a second.
DISK_DEAL = 16780
DISK_DEAL_NODES = 623_365
#: PySol deal 29393: unsolvable, 3,001,011 positions generated (tests/test_disk_layers.py).
DEAL_1M, DEAL_1M_NODES = 29393, 3_001_011


def _manifest_nodes(directory: Path) -> int:
    counts = json.loads((directory / _disk.MANIFEST).read_text())["counts"]
    return int(counts["nodes"])


def test_work_dir_names_are_stable_safe_and_one_to_one() -> None:
    ids: list[DealId] = [417, 1, "417", "deal-417", "board-0123456789abcdef",
                         "Board-0123456789abcdef", "board-0123456789ABCDEF", "My deal",
                         "my deal", "a/b", "a%2Fb", "..", ".", "x" * 200, "y" * 200,
                         "é", "e\u0301", "a\x00b"]
    names = [work_dir_name(i) for i in ids]
    assert names[:5] == ["deal-417", "deal-1", "id-417", "id-deal-417",
                         "board-0123456789abcdef"]
    assert work_dir_name("My deal") == "id-%4Dy%20deal"
    assert [work_dir_name(i) for i in ids] == names  # the same id, the same name
    # one to one, even on a file system that ignores case
    assert len({name.lower() for name in names}) == len(ids)
    for name in names:
        assert re.fullmatch(r"[a-z0-9_%A-F-]+", name) and name not in (".", "..")
        assert len(name) <= MAX_WORK_DIR_NAME
    assert names[ids.index("x" * 200)].startswith("hash-")


def test_layers_on_disk_give_the_records_of_the_layers_in_memory(tmp_path: Path) -> None:
    # unsolvable deals (477 deadlocked as dealt), and winnable positions
    # given as boards, one with an id whose characters a file name cannot hold
    boards = {"a/b c:\u00dc": midgame("24 after 47 moves"),
              board_id(midgame("2 after 64 moves")): midgame("2 after 64 moves")}
    deals: list[DealSpec] = [3266, 5143, 477, DISK_DEAL, *boards.items()]
    common: dict[str, Any] = {"time_limit": None, "memory_mb": MEMORY_MB, "method": "layers",
                              "moves": True}
    memory = {r.deal: r for r in survey(deals, jobs=1, **common)}
    work = tmp_path / "work"
    disk = {r.deal: r for r in survey(deals, jobs=2, work_dir=work, disk_mb=100,
                                                  **common)}
    assert disk.keys() == memory.keys() and len(disk) == len(deals)
    assert [r.verdict for r in disk.values()].count(Verdict.SOLVED) == 2
    for deal_id, record in disk.items():
        expected = memory[deal_id]
        assert (record.verdict, record.reason, record.method, record.resumed_nodes) == (
            expected.verdict, None, "layers", 0)
        if record.verdict is Verdict.UNSOLVABLE:
            assert record.nodes == expected.nodes
        else:  # a win's counts may differ (docs/engine.md): its line must win
            _replay(boards[str(deal_id)], record.moves)
    assert disk[DISK_DEAL].nodes == DISK_DEAL_NODES
    assert os.listdir(work) == []  # every deal decided: no subdirectory left


def test_unknown_keeps_its_directory_and_the_retry_goes_on_from_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, work = tmp_path / "disk.jsonl", tmp_path / "work"
    base = ["--layers", "--work-dir", str(work), "--memory-mb", str(MEMORY_MB),
            "--time-limit", "none", "--output", str(out)]
    # 5143 is decided within 20,000 positions (8,241), 3266 and 16780 are not
    assert main(["survey", f"3266,5143,{DISK_DEAL}", "--max-nodes", "20000", "--jobs", "1",
                 *base]) == 0
    first = {r.deal: r for r in read_records(str(out))}
    assert first[5143].verdict is Verdict.UNSOLVABLE
    unknown = [3266, DISK_DEAL]
    assert {(first[n].verdict, first[n].reason) for n in unknown} == {
        (Verdict.UNKNOWN, "max_nodes")}
    # the decided deal's subdirectory is gone, the unknowns' kept with a checkpoint
    assert sorted(os.listdir(work)) == sorted(f"deal-{n}" for n in unknown)
    checkpoints = {n: _manifest_nodes(work / f"deal-{n}") for n in unknown}
    assert all(0 < nodes <= 20_000 for nodes in checkpoints.values())
    capsys.readouterr()
    (work / "deal-3266" / "notes.txt").write_text("mine")  # a user's file: kept
    # a larger node limit, in two worker processes: each deal goes on from its checkpoint
    assert main(["survey", "--retry-unknown", "--max-nodes", "10000000", "--jobs", "2",
                 *base]) == 0
    assert "unknown 0" in capsys.readouterr().out
    records = read_records(str(out))
    retried = {r.deal: r for r in records[3:]}
    assert sorted(retried) == unknown and len(records) == 5
    for number, record in retried.items():
        assert isinstance(number, int)
        uninterrupted = solve(Deal.pysol(number), time_limit=None, memory_mb=MEMORY_MB,
                              method="layers")
        assert (record.verdict, record.nodes) == (Verdict.UNSOLVABLE, uninterrupted.nodes)
        # of its nodes, those of the checkpoint were generated by the first run
        assert record.resumed_nodes == checkpoints[number]
    assert retried[DISK_DEAL].nodes == DISK_DEAL_NODES
    assert {line["deal"]: line.get("resumed_nodes") for line in _jsonl(out)[3:]} == checkpoints
    # decided: the search's files are gone, a directory holding a user's file is left
    assert os.listdir(work) == ["deal-3266"] and os.listdir(work / "deal-3266") == ["notes.txt"]


def test_a_board_stopped_by_its_disk_budget_goes_on_with_more(tmp_path: Path) -> None:
    # the API, a board id that needs escaping, --disk-mb
    deal = ("Deal-16780/\u00e9", Deal.pysol(DISK_DEAL))
    work = tmp_path / "work"
    common: dict[str, Any] = {"jobs": 1, "time_limit": None, "memory_mb": MEMORY_MB,
                              "method": "layers", "work_dir": work}
    [full] = survey([deal], disk_mb=0.1, **common)
    assert (full.verdict, full.reason) == (Verdict.UNKNOWN, "disk")
    kept = work / work_dir_name(deal[0])
    assert os.listdir(work) == [kept.name] and kept.name == "id-%44eal-16780%2F%C3%A9"
    files = json.loads((kept / _disk.MANIFEST).read_text())["files"]
    assert sum(files.values()) <= 0.1 * 2**20
    checkpoint = _manifest_nodes(kept)
    [rest] = survey([deal], disk_mb=100, **common)
    assert (rest.verdict, rest.nodes, rest.resumed_nodes) == (
        Verdict.UNSOLVABLE, DISK_DEAL_NODES, checkpoint)
    assert checkpoint > 0 and os.listdir(work) == []


def _kept_files(directory: Path) -> list[str]:
    return sorted(n for n in os.listdir(directory) if re.match(r"k\d{3}\.", n))


def test_a_pass_without_the_line_record(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out, work = tmp_path / "disk.jsonl", tmp_path / "work"
    base = ["--layers", "--work-dir", str(work), "--memory-mb", str(MEMORY_MB),
            "--time-limit", "none", "--jobs", "1", "--output", str(out)]
    kept = work / f"deal-{DISK_DEAL}"
    # a first pass with the record: the deal left unknown keeps its kept files
    assert main(["survey", str(DISK_DEAL), "--max-nodes", "200000", *base]) == 0
    assert _kept_files(kept) and json.loads((kept / _disk.MANIFEST).read_text())["keep"]
    first = _manifest_nodes(kept)
    # a retry without it lets them go, and is left unknown with its layers alone
    assert main(["survey", "--retry-unknown", "--max-nodes", "400000", "--no-line-record",
                 *base]) == 0
    assert _kept_files(kept) == []
    assert json.loads((kept / _disk.MANIFEST).read_text())["keep"] is False
    # the last pass (the option need not be given again) decides it, with the count
    # of a search never stopped
    assert main(["survey", "--retry-unknown", *base]) == 0
    capsys.readouterr()
    records = read_records(str(out))
    assert [(r.verdict, r.reason) for r in records] == [
        (Verdict.UNKNOWN, "max_nodes"), (Verdict.UNKNOWN, "max_nodes"),
        (Verdict.UNSOLVABLE, None)]
    assert records[1].resumed_nodes == first
    assert records[2].nodes == DISK_DEAL_NODES and os.listdir(work) == []
    # a winnable board without the record: its line comes from the default search
    board = midgame("24 after 47 moves")
    [won] = survey([board], jobs=1, time_limit=None, memory_mb=MEMORY_MB, method="layers",
                   moves=True, work_dir=work, line_record=False)
    assert won.verdict is Verdict.SOLVED
    _replay(board, won.moves)
    assert os.listdir(work) == []


_KILLED_SURVEY = """
import sys
from bakersdozen import _disk
from bakersdozen.cli import main
_disk.CHECKPOINT_SECONDS = 0.0  # a checkpoint after every step
sys.exit(main(sys.argv[1:]))
"""


def test_a_killed_survey_goes_on_from_the_deals_checkpoint(tmp_path: Path) -> None:
    out, work = tmp_path / "killed.jsonl", tmp_path / "work"
    argv = ["survey", str(DEAL_1M), "--layers", "--work-dir", str(work), "--memory-mb", "4",
            "--time-limit", "none", "--jobs", "1", "--output", str(out)]
    kept = work / f"deal-{DEAL_1M}"
    with children.started([sys.executable, "-c", _KILLED_SURVEY, *argv]) as child:
        children.kill_past(child, lambda: _manifest_nodes(kept), 1_000_000, "the survey")
    assert read_records(str(out)) == []
    checkpoint = _manifest_nodes(kept)
    # the same command again: the deal has no record, and goes on from its checkpoint
    assert main(argv) == 0
    [record] = read_records(str(out))
    assert (record.verdict, record.nodes, record.resumed_nodes) == (
        Verdict.UNSOLVABLE, DEAL_1M_NODES, checkpoint)
    assert os.listdir(work) == []


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bakersdozen survey: error: "), err
    return err


def test_work_dir_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, work = tmp_path / "out.jsonl", tmp_path / "work"
    common = ["--jobs", "1", "--output", str(out)]
    assert main(["survey", "1-2", "--work-dir", str(work), *common]) == 2
    assert "--work-dir needs --layers: only the layered search" in _one_error_line(capsys)
    assert main(["survey", "1-2", "--proof", "--work-dir", str(work), *common]) == 2
    assert "--work-dir needs --layers" in _one_error_line(capsys)
    for flags in (["--disk-mb", "10"], ["--layers", "--disk-mb", "10"]):
        assert main(["survey", "1-2", *flags, *common]) == 2
        assert "--disk-mb needs --work-dir DIR" in _one_error_line(capsys)
    assert main(["survey", "1-2", "--layers", "--no-line-record", *common]) == 2
    assert "--no-line-record needs --work-dir DIR" in _one_error_line(capsys)
    assert main(["survey", "1-2", "--layers", "--work-dir", str(work), "--disk-mb", "0",
                 *common]) == 2
    assert "must be in (0," in capsys.readouterr().err
    # a work directory that cannot be written: refused before any deal runs
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    for where in (a_file, a_file / "sub"):
        assert main(["survey", "1-2", "--layers", "--work-dir", str(where), *common]) == 2
        error = _one_error_line(capsys)
        assert f"--work-dir {where}: cannot write there: Not a directory" in error
    assert not out.exists() and not work.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only directory")
def test_a_read_only_work_dir_is_refused(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    work.mkdir(mode=0o500)
    try:
        assert main(["survey", "1-2", "--layers", "--work-dir", str(work), "--jobs", "1",
                     "--output", str(tmp_path / "out.jsonl")]) == 2
        assert "cannot write there: Permission denied" in _one_error_line(capsys)
        assert not (tmp_path / "out.jsonl").exists()
    finally:
        work.chmod(0o700)


def test_work_dir_api_errors(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="only method='layers' keeps its work on disk"):
        survey([1], jobs=1, work_dir=tmp_path)
    with pytest.raises(ArgumentError, match="disk_mb: only a survey with a work_dir"):
        survey([1], jobs=1, method="layers", disk_mb=10)
    with pytest.raises(ArgumentError, match="line_record: only a survey with a work_dir"):
        survey([1], jobs=1, method="layers", line_record=False)
    with pytest.raises(TypeError, match="line_record must be a bool"):
        survey([1], jobs=1, method="layers", work_dir=tmp_path, line_record=None)  # type: ignore[arg-type]
    for bad in (0, -1, float("nan"), 2.0**31):
        with pytest.raises(ArgumentError, match=r"disk_mb must be in \(0, 2\*\*30\]"):
            survey([1], jobs=1, method="layers", work_dir=tmp_path, disk_mb=bad)
    with pytest.raises(TypeError, match="work_dir must be a path"):
        survey([1], jobs=1, method="layers", work_dir=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="disk_mb must be a number"):
        survey([1], jobs=1, method="layers", work_dir=tmp_path, disk_mb="10")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="an empty path"):
        survey([1], jobs=1, method="layers", work_dir="")
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    with pytest.raises(NotADirectoryError) as raised:
        survey([1], jobs=1, method="layers", work_dir=a_file)
    assert raised.value.filename == str(a_file)
    # a relative path is made absolute, for workers that run elsewhere
    limits = Limits(method="layers", work_dir="rel", disk_mb=5)
    assert limits.work_dir == os.path.abspath("rel") and limits.disk_mb == 5.0
    # a worker that does not see the directory refuses the deal, rather than
    # keep its layers where no other worker would find them
    missing = Limits(method="layers", work_dir=str(tmp_path / "missing"))
    with pytest.raises(ArgumentError, match="every worker must see it"):
        solve_task((1, 1), missing)
    assert not (tmp_path / "missing").exists()


def test_resumed_nodes_in_json_and_csv(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    solution = solve(Deal.pysol(3266), time_limit=None, method="layers")
    fresh = SurveyRecord.from_solution(3266, solution, time_limit=None, max_nodes=None,
                                       memory_mb=MEMORY_MB, seed=0, method="layers")
    resumed = replace(fresh, resumed_nodes=1000)
    assert "resumed_nodes" not in fresh.to_json()  # the records of a fresh search as before
    assert resumed.to_json()["resumed_nodes"] == 1000
    assert SurveyRecord.from_json(json.loads(json.dumps(resumed.to_json()))) == resumed
    assert _csv_round_trip([fresh, resumed]) == [fresh, resumed]
    # a CSV file of the header before resumed_nodes: read, appended to, but
    # refused a record it could not write whole, and a --work-dir pass
    old = ",".join(CSV_FIELDS_NO_RESUMED) + "\n"
    assert parse("o.csv", "csv", (old + format_record(fresh, "csv", CSV_FIELDS_NO_RESUMED))
                 .encode()) == [fresh]
    with pytest.raises(ParseError, match="without a resumed_nodes column"):
        format_record(resumed, "csv", CSV_FIELDS_NO_RESUMED)
    table = tmp_path / "old.csv"
    table.write_text(old)
    common = ["--layers", "--jobs", "1", "--memory-mb", str(MEMORY_MB), "--output", str(table)]
    assert main(["survey", "3266", "--work-dir", str(tmp_path / "work"), *common]) == 2
    assert "without a resumed_nodes column" in _one_error_line(capsys)
    assert main(["survey", "3266", *common]) == 0
    assert table.read_text().splitlines()[0] == ",".join(CSV_FIELDS_NO_RESUMED)
    assert [r.deal for r in read_records(str(table))] == [3266]


def _waits_for(release: Any, task: Any, limits: Limits) -> SurveyRecord:
    if release.wait(30):
        raise RuntimeError("released by the test")
    raise RuntimeError("the survey loop did not stop at the Ctrl-C within 30 s")


def test_a_ctrl_c_swallowed_by_a_finalizer_still_stops_the_survey(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A Ctrl-C whose handler ran inside a Dask future's __del__ was printed as
    # "Exception ignored" and dropped, and a survey on a cluster ran on: here the
    # same swallow, by a finalizer of our own, then the survey's loop waiting on a task
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from functools import partial

    from bakersdozen.cli import _on_sigint
    from bakersdozen.survey.runner import run

    swallowed: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: swallowed.append(u.exc_type))

    class Finalized:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # the handler runs here, in the finalizer
                pass

    previous = signal.signal(signal.SIGINT, _on_sigint)
    release = threading.Event()
    try:
        dropped = Finalized()
        del dropped
        assert swallowed == [KeyboardInterrupt]  # the condition of the fault, reproduced
        with ThreadPoolExecutor(1) as pool:
            try:
                started = time.monotonic()
                with pytest.raises(KeyboardInterrupt):
                    next(run([(1, 1)], Limits(), pool, window=1,
                             task_function=partial(_waits_for, release)))
                assert time.monotonic() - started < 10
            finally:
                release.set()
    finally:
        signal.signal(signal.SIGINT, previous)
        from bakersdozen import _interrupts
        _interrupts.clear()


def test_the_command_line_gives_back_the_signal_handlers_it_found(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # main() notes Ctrl-C and SIGTERM while a command runs, and only then
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    assert main(["deal", "1"]) == 0
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a job started with `&`
    calls: list[int] = []
    real = signal.signal
    try:
        with monkeypatch.context() as patch:
            patch.setattr(signal, "signal",
                          lambda number, handler: calls.append(number) or real(number, handler))
            assert main(["deal", "1"]) == 0
    finally:
        real(signal.SIGINT, ignored)
    assert calls == [signal.SIGTERM, signal.SIGTERM]  # an ignored Ctrl-C stays ignored
    capsys.readouterr()
