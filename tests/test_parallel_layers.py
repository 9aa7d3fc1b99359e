"""The layered search on disk in parallel tasks (``solve(..., method="layers",
work_dir=DIR, jobs=N)``, :mod:`bakersdozen._parallel`).

Its counts are checked against the in-memory layered search (itself checked
against an independent enumeration in tests/test_layers.py), as the search
of one process is in tests/test_disk_layers.py: the same verdict, positions
stored, positions generated, lost positions and layers, whatever the jobs,
the memory, the splits, and the runs stopped, killed and resumed on the way.
The same tasks on a Dask cluster: tests/test_dask.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen import _disk, _layers, _parallel, _search, task_log as task_logs
from bakersdozen.cli import main
from bakersdozen.errors import ArgumentError
from bakersdozen.solver import _engine_args, _to_move
from brute import brute_force_solvable
from test_disk_layers import (
    DEAL_1M, MEMORY_MB, assert_same, child_code, in_memory, kill_when, manifest,
)
from test_layers import reduced_portuguese
from test_solver import reduced_deal


def in_parallel(deal: Deal, work_dir: Path, jobs: int, memory_mb: float = MEMORY_MB,
                part_bytes: int | None = None, resume: bool = False,
                disk_mb: float | None = None, **limits: float) -> tuple[tuple[int, int, int],
                                                                        dict[str, int]]:
    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=memory_mb,
                                      work_dir=work_dir, jobs=jobs, resume=resume,
                                      disk_mb=disk_mb)
    search.part_bytes = part_bytes
    status, raw, nodes, rounds, stored = search.run(**limits)  # type: ignore[arg-type]
    assert rounds == 1
    if status == _search.SOLVED:
        # the line traced back through the tasks' kept files, replayed
        assert raw and check(deal, [_to_move(m) for m in raw]).won
    else:
        assert raw == []
    return (status, nodes, stored), search.stats


def names(directory: Path) -> set[str]:
    """The files of *directory*, but the driver's task log (which stays)."""
    return set(os.listdir(directory)) - {task_logs.TASK_LOG}


def task_log(directory: Path) -> list[dict[str, Any]]:
    return task_logs.read_log(directory)


# -- the same counts as in memory ---------------------------------------------------

@pytest.mark.parametrize(("number", "game", "jobs"), [
    (64, "bakers_dozen", 2), (3266, "bakers_dozen", 3), (5143, "bakers_dozen", 2),
    (16780, "bakers_dozen", 2), (16780, "bakers_dozen", 1), (78, "good_measure", 2),
    (111, "good_measure", 4), (18483, "portuguese_solitaire", 2),
])
def test_counts_are_those_of_the_search_in_memory(tmp_path: Path, number: int, game: str,
                                                  jobs: int) -> None:
    deal = Deal.pysol(number, game=game)
    memory = in_memory(deal)
    assert memory[0][0] == _search.UNSOLVABLE
    assert_same(memory, in_parallel(deal, tmp_path / "whole", jobs))
    # every progress value split into parts of 256 bytes, in rounds of split tasks
    split = in_parallel(deal, tmp_path / "split", jobs, part_bytes=256)
    assert_same(memory, split)
    assert split[1]["splits"] > 0 or memory[0][1] < 1000
    # the directory holds the outcome alone, and the task log
    assert set(os.listdir(tmp_path / "split")) == {_disk.MANIFEST, task_logs.TASK_LOG}
    # whose tasks done account for every position, and took some time each
    log = task_log(tmp_path / "split")
    done = [e for e in log if e["status"] == "done"]
    assert sum(e["nodes"] for e in done) == split[0][1]
    assert sum(e["stored"] for e in done) == split[0][2]
    assert len(done) == split[1]["tasks"] and len(log) == len(done) + split[1]["redone"]
    assert all(e["seconds"] >= e["cpu_seconds"] * 0.5 >= 0 and e["began"] > 1e9 for e in log)
    assert {e["kind"] for e in log} == {"expand", "split"} or memory[0][1] < 1000
    assert manifest(tmp_path / "split")["state"] == "unsolvable"


@pytest.mark.parametrize(("jobs", "parts"), [(2, 16), (3, 24), (9, 64), (40, 80)])
def test_a_progress_value_that_fits_is_cut_into_eight_parts_a_job(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int, parts: int) -> None:
    # more parts than jobs, so that a progress value's last task, which runs
    # while the other jobs wait for the next value, is short; each split
    # task writes a file a part, so no more than 64 parts on that account,
    # and never fewer than 2 a job
    monkeypatch.setattr(_parallel, "SMALL_BYTES", 0)  # every progress value split
    deal = Deal.pysol(16780)
    memory = in_memory(deal)
    par = in_parallel(deal, tmp_path, jobs, memory_mb=64, part_bytes=2**40)  # all fit
    assert_same(memory, par)
    splits = [e for e in task_log(tmp_path) if e["kind"] == "split"]
    assert splits and {e["parts"] for e in splits} == {parts}
    expands = [e for e in task_log(tmp_path) if e["kind"] == "expand" and e["depth"] == 1]
    rounds = {e["round"] for e in splits}
    assert len(expands) <= parts * len(rounds)  # a part with no records has no task


