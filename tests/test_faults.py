"""Faults a user met, each with the test that shows it fixed.

- a survey killed by SIGTERM or SIGKILL leaves no worker or resource
  tracker running; SIGTERM and ``timeout`` end it cleanly (no leaked
  semaphore warning); Ctrl-C to the process group prints no worker's
  traceback;
- a ``--boards`` survey identifies a board by its content, not its place
  in the file or the spelling of the file's name;
- every command-line failure is one line and the documented exit status
  (stdin closed, a full disk, a 5000-digit number, bad limits);
- ``--time-limit none`` (or ``inf``) means no time limit;
- survey files written by 0.1.0 are still read (``tests/data``, written in
  0.1.0's format: deal ids as strings, moves as ``"AC 8>F"`` text).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from children import default_sigint, processes, run, started

from bakersdozen import Deal, Solution, Verdict, check, solve
from bakersdozen.cli import main
from bakersdozen.records import Record, board_id, move_from_json
from bakersdozen.stats import summarize
from bakersdozen.survey import DealRange, RecordWriter, read_records

DATA = Path(__file__).parent / "data"
MEMORY_MB = 64
LINUX = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()


@contextlib.contextmanager
def _survey(out: Path, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """A long survey in its own session, started as a user would; stderr to OUT.err.

    Its process group is killed on leaving the block, whatever happened.
    """
    argv = [sys.executable, "-m", "bakersdozen", "survey", "1-100000", "--jobs", "2",
            "--time-limit", "5", "--memory-mb", str(MEMORY_MB), "--output", str(out), *extra]
    with open(f"{out}.err", "wb") as err, started(argv, stdout=subprocess.DEVNULL,
                                                  stderr=err) as process:
        yield process


def _stderr(process: subprocess.Popen[bytes], out: Path) -> str:
    process.wait(30)
    return Path(f"{out}.err").read_text()


def _wait_for_records(process: subprocess.Popen[bytes], out: Path, count: int = 3) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError("the survey wrote no records")  # pragma: no cover


def _live_in_session(session: int) -> list[str]:
    """The processes of *session* that are not zombies: 'pid state command'."""
    found = []
    for process in processes():
        if process.session == session and process.live:
            command = process.command()
            if command is not None:
                found.append(f"{process.pid} {process.state} {command[:100]}")
    return found


def _none_left(session: int, seconds: float = 5.0) -> list[str]:
    """Wait for the session to empty; kill and return what is left after *seconds*."""
    deadline = time.monotonic() + seconds
    while True:
        left = _live_in_session(session)
        if not left:
            return left
        if time.monotonic() > deadline:
            for line in left:  # leave nothing behind a failing test
                try:
                    os.kill(int(line.split()[0]), signal.SIGKILL)
                except OSError:
                    pass
            return left
        time.sleep(0.05)


# -- killing a survey ------------------------------------------------------------


@pytest.mark.skipif(not LINUX, reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_survey_leaves_no_process(sig: signal.Signals, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    with _survey(out) as process:
        _wait_for_records(process, out)
        assert len(_live_in_session(process.pid)) >= 3  # the survey, 2 workers, the tracker
        os.kill(process.pid, sig)  # the survey alone, not its process group
        text = _stderr(process, out)
        assert _none_left(process.pid) == []
    if sig == signal.SIGTERM:
        assert process.returncode == 143
        assert "terminated" in text and "Traceback" not in text and "leaked" not in text
    else:
        assert process.returncode == -signal.SIGKILL
    assert read_records(str(out))  # the records written are intact


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_timeout_ends_a_survey_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    done = run(
        ["timeout", "3", sys.executable, "-m", "bakersdozen", "survey", "1-100000", "--jobs",
         "2", "--memory-mb", str(MEMORY_MB), "--output", str(out)], timeout=60,
    )
    assert done.returncode == 124  # timeout's status for "the command timed out"
    assert "leaked" not in done.stderr and "Traceback" not in done.stderr
    assert "terminated" in done.stderr


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_ctrl_c_to_the_group_prints_no_worker_traceback(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    with _survey(out) as process:
        _wait_for_records(process, out)
        os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        text = _stderr(process, out)
        assert process.returncode == 130
        assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
        assert text.strip().splitlines()[-1] == "bakersdozen survey: interrupted"
        assert _none_left(process.pid) == []


def _processes_naming(text: str) -> list[int]:
    """The live processes whose command line contains *text*."""
    return [process.pid for process in processes()
            if process.live and text in (process.command() or "")]


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_signal_tests_pass_when_the_run_ignores_sigint(tmp_path: Path) -> None:
    """``nohup pytest &``: the run starts with SIGINT ignored, and the Ctrl-C tests
    still pass and leave nothing running (the children set their own signal actions)."""
    base = tmp_path / "inner"
    here = Path(__file__).parent
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--basetemp={base}", "--rootdir", str(here.parent),
            f"{here / 'test_faults.py'}::test_ctrl_c_to_the_group_prints_no_worker_traceback",
            f"{here / 'test_solver.py'}::test_ctrl_c_stops_a_solve_quickly"]
    try:
        done = run(argv, timeout=240,
                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        left = _processes_naming(str(base))
        assert left == [], "left running: " + ", ".join(map(str, left))
        assert done.returncode == 0, done.stdout[-3000:]
    finally:
        for pid in _processes_naming(str(base)):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def test_ctrl_c_while_a_task_is_submitted_is_not_lost() -> None:
    """SIGINT was ignored while the survey submitted a task (so that a worker started
    then would ignore it): a Ctrl-C at that moment was lost, and the survey ran on."""
    from concurrent.futures import Future, ProcessPoolExecutor

    from bakersdozen.survey.workers import submit

    class Pool(ProcessPoolExecutor):  # a Ctrl-C arrives during the submission
        def submit(self, fn: object, /, *args: object, **kwargs: object) -> Future[None]:
            os.kill(os.getpid(), signal.SIGINT)
            future: Future[None] = Future()
            future.set_result(None)
            return future

    pool = Pool(1)
    try:
        with default_sigint(), pytest.raises(KeyboardInterrupt):
            submit(pool, print)
            time.sleep(2)  # not reached: the Ctrl-C is delivered once submitted
    finally:
        pool.shutdown()


def test_stop_leaves_nothing_of_the_pool_running() -> None:
    """stop() returned while the pool's manager thread was still reacting to the
    workers' end (9 times in 20), so that thread raced the interpreter's exit: a
    Ctrl-C now and then printed a traceback from it after the survey's own line."""
    import threading

    from bakersdozen.survey.workers import process_executor, stop, submit

    for _ in range(5):
        pool = process_executor(2)
        try:
            running = [submit(pool, time.sleep, 60) for _ in range(2)]
            queued = [submit(pool, abs, -n) for n in range(6)]
            deadline = time.monotonic() + 60
            while not all(f.running() for f in running) and time.monotonic() < deadline:
                time.sleep(0.01)
            manager = pool._executor_manager_thread  # type: ignore[attr-defined]
            assert isinstance(manager, threading.Thread)
        finally:
            stop(pool)
        assert not manager.is_alive()
        assert all(f.done() for f in running + queued)


