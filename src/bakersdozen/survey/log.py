"""The survey file as an append-only log: read, repair, lock, append, resume.

Each record is written as one complete line with a single ``write`` and
flushed at once, so a killed run loses at most the deals it was still
solving; the file is also ``fsync``-ed at least once a second and at the
end.  Opening a file to append to it truncates a torn last line (a record
cut short by a kill) and reads the records already there.  The latest
record of a deal wins (:func:`bakersdozen.records.latest`).

A survey holds a lock on ``FILE.lock`` (the ``filelock`` package: ``flock``
on POSIX, ``msvcrt`` locking on Windows) while it appends to ``FILE``, so
two surveys never interleave their lines.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Final

from ..errors import ParseError
from ..records import DealId, Record
from ..solution import Verdict
from .codecs import (
    CSV_FIELDS, WRITABLE_CSV_FIELDS, csv_columns, format_record, header, output_format, parse,
)
from .tasks import Task

__all__ = ["read_records", "RecordWriter", "pending", "FSYNC_INTERVAL"]

#: Seconds between two ``fsync`` calls on the output file.
FSYNC_INTERVAL: Final = 1.0


def read_records(path: str, format: str | None = None) -> list[Record]:
    """Read a survey file, every record in file order (a torn last line is ignored).

    Parameters
    ----------
    path : str
        A JSON Lines or CSV file written by the ``survey`` command (0.1.0 or
        later), or a published table of ``results/`` (CSV with the columns
        ``deal,verdict,positions,seconds,length``), either plain or
        compressed with gzip (``FILE.csv.gz``, ``FILE.jsonl.gz``; a gzip
        file is known by its first bytes, whatever its name).
    format : str or None
        ``"jsonl"`` or ``"csv"``; None to go by the suffix (the one before
        ``.gz``).

    Raises
    ------
    ParseError
        If the file cannot be read or decompressed, or a complete line is not
        a record.
    """
    fmt = output_format(path[:-3] if path.lower().endswith(".gz") else path, format)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ParseError(f"{path}: cannot read: {error.strerror or error}") from None
    if data[:2] == _GZIP_MAGIC:
        import gzip
        import zlib

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise ParseError(f"{path}: not a complete gzip file: {error}") from None
    return parse(path, fmt, data[: data.rfind(b"\n") + 1])


#: The first two bytes of a gzip file (RFC 1952, section 2.3.1).
_GZIP_MAGIC: Final = b"\x1f\x8b"


class RecordWriter:
    """Append records to a survey file, safely across kills (module documentation).

    Attributes
    ----------
    existing : list of Record
        The records the file held when opened, in file order.
    repaired : int
        Bytes of a torn last line removed when opening (0 if none).
    columns : tuple of str
        The CSV columns new rows are written in: those of the file's
        header (:data:`~bakersdozen.survey.codecs.CSV_FIELDS`;
        :data:`~bakersdozen.survey.codecs.CSV_FIELDS_NO_PROGRESS` for a file
        written before ``layer_progress`` was a column, whose new rows
        leave it out;
        :data:`~bakersdozen.survey.codecs.CSV_FIELDS_NO_RESUMED` for a file
        written before ``resumed_nodes`` was a column, which then takes
        records of searches started afresh only;
        :data:`~bakersdozen.survey.codecs.CSV_FIELDS_NO_METHOD` for a file
        written before ``method`` was a column, which then takes records
        of the default search only).

    Raises
    ------
    ParseError
        If the file cannot be opened (its directory is not made if it does
        not exist), is locked by another survey, a
        complete line is not a record, or it is a CSV file of 0.1.0 (its
        columns differ: write new records to a new file).
    """

    def __init__(self, path: str, format: str) -> None:
        from filelock import FileLock, Timeout

        self.path = path
        self.format = format
        self.repaired = 0
        # filelock makes the lock file's missing directories: a typo such as
        # resluts/s.jsonl would quietly make a new directory
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            reason = "is not a directory" if os.path.exists(parent) else "does not exist"
            raise ParseError(f"{path}: cannot write there: {parent} {reason}")
        self._lock = FileLock(path + ".lock", timeout=0)
        try:
            self._lock.acquire()
        except Timeout:
            # filelock also times out when it cannot make the lock file at all
            try:
                open(path + ".lock", "a").close()
            except OSError as error:
                raise ParseError(f"{path}: cannot write there ({path}.lock): "
                                 f"{error.strerror or error}") from None
            raise ParseError(f"{path}: another survey is writing to this file") from None
        except OSError as error:
            raise ParseError(f"{path}: cannot lock ({path}.lock): {error}") from None
        try:
            self._file: IO[bytes] = open(path, "a+b")
        except OSError as error:
            self._lock.release()
            raise ParseError(f"{path}: cannot open for appending: {error.strerror}") from None
        try:
            self._file.seek(0)
            data = self._file.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                self.repaired = len(data) - end
                self._file.truncate(end)
                self._file.flush()
                os.fsync(self._file.fileno())
            self.existing = parse(path, format, data[:end])
            self.columns: tuple[str, ...] = CSV_FIELDS
            if format == "csv" and end:
                self.columns = csv_columns(data) or CSV_FIELDS
            if format == "csv" and self.columns not in WRITABLE_CSV_FIELDS:
                raise ParseError(
                    f"{path}: a CSV survey of bakersdozen 0.1.0 (other columns): it can be "
                    "read and summarised, but write new records to a new file"
                )
            if end == 0 and header(format):
                self._write_line(header(format))
        except BaseException:
            self._file.close()
            self._lock.release()
            raise
        self._synced = time.monotonic()

    def _write_line(self, line: str) -> None:
        self._file.write(line.encode("utf-8"))
        self._file.flush()
        now = time.monotonic()
        if now - getattr(self, "_synced", 0.0) >= FSYNC_INTERVAL:
            os.fsync(self._file.fileno())
            self._synced = now

    def write(self, record: Record) -> None:
        """Append one record as one line."""
        self._write_line(format_record(record, self.format, self.columns))

    def close(self) -> None:
        """Flush, ``fsync`` and close the file; release the lock."""
        if not self._file.closed:
            try:
                self._file.flush()
                os.fsync(self._file.fileno())
            finally:
                self._file.close()
                self._lock.release()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pending(
    tasks: Iterable[Task], existing: Mapping[DealId, Record], retry_unknown: bool = False
) -> Iterator[Task]:
    """The tasks still to run, lazily: those without a record, or (retry) whose latest is unknown.

    Parameters
    ----------
    tasks : iterable of (id, deal)
        In the order to run.
    existing : mapping
        Deal id to its latest record (:func:`bakersdozen.records.latest`).
    retry_unknown : bool
        Run only the deals whose latest record is UNKNOWN.
    """
    for task in tasks:
        record = existing.get(task[0])
        if retry_unknown:
            if record is not None and record.verdict is Verdict.UNKNOWN:
                yield task
        elif record is None:
            yield task
