"""Surveys on Dask distributed, with a real scheduler and real workers on 127.0.0.1.

The fixture starts ``dask scheduler`` and two ``dask worker`` processes
(one thread, 1 GiB each), each in its own process group, and kills the
groups whatever happens.  ``distributed`` comes from the ``test`` extra;
with ``BAKERSDOZEN_REQUIRE_DASK=1`` (CI) its absence fails instead of skipping.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("BAKERSDOZEN_REQUIRE_DASK") != "1":
    pytest.importorskip("distributed")

from children import ENV, end, processes, run, spawn, started  # noqa: E402
from distributed import Client  # noqa: E402

from bakersdozen import Deal, solve  # noqa: E402
from bakersdozen.records import Record  # noqa: E402
from bakersdozen.survey import survey  # noqa: E402
from bakersdozen.survey._local_cluster import wait_for_clients  # noqa: E402
from bakersdozen.survey.cluster import (  # noqa: E402
    MEMORY_FRACTION, parse_local, worker_memory_mb,
)

#: Positions per deal: small, so that the tests stay fast.
NODES = 300_000
GIB = 2**30


# -- the cluster: real processes ------------------------------------------------


def _start(argv: list[str], log: Path, env: dict[str, str] | None = None
           ) -> subprocess.Popen[bytes]:
    """*argv* in its own process group (children.spawn); the caller ends it (_kill)."""
    with open(log, "wb") as handle:
        return spawn(argv, stdout=handle, stderr=subprocess.STDOUT, env=env or ENV)


def _kill(process: subprocess.Popen[bytes]) -> None:
    end(process)  # SIGKILL to the process and its children (the nanny's)


def start_scheduler(where: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A ``dask scheduler`` on 127.0.0.1, a free port; its address from its log."""
    log = where / "scheduler.log"
    process = _start([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                      "--port", "0", "--no-dashboard"], log)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)", log.read_text())
            if found:
                return process, found.group(1)
            if process.poll() is not None:
                break
            time.sleep(0.05)
    except BaseException:
        _kill(process)
        raise
    _kill(process)
    raise RuntimeError(f"the scheduler did not start: {log.read_text()[-2000:]}")


def start_worker(address: str, where: Path, name: str, hold: Path | None = None
                 ) -> subprocess.Popen[bytes]:
    """A ``dask worker``: one process, one thread, 1 GiB; with *hold*, one
    that holds a task of the layered search (tests/dask_hold.py)."""
    argv = [sys.executable, "-m", "dask", "worker", address, "--nworkers", "1",
            "--nthreads", "1", "--no-dashboard", "--memory-limit", "1GiB", "--name", name]
    env = None
    if hold is not None:
        argv += ["--preload", "dask_hold"]
        env = dict(ENV, BAKERSDOZEN_TEST_HOLD=str(hold))
    return _start(argv, where / f"{name}.log", env)


class Cluster:
    def __init__(self, where: Path, workers: int, hold: Path | None = None) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        scheduler, self.address = start_scheduler(where)
        self.scheduler = scheduler
        self.processes.append(scheduler)
        self.workers: list[subprocess.Popen[bytes]] = []
        try:
            for i in range(workers):
                self.workers.append(start_worker(self.address, where, f"w{i}", hold))
                self.processes.append(self.workers[-1])
            with Client(self.address, timeout=30) as client:
                client.wait_for_workers(workers, timeout=60)
        except BaseException:  # nothing is left running, whatever happens
            self.close()
            raise

    def close(self) -> None:
        for process in reversed(self.processes):
            _kill(process)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("dask"), 2)
    try:
        yield running
    finally:
        running.close()


def _cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "bakersdozen", "survey", *argv], timeout=timeout)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- the rules, without a cluster ---------------------------------------------------


def test_memory_rule() -> None:
    assert MEMORY_FRACTION == 0.5
    assert worker_memory_mb(GIB, 1, 4096) == 512  # half of 1 GiB for one thread
    assert worker_memory_mb(GIB, 4, 4096) == 128  # shared by the threads
    assert worker_memory_mb(GIB, 1, 100) == 100  # never more than asked
    assert worker_memory_mb(None, 1, 700) == 700  # no limit: as asked
    assert worker_memory_mb(8 * 2**20, 1, 512) == 16  # at least 16 MiB
    assert parse_local("local") is None and parse_local("local:3") == 3
    for bad in ("local:0", "local:x", "remote:2", "local:"):
        with pytest.raises(ValueError):
            parse_local(bad)


