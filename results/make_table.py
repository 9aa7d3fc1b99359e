"""Turn a survey file into the published table: ``python results/make_table.py SURVEY OUT.csv.gz``.

SURVEY is a survey's JSON Lines file (the append-only log: the latest
record of a deal wins, so a --retry-unknown pass replaces the unknowns it
decided).  OUT is a gzip-compressed CSV, one row per deal in deal order:

    deal,verdict,positions,seconds,length

``positions`` is the record's ``nodes`` (positions generated), ``length``
the winning line's moves (empty unless solved).  The gzip header carries
no name or time, so the same survey gives the same bytes.  Then it prints
the lists the README needs: the unsolvable and unknown deals.
"""

from __future__ import annotations

import gzip
import io
import sys

from bakersdozen.records import latest
from bakersdozen.survey import read_records


def main(survey: str, out: str) -> None:
    records = latest(read_records(survey))
    text = io.StringIO()
    text.write("deal,verdict,positions,seconds,length\n")
    for deal in sorted(records):
        r = records[deal]
        length = "" if r.length is None else str(r.length)
        text.write(f"{deal},{r.verdict.value},{r.nodes},{r.seconds:.6f},{length}\n")
    with open(out, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9
    ) as handle:
        handle.write(text.getvalue().encode("ascii"))
    for verdict in ("unsolvable", "unknown"):
        deals = [d for d in sorted(records) if records[d].verdict.value == verdict]
        print(f"{verdict} ({len(deals)}): {', '.join(map(str, deals))}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