def test_deal_1m_in_two_jobs_of_one_mib(tmp_path: Path) -> None:
    # 1.2 million positions in 2 MiB shared by two jobs: many parts, and
    # parts split again when their layers do not fit after all
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    par = in_parallel(deal, tmp_path, 2, memory_mb=2)
    assert par[0] == (_search.UNSOLVABLE, 3001011, 1189745)
    assert_same(memory, par)
    assert par[1]["peak_bytes"] <= 2**20  # each task in its half
    # one job of 1 MiB, never splitting beforehand: a task runs out of
    # memory, and its records are split again by another hash
    again = in_parallel(deal, tmp_path / "again", 1, memory_mb=1, part_bytes=2**40)
    assert again[1]["redone"] > 0
    assert_same(memory, again)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2), part_bytes=st.sampled_from([None, 64, 1000]),
       jobs=st.integers(1, 4), portuguese=st.booleans())
def test_reduced_packs_agree_with_the_search_in_memory(
        tmp_path_factory: pytest.TempPathFactory, seed: int, ranks: int, ncols: int,
        home: int, part_bytes: int | None, jobs: int, portuguese: bool) -> None:
    deal = (reduced_portuguese if portuguese else reduced_deal)(random.Random(seed), ranks,
                                                                ncols, home)
    memory = in_memory(deal)
    par = in_parallel(deal, tmp_path_factory.mktemp("reduced"), jobs, part_bytes=part_bytes)
    if brute_force_solvable(deal):
        assert memory[0][0] == par[0][0] == _search.SOLVED
    else:
        assert_same(memory, par)


