"""Progress of long single searches (issue 23).

``solve``, ``hint`` and ``review`` draw a progress line on standard error
when it is a terminal and a search runs past a second (positions, rate,
memory, elapsed), and write nothing there when it is a pipe.  The engine
reports through ``solve(..., progress=callable)``, called when the search
looks for signals.  The terminal is a pseudo-terminal (:mod:`pty`); every
process started here is killed (its process group) in a ``finally``.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen.cli import main
import children

#: A deal no search decides in a few seconds: every search here runs to its time limit.
HARD = 417
LINE = re.compile(rb"bakersdozen (\w+): [\d.]+[kMG]? positions, [\d.]+[kMG]? pos/s, "
                  rb"[\d,]+ MiB \[00:0\d\]")


def _run(argv: list[str], terminal: bool, timeout: float = 60,
         columns: int = 120) -> tuple[int, bytes, bytes]:
    """Run ``bakersdozen ARGV`` with standard error on a pseudo-terminal (or a pipe).

    Returns the exit status, standard output and what reached standard error.
    """
    command = [sys.executable, "-m", "bakersdozen", *argv]
    master = slave = -1
    if terminal:
        master, slave = pty.openpty()
        # a terminal has a size (a fresh pty has 0 columns, where nothing fits)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    try:
        with children.started(command, stdout=subprocess.PIPE,
                              stderr=slave if terminal else subprocess.PIPE) as process:
            if not terminal:
                out, err = process.communicate(timeout=timeout)
                return process.returncode, out, err
            os.close(slave)
            slave = -1
            seen = b""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    try:
                        data = os.read(master, 65536)
                    except OSError:  # EIO: the child closed its end
                        break
                    if not data:
                        break
                    seen += data
                elif process.poll() is not None:
                    break
            assert process.stdout is not None
            out = process.stdout.read()
            return process.wait(timeout=timeout), out, seen
    finally:
        for descriptor in (master, slave):
            if descriptor >= 0:
                os.close(descriptor)


@pytest.fixture(scope="module")
def hard_board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "hard.txt"
    path.write_text(Deal.pysol(HARD).to_text())
    return path


@pytest.fixture(scope="module")
def empty_moves(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "moves.txt"
    path.write_text("# no move played yet\n")
    return path


def _argv(command: str, board: Path, moves: Path) -> list[str]:
    # the time limit must be what stops the search, past the line's first second:
    # the proof phase alone fills 64 MiB in about a second on an idle core
    memory = "1024" if command == "proof" else "64"
    limits = ["--time-limit", "2", "--memory-mb", memory]
    if command == "solve":
        return ["solve", "--deal", str(HARD), *limits]
    if command == "proof":
        return ["solve", "--deal", str(HARD), "--proof", *limits]
    if command == "hint":
        return ["hint", str(board), *limits]
    return ["review", str(board), str(moves), *limits]


@pytest.mark.parametrize("command", ["solve", "proof", "hint", "review"])
def test_a_long_search_shows_progress_on_a_terminal(
    command: str, hard_board: Path, empty_moves: Path
) -> None:
    status, out, err = _run(_argv(command, hard_board, empty_moves), terminal=True)
    assert status == 3, (out, err)  # unknown: the time limit stopped the search
    lines = LINE.findall(err)
    assert lines, err[-2000:]
    shown = re.findall(rb"([\d.]+)([kMG]?) positions", err)
    scale = {b"": 1, b"k": 1e3, b"M": 1e6, b"G": 1e9}
    counts = [float(number) * scale[unit] for number, unit in shown]
    assert counts == sorted(counts) and counts[-1] > 0
    assert err.endswith(b"\r")  # the line is erased at the end ...
    assert b"positions" not in out  # ... and the result is on standard output alone
    assert b"unknown" in out


def test_nothing_when_standard_error_is_a_pipe(hard_board: Path, empty_moves: Path) -> None:
    for command in ("solve", "hint"):
        status, out, err = _run(_argv(command, hard_board, empty_moves), terminal=False)
        assert status == 3
        assert err == b"", err[-500:]
        assert b"unknown" in out


def test_a_quick_search_shows_nothing() -> None:
    status, out, err = _run(["solve", "--deal", "1", "--memory-mb", "64"], terminal=True)
    assert status == 0 and b"verdict: solved" in out
    assert b"positions" not in err


def test_in_process_without_a_terminal_nothing_is_drawn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "--deal", str(HARD), "--time-limit", "1.5", "--memory-mb", "64"]) == 3
    assert capsys.readouterr().err == ""


# -- the engine's progress hook -------------------------------------------------------


@pytest.mark.parametrize("method", ["dfs", "proof", "layers"])
def test_solve_reports_progress(method: str) -> None:
    calls: list[tuple[int, int]] = []
    solution = solve(Deal.pysol(HARD), time_limit=1.5, memory_mb=64, method=method,
                     progress=lambda nodes, held: calls.append((nodes, held)))
    assert solution.verdict is Verdict.UNKNOWN
    assert len(calls) >= 3  # five a second, at most
    nodes = [n for n, _ in calls]
    assert nodes == sorted(nodes) and 0 < nodes[-1] <= solution.nodes
    assert all(0 < held <= 64 * 2**20 for _, held in calls)


def test_progress_of_a_second_phase_counts_on() -> None:
    # the shortest search: the default search, then IDA*, one count
    calls: list[int] = []
    solution = solve(Deal.pysol(24), time_limit=3, memory_mb=64, method="shortest",
                     progress=lambda nodes, held: calls.append(nodes))
    assert solution.solved and check(Deal.pysol(24), solution.moves).won
    assert calls == sorted(calls) and all(n <= solution.nodes for n in calls)


def test_what_progress_raises_stops_the_search() -> None:
    class Enough(Exception):
        pass

    def stop(nodes: int, held: int) -> None:
        raise Enough(nodes)

    with pytest.raises(Enough) as caught:
        solve(Deal.pysol(HARD), time_limit=30, memory_mb=64, progress=stop)
    assert caught.value.args[0] > 0  # raised at the first report, with the count so far
    with pytest.raises(TypeError, match="progress"):
        solve(Deal.pysol(1), progress=5)  # type: ignore[arg-type]


def test_hint_and_review_count_on_across_their_solves() -> None:
    from bakersdozen import hint, legal_moves, review

    deal = Deal.pysol(HARD)
    first = legal_moves(deal)[0]
    played = (first, *legal_moves(check(deal, [first]).position)[:1])
    calls: list[int] = []
    result = review(deal, played, time_limit=0.7, memory_mb=64,
                    progress=lambda nodes, held: calls.append(nodes))
    assert result.verdict is Verdict.UNKNOWN
    assert len(calls) >= 4 and calls == sorted(calls)  # two solves or more, one count
    calls.clear()
    answer = hint(Deal.pysol(24), time_limit=3, memory_mb=64,
                  progress=lambda nodes, held: calls.append(nodes))
    assert answer.move is not None and calls == sorted(calls)


#: The layered search's line: that of every search, then the progress value
#: of its greatest, the positions stored, the bytes on disk and the time left.
LAYERS_LINE = re.compile(
    rb"bakersdozen solve: [\d.]+[kMG]? positions, [\d.]+[kMG]? pos/s, [\d,]+ MiB, "
    rb"progress (\d+)/(\d+), [\d.]+[kMG]? stored, ([\d,.]+) MiB disk, "
    rb"~([\d:]+|\?) left \[00:0\d\]")


def _most_progress(deal: Deal) -> int:
    """Cards not home, and each column's dealt cards less its top run of cards
    each one rank below the card beneath (the greatest progress value)."""
    most = deal.cards_left
    for column in deal.columns:
        height = len(column)
        while height >= 2 and column[height - 1].rank + 1 == column[height - 2].rank:
            height -= 1
        most += height
    return most


@pytest.mark.parametrize(("disk", "jobs"), [(False, None), (True, None), (True, 2)])
def test_the_layered_search_shows_its_progress_values(disk: bool, jobs: int | None,
                                                      tmp_path: Path) -> None:
    # deal 1's layers are wide: the search runs to its time limit
    argv = ["solve", "--deal", "1", "--layers", "--time-limit", "3", "--memory-mb", "256"]
    if disk:
        argv += ["--work-dir", str(tmp_path / "work")]
    if jobs:
        argv += ["--jobs", str(jobs)]  # the driver of the tasks reports what it committed
    status, out, err = _run(argv, terminal=True, columns=200)  # the line is long
    assert status == 3, (out, err)
    shown = LAYERS_LINE.findall(err)
    assert shown, err[-2000:]
    values = [int(value) for value, _most, _disk, _left in shown]
    assert values == sorted(values)
    assert {int(most) for _value, most, _disk, _left in shown} == {_most_progress(Deal.pysol(1))}
    on_disk = [float(size.replace(b",", b"")) for _value, _most, size, _left in shown]
    assert (max(on_disk) > 0) is disk
    # the bar is erased, then one line after it (the terminal ends it with \r\n):
    # deal 1 is solved in the table
    _bar, erased, after = err.rstrip(b"\r\n").rpartition(b"\r")
    assert erased and b"unknown" in out
    assert after.startswith(b"note: this search stopped at a limit; the table")
    assert b"\n" not in after


class _LayersRecorder:
    """A progress callable that asks for the layers, and keeps every call."""

    def __init__(self) -> None:
        self.nodes: list[int] = []
        self.layers_seen: list[tuple[int, int, int, int]] = []

    def __call__(self, nodes: int, held: int) -> None:
        self.nodes.append(nodes)

    def layers(self, value: int, most: int, stored: int, disk: int) -> None:
        self.layers_seen.append((value, most, stored, disk))


@pytest.mark.parametrize("jobs", [None, 2])
def test_the_layered_search_reports_its_layers_to_a_callable_that_asks(
        jobs: int | None, tmp_path: Path) -> None:
    # deal 29393: unsolvable, 3 million positions generated (some tenths of
    # a second); with jobs, on disk, the driver reports what its tasks committed
    deal = Deal.pysol(29393)
    recorder = _LayersRecorder()
    more = {} if jobs is None else {"work_dir": tmp_path, "jobs": jobs}
    solution = solve(deal, time_limit=None, memory_mb=64 if jobs is None else 4,
                     method="layers", progress=recorder, **more)
    assert solution.verdict is Verdict.UNSOLVABLE
    seen = recorder.layers_seen
    assert seen and len(seen) == len(recorder.nodes)  # one after each call
    assert [v for v, _, _, _ in seen] == sorted(v for v, _, _, _ in seen)
    assert [s for _, _, s, _ in seen] == sorted(s for _, _, s, _ in seen)
    assert {m for _, m, _, _ in seen} == {_most_progress(deal)}
    if jobs is None:
        assert all(0 < s <= 1189745 and d == 0 for _, _, s, d in seen)
    else:  # committed: none at first, and files on disk
        assert all(s <= 1189745 for _, _, s, _ in seen) and max(d for _, _, _, d in seen) > 0
