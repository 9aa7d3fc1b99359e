"""What the winning line traced back through the layers costs.

Usage::

    python bench/layers_line.py [--rounds 1] [--memory-mb 1024] [--disk-memory-mb 16]
                                [--work-root DIR]

Runs the layered search on a winnable position of PySol deal 2 of Baker's
Dozen (the position after the first 60 moves of the default search's line:
662,003 positions stored, 2,933,963 generated before the first win) three
ways, each in a fresh interpreter, alternating the order by round: in
memory without the kept stream (``keep_lines = False``: no line, as before
the stream existed), in memory with it, and on disk (its kept files in a
fresh directory under ``--work-root``).  Prints a Markdown row per run: the
seconds of wall clock (the search and the walk back together) and of CPU,
the search's peak bytes, the bytes of the kept stream and those per
position stored, and the moves of the line as traced (before ``solve``
shortens it; every line is replayed by the checker here).  Seconds are
wall-clock on a shared machine: compare only within one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

#: Deal 2 after the first 60 moves of the default search's line (see tests/test_layers.py).
POSITION = ("Foundations: H-A C-8 D-5 S-8\nJH 9H 9D 8D\nTH\n:\n:\n7D\nKH QH JD TD\n"
            "KD QS JS TC 9S 8H\n5H 4H\n:\n7H 6H\nKC QC JC TS 9C\n3H\nKS 2H 6D QD\n")

ONE = """
import json, resource, sys, time
from bakersdozen import Deal, check, _disk, _layers
from bakersdozen.solver import _engine_args, _to_move
text, how, memory_mb, work_dir = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
deal = Deal.from_text(text)
if how == "disk":
    search = _disk.DiskLayers(_engine_args(deal), memory_mb=memory_mb, work_dir=work_dir)
else:
    search = _layers.LayeredSearch(*_engine_args(deal), memory_mb=memory_mb)
    search.keep_lines = how == "memory+line"
start, cpu = time.perf_counter(), time.process_time()
status, raw, nodes, _rounds, stored = search.run()
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
assert not raw or check(deal, [_to_move(m) for m in raw]).won
print(json.dumps({"status": status, "nodes": nodes, "stored": stored, "seconds": seconds,
                  "cpu": cpu, "peak": search.stats["peak_bytes"],
                  "kept": search.stats["kept_bytes"], "line": len(raw)}))
"""


def run(how: str, memory_mb: float, work_root: str | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=work_root) as work_dir:
        out = subprocess.run([sys.executable, "-c", ONE, POSITION, how, str(memory_mb),
                              work_dir], check=True, capture_output=True, text=True).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--memory-mb", type=float, default=1024.0)
    parser.add_argument("--disk-memory-mb", type=float, default=16.0)
    parser.add_argument("--work-root")
    args = parser.parse_args()
    print("| run | stored | generated | s | CPU s | peak MB | kept bytes | bytes/stored | line |")
    print("|---|---|---|---|---|---|---|---|---|")
    ways = ["memory", "memory+line", "disk"]
    for round_ in range(args.rounds):
        for how in ways[round_ % 3:] + ways[:round_ % 3]:
            memory = args.disk_memory_mb if how == "disk" else args.memory_mb
            r = run(how, memory, args.work_root)
            print(f"| {how} | {r['stored']:,} | {r['nodes']:,} | {r['seconds']:.2f} | "
                  f"{r['cpu']:.2f} | {r['peak'] / 1e6:.1f} | {r['kept']:,} | "
                  f"{r['kept'] / r['stored']:.2f} | {r['line']} |", flush=True)


if __name__ == "__main__":
    main()