def test_the_task_log_sums_up_where_the_time_went(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # a log written by hand: three tasks, two of them at once for 5 s, a gap
    # of 5 s between sittings that counts for none, and a won task's work kept
    entry = {"progress": 3, "cpu_seconds": 1.0, "nodes": 10, "stored": 2,
             "input_files": 1, "input_bytes": 8, "output_bytes": 8}
    for began, seconds, status in ((0, 10, "done"), (5, 10, "memory_mb"), (20, 5, "won")):
        assert task_logs.append_entry(str(tmp_path), dict(
            entry, task=began, kind="expand", began=1e9 + began, seconds=seconds, status=status))
    assert main(["tasks", str(tmp_path), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["running_at_once"] == {"1": 15.0, "2": 5.0} and got["jobs"] == 2
    assert (got["busy_seconds"], got["task_seconds"], got["lost_seconds"]) == (20.0, 25.0, 10.0)
    assert got["by_kind"]["expand done"]["tasks"] == 1
    assert got["by_progress"]["3"]["short_of_jobs"] == 15.0
    assert main(["tasks", str(tmp_path / task_logs.TASK_LOG), "--jobs", "3"]) == 0
    out = capsys.readouterr().out
    assert "tasks running at once: 1: 15.0 s (75.0 %), 2: 5.0 s (25.0 %)" in out
    assert "of which not kept 10.0 s (40.0 %)" in out
    # a run's own log: every task in it, and the positions of those done
    deal = Deal.pysol(16780)
    (_, nodes, _), stats = in_parallel(deal, tmp_path / "run", 2, part_bytes=256)
    assert main(["tasks", str(tmp_path / "run"), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["tasks"] == stats["tasks"] + stats["redone"]
    assert sum(v["nodes"] for k, v in got["by_kind"].items() if k.endswith(" done")) == nodes
    assert sum(got["running_at_once"].values()) == pytest.approx(got["busy_seconds"])


@pytest.mark.parametrize(("line", "says"), [
    ("[1, 2]", "line 2: not a JSON object"),
    ('{"task": 1, "kind": "expand"', "line 2: not JSON"),
    ("{}", "line 2: 'kind' must be a string"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": NaN, "cpu_seconds": 0}',
     "line 2: 'seconds' must be a number of seconds, 0 or more, not nan"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": -5, "cpu_seconds": 0}',
     "'seconds' must be a number of seconds, 0 or more, not -5"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": 1e400, "cpu_seconds": 0}',
     "'seconds' must be a number of seconds, 0 or more, not inf"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": 1, "cpu_seconds": true}',
     "'cpu_seconds' must be a number of seconds, 0 or more, not True"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": 1, "cpu_seconds": 1, '
     '"progress": 3, "stored": 1}', "'nodes' must be a whole number, 0 or more, not None"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": 1, "cpu_seconds": 1, '
     '"progress": 3.5, "nodes": 1, "stored": 1}', "'progress' must be a whole number"),
    ('{"kind": "expand", "status": "done", "began": 1, "seconds": 1' + "0" * 400
     + ', "cpu_seconds": 0}', "'seconds' must be a number of seconds, 0 or more, not 1000"),
    ('{"kind": "expand", "status": "done", "began": 1.7e308, "seconds": 1.7e308, '
     '"cpu_seconds": 0}', "line 2: 'began' plus 'seconds' is past a float's range"),
    ("", "no task entries"),
])
def test_a_task_log_that_is_not_one_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, says: str) -> None:
    good = {"task": 0, "kind": "expand", "status": "done", "progress": 0, "began": 1e9,
            "seconds": 1.0, "cpu_seconds": 1.0, "nodes": 1, "stored": 1}
    (tmp_path / task_logs.TASK_LOG).write_text(
        (json.dumps(good) + "\n" + line + "\n") if line else "\n", encoding="utf-8")
    assert main(["tasks", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(ArgumentError, match="tasks.jsonl"):
        task_logs.read_log(tmp_path)


def test_a_task_log_line_that_is_not_utf8_is_named(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    good = {"task": 0, "kind": "expand", "status": "done", "progress": 0, "began": 1e9,
            "seconds": 1.0, "cpu_seconds": 1.0, "nodes": 1, "stored": 1}
    (tmp_path / task_logs.TASK_LOG).write_bytes(
        (json.dumps(good) + "\n").encode() * 50 + b"x\xff\n")
    assert main(["tasks", str(tmp_path)]) == 2
    assert "line 51: not UTF-8 text" in capsys.readouterr().err


def test_a_task_log_entry_is_written_whole_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = {"task": 0, "kind": "expand", "status": "done", "progress": 0, "began": 1e9,
             "seconds": 1.0, "cpu_seconds": 1.0, "nodes": 1, "stored": 1}
    assert task_logs.append_entry(str(tmp_path), entry)
    whole = (tmp_path / task_logs.TASK_LOG).read_bytes()
    real = os.write

    def half(fd: int, data: bytes) -> int:  # a disk that fills up mid-line
        real(fd, data[:len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(task_logs.os, "write", half)
    assert not task_logs.append_entry(str(tmp_path), entry)
    monkeypatch.setattr(task_logs.os, "write", lambda fd, data: real(fd, data[:7]))
    assert not task_logs.append_entry(str(tmp_path), entry)  # a short write
    assert (tmp_path / task_logs.TASK_LOG).read_bytes() == whole
    monkeypatch.setattr(task_logs.os, "write", real)
    assert task_logs.append_entry(str(tmp_path), entry)
    assert len(task_logs.read_log(tmp_path)) == 2
    # a directory where the log cannot be made: skipped
    assert not task_logs.append_entry(str(tmp_path / "missing"), entry)


def test_a_winnable_deal_is_won_with_a_checked_line(tmp_path: Path) -> None:
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    solution = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, jobs=2)
    assert solution.verdict is Verdict.SOLVED and solution.reason is None
    assert solution.moves and check(deal, solution.moves).won
    assert manifest(tmp_path)["state"] == "solved"
    assert names(tmp_path) == {_disk.MANIFEST}
    # the line is the layers' own (kept in the manifest), not the default search's
    kept = manifest(tmp_path)
    assert [_to_move((m[0], m[1], m[2])) for m in kept["line"]] == list(solution.moves)
    assert solution.nodes == kept["counts"]["nodes"]
    # the task log: one task won, and with those done it has every position
    log = task_log(tmp_path)
    assert [e["status"] for e in log].count("won") == 1
    assert sum(e["nodes"] for e in log if e["status"] in task_logs.KEPT) == solution.nodes
    again = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True)
    assert again.verdict is Verdict.SOLVED and check(deal, again.moves).won
    assert again.moves == solution.moves


def test_solve_with_jobs_gives_the_solution_in_memory(tmp_path: Path) -> None:
    deal = Deal.pysol(3266)
    memory = solve(deal, time_limit=None, method="layers")
    par = solve(deal, time_limit=None, method="layers", work_dir=tmp_path / "w", jobs=2,
                disk_mb=100)
    assert (par.verdict, par.nodes, par.reason) == (memory.verdict, memory.nodes, None)
    assert manifest(tmp_path / "w")["format"] == _parallel.FORMAT
    # a finished run gives its outcome again, with or without jobs
    for jobs in (None, 3):
        again = solve(deal, time_limit=None, method="layers", work_dir=tmp_path / "w",
                      resume=True, jobs=jobs)
        assert (again.verdict, again.nodes) == (memory.verdict, memory.nodes)


# -- stopped, then resumed ------------------------------------------------------------

def test_node_limit_then_resume_with_other_jobs(tmp_path: Path) -> None:
    deal = Deal.pysol(16780)
    memory = in_memory(deal)
    stops = 0
    resume = False
    while True:
        par = in_parallel(deal, tmp_path, 1 + stops % 3, part_bytes=20000, resume=resume,
                          max_nodes=100_000)
        if par[0][0] != _search.NODE_LIMIT:
            break
        stops += 1
        resume = True
        assert manifest(tmp_path)["state"] == "running"
        assert stops < 50
    assert stops >= 5  # 623,365 nodes, at most 100,000 a run
    assert par[0][2] == memory[0][2]
    assert {k: par[1][k] for k in ("layers", "largest", "lost")} == {
        k: memory[1][k] for k in ("layers", "largest", "lost")}
    assert manifest(tmp_path)["counts"]["nodes"] == memory[0][1]  # type: ignore[index]


def test_a_progress_value_left_as_one_task_is_planned_again_for_more_jobs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one job expands a progress value in one task; stopped in it, the run
    # resumed with two jobs splits it for them instead of running that task
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    one = in_parallel(deal, tmp_path, 1, max_nodes=1_500_000)
    assert one[0][0] == _search.NODE_LIMIT
    left = manifest(tmp_path)["todo"]
    assert [(t["kind"], t["depth"]) for t in left] == [("expand", 0)]  # type: ignore[index]
    kinds: list[str] = []
    real = _parallel.run_task

    def logged(spec: dict[str, Any], control: Any = None) -> dict[str, Any]:
        kinds.append(spec["kind"])
        return real(spec, control)

    monkeypatch.setattr(_parallel, "run_task", logged)
    assert_same(memory, in_parallel(deal, tmp_path, 2, part_bytes=16384, resume=True))
    assert kinds[:2] == ["split", "split"]


def test_time_limit_then_resume(tmp_path: Path) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    first = solve(deal, time_limit=0.3, method="layers", work_dir=tmp_path, memory_mb=4,
                  jobs=2)
    assert (first.verdict, first.reason) == (Verdict.UNKNOWN, "time_limit")
    assert manifest(tmp_path)["state"] == "running"
    rest = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, memory_mb=4,
                 resume=True, jobs=2)
    assert rest.verdict is Verdict.UNSOLVABLE
    counts = manifest(tmp_path)["counts"]
    assert (counts["nodes"], counts["stored"]) == memory[0][1:]  # type: ignore[index]


def test_an_exception_from_progress_stops_the_tasks_and_keeps_the_committed(
        tmp_path: Path) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    seen: list[int] = []

    def progress(nodes: int, held: int) -> None:
        seen.append(nodes)
        if nodes > 1_000_000:
            raise KeyboardInterrupt

    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=4, work_dir=tmp_path,
                                      jobs=2)
    search.part_bytes = 16384
    search.checkpoint_seconds = 1e9
    with pytest.raises(KeyboardInterrupt):
        search.run(progress=progress)
    counts = manifest(tmp_path)["counts"]
    assert 0 < counts["nodes"] < memory[0][1]  # type: ignore[index,operator]
    # the tasks stopped left no files of their own: only the manifest's
    listed = set(manifest(tmp_path)["files"])  # type: ignore[arg-type]
    assert names(tmp_path) == listed | {_disk.MANIFEST}
    # the task log's tasks done are those committed: one that ended done as
    # the run stopped is not, and runs again
    done = [e for e in task_log(tmp_path) if e["status"] == "done"]
    assert sum(e["nodes"] for e in done) == counts["nodes"]
    assert_same(memory, in_parallel(deal, tmp_path, 2, memory_mb=4, resume=True))
    done = [e for e in task_log(tmp_path) if e["status"] == "done"]
    assert sum(e["nodes"] for e in done) == memory[0][1]
    assert len({e["task"] for e in done}) == len(done)


def _slow_trace(started: threading.Event, until: float | None = None,
                seconds: float = 0.0) -> object:
    """A task's trace of its line that says when it starts and then takes
    its time (*seconds*, or until ``time.time()`` passes *until*), as the
    trace of a hard deal's line, which reads all its kept files, does."""
    real = _parallel._trace

    def trace(search: _layers.LayeredSearch, directory: str, kept: list[str]) -> object:
        started.set()
        time.sleep(seconds)
        while until is not None and time.time() < until:
            time.sleep(0.02)
        return real(search, directory, kept)

    return trace


def test_a_win_that_comes_after_the_run_stopped_is_kept(tmp_path: Path) -> None:
    # a task that won traces its line on past the time limit, while the
    # tasks beside it stop there: the driver takes the win when it comes
    # (it used to count it among the stopped tasks' work and report the limit)
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    (status, _nodes, _stored), _stats = in_parallel(deal, tmp_path / "a", 2)
    assert status == _search.SOLVED
    line = manifest(tmp_path / "a")["line"]
    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                      work_dir=tmp_path / "b", jobs=2)
    search._state = json.loads(json.dumps(search._manifest))  # as run() begins
    task = {"id": 1, "kind": "expand", "progress": 0, "inputs": []}
    counts = {k: 0 for k in search._manifest["counts"]}  # type: ignore[union-attr]
    won = {"id": task["id"], "status": _search.SOLVED, "outputs": {}, "counts": counts,
           "mixed": False, "errno": 0, "line": line}
    assert search._settle(task, won, _search.TIME_LIMIT) == _search.SOLVED
    assert [list(m) for m in search._line] == line
    # and once the run is won, a second win changes nothing
    assert search._settle(task, dict(won, line=[]), _search.SOLVED) == -1
    assert [list(m) for m in search._line] == line


# five ranks in five columns whose winning progress value, in parts of 32
# bytes, is expanded by two tasks at once
TWO_WINNING_TASKS = Deal.from_text(
    "5H 5D 4D AC\n3C 2C AS 2S\n5S 3H 4H 2D\nAD 4S 3S AH\n5C 4C 3D 2H\n", ranks=5)


def test_the_run_is_won_when_a_task_beside_the_winner_stops_at_the_time_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the loop of the test above: one task of the winning progress value
    # traces its line while the other stops at the time limit, and that stop
    # reaches the driver first
    real_task = _parallel.run_task
    seen: list[tuple[int, str, int, int]] = []

    def logged(spec: dict[str, Any], control: Any = None) -> dict[str, Any]:
        result = real_task(spec, control)
        seen.append((int(spec["id"]), spec["kind"], int(spec["progress"]), int(result["status"])))
        return result

    monkeypatch.setattr(_parallel, "run_task", logged)
    (status, _nodes, _stored), _stats = in_parallel(TWO_WINNING_TASKS, tmp_path / "a", 2,
                                                  part_bytes=32)
    assert status == _search.SOLVED
    winning = min(p for _, _, p, st in seen if st == _search.SOLVED)
    tasks = sorted(i for i, kind, p, _ in seen if p == winning and kind == "expand")
    assert len(tasks) == 2  # the deal's premise (the tasks are numbered as planned)
    winner, beside = tasks

    started, stopped = threading.Event(), threading.Event()
    real_trace = _parallel._trace

    def trace(search: _layers.LayeredSearch, directory: str, kept: list[str]) -> object:
        started.set()
        assert stopped.wait(30)  # the other task's stop is the driver's first
        time.sleep(0.3)
        return real_trace(search, directory, kept)

    def task(spec: dict[str, Any], control: Any = None) -> dict[str, Any]:
        if spec["id"] == beside:  # begun when the winner traces, past its deadline
            assert started.wait(30)
            result = real_task(dict(spec, deadline=time.time() - 1.0), control)
            assert result["status"] == _search.TIME_LIMIT
            stopped.set()
            return result
        return real_task(spec, control)

    monkeypatch.setattr(_parallel, "_trace", trace)
    monkeypatch.setattr(_parallel, "run_task", task)
    deal = TWO_WINNING_TASKS
    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                      work_dir=tmp_path / "b", jobs=2)
    search.part_bytes = 32
    won_status, raw, _nodes, _rounds, _stored = search.run(time_limit=600.0)
    assert started.is_set() and stopped.is_set()
    assert won_status == _search.SOLVED and check(deal, [_to_move(m) for m in raw]).won
    assert manifest(tmp_path / "b")["state"] == "solved"
    assert names(tmp_path / "b") == {_disk.MANIFEST}


@pytest.mark.parametrize("cluster", [False, True])
def test_a_ctrl_c_while_a_task_traces_its_line_keeps_the_win(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cluster: bool) -> None:
    # in this process the driver waits for every task; on a cluster (an
    # executor of our own) for the task whose won file says it traces, which
    # here outlasts the wait the driver gives the others
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    started = threading.Event()
    seen: list[list[str]] = []
    real = _slow_trace(started, seconds=1.0)

    def trace(search: _layers.LayeredSearch, directory: str, kept: list[str]) -> object:
        seen.append(sorted(n for n in os.listdir(directory) if n.startswith("won.")))
        return real(search, directory, kept)

    monkeypatch.setattr(_parallel, "_trace", trace)
    monkeypatch.setattr(_parallel, "DRAIN_SECONDS", 0.05)

    def progress(nodes: int, held: int) -> None:
        if started.is_set():
            raise KeyboardInterrupt

    with ThreadPoolExecutor(2) as pool:
        search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                          work_dir=tmp_path, jobs=2,
                                          executor=pool if cluster else None)
        search.part_bytes = 64
        with pytest.raises(KeyboardInterrupt):
            search.run(progress=progress)
    # a task on a cluster says that it traces; one in this process need not
    assert len(seen) == 1 and len(seen[0]) == (1 if cluster else 0)
    kept = manifest(tmp_path)
    assert kept["state"] == "solved" and kept["line"]
    # the files of records and the won file deleted (a stopped cluster run's
    # directory says that it stopped)
    assert names(tmp_path) == {_disk.MANIFEST} | (
        {_parallel.STOP_FILE} if cluster else set())
    again = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True,
                  jobs=2)
    assert again.verdict is Verdict.SOLVED and check(deal, again.moves).won
    assert [list(m) for m in kept["line"]] == [  # type: ignore[union-attr]
        list(m) for m in search.run()[1]]


def test_a_second_ctrl_c_gives_up_the_wait_and_keeps_the_tasks_committed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # on a cluster the driver stopped by Ctrl-C waits for a task tracing a
    # win; a second Ctrl-C gives that up, and the tasks committed since the
    # last manifest must still be written (they were lost: the checkpoint
    # came after the wait)
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    started = threading.Event()
    monkeypatch.setattr(_parallel, "_trace", _slow_trace(started, seconds=3.0))

    def progress(nodes: int, held: int) -> None:
        if started.is_set():
            threading.Timer(0.5, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT)).start()
            raise KeyboardInterrupt

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        with ThreadPoolExecutor(2) as pool:
            search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                              work_dir=tmp_path, jobs=2, executor=pool)
            search.part_bytes = 64
            search.checkpoint_seconds = 1e9  # no manifest but the one at the stop
            begun = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                search.run(progress=progress)
            assert time.monotonic() - begun < 2.5  # the second one ended the wait
    finally:
        signal.signal(signal.SIGINT, previous)
    kept = manifest(tmp_path)
    assert kept["state"] == "running" and kept["counts"]["nodes"] > 0  # type: ignore[index]
    again = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True,
                  jobs=2)
    assert again.verdict is Verdict.SOLVED and check(deal, again.moves).won


