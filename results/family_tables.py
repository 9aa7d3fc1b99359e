"""Winnability of every preset and house rule: run the surveys, then print the table.

    python results/family_tables.py run   DEALS --max-nodes N [--cluster local:2] [--only NAME ...]
    python results/family_tables.py table DEALS [--csv]

``run`` calls ``bakersdozen survey`` once per configuration below, each into
``results/work/<name>.jsonl`` (resumable: run it again to continue; not kept
in git).  ``table`` reads those files and prints a Markdown table: solved,
unsolvable, unknown, the winnability over the decided deals with its 95 %
Wilson score interval (:func:`bakersdozen.stats.wilson_interval`), and the
node budget the records were made with; with ``--csv`` it also writes each
preset's published table, ``src/bakersdozen/tables/<name>.csv.gz``
(``make_table.py``'s format): the survey's records replace the table's rows
deal by deal and extend it to new deals.

The configurations are the presets of :mod:`bakersdozen.rules` and, on top of
Baker's Dozen, each house rule alone, plus the two rule sets that Solvitaire's
published runs used under the names "spanish-patience" and
"castles-of-spain" (see ``results/README.md`` for how they map).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bakersdozen.records import latest
from bakersdozen.rules import PRESETS
from bakersdozen.stats import summarize
from bakersdozen.survey import read_records

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
TABLES = HERE.parent / "src" / "bakersdozen" / "tables"

# name -> (what it is, the survey's rule flags)
CONFIGS: dict[str, tuple[str, list[str]]] = {
    "bakers_dozen": ("Baker's Dozen (PySol 31)", ["--game", "bakers_dozen"]),
    "good_measure": ("Good Measure (PySol 86)", ["--game", "good_measure"]),
    "spanish_patience": ("Spanish Patience (PySol 85)", ["--game", "spanish_patience"]),
    "spanish_patience_ii": ("Spanish Patience II (PySol 664)", ["--game", "spanish_patience_ii"]),
    "portuguese_solitaire": ("Portuguese Solitaire (PySol 308)", ["--game", "portuguese_solitaire"]),
    "castles_in_spain": ("Castles in Spain (PySol 83), all cards face up",
                         ["--game", "castles_in_spain"]),
    "bd_empty_any": ("Baker's Dozen + any card to an empty column",
                     ["--game", "bakers_dozen", "--empty-column", "any_card"]),
    "bd_sequence": ("Baker's Dozen + built sequences move as a unit",
                    ["--game", "bakers_dozen", "--move-unit", "sequence"]),
    "bd_easy": ("Baker's Dozen + both house rules",
                ["--game", "bakers_dozen", "--empty-column", "any_card", "--move-unit", "sequence"]),
    "bd_return": ("Baker's Dozen + foundation return",
                  ["--game", "bakers_dozen", "--foundation-return"]),
    "solvitaire_spanish_patience": (
        "Solvitaire's spanish-patience: Spanish Patience II + foundation return",
        ["--game", "spanish_patience_ii", "--foundation-return"]),
    "solvitaire_castles_of_spain": (
        "Solvitaire's castles-of-spain: Castles in Spain, one card at a time, "
        "+ foundation return",
        ["--game", "castles_in_spain", "--move-unit", "one_card", "--foundation-return"]),
}


def run(deals: str, max_nodes: int, cluster: str | None, only: list[str]) -> None:
    WORK.mkdir(exist_ok=True)
    for name, (_, flags) in CONFIGS.items():
        if only and name not in only:
            continue
        command = ["bakersdozen", "survey", deals, *flags, "--max-nodes", str(max_nodes),
                   "--time-limit", "none", "--output", str(WORK / f"{name}.jsonl")]
        if cluster:
            command += ["--cluster", cluster]
        print("$", " ".join(command), flush=True)
        subprocess.run(command, check=True, stdin=subprocess.DEVNULL)


def table(deals: str, write_csv: bool) -> None:
    print("| rules | deals | solved | unsolvable | unknown | winnability (95 % CI) | budget |")
    print("|---|---:|---:|---:|---:|---|---|")
    for name, (title, _) in CONFIGS.items():
        path = WORK / f"{name}.jsonl"
        if not path.exists():
            continue
        records = latest(read_records(str(path)))
        s = summarize(records.values())
        budgets = sorted({r.max_nodes for r in records.values() if r.max_nodes})
        budget = ", ".join(f"{b / 1e6:g} M" for b in budgets) + " positions"
        if s.winnability is None:
            rate = "—"
        else:
            low, high = s.interval
            rate = f"{100 * s.winnability:.1f} % ({100 * low:.1f}–{100 * high:.1f})"
        print(f"| {title} (`{name}`) | {s.total} | {s.solved} | {s.unsolvable} | "
              f"{s.unknown} | {rate} | {budget} |")
        if write_csv and name in PRESETS:
            sys.path.insert(0, str(HERE))
            from make_table import main as make_csv

            table = TABLES / f"{name}.csv.gz"
            make_csv(*([str(table)] if table.exists() else []), str(path), str(table))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("deals")
    r.add_argument("--max-nodes", type=int, required=True)
    r.add_argument("--cluster")
    r.add_argument("--only", nargs="*", default=[], choices=list(CONFIGS))
    t = sub.add_parser("table")
    t.add_argument("deals")
    t.add_argument("--csv", action="store_true")
    args = parser.parse_args()
    if args.command == "run":
        run(args.deals, args.max_nodes, args.cluster, args.only)
    else:
        table(args.deals, args.csv)


if __name__ == "__main__":
    main()