class _DaskFuture:
    """A Dask future as Dask's ``done_callback`` hands it to a callback: it
    calls back as soon as the status leaves "pending", so also at "lost"
    (the finished task's result went with its killed worker and is being
    computed again).  Then ``exception()`` gives None, as Dask's does for
    any status but "error" (it is the error at "error"), and ``result()`` gives the outcome once it comes."""

    def __init__(self, status: str, outcome: Any) -> None:
        self.status = status
        self._outcome = outcome
        self.callbacks: list[Any] = []

    def add_done_callback(self, fn: Any) -> None:
        self.callbacks.append(fn)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        if self.status == "error":
            assert isinstance(self._outcome, BaseException)
            return self._outcome
        return None

    def result(self, timeout: float | None = None) -> Any:
        if isinstance(self._outcome, BaseException):
            self.status = "error"
            raise self._outcome
        self.status = "finished"
        return self._outcome


class _Client:
    status = "running"
    scheduler = type("Scheduler", (), {"address": "tcp://127.0.0.1:1"})()

    def __init__(self, future: _DaskFuture) -> None:
        self.future = future

    def submit(self, fn: Any, *args: Any, **kwargs: Any) -> _DaskFuture:
        return self.future


@pytest.mark.parametrize("status", ["lost", "finished"])
def test_a_result_lost_with_its_worker_is_awaited_not_taken_as_none(status: str) -> None:
    # CI once saw a survey fail on "'NoneType' object has no attribute
    # 'seconds'": a worker killed holding a finished batch, the callback
    # found the status "lost" and passed on exception(), which was None
    from bakersdozen._dask import DaskExecutor

    records = [Record.__new__(Record)]
    dask_future = _DaskFuture(status, records)
    ours = DaskExecutor(_Client(dask_future)).submit(len, [])
    for callback in dask_future.callbacks:
        callback(dask_future)
    assert ours.result(timeout=5) is records


def test_a_task_error_and_a_cancel_reach_the_caller() -> None:
    from bakersdozen._dask import ClusterError, DaskExecutor

    failing = _DaskFuture("error", ValueError("the task's own error"))
    ours = DaskExecutor(_Client(failing)).submit(len, [])
    failing.callbacks[0](failing)
    with pytest.raises(ValueError, match="the task's own error"):
        ours.result(timeout=5)
    cancelled = _DaskFuture("cancelled", None)
    ours = DaskExecutor(_Client(cancelled)).submit(len, [])
    cancelled.callbacks[0](cancelled)
    with pytest.raises(ClusterError, match="lost the Dask scheduler at tcp://127.0.0.1:1"):
        ours.result(timeout=5)


# -- on the cluster -------------------------------------------------------------------


def test_cluster_gives_the_records_of_a_local_survey(cluster: Cluster) -> None:
    deals = list(range(1, 61))

    def key(records: list[Record]) -> dict[object, tuple[object, int, object]]:
        return {r.deal: (r.verdict, r.nodes, r.length) for r in records}

    here = list(survey(deals, jobs=1, time_limit=None, max_nodes=NODES, memory_mb=64))
    with Client(cluster.address, timeout=30) as client:
        there = list(survey(deals, executor=client, time_limit=None, max_nodes=NODES,
                            memory_mb=64))
        assert len(there) == len(deals)
        assert key(there) == key(here)
        assert {r.memory_mb for r in there} == {64.0}
        # the table fits the worker: 1 GiB, one thread -> half of it, not the 4096 asked
        big = list(survey([1, 2, 3], executor=client, time_limit=None, max_nodes=NODES,
                          memory_mb=4096))
        assert {r.memory_mb for r in big} == {512.0}
        # and client.get_executor(), a plain Executor, runs the same code path
        plain = list(survey(deals[:10], executor=client.get_executor(), time_limit=None,
                            max_nodes=NODES, memory_mb=64))
        assert key(plain) == {d: v for d, v in key(here).items() if d in deals[:10]}
        # the search method reaches the workers with the limits
        proof = list(survey([3266, 5143, 64, 1, 2], executor=client, time_limit=None,
                            memory_mb=64, method="proof"))
        assert {r.method for r in proof} == {"proof"}
        assert {r.deal: r.verdict.value for r in proof} == {
            3266: "unsolvable", 5143: "unsolvable", 64: "unsolvable", 1: "solved", 2: "solved"}
        # proof's node counts, not dfs's: the workers ran the method asked for
        assert {r.deal: r.nodes for r in proof} == {
            n: solve(Deal.pysol(n), time_limit=None, memory_mb=64, method="proof").nodes
            for n in (3266, 5143, 64, 1, 2)}