@pytest.mark.parametrize("cluster", [False, True])
def test_the_trace_of_a_task_is_told_to_a_progress_that_asks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cluster: bool) -> None:
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    started = threading.Event()
    monkeypatch.setattr(_parallel, "_trace", _slow_trace(started, seconds=1.0))
    calls: list[str] = []
    kept: list[int] = []

    class Recorder:
        def __call__(self, nodes: int, held: int) -> None:
            calls.append("progress")

        def layers(self, value: int, most: int, stored: int, disk: int) -> None:
            calls.append("layers")

        def tracing(self, size: int) -> None:
            calls.append("tracing")
            kept.append(size)

    with ThreadPoolExecutor(2) as pool:
        search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                          work_dir=tmp_path, jobs=2,
                                          executor=pool if cluster else None)
        search.part_bytes = 64
        status, raw, _nodes, _rounds, _stored = search.run(progress=Recorder())
    assert status == _search.SOLVED and check(deal, [_to_move(m) for m in raw]).won
    # while the task traced (a second) the driver said so at each report,
    # and no more layers (the search itself is over before the first report)
    first = calls.index("tracing")
    assert "layers" not in calls[first:] and calls[first - 1] == "progress"
    assert calls.count("tracing") >= 2 and kept and all(k > 0 for k in kept)