# -- boards are identified by their content --------------------------------------------


def test_boards_resume_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    one, two, three = Deal.pysol(3), Deal.pysol(5), Deal.pysol(7)
    Path("boards.txt").write_text(f"{one.to_text()}\n{two.to_text()}")
    argv = ["survey", "--jobs", "1", "--memory-mb", str(MEMORY_MB), "--output", "b.jsonl"]
    assert main([*argv, "--boards", "boards.txt"]) == 0
    first = read_records("b.jsonl")
    assert [r.deal for r in first] == [board_id(one), board_id(two)]
    # A new board at the top: it is solved; the others keep their records.
    Path("boards.txt").write_text(f"{three.to_text()}\n{one.to_text()}\n{two.to_text()}")
    assert main([*argv, "--boards", "./boards.txt"]) == 0
    records = read_records("b.jsonl")
    assert records[:2] == first
    assert [r.deal for r in records[2:]] == [board_id(three)]
    assert records[2].nodes == solve(three, memory_mb=MEMORY_MB).nodes
    capsys.readouterr()
    # Another spelling of the file's name, the same boards: nothing to do.
    assert main([*argv, "--boards", str(tmp_path / "boards.txt")]) == 0
    assert read_records("b.jsonl") == records
    assert "3 deals already recorded, 0 to go" in capsys.readouterr().err


