"""A layer too large for one task's memory, expanded in shards (the disk
search in parallel tasks, docs/engine.md "A layer in shards",
:meth:`bakersdozen._parallel.ParallelLayers._shard_layer`).

The deals here are small, so their layers are made "too large" by
``layer_positions`` (a task stops as out of memory once one of its layers
holds that many positions); the counts are checked against the search in
memory, itself checked against an independent enumeration in
tests/test_layers.py.  A layer too large for real memory: deal 47201 in
``bench/disk_layers.py`` (figures in docs/engine.md).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, check
from bakersdozen import _disk, _layers, _parallel, _search, task_log
from bakersdozen.solver import _engine_args, _to_move
from brute import brute_force_solvable
from test_disk_layers import (
    DEAL_1M, assert_same, child_code, in_memory, kill_when, manifest,
)
from test_layers import reduced_portuguese
from test_solver import reduced_deal


def sharded(deal: Deal, work_dir: Path, jobs: int, layer_positions: int,
            memory_mb: float = 8, resume: bool = False,
            **limits: float) -> tuple[tuple[int, int, int], dict[str, int]]:
    """The parallel disk search of *deal* whose tasks hold at most
    *layer_positions* positions a layer: (status, nodes, stored) and its stats."""
    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=memory_mb,
                                      work_dir=work_dir, jobs=jobs, resume=resume)
    search.layer_positions = layer_positions
    status, raw, nodes, _rounds, stored = search.run(**limits)  # type: ignore[arg-type]
    if status == _search.SOLVED:
        assert raw and check(deal, [_to_move(m) for m in raw]).won
    return (status, nodes, stored), search.stats


@pytest.fixture
def kinds(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The tasks run, by kind (a split by record counts as ``"split by record"``)."""
    seen: Counter[str] = Counter()
    real = _parallel.run_task

    def counted(task: dict[str, Any], control: Any = None) -> dict[str, Any]:
        seen[task["kind"] + (" by record" if task.get("by_record") else "")] += 1
        return real(task, control)

    monkeypatch.setattr(_parallel, "run_task", counted)
    return seen


# -- the counts of the search in memory ------------------------------------------------

@pytest.mark.parametrize(("jobs", "most"), [(2, 3000), (1, 2000)])
def test_deal_1m_in_shards_gives_the_counts_in_memory(tmp_path: Path, kinds: Counter[str],
                                                      jobs: int, most: int) -> None:
    # deal 29393's largest layer holds 10,368 positions: with at most 3,000
    # (2,000) a task, its large layers are cut into shards, and the shards
    # of some are doubled when one outgrows its task
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    par = sharded(deal, tmp_path, jobs, most)
    assert memory[0] == (_search.UNSOLVABLE, 3001011, 1189745)
    assert_same(memory, par)  # and the layers counted once, the largest whole
    assert kinds["shard"] > 0 and kinds["split by record"] > 0
    assert par[1]["redone"] > 0  # a task out of memory, its work done again
    assert set(os.listdir(tmp_path)) == {_disk.MANIFEST, task_log.TASK_LOG}
    # the task log has each task: those done count every position, and
    # those out of memory are the tasks done again
    log = task_log.read_log(tmp_path)
    shards = [e for e in log if e["kind"] == "shard"]
    assert shards and all(e["shards"] > e["shard"] >= 0 and "job" in e for e in shards)
    assert sum(e["nodes"] for e in log if e["status"] == "done") == par[0][1]
    assert sum(e["status"] == "memory_mb" for e in log) == par[1]["redone"]
    assert {e["status"] for e in log} == {"done", "memory_mb"}
    assert manifest(tmp_path)["state"] == "unsolvable"
    assert manifest(tmp_path)["shards"] == {}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 5), ncols=st.integers(2, 7),
       home=st.integers(0, 2), most=st.sampled_from([10, 40]), jobs=st.integers(1, 3),
       portuguese=st.booleans())
