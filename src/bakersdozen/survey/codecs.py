"""Survey files: records as JSON Lines or CSV lines, and back.

JSON Lines: one :meth:`~bakersdozen.Record.to_json` object a line.
CSV: a header row of :data:`CSV_FIELDS`, then one row a record; an empty
field is None, ``method`` is always written (``dfs`` too), ``optimal`` is
``true`` or ``false``, ``deadlock`` holds card names separated by spaces,
``resumed_nodes`` is empty for 0, ``layer_progress`` is ``value/most``
(empty for None), ``moves`` the JSON list of move
objects.  Files with the header of earlier versions are read as well:
:data:`CSV_FIELDS_NO_PROGRESS` (no ``layer_progress``: read as None),
:data:`CSV_FIELDS_NO_RESUMED` (no ``resumed_nodes``: read as 0),
:data:`CSV_FIELDS_NO_METHOD` (no ``method``, ``optimal``,
``lower_bound``, ``deadlock``: read as ``dfs``, None, None, ()) and
:data:`CSV_FIELDS_0_1` (0.1.0: no ``game`` column, moves as ``"AC 8>F"``
text), and so are the published tables
(``bakersdozen/tables/``, ``TABLE_FIELDS``): their ``positions`` are the
records' ``nodes``; they record no game, so a table's game is the preset
its file name starts with (``good_measure.csv.gz``), else Baker's Dozen.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import TYPE_CHECKING, Any, Final

from ..errors import ParseError
from ..records import FIELDS, Record

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "FORMATS", "SUFFIX_FORMATS", "CSV_FIELDS", "CSV_FIELDS_NO_PROGRESS", "CSV_FIELDS_NO_RESUMED",
    "CSV_FIELDS_NO_METHOD",
    "CSV_FIELDS_0_1", "WRITABLE_CSV_FIELDS",
    "output_format", "format_record", "header", "csv_columns", "parse",
]

#: The formats.
FORMATS: Final = ("jsonl", "csv")
#: Output suffixes and the format each implies.
SUFFIX_FORMATS: Final = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
#: The CSV columns: every field a reader needs to trust a verdict (which
#: search made it, what it proved) and its counts (what earlier runs did of
#: a resumed search's), ``moves`` last.
CSV_FIELDS: Final = FIELDS[:-1] + (
    "method", "optimal", "lower_bound", "deadlock", "resumed_nodes", "layer_progress", "moves")
#: The CSV header of files written before ``layer_progress`` was a column:
#: records appended to them leave it out (it says how far an undecided
#: layered search got, nothing about a verdict).
CSV_FIELDS_NO_PROGRESS: Final = FIELDS[:-1] + (
    "method", "optimal", "lower_bound", "deadlock", "resumed_nodes", "moves")
#: The CSV header of files written before ``resumed_nodes`` was a column:
#: every record read as a search that started afresh.
CSV_FIELDS_NO_RESUMED: Final = FIELDS[:-1] + (
    "method", "optimal", "lower_bound", "deadlock", "moves")
#: The CSV header of files written before ``method`` (and ``optimal``,
#: ``lower_bound``, ``deadlock``) were columns: read as the default search.
CSV_FIELDS_NO_METHOD: Final = FIELDS
#: The CSV headers new records may be appended under (a survey resumed in
#: a file keeps its columns).
WRITABLE_CSV_FIELDS: Final = (
    CSV_FIELDS, CSV_FIELDS_NO_PROGRESS, CSV_FIELDS_NO_RESUMED, CSV_FIELDS_NO_METHOD)
#: The CSV header of files written by 0.1.0.
CSV_FIELDS_0_1: Final = (
    "deal", "verdict", "reason", "seconds", "nodes", "length",
    "time_limit", "max_nodes", "memory_mb", "seed", "moves",
)
#: The CSV header of the published tables (``results/make_table.py``).
TABLE_FIELDS: Final = ("deal", "verdict", "positions", "seconds", "length", "difficulty")
#: The header of published tables made before they had difficulty grades.
TABLE_FIELDS_UNGRADED: Final = TABLE_FIELDS[:-1]


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
    return _csv_line(list(CSV_FIELDS)) if format == "csv" else ""


def _rows(reader: Any, path: str) -> Iterator[list[str]]:
    """The rows of a ``csv.reader``, its ``csv.Error`` (a field over the module's
    limit of 131072 characters, a NUL) a ParseError naming the line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ParseError(f"{path}: line {reader.line_num}: not CSV: {error}") from None
        yield row