# -- one clear line and the documented status ---------------------------------------


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("bakersdozen"), err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["survey", "1" * 5000], "out of range"),
        (["survey", f"1-{'9' * 5000}"], "out of range"),
        (["deal", "7" * 5000], "2**64-1"),
        (["solve", "--deal", "7" * 5000], "2**64-1"),
        (["solve", "--deal", "1", "--time-limit", "0"], "'none' for no limit"),
        (["solve", "--deal", "1", "--time-limit", "soon"], "'none' for no limit"),
        (["solve", "--deal", "1", "--max-nodes", "0"], "1..2**64-1"),
        (["solve", "--deal", "1", "--seed", "-1"], "--seed: a seed must be at least 0 "),
        (["solve", "--deal", "-5"], "--deal: a PySol deal number must be at least 1 "),
        (["solve", "--deal", "1x"], "--deal: not a whole number: '1x'"),
        (["survey", "1-3", "--jobs", "0"], "--jobs"),
        (["survey", "--summary", "nothing.jsonl"], "nothing.jsonl"),
        (["deal"], "required"),
        (["nosuchcommand"], "invalid choice"),
        ([], "required"),
        (["show", "no/such/board.txt"], "no/such/board.txt"),
    ],
)
def test_failures_are_one_line_exit_2(
    argv: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert words in _one_line(captured.err)
    assert captured.out == ""


@pytest.mark.parametrize("command", [
    ["deal", "1"],
    ["show", "{board}"],
    ["solve", "--deal", "1"],
    ["solve", "--deal", "1", "--json"],
    ["hint", "{board}"],
    ["review", "{board}", "{moves}"],
    ["replay", "{board}", "{moves}", "--html", "/dev/stdout"],
    ["survey", "1-3", "--jobs", "1", "--memory-mb", "16"],
    ["survey", "1-200", "--jobs", "2", "--memory-mb", "16"],
    ["survey", "--summary", "{survey}"],
    ["bench", "--deals", "24", "--json"],
], ids=lambda argv: "-".join(argv[:2] + argv[3:4]))
def test_output_to_a_closed_pipe(command: list[str], tmp_path: Path) -> None:
    """``bakersdozen ... | head -1``: the reader has gone; the command stops quietly
    with the status of SIGPIPE, 141 (it exited 0, as if all had been written)."""
    files = {"board": tmp_path / "board.txt", "moves": tmp_path / "moves.txt",
             "survey": str(DATA / "survey-0.1.0.jsonl")}
    files["board"].write_text(Deal.pysol(1).to_text())
    files["moves"].write_text("\n".join(map(str, solve(Deal.pysol(1)).moves)) + "\n")
    argv = [sys.executable, "-m", "bakersdozen", *(w.format(**files) for w in command)]
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        done = run(argv, stdout=write, timeout=120)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_one_unknown_deal_is_named_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    # "unknown (time_limit 1): 417" read as 417 unknowns; the 1 was the count
    record = Record.from_solution(417, Solution(Verdict.UNKNOWN, (), 10, 1.0, "time_limit"),
                                  time_limit=1.0, max_nodes=None, memory_mb=16, seed=0)
    text = summarize([record]).format()
    assert text.splitlines()[-1] == "unknown (stopped by time_limit: 1 deal): deal 417"


#: Every whole-number flag of every command, with a value below its least.
_BELOW_LEAST = [
    (["deal", "-5"], "number: a PySol deal number must be at least 1"),
    (["deal", "0"], "number: a PySol deal number must be at least 1"),
    (["solve", "--deal", "1", "--max-nodes", "-2"], "--max-nodes: the number must be at least 1"),
    (["hint", "-", "--max-nodes", "0"], "--max-nodes: the number must be at least 1"),
    (["hint", "-", "--seed", "-1"], "--seed: a seed must be at least 0"),
    (["review", "a", "b", "--seed", "-3"], "--seed: a seed must be at least 0"),
    (["survey", "1-3", "--jobs", "-1"], "--jobs/-j: the number must be at least 1"),
    (["survey", "1-3", "--seed", "-1"], "--seed: a seed must be at least 0"),
    (["survey", "1-3", "--max-nodes", "-1"], "--max-nodes: the number must be at least 1"),
    (["bench", "--jobs", "-2"], "--jobs: the number must be at least 1"),
    (["bench", "--deals", "1,-3"], "--deals: deal range '1,-3', item 2: '-3': a deal number "
                                   "must be at least 1"),
]


@pytest.mark.parametrize(("argv", "words"), _BELOW_LEAST, ids=lambda v: " ".join(v))
def test_a_number_below_the_least_says_so(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "--deal -5" and "--seed -1" said "not a whole number"
    assert main(argv) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"bakersdozen {argv[0]}: error: argument {words} "), line
    assert "not a whole number" not in line


def test_a_negative_deal_in_a_survey_range_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "-5"]) == 2
    assert _one_line(capsys.readouterr().err) == (
        "bakersdozen survey: error: deal range '-5', item 1: '-5': a deal number must be at "
        "least 1")


