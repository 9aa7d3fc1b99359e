"""``bakersdozen report SURVEY --html FILE [--png PREFIX]``: pictures of a survey as one web page.

Reads a survey file (JSON Lines or CSV, plain or gzipped, or a published
table of ``results/``) and writes one self-contained HTML page of its
latest records: the verdicts with the Wilson interval, the search effort's
heavy tail, the winning-line lengths and the unsolvable and unknown deals
(``docs/survey.md``, "Pictures of a survey").  Needs matplotlib (``pip
install 'bakersdozen[report]'``).  ``--png PREFIX`` writes the figures as
PNG files too.  Exit status 0 written, 2 bad input,
matplotlib missing, or a file that cannot be read or written.
"""

from __future__ import annotations

import argparse
import os

from ._common import EXIT_OK, check_writable, error, file_name

HELP = "write a self-contained HTML page of a survey's figures"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "survey", type=file_name, metavar="SURVEY",
        help="a survey file (.jsonl or .csv, or .gz of either; a results/ table too)",
    )
    parser.add_argument("--html", type=file_name, metavar="FILE", help="the page to write")
    parser.add_argument(
        "--png", type=file_name, metavar="PREFIX",
        help="also write each figure as PREFIX-verdicts.png, PREFIX-effort.png, PREFIX-lengths.png",
    )
    parser.add_argument("--format", choices=("jsonl", "csv"),
                        help="the survey's format (default: from the suffix)")
    parser.add_argument("--title", help="the page's heading (default: the survey file's name)")


def run(args: argparse.Namespace) -> int:
    if args.html is None and args.png is None:
        return error("report", "give --html FILE, --png PREFIX or both (see bakersdozen report --help)")
    from ..errors import BakersDozenError
    from ..report import report_figures, report_html, require_matplotlib
    from ..survey.log import read_records

    require_matplotlib()  # before reading a large file
    records = read_records(args.survey, args.format)
    if not records:
        raise BakersDozenError(f"{args.survey}: no records: nothing to draw")
    outputs = [args.html] if args.html else []
    if args.png:
        outputs += [f"{args.png}-{name}.png" for name in FIGURES]
    for path in outputs:  # before drawing
        check_writable(path)
    figures = report_figures(records)
    if args.html:
        page = report_html(records, title=args.title or os.path.basename(args.survey),
                           figures=figures)
        with open(args.html, "w", encoding="utf-8") as handle:
            handle.write(page)
    if args.png:
        for figure in figures:
            with open(f"{args.png}-{figure.name}.png", "wb") as png:
                png.write(figure.png)
    return EXIT_OK


#: The figures, in the order of the page (each ``ReportFigure.name``).
FIGURES = ("verdicts", "effort", "lengths")
