"""Turn survey files into a published table: ``python results/make_table.py SURVEY... OUT.csv.gz``.

Each SURVEY is a survey's JSON Lines file (the append-only log: the latest
record of a deal wins, so a --retry-unknown pass replaces the unknowns it
decided), or an earlier published table (a ``.csv.gz`` of this format),
whose rows the surveys after it replace deal by deal: that is how a table is
extended to more deals.  OUT is a gzip-compressed CSV, one row per deal in
deal order:

    deal,verdict,positions,seconds,length,difficulty

``positions`` is the record's ``nodes`` (positions generated), ``length``
the winning line's moves (empty unless solved), ``difficulty`` the deal's
grade (empty until ``results/difficulty.py publish`` fills it; a row taken
from an earlier table keeps its grade while its verdict stays solved).  The gzip header carries
no name or time, so the same input gives the same bytes.  The published
tables live in the package, ``src/bakersdozen/tables/<preset>.csv.gz``
(``bakersdozen.winnable`` reads them).  Then it prints the lists the README
needs: the unsolvable and unknown deals.
"""

from __future__ import annotations

import csv
import gzip
import io
import sys

from bakersdozen.records import latest
from bakersdozen.survey import read_records

HEADER = "deal,verdict,positions,seconds,length,difficulty"
#: tables made before the difficulty column (read, never written)
UNGRADED = "deal,verdict,positions,seconds,length"


def _rows(path: str) -> dict[int, str]:
    """deal -> its CSV row (without the newline), from a table or a survey file."""
    if path.endswith(".csv.gz"):
        with gzip.open(path, "rt", newline="") as handle:
            reader = csv.reader(handle)
            header = ",".join(next(reader))
            if header not in (HEADER, UNGRADED):
                raise SystemExit(f"{path}: not a published table (header {HEADER!r})")
            pad = [""] if header == UNGRADED else []
            return {int(row[0]): ",".join(row + pad) for row in reader}
    rows = {}
    for deal, r in latest(read_records(path)).items():
        length = "" if r.length is None else str(r.length)
        rows[deal] = f"{deal},{r.verdict.value},{r.nodes},{r.seconds:.6f},{length},"
    return rows


def main(*paths: str) -> None:
    if len(paths) < 2:
        raise SystemExit(__doc__.splitlines()[0])
    *sources, out = paths
    rows: dict[int, str] = {}
    for source in sources:
        for deal, row in _rows(source).items():
            old = rows.get(deal)
            if old is not None and row.endswith(",") and old.split(",")[1] == "solved" \
                    and row.split(",")[1] == "solved":
                row += old.rsplit(",", 1)[1]  # a solved deal solved again keeps its grade
            rows[deal] = row
    deals = sorted(rows)
    if deals != list(range(deals[0], deals[0] + len(deals))):
        raise SystemExit(f"the deals {deals[0]}-{deals[-1]} have gaps: a table has none")
    text = io.StringIO()
    text.write(HEADER + "\n")
    for deal in deals:
        text.write(rows[deal] + "\n")
    with open(out, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9
    ) as handle:
        handle.write(text.getvalue().encode("ascii"))
    for verdict in ("unsolvable", "unknown"):
        listed = [d for d in deals if rows[d].split(",")[1] == verdict]
        print(f"{verdict} ({len(listed)}): {', '.join(map(str, listed))}")


if __name__ == "__main__":
    main(*sys.argv[1:])
