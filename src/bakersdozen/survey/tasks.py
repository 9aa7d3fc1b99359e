"""Survey tasks: deal ranges (streamed), boards files, and what one task is.

A task is a pair ``(deal id, deal)``: a PySol deal number with itself as
its id, or a :class:`~bakersdozen.Deal` with its board id (the hash of its
canonical text, :func:`bakersdozen.records.board_id`).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from collections.abc import Iterator
from typing import Final, Union

from .._files import BOARDS_FILE_LIMIT, read_text
from ..deals import MAX_DEAL, DealNumberError
from ..errors import ArgumentError, ParseError
from ..model import Deal
from ..rules import BAKERS_DOZEN, Rules
from ..records import DealId, board_id
from ..solution import DEFAULT_MEMORY_MB
from ..solver import MAX_DISK_MB

__all__ = [
    "Task",
    "DealSpec",
    "DealRange",
    "parse_deal_range",
    "split_boards",
    "read_boards",
    "normalise",
    "SURVEY_METHODS",
    "work_dir_name",
    "make_work_dir",
    "MAX_WORK_DIR_NAME",
]

#: One task: the deal id and the deal (a PySol number or a position).
Task = tuple[DealId, Union[int, Deal]]
#: What :func:`bakersdozen.survey.runner.survey` accepts for one deal.
DealSpec = Union[int, Deal, tuple[Union[str, int], Union[int, Deal]]]

_ITEM: Final = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")
_MAX_DIGITS: Final = len(str(MAX_DEAL))
_EXAMPLE: Final = "write deal numbers and ranges like '1-5,9,20-22'"


def _number(digits: str, where: str, item: str) -> int:
    significant = digits.lstrip("0")
    if len(significant) > _MAX_DIGITS or not 1 <= int(significant or "0") <= MAX_DEAL:
        shown = digits if len(digits) <= 24 else f"{digits[:12]}...({len(digits)} digits)"
        raise ParseError(
            f"{where}: {item if len(item) <= 48 else item[:24] + '...'!r}: deal {shown} is out "
            "of range (PySol deal numbers run from 1 to 2**64 - 1)"
        )
    return int(significant)


def _subtract(
    first: int, last: int, taken: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The parts of ``first..last`` not in any interval of *taken*, in order."""
    pieces = [(first, last)]
    for low, high in taken:
        next_pieces: list[tuple[int, int]] = []
        for a, b in pieces:
            if high < a or low > b:
                next_pieces.append((a, b))
                continue
            if a < low:
                next_pieces.append((a, low - 1))
            if high < b:
                next_pieces.append((high + 1, b))
        pieces = next_pieces
    return pieces


class DealRange:
    """PySol deal numbers written as ranges and lists, e.g. ``"1-5,9,20-22"``.

    The whole text is checked when the object is made; the numbers are
    produced one at a time when iterated (``1-10000000`` holds two numbers,
    not ten million), in the order written, each once (a repeat is dropped).

    Parameters
    ----------
    text : str
        Comma-separated items, each a deal number ``N`` or an inclusive
        range ``A-B`` with ``A <= B``; spaces around items are allowed.
        Deal numbers run from 1 to ``2**64 - 1``.

    Raises
    ------
    ParseError
        For empty text or an empty item, an item that is not ``N`` or
        ``A-B`` (``"a-3"``, ``"1--3"``), a reversed range (``"5-1"``) or a
        number outside ``1..2**64-1`` (``"0"``, a 5000-digit number).  The
        message quotes the bad item.
    """

    __slots__ = ("text", "intervals")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise ParseError(f"a deal range must be a str, not {type(text).__name__}")
        shown = text if len(text) <= 60 else text[:60] + "..."
        if not text.strip():
            raise ParseError(f"empty deal range {text!r}: {_EXAMPLE}")
        taken: list[tuple[int, int]] = []
        for index, raw in enumerate(text.split(","), 1):
            item = raw.strip()
            where = f"deal range {shown!r}, item {index}"
            if not item:
                raise ParseError(f"{where} is empty: {_EXAMPLE}")
            match = _ITEM.fullmatch(item)
            if match is None:
                quoted = item if len(item) <= 48 else item[:24] + "..."
                if re.fullmatch(r"-\s*\d+", item):  # "-5": a number, below the least
                    raise ParseError(f"{where}: {quoted!r}: a deal number must be at least 1")
                raise ParseError(
                    f"{where}: {quoted!r} is not a deal number N or a range A-B; {_EXAMPLE}"
                )
            first = _number(match.group(1), where, item)
            last = first if match.group(2) is None else _number(match.group(2), where, item)
            if first > last:
                raise ParseError(
                    f"{where}: {item!r} is a reversed range ({first} > {last}); "
                    f"write '{last}-{first}'"
                )
            taken.extend(_subtract(first, last, taken))
        self.text = text
        #: Disjoint inclusive intervals, in the order the deals are produced.
        self.intervals: tuple[tuple[int, int], ...] = tuple(taken)

    def __iter__(self) -> Iterator[int]:
        for first, last in self.intervals:
            yield from range(first, last + 1)

    @property
    def count(self) -> int:
        """How many deals (may exceed ``sys.maxsize``, hence not ``len``)."""
        return sum(last - first + 1 for first, last in self.intervals)

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and any(a <= number <= b for a, b in self.intervals)

    def __repr__(self) -> str:
        return f"DealRange({self.text!r})"