def test_cluster_plays_each_deal_by_its_game(cluster: Cluster) -> None:
    # Deals of every preset, and numbers dealt for rules=: the workers play
    # each by its game, and each record names it (issue 23: every deal was
    # played as Baker's Dozen).  Deal 1 of two games may be the same cards,
    # so the deals carry ids of their own.
    from bakersdozen import check
    from bakersdozen.rules import PRESETS

    deals = {f"{game}-{n}": Deal.pysol(n, game) for game in sorted(PRESETS) for n in (1, 2)}
    with Client(cluster.address, timeout=30) as client:
        records = list(survey(list(deals.items()), executor=client, moves=True,
                              time_limit=None, max_nodes=NODES, memory_mb=64))
        spanish = list(survey([1, 2, 3], executor=client, moves=True, time_limit=None,
                              max_nodes=NODES, memory_mb=64, rules="spanish_patience"))
    assert sorted(r.deal for r in records) == sorted(deals)
    for record in records:
        deal = deals[str(record.deal)]
        assert record.game == deal.rules.name
        if record.solved:
            assert check(deal, record.moves or ()).won
    assert {r.game for r in spanish} == {"spanish_patience"} and len(spanish) == 3
    for record in spanish:
        if record.solved:
            assert check(Deal.pysol(int(record.deal), "spanish_patience"), record.moves or ()).won


def test_cluster_survey_keeps_the_layers_of_unknowns_on_disk(cluster: Cluster,
                                                             tmp_path: Path) -> None:
    # survey(..., work_dir=): the workers write each deal's subdirectory of a
    # directory they share with the client (one machine here), keep an
    # unknown's, and a second pass goes on from it
    work = tmp_path / "work"
    common: dict[str, Any] = {"time_limit": None, "memory_mb": 64, "method": "layers",
                              "work_dir": work}
    with Client(cluster.address, timeout=30) as client:
        first = {r.deal: r for r in survey([3266, 5143, 16780], executor=client,
                                           max_nodes=20_000, **common)}
        assert {n: r.verdict.value for n, r in first.items()} == {
            3266: "unknown", 5143: "unsolvable", 16780: "unknown"}
        assert sorted(os.listdir(work)) == ["deal-16780", "deal-3266"]
        checkpoints = {n: json.loads((work / f"deal-{n}" / "manifest.json").read_text())
                       ["counts"]["nodes"] for n in (3266, 16780)}
        second = {r.deal: r for r in survey([3266, 16780], executor=client, **common)}
    for number, record in second.items():
        assert (record.verdict.value, record.resumed_nodes) == ("unsolvable",
                                                                checkpoints[number])
        assert record.nodes == solve(Deal.pysol(int(number)), time_limit=None, memory_mb=64,
                                     method="layers").nodes
    assert os.listdir(work) == []