def test_a_won_file_is_deleted_by_its_task_once_the_run_is_over(tmp_path: Path) -> None:
    # a second task that won after the run was won outlives the driver's
    # wait: no sweep comes after it, so it deletes its own won file; while
    # the run goes on the driver waits on the file, and the task leaves it
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    in_parallel(deal, tmp_path, 2)
    assert manifest(tmp_path)["state"] == "solved"
    _parallel._say_won(str(tmp_path), 7)
    assert _parallel.won_file(7) in os.listdir(tmp_path)
    _parallel._unsay_won(str(tmp_path), 7)
    assert _parallel.won_file(7) not in os.listdir(tmp_path)
    running = tmp_path / "running"
    running.mkdir()
    (running / _disk.MANIFEST).write_text(json.dumps({"state": "running"}))
    _parallel._say_won(str(running), 7)
    _parallel._unsay_won(str(running), 7)
    assert _parallel.won_file(7) in os.listdir(running)


def _junk_blocks(path: str, blocks: int) -> None:
    """Write at *path* a kept file of *blocks* blocks of a layer no position
    has (its key has foundations of 15 cards), each of 10,000 records of 8
    bytes: a walk back passes over each with a read of its own.  Sparse:
    only the trailers are written."""
    size = 10_000 * 8
    with open(path, "wb") as out:
        for b in range(blocks):
            out.seek((b + 1) * (size + 16) - 16)
            out.write(struct.pack("<QQ", 10_000, (8 << 56) | ((1 << 56) - 1)))


