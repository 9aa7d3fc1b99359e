"""The disk search without its line record (``line_record=False``): the kept
files a won position's line is traced back through are never written, or
are let go on a resume, and the counts are those of the search with them
(docs/engine.md, "Without the line record")."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, check, solve
from bakersdozen import _disk, _parallel, _search
from bakersdozen.cli import main
from bakersdozen.errors import ArgumentError
from bakersdozen.solver import _engine_args
from test_disk_layers import DEAL_1M, MEMORY_MB, assert_same, in_memory, manifest
from test_layers import midgame, refusing_default_search

#: A kept file's name, of one process (``kNNN.rec``) or of a task (``kNNN.t...``).
KEPT = re.compile(r"k\d{3}\.")


def kept_files(work_dir: Path) -> list[str]:
    return sorted(n for n in os.listdir(work_dir) if KEPT.match(n))


def search_of(deal: Deal, work_dir: Path, jobs: int | None, **options: object) -> object:
    """The disk search of *deal*: in one process (*jobs* None) or in *jobs* tasks."""
    if jobs is None:
        return _disk.DiskLayers(_engine_args(deal), memory_mb=MEMORY_MB, work_dir=work_dir,
                                **options)  # type: ignore[arg-type]
    return _parallel.ParallelLayers(_engine_args(deal), memory_mb=MEMORY_MB,
                                    work_dir=work_dir, jobs=jobs,
                                    **options)  # type: ignore[arg-type]


class WatchFiles:
    """A progress callable that notes the kept files the work directory holds
    whenever the search reports (one process: after each step; tasks: five
    times a second)."""

    def __init__(self, work_dir: Path) -> None:
        self.work_dir = work_dir
        self.seen: set[str] = set()
        self.calls = 0

    def __call__(self, *args: object) -> None:
        self.calls += 1
        self.seen.update(kept_files(self.work_dir))

    def layers(self, *args: object) -> None:
        self(*args)


@pytest.mark.parametrize("jobs", [None, 2])
def test_no_kept_file_is_written_and_the_counts_are_the_same(tmp_path: Path,
                                                             jobs: int | None) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    work = tmp_path / "w"
    search = search_of(deal, work, jobs, line_record=False)
    search.part_bytes = 20000  # type: ignore[attr-defined]
    watch = WatchFiles(work)
    status, raw, nodes, _rounds, stored = search.run(progress=watch)  # type: ignore[attr-defined]
    assert (status, raw) == (_search.UNSOLVABLE, [])
    assert_same(memory, ((status, nodes, stored), search.stats))  # type: ignore[attr-defined]
    assert watch.calls > 0 and watch.seen == set()
    assert manifest(work)["keep"] is False
    # the same search with the record writes kept files (the watch sees them),
    # and its files hold more at their peak
    with_record = search_of(deal, tmp_path / "r", jobs)
    with_record.part_bytes = 20000  # type: ignore[attr-defined]
    watch = WatchFiles(tmp_path / "r")
    again = with_record.run(progress=watch)  # type: ignore[attr-defined]
    assert (again[0], again[2], again[4]) == (status, nodes, stored)
    assert watch.seen
    peak, peak_with = (s.stats["peak_disk"] for s in (search, with_record))  # type: ignore[attr-defined]
    assert 0 < peak < peak_with


@pytest.mark.parametrize("jobs", [None, 1, 2])
def test_a_resume_without_the_record_lets_it_go(tmp_path: Path, jobs: int | None) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    first = search_of(deal, tmp_path, jobs)
    first.part_bytes = 20000  # type: ignore[attr-defined]
    assert first.run(max_nodes=1_000_000)[0] == _search.NODE_LIMIT  # type: ignore[attr-defined]
    kept = kept_files(tmp_path)
    assert kept and all(n in manifest(tmp_path)["files"] for n in kept)  # type: ignore[operator]
    del first
    rest = search_of(deal, tmp_path, jobs, resume=True, line_record=False)
    # the manifest no longer lists them, and the run deletes them before its first step
    state = manifest(tmp_path)
    assert state["keep"] is False
    assert not any(KEPT.match(n) for n in state["files"])  # type: ignore[union-attr]
    watch = WatchFiles(tmp_path)
    status, _raw, nodes, _rounds, stored = rest.run(progress=watch)  # type: ignore[attr-defined]
    assert watch.seen == set() and kept_files(tmp_path) == []
    assert (status, nodes, stored) == memory[0]
    # a run without the record, resumed with the default, stays without
    third = search_of(deal, tmp_path / "x", jobs, line_record=False)
    assert third.run(max_nodes=1_000_000)[0] == _search.NODE_LIMIT  # type: ignore[attr-defined]
    del third
    watch = WatchFiles(tmp_path / "x")
    last = search_of(deal, tmp_path / "x", jobs, resume=True)
    assert last.run(progress=watch)[2] == memory[0][1]  # type: ignore[attr-defined]
    assert watch.seen == set() and manifest(tmp_path / "x")["keep"] is False


@pytest.mark.parametrize("jobs", [None, 2])
def test_a_win_without_the_record_gets_its_line_from_the_default_search(
        tmp_path: Path, jobs: int | None) -> None:
    deal = midgame("24 after 47 moves")
    solution = solve(deal, time_limit=None, method="layers", work_dir=tmp_path / "w",
                     jobs=jobs, line_record=False)
    assert solution.verdict is Verdict.SOLVED and check(deal, solution.moves).won
    assert manifest(tmp_path / "w")["state"] == "solved"
    assert manifest(tmp_path / "w")["line"] == []
    # the layers kept no line: without the default search there is none to give
    with refusing_default_search(), pytest.raises(AssertionError):
        solve(deal, time_limit=None, method="layers", work_dir=tmp_path / "w",
              jobs=jobs, resume=True)
    # with the record the layers' own line comes back, no default search made
    with refusing_default_search():
        own = solve(deal, time_limit=None, method="layers", work_dir=tmp_path / "r", jobs=jobs)
    assert own.verdict is Verdict.SOLVED and check(deal, own.moves).won


def test_a_win_whose_line_the_default_search_cannot_find_in_time_is_unknown(
        tmp_path: Path) -> None:
    deal = midgame("24 after 47 moves")
    first = solve(deal, time_limit=None, max_nodes=None, method="layers", work_dir=tmp_path,
                  line_record=False)
    assert first.verdict is Verdict.SOLVED
    # the win is kept: a resume whose default search may make one move is
    # unknown (a node limit), and one with room gives the line again
    short = solve(deal, max_nodes=1, method="layers", work_dir=tmp_path, resume=True)
    assert (short.verdict, short.reason) == (Verdict.UNKNOWN, "max_nodes")
    # its layer progress says the enumeration reached a won position
    assert short.layer_progress is not None
    most = short.layer_progress[1]
    assert short.layer_progress == (most, most) and most > 0
    again = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True)
    assert again.verdict is Verdict.SOLVED and check(deal, again.moves).won


def test_the_command_line_says_a_win_was_reached_when_no_line_was_found(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.txt"
    board.write_text(midgame("24 after 47 moves").to_text())
    work = str(tmp_path / "w")
    # 79,340 positions take the layers to the win; one more is the default search's
    assert main(["solve", str(board), "--layers", "--work-dir", work, "--no-line-record",
                 "--max-nodes", "79341"]) == 3
    out = capsys.readouterr().out
    assert "verdict: unknown (max_nodes reached)" in out
    assert re.search(r"layer progress: (\d+) of \1: a won position was reached, so the deal "
                     r"is winnable, but no winning line was found", out), out
    assert main(["solve", str(board), "--layers", "--work-dir", work, "--resume"]) == 0
    assert "verdict: solved" in capsys.readouterr().out


@pytest.mark.parametrize("jobs", [None, 2])
def test_a_disk_too_full_for_the_manifest_loses_the_record_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int | None) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    first = search_of(deal, tmp_path, jobs)
    first.part_bytes = 20000  # type: ignore[attr-defined]
    assert first.run(max_nodes=1_000_000)[0] == _search.NODE_LIMIT  # type: ignore[attr-defined]
    del first
    assert kept_files(tmp_path)
    write = _disk.write_manifest
    failed: list[bool] = []

    def full_until_the_record_goes(directory: str, state: dict[str, object]) -> None:
        if kept_files(Path(directory)):  # no room while the kept files are there
            failed.append(True)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(directory, state)

    monkeypatch.setattr(_disk, "write_manifest", full_until_the_record_goes)
    rest = search_of(deal, tmp_path, jobs, resume=True, line_record=False)
    assert failed and kept_files(tmp_path) == [] and manifest(tmp_path)["keep"] is False
    monkeypatch.setattr(_disk, "write_manifest", write)
    assert rest.run()[2] == memory[0][1]  # type: ignore[attr-defined]


def test_kept_files_gone_are_refused_with_the_way_on(tmp_path: Path) -> None:
    deal = Deal.pysol(DEAL_1M)
    assert solve(deal, max_nodes=1_000_000, method="layers", work_dir=tmp_path,
                 memory_mb=2).reason == "max_nodes"
    for name in kept_files(tmp_path):
        os.unlink(tmp_path / name)
    with pytest.raises(ArgumentError, match=r"k\d{3}\.rec is missing or not a file; go on "
                       r"without the line record \(--no-line-record, line_record=False\), "
                       r"or delete the directory"):
        solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True)
    rest = solve(deal, time_limit=None, method="layers", work_dir=tmp_path, resume=True,
                 line_record=False)
    assert rest.verdict is Verdict.UNSOLVABLE
    assert rest.nodes == solve(deal, time_limit=None, method="layers").nodes


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"line_record": False}, ArgumentError, "line_record: only a search with a work_dir"),
    ({"line_record": "no", "work_dir": "w"}, TypeError, "line_record must be a bool"),
    ({"line_record": 0, "work_dir": "w"}, TypeError, "line_record must be a bool"),
])
def test_bad_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error, match=match):
        solve(Deal.pysol(3266), method="layers", **kwargs)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


def test_cli_no_line_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "--deal", "3266", "--layers", "--no-line-record"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakersdozen solve: error: ")
    assert "--no-line-record needs --work-dir DIR" in err and len(err.splitlines()) == 1
    assert os.listdir(tmp_path) == []
    assert main(["solve", "--deal", "3266", "--layers", "--work-dir", "w", "--max-nodes",
                 "10000"]) == 3
    capsys.readouterr()
    assert kept_files(tmp_path / "w")
    assert main(["solve", "--deal", "3266", "--layers", "--work-dir", "w", "--resume",
                 "--no-line-record", "--time-limit", "none"]) == 1
    out = capsys.readouterr().out
    nodes = solve(Deal.pysol(3266), method="layers", time_limit=None).nodes
    assert "verdict: unsolvable" in out and f"nodes: {nodes}" in out
    assert manifest(tmp_path / "w")["keep"] is False