@pytest.mark.parametrize("argv", [
    ["deal", "1", "--bogus"], ["show", "-", "--bogus"], ["solve", "--deal", "1", "--bogus"],
    ["hint", "-", "--bogus"], ["review", "a", "b", "--bogus"],
    ["replay", "a", "b", "--html", "x.html", "--bogus"], ["survey", "1-3", "--bogus=2"],
    ["bench", "--bogus"], ["deal", "1", "2"],
], ids=lambda v: v[0])
def test_an_unknown_argument_points_to_the_commands_help(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # it pointed to `bakersdozen --help`, which does not list the command's options
    assert main(argv) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == (f"bakersdozen {argv[0]}: error: unrecognized arguments: {argv[-1]} "
                    f"(see bakersdozen {argv[0]} --help)")


def test_an_unknown_option_before_the_command_points_to_the_top_help(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--bogus", "deal", "1"]) == 2
    assert _one_line(capsys.readouterr().err).endswith(
        "unrecognized arguments: --bogus (see bakersdozen --help)")


def test_stdin_closed() -> None:
    done = run(["sh", "-c", f"exec '{sys.executable}' -m bakersdozen solve - <&-"],
               timeout=60)
    assert done.returncode == 2
    assert _one_line(done.stderr) == (
        "bakersdozen solve: error: <stdin>: cannot read: standard input is closed"
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_output_to_a_full_disk() -> None:
    with open("/dev/full", "w") as full:
        done = run([sys.executable, "-m", "bakersdozen", "solve", "--deal", "1"],
                   stdout=full, timeout=60)
    assert done.returncode == 2
    assert "No space left on device" in _one_line(done.stderr)


def test_huge_board_file_is_refused_at_once(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "huge.txt"
    with open(board, "wb") as handle:
        handle.truncate(200 << 20)  # 200 MB of zero bytes, sparse
    start = time.monotonic()
    assert main(["solve", str(board)]) == 2
    assert time.monotonic() - start < 5
    assert "larger than 64 KiB" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("word", ["none", "inf", "Infinity"])
def test_no_time_limit(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "1", "--time-limit", word, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["time_limit"] is None and record["verdict"] == "solved"


# -- the one record shape ---------------------------------------------------------


def test_solve_json_is_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "1", "--json", "--memory-mb", str(MEMORY_MB)]) == 0
    value = json.loads(capsys.readouterr().out)
    assert list(value)[:3] == ["deal", "game", "verdict"]
    assert (value["deal"], value["game"], value["verdict"]) == (1, "bakers_dozen", "solved")
    record = Record.from_json(value)
    assert record.length == len(value["moves"]) == len(record.moves or ())
    assert check(Deal.pysol(1), record.moves or ()).won
    assert value["moves"][0].keys() == {"card", "source", "target"}
    assert any(m["target"] == "foundation" for m in value["moves"])


def test_record_round_trip_and_ids() -> None:
    deal = Deal.pysol(2)
    solution = solve(deal, memory_mb=MEMORY_MB)
    for deal_id in (2, board_id(deal)):
        record = Record.from_solution(deal_id, solution, time_limit=None, max_nodes=None,
                                      memory_mb=MEMORY_MB, seed=0)
        again = Record.from_json(json.loads(json.dumps(record.to_json())))
        assert again == record and type(again.deal) is type(deal_id)


# -- files of 0.1.0 ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["survey-0.1.0.jsonl", "survey-0.1.0.csv"])
def test_reads_surveys_of_0_1_0(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    records = read_records(str(DATA / name))
    assert [r.deal for r in records] == [1, 64, 417, "boards.txt:1", 417]
    first = records[0]
    assert first.verdict is Verdict.SOLVED and first.game == "bakers_dozen"
    assert first.moves is not None and len(first.moves) == first.length == 93
    assert check(Deal.pysol(1), first.moves).won
    assert records[1].moves in ((), None) and records[1].verdict is Verdict.UNSOLVABLE
    summary = summarize(records)  # the latest record of 417 wins
    assert (summary.total, summary.solved, summary.unsolvable, summary.unknown) == (4, 1, 1, 2)
    assert main(["survey", "--summary", str(DATA / name)]) == 0
    assert ("unknown (stopped by max_nodes: 1 deal; stopped by time_limit: 1 deal): "
            "deals 417, boards.txt:1") in capsys.readouterr().out


def test_resumes_a_jsonl_survey_of_0_1_0(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "old.jsonl"
    out.write_bytes((DATA / "survey-0.1.0.jsonl").read_bytes())
    assert main(["survey", "1-2,64", "--jobs", "1", "--memory-mb", str(MEMORY_MB),
                 "--output", str(out)]) == 0
    records = read_records(str(out))
    assert [r.deal for r in records[5:]] == [2]  # 1 and 64 were recorded by 0.1.0
    assert "2 deals already recorded, 1 to go" in capsys.readouterr().err


def test_refuses_to_append_to_a_csv_of_0_1_0(tmp_path: Path) -> None:
    out = tmp_path / "old.csv"
    out.write_bytes((DATA / "survey-0.1.0.csv").read_bytes())
    with pytest.raises(ValueError, match="0.1.0"):
        RecordWriter(str(out), "csv")


def test_move_shapes() -> None:
    move = move_from_json({"card": "7C", "source": 1, "target": 2})
    assert str(move) == "7C 1>2"
    assert move_from_json("AS 3>F") == move_from_json(
        {"card": "AS", "source": 3, "target": "foundation"})
    with pytest.raises(ValueError):
        move_from_json({"card": "7C", "source": True, "target": 2})


# -- streamed ranges ----------------------------------------------------------------


def test_ranges_are_streamed() -> None:
    deals = DealRange("1-10000000,5-20,10000001-10000002")
    assert deals.intervals == ((1, 10_000_000), (10_000_001, 10_000_002))
    assert deals.count == 10_000_002
    first = iter(deals)
    assert [next(first) for _ in range(3)] == [1, 2, 3]
    assert 9_999_999 in deals and 0 not in deals
    assert DealRange(f"1-{2**64 - 1}").count == 2**64 - 1
    assert list(DealRange("5-7,1-6")) == [5, 6, 7, 1, 2, 3, 4]  # each once, first place kept


def test_a_huge_survey_starts_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.monotonic()
    from bakersdozen.survey import survey

    records = survey(DealRange("1-10000000"), jobs=1, max_nodes=1000, memory_mb=16)
    first = next(iter(records))
    assert first.deal == 1
    assert time.monotonic() - start < 5


# -- the executor is a parameter ---------------------------------------------------------


def test_any_executor_runs_a_survey() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from bakersdozen.survey import survey

    deals = [1, 2, 64, Deal.pysol(5)]
    with ThreadPoolExecutor(2) as pool:
        threaded = list(survey(deals, jobs=2, executor=pool, memory_mb=MEMORY_MB, moves=True))
    inline = list(survey(deals, jobs=1, memory_mb=MEMORY_MB, moves=True))

    def key(r: Record) -> tuple[object, ...]:
        return (str(r.deal), r.verdict, r.nodes, r.moves)

    assert sorted(map(key, threaded)) == sorted(map(key, inline))  # type: ignore[type-var]
    assert {r.deal for r in inline} == {1, 2, 64, board_id(Deal.pysol(5))}


@pytest.mark.skipif(not LINUX, reason="signals")
def test_sigterm_stops_a_solve(tmp_path: Path) -> None:
    err = tmp_path / "err"
    with open(err, "wb") as handle, started(
        [sys.executable, "-m", "bakersdozen", "solve", "--deal", "417", "--time-limit",
         "none", "--memory-mb", "16"], stdout=subprocess.DEVNULL, stderr=handle,
    ) as process:
        time.sleep(1.0)
        process.terminate()
        assert process.wait(10) == 143
    assert _one_line(err.read_text()) == "bakersdozen solve: terminated"