def test_reduced_packs_in_shards_agree_with_the_search_in_memory(
        tmp_path_factory: pytest.TempPathFactory, seed: int, ranks: int, ncols: int,
        home: int, most: int, jobs: int, portuguese: bool) -> None:
    deal = (reduced_portuguese if portuguese else reduced_deal)(random.Random(seed), ranks,
                                                                ncols, home)
    memory = in_memory(deal)
    # a winnable pack's layers can be wide (thousands of positions): a
    # quarter of the largest at least, so that its few largest layers are
    # cut into a few shards, not every layer into many (minutes of tasks)
    most = max(most, memory[1]["largest"] // 4)
    par = sharded(deal, tmp_path_factory.mktemp("shards"), jobs, most)
    if brute_force_solvable(deal):
        assert memory[0][0] == par[0][0] == _search.SOLVED
    else:
        assert_same(memory, par)
        assert par[0] == memory[0]


def test_a_layer_whose_shards_cannot_grow_stops_with_memory_mb(tmp_path: Path) -> None:
    # one position a layer: no number of shards holds a layer of two
    deal = Deal.pysol(16780)
    memory = in_memory(deal)
    stopped = sharded(deal, tmp_path, 2, 1)
    assert stopped[0][0] == _search.OUT_OF_MEMORY
    state = manifest(tmp_path)
    assert state["state"] == "running" and state["shards"]
    # it stopped only once a job had the most shards a task has buffers
    # for (4 MiB a task: a sixth of it in buffers of 1 KiB and a 40-byte
    # header, 657, reached by doubling to 512 and then growing to the most,
    # not by stopping short of it at 512)
    most = _parallel.ParallelLayers(_engine_args(deal), memory_mb=8, work_dir=tmp_path / "x",
                                    jobs=2)._most_parts()
    assert most == 4 * 2**20 // 6 // (1024 + 40) == 657
    assert max(job["shards"] for job in state["shards"].values()) == most
    # a resume whose tasks hold the layer goes on from the shards as they were
    assert_same(memory, sharded(deal, tmp_path, 2, 0, resume=True))
    assert manifest(tmp_path)["shards"] == {}


# -- stopped, killed, resumed ----------------------------------------------------------

_CHILD = child_code(memory_mb=8, setting="layer_positions = 3000", jobs=2)


def in_rounds(state: dict[str, Any]) -> bool:
    """Whether a manifest shows a layer in shards past its first round."""
    return any(job["round"] >= 2 for job in state["shards"].values())


def test_killed_in_the_rounds_of_shards_then_resumed(tmp_path: Path) -> None:
    # the driver SIGKILLed twice, in the middle of a layer's rounds in
    # shards: the tasks not committed run again, nothing is counted twice
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    kill_when(tmp_path, 300_000, _CHILD, timeout=180, also=in_rounds)
    kill_when(tmp_path, 1_500_000, _CHILD, timeout=180, also=in_rounds)
    assert_same(memory, sharded(deal, tmp_path, 2, 3000, resume=True))


def test_node_limit_in_shards_then_resume_with_other_jobs(tmp_path: Path) -> None:
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    first = sharded(deal, tmp_path, 2, 6000, max_nodes=1_000_000)
    assert first[0][0] == _search.NODE_LIMIT
    assert manifest(tmp_path)["state"] == "running"
    assert_same(memory, sharded(deal, tmp_path, 3, 6000, resume=True))


def test_a_run_from_before_the_shards_goes_on(tmp_path: Path) -> None:
    # a manifest of version 3 (no shards), stopped with a part left to
    # expand whole (as that version did when a layer outgrew a task): the
    # part is split again, and the run ends with the counts in memory
    deal = Deal.pysol(DEAL_1M)
    memory = in_memory(deal)
    search = _parallel.ParallelLayers(_engine_args(deal), memory_mb=8, work_dir=tmp_path,
                                      jobs=2)
    search.part_bytes = 16384
    assert search.run(max_nodes=1_200_000)[0] == _search.NODE_LIMIT
    del search
    path = tmp_path / _disk.MANIFEST
    old = json.loads(path.read_text())
    assert old["shards"] == {} and old["todo"]
    expand = [t for t in old["todo"] if t["kind"] == "expand"]
    assert expand
    expand[0].update(whole=True, depth=1)
    del old["shards"]
    old["version"] = 3
    old["checksum"] = _disk._checksum(old)
    path.write_text(json.dumps(old))
    assert_same(memory, sharded(deal, tmp_path, 2, 0, resume=True))
    assert manifest(tmp_path)["version"] == _parallel.VERSION


# -- the engine's shard task -----------------------------------------------------------

def _root_file(tmp_path: Path, search: _layers.LayeredSearch) -> Path:
    root = tmp_path / "root.rec"
    root.write_bytes(search.root_record())
    return root


def test_a_shard_refuses_a_record_it_does_not_own(tmp_path: Path) -> None:
    # the root position belongs to one shard of two: the other calls it damaged
    args = _engine_args(Deal.pysol(16780))
    statuses = []
    for shard in (0, 1):
        work = tmp_path / str(shard)
        work.mkdir()
        search = _layers.LayeredSearch(*args, memory_mb=8)
        search.spill_to([os.fsencode(work / f"p{q:03d}.rec")
                         for q in range(_layers.PROGRESS_VALUES)])
        search.begin()
        statuses.append(search.expand_shard(
            [], [os.fsencode(_root_file(work, search))], 0, shard, 2, 12345,
            [os.fsencode(work / "out0"), os.fsencode(work / "out1")],
            os.fsencode(work / "seen")))
        search.end()
    assert sorted(statuses) == [-1, _layers.DAMAGED]
    done = statuses.index(-1)
    # the shard that owns it wrote it as expanded
    assert (tmp_path / str(done) / "seen").stat().st_size > 0


def test_expand_shard_checks_its_arguments(tmp_path: Path) -> None:
    search = _layers.LayeredSearch(*_engine_args(Deal.pysol(16780)), memory_mb=8)
    out = [os.fsencode(tmp_path / "a"), os.fsencode(tmp_path / "b")]
    with pytest.raises(RuntimeError, match="spill_to"):
        search.expand_shard([], [], 0, 0, 2, 0, out, b"seen")
    search.spill_to([os.fsencode(tmp_path / f"p{q:03d}.rec")
                     for q in range(_layers.PROGRESS_VALUES)])
    with pytest.raises(ValueError, match="shard 2 of 2"):
        search.expand_shard([], [], 0, 2, 2, 0, out, b"seen")
    with pytest.raises(ValueError, match="shard 0 of 3 with 2 out_paths"):
        search.expand_shard([], [], 0, 0, 3, 0, out, b"seen")
    with pytest.raises(ValueError, match="bytes"):
        search.expand_shard(["x"], [], 0, 0, 2, 0, out, b"seen")
    held = search.memory()[1]
    with pytest.raises(TypeError, match="seen_path"):
        search.expand_shard([], [], 0, 0, 2, 0, out, None)  # type: ignore[arg-type]
    assert search.memory()[1] == held  # refused before any buffer is taken


def test_buffers_that_do_not_fit_the_budget_are_out_of_memory_and_give_it_back(
        tmp_path: Path) -> None:
    # 4,096 shards' buffers of 1 KiB each do not fit 1 MiB: the split and
    # the shard task stop as out of memory, open no file, and hold no more
    # bytes than before (a task that runs next has its whole budget)
    search = _layers.LayeredSearch(*_engine_args(Deal.pysol(16780)), memory_mb=1)
    search.spill_to([os.fsencode(tmp_path / f"p{q:03d}.rec")
                     for q in range(_layers.PROGRESS_VALUES)])
    held = search.memory()[1]
    outs = [os.fsencode(tmp_path / f"b{i:04d}.rec") for i in range(4096)]
    assert search.expand_shard([], [], 0, 0, len(outs), 0, outs,
                               os.fsencode(tmp_path / "seen.rec")) == _search.OUT_OF_MEMORY
    assert search.memory()[1] == held
    assert search.split_files([], outs, 0, by_record=True) == _search.OUT_OF_MEMORY
    assert search.memory()[1] == held
    # with 2 shards they fit: the round runs (nothing to expand) and gives its bytes back
    assert search.expand_shard([], [], 0, 0, 2, 0, outs[:2],
                               os.fsencode(tmp_path / "seen.rec")) == -1
    assert search.memory()[1] == held
    # so do the most the drivers ask for (164 in 1 MiB)
    most = _layers.most_parts(2**20)
    assert most == 164
    assert search.split_files([], outs[:most], 0, by_record=True) == -1
    assert search.expand_shard([], [], 0, 0, most, 0, outs[:most],
                               os.fsencode(tmp_path / "seen.rec")) == -1
    assert search.memory()[1] == held
    assert os.listdir(tmp_path) == []


# -- what the command line says on a stop for memory ----------------------------------

@pytest.mark.parametrize(("argv", "says"), [
    # deal 10242's layers pass 9 MiB in memory (0.7 s)
    (["10242", "--memory-mb", "9"], "--work-dir DIR keeps those not being expanded on disk"),
    # deal 47201's layers on disk in one process: a layer passes 1 MiB (3.5 s)
    (["47201", "--memory-mb", "1", "--work-dir", "{work}"],
     "--jobs 1 (or more) cuts such a layer into shards, in a new --work-dir"),
])
def test_a_stop_for_memory_says_what_to_do_next(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    from bakersdozen.cli import main

    argv = [arg.format(work=tmp_path / "w") for arg in argv]
    assert main(["solve", "--deal", *argv, "--layers", "--time-limit", "none"]) == 3
    captured = capsys.readouterr()
    assert "verdict: unknown (memory_mb reached)" in captured.out
    assert says in captured.err


def test_a_stop_for_memory_in_tasks_says_to_resume_with_more() -> None:
    from argparse import Namespace

    from bakersdozen.cli.solve import memory_note

    for jobs, scheduler in ((2, None), (None, "tcp://127.0.0.1:8786")):
        text = memory_note(Namespace(work_dir="w", jobs=jobs, scheduler=scheduler))
        assert "--resume with a larger --memory-mb" in text


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