def test_the_walk_back_lets_the_other_threads_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the walk of a hard deal reads its kept files for minutes: the driver
    # (its reports) and the other tasks must run meanwhile, so the engine
    # lets the GIL go while it reads (it held it throughout)
    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    spans: list[tuple[float, float]] = []

    def trace(search: _layers.LayeredSearch, directory: str, kept: list[str]) -> object:
        # _parallel._trace, the walk timed alone, and made long: a file of
        # blocks to pass over among the kept files of the lower progress values
        junk = "k000.t9999999.a0badbad.rec"
        _junk_blocks(os.path.join(directory, junk), 1000)
        assert search.close_files() < 0
        search.abandon()
        paths = [os.fsencode(os.path.join(directory, n)) for n in kept[:1] + [junk] + kept[1:]]
        begun = time.monotonic()
        found = search.trace(paths)
        spans.append((begun, time.monotonic()))
        assert found is not None
        return [list(m) for m in found]

    monkeypatch.setattr(_parallel, "_trace", trace)
    ticks: list[float] = []
    done = threading.Event()

    def ticker() -> None:
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.0002)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.0001)  # the ticker asks for the GIL soon
    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        in_parallel(deal, tmp_path, 2)  # its line replays, junk and all
    finally:
        done.set()
        thread.join()
        sys.setswitchinterval(switch)
    [(begun, ended)] = spans
    assert ended - begun > 0.002, "the walk was too short to tell"
    # the ticker ran all through it (holding the GIL, the walk let it in
    # once at most: as the call returned)
    assert sum(begun < t < ended for t in ticks) >= 5