def parse_deal_range(text: str) -> list[int]:
    """The deals of ``DealRange(text)`` as a list (for short ranges; see :class:`.DealRange`).

    Raises
    ------
    ParseError
        As :class:`~bakersdozen.survey.tasks.DealRange`.
    """
    return list(DealRange(text))


_HEADER_LINE: Final = re.compile(r"(foundations?|founds?|decks|freecells?)\s*:", re.IGNORECASE)
_COLUMNS: Final = 13


def split_boards(text: str, columns: int = _COLUMNS) -> list[tuple[int, str]]:
    """Split the text of a boards file into boards.

    The separator is either a line ``---`` or blank lines:

    - If any line is ``---`` (spaces around it allowed), boards are
      separated by those lines only, and a board's blank lines mean what
      they mean in board text.
    - Otherwise each board is exactly *columns* column lines (13 for Baker's
      Dozen; an empty column is a
      blank line or a lone ``:``), optionally with ``Foundations:`` lines
      among them, and one or more blank lines separate one board from the
      next.  A blank line *inside* a board's lines is an empty column,
      which is why a board must not stop short of its lines: use ``---`` for
      such files.

    Returns
    -------
    list of (int, str)
        Each board's first line number (1-based) and its text.

    Raises
    ------
    ParseError
        If a board has more than *columns* column lines before a separator.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    boards: list[tuple[int, str]] = []
    if any(line.strip() == "---" for line in lines):
        start = 0
        for number, line in enumerate(lines + ["---"]):
            if line.strip() == "---":
                chunk = lines[start:number]
                if any(row.strip() for row in chunk):
                    first = start + next(i for i, row in enumerate(chunk) if row.strip())
                    boards.append((first + 1, "\n".join(chunk) + "\n"))
                start = number + 1
        return boards
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        seen = 0
        while i < len(lines) and seen < columns:
            if not _HEADER_LINE.match(lines[i].strip()):
                seen += 1
            i += 1
        while i < len(lines) and _HEADER_LINE.match(lines[i].strip()):
            i += 1
        if i < len(lines) and lines[i].strip():
            raise ParseError(
                f"line {i + 1}: board {len(boards) + 1} (from line {start + 1}) has more "
                f"than {columns} column lines: separate boards by a blank line or a line '---'"
            )
        boards.append((start + 1, "\n".join(lines[start:i]) + "\n"))
    return boards


def read_boards(path: str, rules: Rules = BAKERS_DOZEN) -> list[tuple[str, Deal]]:
    """Read a file of boards (:func:`split_boards`) into ``(board id, Deal)`` pairs.

    Parameters
    ----------
    path : str
        The file (UTF-8, at most 256 MiB), ``-`` for standard input.
    rules : Rules
        The game the boards are positions of (its column count separates
        boards written without ``---``).

    Returns
    -------
    list of (str, Deal)
        In file order, each board once: the id is the hash of the board's
        canonical text (:func:`bakersdozen.records.board_id`), so a board
        keeps its id wherever it stands in the file and however the file is
        named, and a repeated board is surveyed once.

    Raises
    ------
    ParseError
        If the file cannot be read, holds no board, or a board cannot be
        parsed; the message names the file, the board and its first line.
    """
    text = read_text(path, BOARDS_FILE_LIMIT, "a boards file")
    try:
        chunks = split_boards(text, rules.columns)
    except ParseError as error:
        raise ParseError(f"{path}: {error}") from None
    if not chunks:
        raise ParseError(f"{path}: no board in the file")
    result: dict[str, Deal] = {}
    for k, (line, board) in enumerate(chunks, 1):
        try:
            deal = Deal.from_text(board, rules=rules)
        except ParseError as error:
            raise ParseError(
                f"{path}: board {k} (starting at line {line}; line numbers below count "
                f"from there): {error}"
            ) from None
        result.setdefault(board_id(deal), deal)
    return list(result.items())


def normalise(item: DealSpec) -> Task:
    """The task for one item given to :func:`bakersdozen.survey.runner.survey`.

    Raises
    ------
    TypeError
        If *item* is not an int, a Deal or an (id, deal) pair.
    DealNumberError
        For an int outside ``1..2**64-1``.
    ArgumentError
        A ValueError: for an id that is a bare number in a pair (a bare number is a PySol
        deal number; give a board a name with a letter in it).
    """
    if isinstance(item, bool):
        raise TypeError(f"a deal must be an int, a Deal or an (id, Deal) pair, not {item!r}")
    if isinstance(item, int):
        if not 1 <= item <= MAX_DEAL:
            raise DealNumberError(f"PySol deal numbers run from 1 to 2**64 - 1, not {item!r}")
        return item, item
    if isinstance(item, Deal):
        return board_id(item), item
    if isinstance(item, tuple) and len(item) == 2:
        given, deal = item
        if isinstance(deal, int) and not isinstance(deal, bool):
            deal = normalise(deal)[1]
        if isinstance(deal, Deal) or isinstance(deal, int):
            if isinstance(given, int) and not isinstance(given, bool):
                if isinstance(deal, int) and given == deal:
                    return given, deal
                raise ArgumentError(
                    f"deal id {given!r}: a number as an id is kept for PySol deal numbers"
                )
            text = str(given)
            if not text or (text.isascii() and text.isdigit()):
                raise ArgumentError(
                    f"deal id {text!r}: a board's id needs a letter (bare numbers are PySol deals)"
                )
            return text, deal
    raise TypeError(f"a deal must be an int, a Deal or an (id, Deal) pair, not {item!r}")


#: The search methods a survey may use (keys of
#: :data:`bakersdozen.solver.SEARCH_METHODS`): ``"dfs"``, the default,
#: ``"proof"``, the complete search alone, and ``"layers"``, every reachable
#: position layer by layer (the quickest and leanest proofs of unsolvable
#: deals: a second pass over the unknowns).  ``"shortest"`` is left out: a
#: survey decides deals, and the shortest lines' IDA* would spend the time
#: limit of every solved deal on its length (``bakersdozen solve --shortest``
#: is there for that).
SURVEY_METHODS: Final = ("dfs", "proof", "layers")


@dataclass(frozen=True, slots=True)
class Limits:
    """What every deal of a survey is solved under.

    Attributes
    ----------
    time_limit : float or None
        Seconds of wall-clock time per deal (None: no limit).
    max_nodes : int or None
        Positions per deal (None: no limit).
    memory_mb : float
        MiB of transposition table per deal.
    seed : int
        The move-order seed.
    moves : bool
        Keep the winning lines in the records.
    rules : Rules or None
        The game every deal is played by, as :func:`bakersdozen.solve`'s
        *rules*: a PySol number is dealt for it, and a :class:`~bakersdozen.Deal` is
        played by it (``deal.with_rules(rules)``).  None: each
        :class:`~bakersdozen.Deal` is played by its own ``deal.rules`` and a PySol
        number is dealt for Baker's Dozen.  A record names the game its
        deal was played by.
    method : str
        The search method (:data:`SURVEY_METHODS`): ``"dfs"``,
        ``"proof"`` or ``"layers"``; the records carry it.
    work_dir : str or None
        With method ``"layers"``: the directory in which each deal's search
        keeps the layers it is not expanding, in a subdirectory of its own
        named by :func:`work_dir_name` (docs/survey.md, "A pass on disk");
        made absolute when the Limits is made (a path or a str is taken), so
        that a worker running elsewhere finds it.  A deal that ends solved or
        unsolvable has its subdirectory removed; a deal left unknown (a
        limit, the disk) keeps it, and the next search of the deal with this
        *work_dir* goes on from it.  None (the default): the layers are kept
        in memory.
    disk_mb : float or None
        With *work_dir*: MiB (2**20 bytes) that the files of each deal's
        subdirectory may hold, in (0, 2**30]; a deal that would pass it stops
        unknown, with the reason ``"disk"``.  None (the default): as much as
        the disk has.
    line_record : bool
        With *work_dir*: keep each deal's record for tracing a win's line
        back (True, the default); False keeps none, and lets go of the
        record of a subdirectory it goes on from (:func:`bakersdozen.solve`'s
        *line_record*).

    Raises
    ------
    TypeError
        For a *work_dir* that is not a path or None, a *disk_mb* that is
        not a number or None, or a *line_record* that is not a bool.
    ArgumentError
        A ValueError: for a *work_dir* with a method other than
        ``"layers"`` (only the layered search keeps its work on disk), an
        empty *work_dir*, or a *disk_mb* or ``line_record=False`` without
        *work_dir*, or a *disk_mb* out of range.
    """

    time_limit: float | None = 10.0
    max_nodes: int | None = None
    memory_mb: float = DEFAULT_MEMORY_MB
    seed: int = 0
    moves: bool = False
    rules: Rules | None = None
    method: str = "dfs"
    work_dir: str | None = None
    disk_mb: float | None = None
    line_record: bool = True

    def __post_init__(self) -> None:
        if self.time_limit == math.inf:  # no limit: None in the records (JSON has no inf)
            object.__setattr__(self, "time_limit", None)
        work_dir: object = self.work_dir
        disk_mb: object = self.disk_mb
        if work_dir is not None and not isinstance(work_dir, (str, os.PathLike)):
            raise TypeError(f"work_dir must be a path or None, not {work_dir!r}")
        if disk_mb is not None and (isinstance(disk_mb, bool)
                                    or not isinstance(disk_mb, (int, float))):
            raise TypeError(f"disk_mb must be a number or None, not {disk_mb!r}")
        if not isinstance(self.line_record, bool):
            raise TypeError(f"line_record must be a bool, not {self.line_record!r}")
        if work_dir is None:
            if disk_mb is not None:
                raise ArgumentError("disk_mb: only a survey with a work_dir uses it (it bounds "
                                    "each deal's files there)")
            if not self.line_record:
                raise ArgumentError("line_record: only a survey with a work_dir uses it (the "
                                    "layers in memory let their record go when it does not fit)")
            return
        if self.method != "layers":
            raise ArgumentError(f"work_dir: only method='layers' keeps its work on disk, not "
                                f"{self.method!r}")
        path = os.fspath(work_dir)
        if not isinstance(path, str):
            raise TypeError(f"work_dir must be a str path, not {work_dir!r}")
        if not path:
            raise ArgumentError("work_dir: an empty path names no directory")
        object.__setattr__(self, "work_dir", os.path.abspath(path))
        if disk_mb is not None:
            if not 0 < disk_mb <= MAX_DISK_MB:  # False for nan
                raise ArgumentError(f"disk_mb must be in (0, 2**30] (MiB), not {disk_mb!r}")
            object.__setattr__(self, "disk_mb", float(disk_mb))


#: The longest name :func:`work_dir_name` writes out; a longer one is a hash.
MAX_WORK_DIR_NAME: Final = 100
_NAME_KEEPS: Final = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_-")
_BOARD_ID: Final = re.compile(r"board-[0-9a-f]{16}")


def work_dir_name(deal_id: DealId) -> str:
    """The name of a deal's subdirectory in a survey's work directory (:class:`Limits`).

    The same id always gets the same name, and two ids never get names
    that are equal or differ only in case (a file system that ignores case
    would take them for one):

    - a PySol deal number *n*: ``deal-n`` (``deal-417``);
    - a board id (:func:`bakersdozen.records.board_id`): itself
      (``board-0123456789abcdef``);
    - any other id: ``id-`` and its UTF-8 bytes, each byte other than a
      lower-case ASCII letter, a digit, ``_`` or ``-`` written ``%XX``
      (upper-case hexadecimal; ``"My deal"`` is ``id-%4Dy%20deal``);
    - an id whose name would be longer than :data:`MAX_WORK_DIR_NAME`:
      ``hash-`` and the 64 hexadecimal digits of the SHA-256 of its UTF-8.
    """
    if isinstance(deal_id, int):
        return f"deal-{deal_id}"
    if _BOARD_ID.fullmatch(deal_id):
        return deal_id
    data = deal_id.encode("utf-8", "surrogatepass")
    name = "id-" + "".join(chr(b) if b in _NAME_KEEPS else f"%{b:02X}" for b in data)
    if len(name) <= MAX_WORK_DIR_NAME:
        return name
    import hashlib  # here: loading OpenSSL costs a few ms at start-up

    return "hash-" + hashlib.sha256(data).hexdigest()


def make_work_dir(path: str) -> None:
    """Make a survey's work directory *path* if missing, and check that it can be written.

    A subdirectory is made in it and removed again, as each deal's search
    will make its own.

    Raises
    ------
    OSError
        With *path* as its file name: the directory cannot be made (a file
        of that name, a missing permission, a read-only file system), or
        nothing can be made in it.
    """
    import errno
    import tempfile

    if os.path.exists(path) and not os.path.isdir(path):
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
    try:
        os.makedirs(path, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(prefix=".probe-", dir=path))
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None
