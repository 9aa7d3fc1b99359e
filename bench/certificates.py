"""Write and verify a certificate for each unsolvable PySol deal of a range.

    python bench/certificates.py OUTDIR DEAL [DEAL ...] [--game NAME] [--max-positions N]

For each deal: the positions of the certificate (and the dead ones left
out), its size, the seconds to write it and to verify it, one JSON line
per deal on standard output, with wall-clock and CPU seconds (the
process runs on one core; on a loaded machine the CPU seconds are what
one idle core would take).  A deal whose certificate would exceed --max-positions is
reported as stopped.  The figures of docs/certificates.md come from here.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

from bakersdozen import Deal, verify_certificate
from bakersdozen.certificate import write_certificate
from bakersdozen.verify import CertificateError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("deals", nargs="+", type=int)
    parser.add_argument("--game", default="bakers_dozen")
    parser.add_argument("--max-positions", type=int, default=None)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for number in args.deals:
        deal = Deal.pysol(number, game=args.game)
        path = os.path.join(args.outdir, f"{args.game}-{number}.cert")
        row: dict[str, object] = {"deal": number, "game": args.game}
        began = time.perf_counter()
        cpu = time.process_time()
        try:
            stats = write_certificate(deal, path, max_positions=args.max_positions)
        except CertificateError as error:
            row.update(stopped=str(error), seconds=round(time.perf_counter() - began, 2),
                       cpu_s=round(time.process_time() - cpu, 2),
                       peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                         / 1024))
            print(json.dumps(row), flush=True)
            continue
        write_cpu = time.process_time() - cpu
        cpu = time.process_time()
        report = verify_certificate(deal, path)
        verify_cpu = time.process_time() - cpu
        row.update(
            positions=stats.positions, dead=stats.dead, layers=stats.layers, bytes=stats.bytes,
            write_s=round(stats.seconds, 3), verify_s=round(report.seconds, 3),
            write_cpu_s=round(write_cpu, 3), verify_cpu_s=round(verify_cpu, 3),
            valid=report.valid, error=report.error,
            peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        )
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    sys.exit(main())