def test_a_task_that_ends_as_the_cluster_is_told_to_stop_leaves_no_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # On a cluster (an executor of our own: the tasks look for the stop
    # file), a task that made its last look before the driver made the file
    # returns done with its files.  Here each task done is held back until
    # the stop file exists, as long as another task may still stop the run:
    # the driver must wait for it and commit its files, not leave them
    # behind, unlisted.
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    real = _parallel.run_task
    lock = threading.Lock()
    active = [0]
    limited = threading.Event()
    raced: list[int] = []

    def task_then_wait(spec: dict[str, object]) -> dict[str, object]:
        with lock:
            active[0] += 1
        try:
            result = real(spec)  # type: ignore[arg-type]
        finally:
            with lock:
                active[0] -= 1
        if result["status"] != -1:
            limited.set()
            return result
        stop = Path(str(spec["dir"])) / _parallel.STOP_FILE
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if stop.exists():
                raced.append(int(spec["id"]))  # type: ignore[call-overload]
                break
            with lock:
                if active[0] == 0 and not limited.is_set():
                    break  # no task left that may stop the run
            time.sleep(0.01)
        return result

    monkeypatch.setattr(_parallel, "run_task", task_then_wait)
    nodes = [200_000, 400_000, 800_000, 1_600_000]
    with ThreadPoolExecutor(2) as pool:
        for max_nodes in nodes:
            work = tmp_path / str(max_nodes)
            search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=4, work_dir=work,
                                              jobs=2, executor=pool)
            search.part_bytes = 16384
            limited.clear()
            status = search.run(max_nodes=max_nodes)[0]
            assert status == _search.NODE_LIMIT
            listed = set(manifest(work)["files"])  # type: ignore[arg-type]
            assert names(work) == listed | {_disk.MANIFEST, _parallel.STOP_FILE}
    assert raced, "no task ended as the run stopped"
    monkeypatch.setattr(_parallel, "run_task", real)
    assert_same(memory, in_parallel(deal, work, 2, memory_mb=4, resume=True))


_CHILD = child_code(memory_mb=4, setting="part_bytes = 16384", jobs=2)


def test_driver_killed_twice_then_resumed(tmp_path: Path) -> None:
    # the driver and its threads SIGKILLed in the middle of tasks: their
    # files are not listed, the resume deletes them and runs the tasks again
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    kill_when(tmp_path, 500_000, _CHILD, timeout=180)
    kill_when(tmp_path, 1_500_000, _CHILD, timeout=180)
    par = in_parallel(deal, tmp_path, 2, memory_mb=4, resume=True)
    assert memory[0] == (_search.UNSOLVABLE, 3001011, 1189745)
    assert_same(memory, par)


def test_disk_budget_stops_with_reason_disk(tmp_path: Path) -> None:
    deal = Deal.pysol(16780)
    full = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, disk_mb=0.1,
                 jobs=2)
    assert (full.verdict, full.reason) == (Verdict.UNKNOWN, "disk")
    files = manifest(tmp_path)["files"]
    assert sum(files.values()) <= 0.1 * 2**20  # type: ignore[union-attr]
    rest = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, disk_mb=100,
                 resume=True, jobs=2)
    assert (rest.verdict, rest.nodes) == (Verdict.UNSOLVABLE, 623365)