def test_unreachable_scheduler_then_resume(cluster: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    bad = f"tcp://127.0.0.1:{_free_port()}"
    args = ["1-30", "--time-limit", "none", "--max-nodes", str(NODES), "--output", str(out)]
    failed = _cli(*args, "--scheduler", bad, "--connect-timeout", "1")
    assert failed.returncode == 4
    assert failed.stderr.count("\n") == 1, failed.stderr  # one line
    assert failed.stderr.startswith(
        f"bakersdozen survey: error: cannot reach the Dask scheduler at {bad}")
    # the same output file, on a scheduler that answers: every deal once
    done = _cli(*args, "--scheduler", cluster.address)
    assert done.returncode == 0, done.stderr
    assert Counter(r["deal"] for r in _lines(out)) == Counter(range(1, 31))


@pytest.mark.parametrize(("address", "reason"), [
    ("bogus", "missing port number in address 'bogus'"),
    ("foo://x:1", "unknown address scheme 'foo'"),
])
def test_malformed_scheduler_address_is_one_line(address: str, reason: str) -> None:
    # Dask left the client half-made: its __del__ timed out closing it and
    # printed "Exception ignored in: Client.__del__" with a traceback
    failed = _cli("1-2", "--jobs", "1", "--scheduler", address, "--connect-timeout", "2")
    assert failed.returncode == 4
    assert failed.stderr.count("\n") == 1, failed.stderr  # one line, nothing after it
    assert failed.stderr.startswith("bakersdozen survey: error: cannot reach the Dask scheduler")
    assert reason in failed.stderr and failed.stdout == ""


def test_worker_killed_mid_run_loses_nothing(tmp_path: Path) -> None:
    # The workers hold the fourth batch begun (tests/dask_hold.py) until the
    # test has killed its worker: the kill lands in the middle of the survey,
    # after other batches began and with this one in flight, however fast
    # or loaded the machine (waiting for a count of lines raced the survey).
    hold = tmp_path / "hold"
    hold.mkdir()
    (hold / "at").write_text("3")  # task numbers start at 0
    own = Cluster(tmp_path, 2, hold=hold)
    out = tmp_path / "killed.jsonl"
    count = 300
    argv = [sys.executable, "-m", "bakersdozen", "survey", f"1-{count}", "--scheduler",
            own.address, "--time-limit", "none", "--max-nodes", "500000",
            "--output", str(out)]
    try:
        with started(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as survey_process:
            deadline = time.monotonic() + 120
            while not (hold / "held").exists() and time.monotonic() < deadline \
                    and survey_process.poll() is None:
                time.sleep(0.02)
            assert (hold / "held").exists(), "no batch held"
            held = (hold / "held").read_text()
            at_kill = out.read_bytes().count(b"\n") if out.exists() else 0
            assert survey_process.poll() is None, "the survey ended before the kill"
            _kill(own.workers[int(held[1:])])  # SIGKILL to the worker and its nanny
            stdout, stderr = survey_process.communicate(timeout=180)
    finally:
        own.close()
    assert at_kill < count
    assert survey_process.returncode == 0, stderr
    deals = Counter(r["deal"] for r in _lines(out))
    duplicates = sum(n - 1 for n in deals.values())
    lost = count - len(deals)
    print(f"fault test: deals {count}, records {sum(deals.values())}, "
          f"written at the kill {at_kill}, duplicates {duplicates}, lost {lost}")
    assert (duplicates, lost) == (0, 0)
    assert set(deals) == set(range(1, count + 1))
    assert f"deals: {count}" in stdout.decode()


def test_scheduler_lost_mid_run_then_resume(tmp_path: Path) -> None:
    own = Cluster(tmp_path, 1)
    out = tmp_path / "lost.jsonl"
    # Enough deals that the batches in flight when ten lines are written
    # are far from all of them (with 300, a loaded machine once saw the
    # survey finish before the scheduler was killed).
    count = 1000
    args = [f"1-{count}", "--time-limit", "none", "--max-nodes", "500000",
            "--output", str(out)]
    try:
        with started(
            [sys.executable, "-m", "bakersdozen", "survey", *args, "--scheduler", own.address,
             "--connect-timeout", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        ) as survey_process:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and survey_process.poll() is None:
                if out.exists() and out.read_bytes().count(b"\n") >= 10:
                    break
                time.sleep(0.01)
            _kill(own.scheduler)
            stdout, stderr = survey_process.communicate(timeout=60)
    finally:
        own.close()
    assert survey_process.returncode == 4, stderr
    text = stderr.decode()
    assert text.count("\n") == 1, text
    assert text.startswith("bakersdozen survey: error: lost the Dask scheduler at")
    kept = Counter(r["deal"] for r in _lines(out))
    assert 10 <= len(kept) < count and max(kept.values()) == 1
    # resumed on local processes: one code path, one file
    done = _cli(*args, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} deals already recorded" in done.stderr
    assert Counter(r["deal"] for r in _lines(out)) == Counter(range(1, count + 1))


def test_local_cluster_with_progress_bar(tmp_path: Path) -> None:
    out = tmp_path / "local.csv"
    primary, secondary = pty.openpty()  # stderr a terminal: the bar is drawn
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    try:
        with started(
            [sys.executable, "-m", "bakersdozen", "survey", "1-40", "--cluster", "local:2",
             "--time-limit", "none", "--max-nodes", str(NODES), "--output", str(out)],
            env=dict(ENV, COLUMNS="120"), stdout=subprocess.PIPE, stderr=secondary,
        ) as process:
            os.close(secondary)
            secondary = -1
            seen = b""
            while True:
                ready, _, _ = select.select([primary], [], [], 120)
                if not ready:
                    break
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # the terminal closed
                    break
                if not chunk:
                    break
                seen += chunk
            stdout, _ = process.communicate(timeout=120)
    finally:
        os.close(primary)
        if secondary != -1:
            os.close(secondary)
    assert process.returncode == 0, seen.decode(errors="replace")
    bar = seen.decode(errors="replace")
    assert "40/40" in bar and "solved=" in bar and "unknown=" in bar, bar
    assert "Warning" not in bar  # nothing from Dask (ports taken, log lines)
    rows = out.read_text().splitlines()
    assert len(rows) == 41 and rows[0].startswith("deal,")
    assert "deals: 40" in stdout.decode()


def _survey_children(pid: int) -> list[int]:
    """The pids of *pid*'s children."""
    return [process.pid for process in processes() if process.parent == pid]


def _in_session(session: int) -> list[int]:
    """The live (not zombie) processes of *session*."""
    return [process.pid for process in processes() if process.session == session and process.live]


def _kill_sessions(sessions: list[int]) -> None:
    for session in sessions:
        for pid in _in_session(session):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _interrupted_survey(tmp_path: Path, how: str, *where: str) -> tuple[int, str, list[int]]:
    """Start a long survey, wait for records, then Ctrl-C its process group (*how*
    "int") or SIGKILL the survey alone ("kill"): its status, all its standard error
    (read until every process that shares it has closed it), and the sessions of the
    processes it had started in sessions of their own."""
    out = Path(tempfile.mkdtemp(dir=tmp_path)) / "s.jsonl"  # a new survey each time
    argv = [sys.executable, "-m", "bakersdozen", "survey", "1-100000", *where,
            "--time-limit", "5", "--memory-mb", "64", "--output", str(out)]
    sessions: list[int] = []
    try:
        with started(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and process.poll() is None:
                if out.exists() and out.read_bytes().count(b"\n") >= 3:
                    break
                time.sleep(0.05)
            assert process.poll() is None, process.communicate()[1].decode()
            sessions = [pid for pid in _survey_children(process.pid)
                        if os.getsid(pid) == pid]
            if how == "int":
                os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
            else:
                os.kill(process.pid, signal.SIGKILL)  # the survey alone
            _, err = process.communicate(timeout=90)
            status = process.returncode
        deadline = time.monotonic() + 30
        while any(map(_in_session, sessions)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return status, err.decode(errors="replace"), [s for s in sessions if _in_session(s)]
    finally:
        _kill_sessions(sessions)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_on_a_local_cluster_is_one_line(tmp_path: Path) -> None:
    # Ctrl-C reached the Dask workers too: two tracebacks (KeyboardInterrupt, CancelledError)
    status, err, left = _interrupted_survey(tmp_path, "int", "--cluster", "local:2")
    assert status == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.splitlines()[-1] == "bakersdozen survey: interrupted", err
    # what the same Ctrl-C prints on worker processes (--jobs 2)
    jobs_status, jobs_err, _ = _interrupted_survey(tmp_path, "int", "--jobs", "2")
    assert (status, err) == (jobs_status, jobs_err)
    assert left == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_of_a_local_cluster_survey_leaks_nothing(tmp_path: Path) -> None:
    # the workers' nannies made semaphores in the survey's process: after its SIGKILL
    # the resource tracker warned of 12 leaked semaphores, and the workers printed
    # tracebacks of their lost connections
    status, err, left = _interrupted_survey(tmp_path, "kill", "--cluster", "local:2")
    assert status == -signal.SIGKILL
    assert "leaked" not in err and "Traceback" not in err, err
    assert left == []


def _inc(x: int) -> int:
    return x + 1


def test_local_cluster_waits_for_its_client_to_go_before_closing(tmp_path: Path) -> None:
    # A survey SIGKILLed just after sending tasks left the scheduler busy with
    # them; the cluster closed its workers at once, and the scheduler wrote
    # their results' loss to the dead client: a CRITICAL line and a traceback
    # on the survey's standard error.  Now the cluster, its standard input
    # ended, closes only once the scheduler has seen its client go.
    argv = [sys.executable, "-m", "bakersdozen.survey._local_cluster", "2"]
    log = tmp_path / "stderr"
    with open(log, "wb") as stderr, started(argv, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=stderr) as process:
        address = process.stdout.readline().decode().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        client = Client(address, timeout=60)
        try:
            held = client.map(_inc, range(20))  # results in the workers' memory
            assert client.gather(held) == list(range(1, 21))
            process.stdin.close()  # what the survey's death does, its client still here
            time.sleep(1.5)
            assert process.poll() is None
            assert len(client.scheduler_info()["workers"]) == 2
            assert client.gather(held) == list(range(1, 21))  # nothing lost
        finally:
            client.close()
        assert process.wait(60) == 0
    err = log.read_text(errors="replace")
    assert "CRITICAL" not in err and "Traceback" not in err, err


def test_wait_for_clients_ends_when_they_go_or_at_its_timeout() -> None:
    import threading
    from types import SimpleNamespace

    comms = {"client-1": object()}
    cluster = SimpleNamespace(scheduler=SimpleNamespace(client_comms=comms))
    started_at = time.monotonic()
    assert not wait_for_clients(cluster, timeout=0.2)  # a client that stays
    assert 0.2 <= time.monotonic() - started_at < 30
    going = threading.Timer(0.3, comms.clear)  # as the scheduler's thread does
    started_at = time.monotonic()
    going.start()
    try:
        assert wait_for_clients(cluster, timeout=60)
        assert 0.3 <= time.monotonic() - started_at < 30  # the going ended it
    finally:
        going.cancel()
    assert wait_for_clients(cluster, timeout=0)  # none left: at once


def test_without_distributed_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from bakersdozen.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    status = main(["survey", "1-3", "--cluster", "local:1", "-o", str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err
    assert status == 2
    assert err == ("bakersdozen survey: error: running on Dask needs the 'distributed' "
                   "package: pip install 'bakersdozen[dask]'\n")


# -- one deal's layered search on the cluster (solve(..., scheduler=)) -----------------


def _layers_in_memory(number: int) -> tuple[int, int, dict[str, int]]:
    from bakersdozen import _layers
    from bakersdozen.solver import _engine_args

    search = _layers.LayeredSearch(*_engine_args(Deal.pysol(number)), memory_mb=64)
    _status, _raw, nodes, _rounds, stored = search.run()
    return nodes, stored, search.stats


def _layers_on(address: str, number: int, work_dir: Path, memory_mb: float = 8,
               **kwargs: Any) -> Any:
    from bakersdozen.solver import LayersSearch, _engine_args

    search = LayersSearch(*_engine_args(Deal.pysol(number)), memory_mb=memory_mb,
                          work_dir=work_dir, scheduler=address, **kwargs)
    result = search.run()
    return result, search.stats


#: What the layered search reports that the tasks on the cluster must report alike.
_SAME = ("layers", "largest", "lost", "top_progress")


@pytest.mark.parametrize("number", [16780, 29393])
def test_layered_search_on_the_cluster_counts_as_one_process(tmp_path: Path, number: int) -> None:
    # 16780: 235,290 positions stored; 29393: 1,189,745; 2 MiB shared by
    # the two workers' tasks, so that the progress values are split.  A
    # cluster of its own: the module's loses a worker to an earlier test.
    own = Cluster(tmp_path, 2)
    try:
        _counts_as_one_process(own, tmp_path, number)
    finally:
        own.close()


def _counts_as_one_process(cluster: Cluster, tmp_path: Path, number: int) -> None:
    nodes, stored, stats = _layers_in_memory(number)
    (status, raw, got_nodes, _rounds, got_stored), got = _layers_on(
        cluster.address, number, tmp_path / "w", memory_mb=2)
    assert (status, raw, got_nodes, got_stored) == (1, [], nodes, stored)  # UNSOLVABLE
    assert {k: got[k] for k in _SAME} == {k: stats[k] for k in _SAME}
    assert got["jobs"] == 2  # the cluster's threads
    assert got["splits"] > 0 or number == 16780  # its progress values all fit
    # the outcome, and the driver's log of the tasks (the workers write none)
    assert set(os.listdir(tmp_path / "w")) == {"manifest.json", "tasks.jsonl"}
    with open(tmp_path / "w" / "tasks.jsonl", encoding="utf-8") as f:
        log = [json.loads(line) for line in f]
    assert sum(e["nodes"] for e in log if e["status"] == "done") == nodes
    # and through solve(), a Client this time
    with Client(cluster.address, timeout=30) as client:
        solution = solve(Deal.pysol(number), time_limit=None, method="layers", memory_mb=8,
                         work_dir=tmp_path / "c", scheduler=client)
        assert client.status == "running"  # not closed: the caller's
    assert (solution.verdict.value, solution.nodes) == ("unsolvable", nodes)


def test_layered_search_on_the_cluster_expands_large_layers_in_shards(tmp_path: Path) -> None:
    # Each task may hold 600 positions of a layer (deal 16780's largest
    # holds 1,920): its large layers are cut into shards, split and
    # expanded in rounds by tasks on both workers.  Without the shards the
    # run would stop (memory_mb); with them its counts are those of one
    # process, every layer counted once and the largest whole.
    from bakersdozen.solver import LayersSearch, _engine_args

    number = 16780
    nodes, stored, stats = _layers_in_memory(number)
    own = Cluster(tmp_path, 2)
    try:
        search = LayersSearch(*_engine_args(Deal.pysol(number)), memory_mb=8,
                              work_dir=tmp_path / "w", scheduler=own.address)
        search._layers.layer_positions = 600  # type: ignore[union-attr]
        status, raw, got_nodes, _rounds, got_stored = search.run()
    finally:
        own.close()
    assert (status, raw, got_nodes, got_stored) == (1, [], nodes, stored)  # UNSOLVABLE
    got = search.stats
    assert {k: got[k] for k in _SAME} == {k: stats[k] for k in _SAME}
    assert got["redone"] > 0  # tasks out of memory: their layers went to shards
    assert set(os.listdir(tmp_path / "w")) == {"manifest.json", "tasks.jsonl"}


def test_layered_search_survives_a_worker_killed_mid_task(tmp_path: Path) -> None:
    # The workers hold the eighth task begun (of the 32 this run makes,
    # tests/dask_hold.py) until the test has killed its worker: the kill
    # lands in the middle of a task after the run has committed others,
    # however fast the machine (watching for a busy worker could miss a
    # run of a second and a half).  The scheduler gives that task to the
    # other worker, and the count is the one of one process.
    import threading

    hold = tmp_path / "hold"
    hold.mkdir()
    (hold / "at").write_text("7")  # task numbers start at 0
    own = Cluster(tmp_path, 2, hold=hold)
    number = 29393
    nodes, stored, stats = _layers_in_memory(number)
    outcome: dict[str, Any] = {}

    def search() -> None:
        try:
            outcome["result"] = _layers_on(own.address, number, tmp_path / "w", jobs=2)
        except BaseException as error:  # noqa: BLE001 - reported below
            outcome["error"] = error

    thread = threading.Thread(target=search)
    try:
        thread.start()
        deadline = time.monotonic() + 120
        while not (hold / "held").exists() and time.monotonic() < deadline \
                and thread.is_alive():
            time.sleep(0.02)
        assert (hold / "held").exists(), f"no task held: {outcome}"
        held = (hold / "held").read_text()
        # the tasks before it committed: the driver's checkpoint (every second)
        manifest = tmp_path / "w" / "manifest.json"
        while json.loads(manifest.read_text())["counts"]["nodes"] == 0 \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        committed = json.loads(manifest.read_text())["counts"]["nodes"]
        assert thread.is_alive()  # the run waits for the held task
        _kill(own.workers[int(held[1:])])  # SIGKILL to the worker and its nanny
        thread.join(300)
        assert not thread.is_alive()
    finally:
        thread.join(1)
        own.close()
    assert "error" not in outcome, outcome.get("error")
    assert 0 < committed < nodes  # killed with tasks committed before and after
    (status, _raw, got_nodes, _rounds, got_stored), got = outcome["result"]
    assert (status, got_nodes, got_stored) == (1, nodes, stored)
    assert {k: got[k] for k in _SAME} == {k: stats[k] for k in _SAME}
    # every task committed once; the held one begun a second time, on the other worker
    assert len(list(hold.glob("task.*"))) == got["tasks"] + 1


def test_layered_search_on_the_cluster_wins_with_a_checked_line(tmp_path: Path) -> None:
    # The task that reaches the won position traces the line back on its
    # worker, through the kept files of the tasks before it.
    import random

    from bakersdozen import _search, check
    from bakersdozen.solver import _to_move
    from test_solver import reduced_deal

    deal = reduced_deal(random.Random(4129516530), 5, 7, 2)
    own = Cluster(tmp_path, 2)
    try:
        from bakersdozen.solver import LayersSearch, _engine_args

        search = LayersSearch(*_engine_args(deal), memory_mb=1, work_dir=tmp_path / "w",
                              scheduler=own.address)
        status, raw, nodes, _rounds, _stored = search.run()
    finally:
        own.close()
    assert status == _search.SOLVED and raw  # with the layers' own line
    assert check(deal, [_to_move(m) for m in raw]).won
    kept = json.loads((tmp_path / "w" / "manifest.json").read_text())
    assert kept["state"] == "solved" and kept["counts"]["nodes"] == nodes


def test_layered_search_stopped_on_the_cluster_leaves_no_files(tmp_path: Path) -> None:
    # A run stopped by max_nodes while another task runs on a worker: that
    # task sees the stop file, stops and deletes its files (or, done just
    # before the file, is committed by the driver, which waits a while for
    # it), so that once the cluster is idle the work directory holds only
    # what the manifest lists (without the stop file, that task ran on to
    # its end and left its files).  Deal 10242 with 512 MiB: a
    # task is a quarter of a progress value, most of a second.
    from bakersdozen import _parallel, _search
    from bakersdozen.solver import LayersSearch, _engine_args

    own = Cluster(tmp_path, 2)
    work = tmp_path / "w"
    try:
        stopped = LayersSearch(*_engine_args(Deal.pysol(10242)), memory_mb=512, work_dir=work,
                               scheduler=own.address)
        assert stopped.run(max_nodes=30_000_000)[0] == _search.NODE_LIMIT
        assert (work / _parallel.STOP_FILE).exists()
        # (the scheduler forgets a cancelled task at once; its thread on
        # the worker runs on until it looks for the stop file)
        listed = set(json.loads((work / "manifest.json").read_text())["files"])

        def extra() -> set[str]:
            return {n for n in os.listdir(work) if n.endswith(".rec")} - listed

        deadline = time.monotonic() + 30
        while extra() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(4 * _parallel.STOP_LOOK_SECONDS)  # and none comes back
        assert not extra(), f"files of stopped tasks left behind: {sorted(extra())}"
        # a resume removes the stop file and goes on (stopped again, by time)
        again = LayersSearch(*_engine_args(Deal.pysol(10242)), memory_mb=512, work_dir=work,
                             scheduler=own.address, resume=True)
        assert again.run(max_nodes=1)[0] == _search.NODE_LIMIT
    finally:
        own.close()


def test_layered_search_with_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    bad = f"tcp://127.0.0.1:{_free_port()}"
    work = tmp_path / "w"
    failed = run([sys.executable, "-m", "bakersdozen", "solve", "--deal", "16780", "--layers",
                  "--work-dir", str(work), "--scheduler", bad], timeout=120)
    assert failed.returncode == 2
    assert failed.stderr.count("\n") == 1, failed.stderr
    assert failed.stderr.startswith(
        f"bakersdozen solve: error: cannot reach the Dask scheduler at {bad}")
    assert not work.exists()  # nothing made before the cluster answered
