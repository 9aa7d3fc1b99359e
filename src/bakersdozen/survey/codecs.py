"""Survey files: records as JSON Lines or CSV lines, and back.

JSON Lines: one :meth:`~bakersdozen.Record.to_json` object a line.
CSV: a header row of :data:`~bakersdozen.records.FIELDS`, then one row a
record; an empty field is None, ``moves`` holds the JSON list of move
objects.  Files written by 0.1.0 (no ``game`` column, moves as
``"AC 8>F"`` text) are read as well, and so are the published tables
(``bakersdozen/tables/``, ``TABLE_FIELDS``): their ``positions`` are the records'
``nodes``; they record no game, so a table's game is the preset its file
name starts with (``good_measure.csv.gz``), else Baker's Dozen.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Final

from ..errors import ParseError
from ..records import FIELDS, Record

__all__ = ["FORMATS", "SUFFIX_FORMATS", "output_format", "format_record", "header", "parse"]

#: The formats.
FORMATS: Final = ("jsonl", "csv")
#: Output suffixes and the format each implies.
SUFFIX_FORMATS: Final = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
#: The CSV header of files written by 0.1.0.
CSV_FIELDS_0_1: Final = (
    "deal", "verdict", "reason", "seconds", "nodes", "length",
    "time_limit", "max_nodes", "memory_mb", "seed", "moves",
)
#: The CSV header of the published tables (``results/make_table.py``).
TABLE_FIELDS: Final = ("deal", "verdict", "positions", "seconds", "length")


def _table_game(path: str) -> str:
    """The preset a published table's file name starts with (``good_measure_...``)."""
    from ..rules import BAKERS_DOZEN, PRESETS

    base = os.path.basename(path)
    named = [name for name in PRESETS if base.startswith(name + "_")]
    return max(named, key=len) if named else BAKERS_DOZEN.name


def output_format(path: str, format: str | None = None) -> str:
    """``"jsonl"`` or ``"csv"``: *format* if given, else from *path*'s suffix.

    Raises
    ------
    ParseError
        If neither says which.
    """
    if format is not None:
        if format not in FORMATS:
            raise ParseError(f"unknown output format {format!r}: use jsonl or csv")
        return format
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIX_FORMATS:
        raise ParseError(
            f"{path}: cannot tell the format from the suffix {suffix!r}: "
            "name the file .jsonl or .csv, or pass --format jsonl|csv"
        )
    return SUFFIX_FORMATS[suffix]


def _csv_line(fields: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


def header(format: str) -> str:
    """The first line of a new file: the CSV header row, or ``""`` for JSON Lines."""
    return _csv_line(list(FIELDS)) if format == "csv" else ""


def format_record(record: Record, format: str) -> str:
    """One record as one line (ending in ``\\n``) of JSON Lines or CSV."""
    values = record.to_json()
    if format == "csv":
        cells = []
        for name in FIELDS:
            value = values.get(name)
            if value is None:
                cells.append("")
            elif name == "moves":
                cells.append(json.dumps(value, separators=(",", ":")))
            else:
                cells.append(str(value))
        return _csv_line(cells)
    return json.dumps(values, separators=(",", ":")) + "\n"


def parse(path: str, format: str, data: bytes) -> list[Record]:
    """The records in *data*, complete lines of a survey file named *path*.

    Raises
    ------
    ParseError
        If the data is not UTF-8 or a line is not a record; the message
        names the file and the line.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ParseError(f"{path}: not UTF-8 text: {error}") from None
    records: list[Record] = []
    if format == "csv":
        reader = csv.reader(io.StringIO(text, newline=""))
        names = next(reader, None)
        if names is None:
            return records
        table = tuple(names) == TABLE_FIELDS
        game = _table_game(path) if table else ""
        if tuple(names) not in (FIELDS, CSV_FIELDS_0_1, TABLE_FIELDS):
            if text.lstrip("\ufeff \t\r\n").startswith("{"):
                raise ParseError(f"{path}: a JSON Lines survey, not CSV (--format jsonl)")
            raise ParseError(
                f"{path}: line 1: header {','.join(names)[:200]!r} is not a survey's "
                f"({','.join(FIELDS)!r})"
            )
        for row in reader:
            if not row:
                continue
            if len(row) != len(names):
                raise ParseError(
                    f"{path}: line {reader.line_num}: {len(row)} fields, expected {len(names)}"
                )
            fields = dict(zip(names, row))
            if table:
                fields["nodes"] = fields.pop("positions")
                fields["game"] = game
            try:
                records.append(Record.from_json(fields))
            except ParseError as error:
                raise ParseError(f"{path}: line {reader.line_num}: {error}") from None
        return records
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
            if not isinstance(value, dict):
                raise ParseError(f"not a JSON object: {line[:80]!r}")
            records.append(Record.from_json(value))
        except (ParseError, ValueError) as error:
            raise ParseError(f"{path}: line {number}: {error}") from None
    return records