def test_tasks_without_the_memory_they_need_stop_with_memory_mb(
        tmp_path: Path) -> None:
    deal = Deal.pysol(16780)
    memory = in_memory(deal)
    small = in_parallel(deal, tmp_path, 2, memory_mb=0.2)  # 100 KiB a task
    assert small[0][0] == _search.OUT_OF_MEMORY
    assert manifest(tmp_path)["state"] == "running"
    assert_same(memory, in_parallel(deal, tmp_path, 2, resume=True))


# -- refusals ------------------------------------------------------------------------

def test_runs_of_one_process_and_of_tasks_are_told_apart(tmp_path: Path) -> None:
    deal = Deal.pysol(16780)
    solve(deal, method="layers", work_dir=tmp_path / "one", max_nodes=1000, time_limit=None)
    with pytest.raises(ArgumentError, match="in one process: resume it without jobs"):
        solve(deal, method="layers", work_dir=tmp_path / "one", resume=True, jobs=2)
    # a run of tasks resumes in tasks, whatever jobs says
    solve(deal, method="layers", work_dir=tmp_path / "par", max_nodes=1000, time_limit=None,
          jobs=2)
    rest = solve(deal, method="layers", work_dir=tmp_path / "par", resume=True,
                 time_limit=None)
    assert (rest.verdict, rest.nodes) == (Verdict.UNSOLVABLE, 623365)
    assert manifest(tmp_path / "par")["format"] == _parallel.FORMAT


def test_a_damaged_work_dir_is_refused(tmp_path: Path) -> None:
    deal = Deal.pysol(16780)
    solve(deal, method="layers", work_dir=tmp_path, max_nodes=50_000, time_limit=None, jobs=2)
    files = manifest(tmp_path)["files"]
    name = max(files, key=files.get)  # type: ignore[arg-type]
    os.truncate(tmp_path / name, files[name] - 1)  # type: ignore[index]
    with pytest.raises(ArgumentError, match=f"damaged: {name}"):
        solve(deal, method="layers", work_dir=tmp_path, resume=True, jobs=2)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"work_dir": "w", "jobs": 0}, ArgumentError, "jobs must be in 1..4096"),
    ({"work_dir": "w", "jobs": 5000}, ArgumentError, "jobs must be in 1..4096"),
    ({"work_dir": "w", "jobs": 2.0}, TypeError, "jobs must be an int"),
    ({"work_dir": "w", "jobs": True}, TypeError, "jobs must be an int"),
    ({"jobs": 2}, ArgumentError, "jobs: only a search with a work_dir"),
    ({"scheduler": "tcp://127.0.0.1:1"}, ArgumentError, "scheduler: only a search with a work_dir"),
    ({"work_dir": "w", "scheduler": 5}, TypeError, "scheduler must be an address"),
    ({"work_dir": "w", "scheduler": " "}, ArgumentError, "scheduler: an empty address"),
    ({"work_dir": "w", "jobs": 2, "method": "proof"}, ArgumentError, "only method='layers'"),
])
def test_bad_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    monkeypatch.chdir(tmp_path)
    kwargs.setdefault("method", "layers")
    with pytest.raises(error, match=match):
        solve(Deal.pysol(3266), **kwargs)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


# -- the command line ----------------------------------------------------------------

def test_cli_solve_layers_with_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work = str(tmp_path / "work")
    assert main(["solve", "--deal", "3266", "--layers", "--work-dir", work, "--jobs", "2",
                 "--time-limit", "none"]) == 1
    out = capsys.readouterr().out
    nodes = solve(Deal.pysol(3266), method="layers", time_limit=None).nodes
    assert "verdict: unsolvable" in out and f"nodes: {nodes}" in out
    assert manifest(Path(work))["format"] == _parallel.FORMAT


@pytest.mark.parametrize(("argv", "message"), [
    (["--layers", "--jobs", "2"], "--jobs needs --work-dir DIR"),
    (["--layers", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --work-dir DIR"),
    (["--layers", "--work-dir", "w", "--jobs", "0"], "--jobs"),
    (["--layers", "--work-dir", "w", "--jobs", "5000"], "jobs must be in 1..4096"),
])
def test_cli_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "--deal", "3266", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakersdozen solve: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []


def test_task_file_names_round_trip() -> None:
    name = _parallel.output_file(12, 345, "0123abcd", 7)
    assert name == "p012.t0000345.a0123abcd.b0007.rec"
    assert _parallel._progress_of(name) == 12 and _parallel._task_of(name) == 345
    assert _parallel._task_of(_disk.progress_file(0)) is None
    assert _layers.PROGRESS_VALUES <= 1000  # three digits of progress