def csv_columns(data: bytes) -> tuple[str, ...] | None:
    """The columns named by the header row of CSV survey *data*; None if it has none."""
    first = data.split(b"\n", 1)[0].decode("utf-8", "replace").lstrip("\ufeff")
    if not first.strip():
        return None
    return tuple(next(csv.reader([first.rstrip("\r")]), []))


def format_record(record: Record, format: str, columns: tuple[str, ...] = CSV_FIELDS) -> str:
    """One record as one line (ending in ``\\n``) of JSON Lines or CSV.

    *columns* are the CSV columns (:data:`CSV_FIELDS`, or those of a file
    written before, :data:`CSV_FIELDS_NO_PROGRESS` (which leave a record's
    ``layer_progress`` out), :data:`CSV_FIELDS_NO_RESUMED`,
    :data:`CSV_FIELDS_NO_METHOD`).

    Raises
    ------
    ParseError
        If *columns* have no ``method`` and the record was made by another
        search than the default ``"dfs"``, or no ``resumed_nodes`` and the
        record's search went on from earlier runs: the file could not say so.
    """
    values = record.to_json()
    if format == "csv":
        if "method" not in columns and record.method != "dfs":
            raise ParseError(
                f"a record of the {record.method!r} search cannot go in a CSV file without a "
                "method column (written by an earlier version): write to a new file"
            )
        if "resumed_nodes" not in columns and record.resumed_nodes:
            raise ParseError(
                "a record of a resumed search cannot go in a CSV file without a "
                "resumed_nodes column (written by an earlier version): write to a new file"
            )
        values["method"] = record.method
        cells = []
        for name in columns:
            value = values.get(name)
            if value is None:
                cells.append("")
            elif name == "moves":
                cells.append(json.dumps(value, separators=(",", ":")))
            elif name == "deadlock":
                cells.append(" ".join(value))  # type: ignore[arg-type]
            elif name == "layer_progress":
                cells.append("/".join(str(part) for part in value))  # type: ignore[attr-defined]
            elif isinstance(value, bool):
                cells.append("true" if value else "false")
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
        rows = _rows(reader, path)
        names = next(rows, None)
        if names is None:
            return records
        table = tuple(names) in (TABLE_FIELDS, TABLE_FIELDS_UNGRADED)
        game = _table_game(path) if table else ""
        if tuple(names) not in (*WRITABLE_CSV_FIELDS, CSV_FIELDS_0_1, TABLE_FIELDS,
                                TABLE_FIELDS_UNGRADED):
            if text.lstrip("\ufeff \t\r\n").startswith("{"):
                raise ParseError(f"{path}: a JSON Lines survey, not CSV (--format jsonl)")
            raise ParseError(
                f"{path}: line 1: header {','.join(names)[:200]!r} is not a survey's "
                f"({','.join(CSV_FIELDS)!r})"
            )
        for row in rows:
            if not row:
                continue
            if len(row) != len(names):
                raise ParseError(
                    f"{path}: line {reader.line_num}: {len(row)} fields, expected {len(names)}"
                )
            cells: dict[str, object] = dict(zip(names, row))
            if table:
                cells["nodes"] = cells.pop("positions")
                cells["game"] = game
                cells.pop("difficulty", None)  # a grade, not part of a survey record
            if cells.get("deadlock"):  # card names separated by spaces
                cells["deadlock"] = str(cells["deadlock"]).split()
            try:
                records.append(Record.from_json(cells))
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
        except RecursionError:  # json.loads on deep nesting
            raise ParseError(f"{path}: line {number}: JSON nested too deeply to be a record") \
                from None
    return records
