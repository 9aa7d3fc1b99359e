"""What the commands share: exit statuses, argument types, board files, errors.

Imports only :mod:`argparse` and the package's lowest modules, so that a
command pays for what it uses and nothing else.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

from .._files import BOARD_LIMIT, MOVES_LIMIT, display_name, read_text
from ..errors import ParseError

TYPE_CHECKING = False

if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

    from ..model import Deal, Move
    from ..rules import Rules
    from ..solution import Verdict

__all__ = [
    "EXIT_OK", "EXIT_UNSOLVABLE", "EXIT_BAD_INPUT", "EXIT_UNKNOWN", "EXIT_WORKER_DIED",
    "EXIT_CLUSTER",
    "EXIT_INTERRUPTED", "EXIT_TERMINATED", "EXIT_CLOSED_PIPE", "KINGS_NOTE", "STDIN_TWICE", "MAX_DEAL",
    "MAX_MEMORY_MB", "MAX_TIME_LIMIT",
    "positive_float", "time_limit", "memory_mb", "file_name", "positive_int", "seed_int", "deal_number",
    "add_limit_arguments", "add_rules_arguments", "rules_from_args", "read_board", "read_moves_file", "check_writable", "write_html", "error", "Formatter",
    "PROGRESS_DELAY", "LayersProgress", "SearchProgress", "search_progress",
]

EXIT_OK: Final = 0
#: ``solve``: the deal has no winning line.
EXIT_UNSOLVABLE: Final = 1
#: Bad input, or a file or the output that cannot be read or written.
EXIT_BAD_INPUT: Final = 2
#: ``solve``: a limit stopped the search first.
EXIT_UNKNOWN: Final = 3
#: ``survey``, ``bench``: a worker process died.
EXIT_WORKER_DIED: Final = 1
#: ``survey``: the Dask scheduler cannot be reached, or was lost during the survey.
EXIT_CLUSTER: Final = 4
#: Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED: Final = 130
#: SIGTERM (128 + SIGTERM).
EXIT_TERMINATED: Final = 143
#: The output was a pipe whose reader has gone (``| head -1``): the command
#: stops quietly, with the status a shell reports for SIGPIPE (128 + 13).
EXIT_CLOSED_PIPE: Final = 141

#: ``review``, ``replay``: the board and the moves cannot share standard input.
STDIN_TWICE: Final = (
    "the board and the moves cannot both be standard input (-): give one of them as a file"
)
KINGS_NOTE: Final = "note: kings moved to the bottom of their columns (the game's Kings rule)"
#: The largest PySol deal number.
MAX_DEAL: Final = 2**64 - 1
_MAX_DIGITS: Final = len(str(MAX_DEAL))
#: The largest ``--memory-mb``, MiB: ``solver.MAX_MEMORY_MB`` (a test checks they agree;
#: the solver is not imported here, to keep the start fast).
MAX_MEMORY_MB: Final = 2**20
#: ``--time-limit`` must be below this many seconds: ``solver.MAX_TIME_LIMIT``.
MAX_TIME_LIMIT: Final = 1e15


class Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized with :func:`os.get_terminal_size` (not :mod:`shutil`).

    argparse makes a formatter for every argument added; the default one
    imports shutil (and with it bz2, lzma...) for the terminal's width,
    a few milliseconds of every start.
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            try:
                width = int(os.environ.get("COLUMNS", "")) or 80
            except ValueError:
                width = 80
            if "COLUMNS" not in os.environ:
                try:
                    width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
                except (AttributeError, ValueError, OSError):
                    width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


def error(command: str, message: str) -> int:
    """Print ``bakersdozen COMMAND: error: MESSAGE`` as one line on stderr; return 2."""
    note(f"bakersdozen {command}: error: {' '.join(message.split())}")
    return EXIT_BAD_INPUT


def note(message: str, *, flush: bool = False) -> None:
    """Print *message* as a line on standard error, unless standard error is closed.

    With standard error closed (``2>&-``) Python's ``sys.stderr`` is None,
    and ``print(..., file=None)`` would write to standard output, mixing a
    note into a command's output (a ``--json`` object, a move list).
    """
    if sys.stderr is not None:
        print(message, file=sys.stderr, flush=flush)


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(
            f"must be a number > 0 and finite, not {text[:40]!r}"
        )
    return value


def time_limit(text: str) -> float | None:
    """argparse type: seconds, > 0 and below 1e15, or ``inf`` / ``none`` for no limit (None).

    The range :func:`bakersdozen.solve` accepts; ``inf`` is its ``None``.
    """
    if text.strip().lower() in ("inf", "infinity", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a number of seconds: {text[:40]!r} (a number > 0, or 'none' for no limit)"
        ) from None
    if not 0 < value < MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(
            f"must be seconds > 0 and below 1e15, or 'none' for no limit, not {text[:40]!r}"
        )
    return value


def memory_mb(text: str) -> float:
    """argparse type: MiB in 1..2**20, the range :func:`bakersdozen.solve` accepts."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of MiB: {text[:40]!r}") from None
    if not 1 <= value <= MAX_MEMORY_MB:  # False for nan
        raise argparse.ArgumentTypeError(
            f"must be in 1..{MAX_MEMORY_MB} MiB, not {text.strip()[:40]}"
        )
    return value


def disk_mb(text: str) -> float:
    """argparse type: MiB in (0, 2**30], the range :func:`bakersdozen.solve` accepts for *disk_mb*."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of MiB: {text[:40]!r}") from None
    if not 0 < value <= 2**30:  # False for nan
        raise argparse.ArgumentTypeError(f"must be in (0, {2**30}] MiB, not {text.strip()[:40]}")
    return value


def file_name(text: str) -> str:
    """argparse type: a file name, not empty (``""`` once meant standard output or no file)."""
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    return text


def _whole_number(text: str, low: int, what: str) -> int:
    """A whole number in low..2**64-1, or ArgumentTypeError saying so.

    A number below *low* (``-5``, ``0`` for 1..) is a number, and the error
    says "must be at least"; only what is not a number at all is "not a whole
    number".
    """
    written = text.strip()
    shown = written if len(written) <= 24 else f"{written[:12]}...({len(written)} characters)"
    sign, digits = (written[0], written[1:]) if written[:1] in ("-", "+") else ("", written)
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"not a whole number: {shown!r}")
    significant = digits.lstrip("0") or "0"
    huge = len(significant) > _MAX_DIGITS  # int() of 5000 digits is refused
    if (sign == "-" and significant != "0") or (not huge and int(significant) < low):
        raise argparse.ArgumentTypeError(
            f"{what} must be at least {low} (in {low}..2**64-1), not {shown}")
    if huge or int(significant) > MAX_DEAL:
        raise argparse.ArgumentTypeError(
            f"{what} must be at most 2**64-1 (in {low}..2**64-1), not {shown}")
    return int(significant)


def positive_int(text: str) -> int:
    """argparse type: an integer in 1..2**64-1."""
    return _whole_number(text, 1, "the number")


def seed_int(text: str) -> int:
    """argparse type: a move-order seed, a whole number in 0..2**64-1."""
    return _whole_number(text, 0, "a seed")


def deal_number(text: str) -> int:
    """argparse type: a PySol deal number, 1..2**64-1."""
    return _whole_number(text, 1, "a PySol deal number")


def add_limit_arguments(parser: argparse.ArgumentParser, default_time: float | None = 10.0) -> None:
    """The search-limit options shared by solve and survey (memory per deal)."""
    parser.add_argument(
        "--time-limit", type=time_limit, default=default_time, metavar="SECONDS",
        help=f"wall-clock seconds per deal, > 0 and below 1e15, or 'none' for no limit "
        f"(default {default_time})",
    )
    parser.add_argument(
        "--max-nodes", type=positive_int, default=None, metavar="N",
        help="positions the search may generate per deal, 1..2**64-1 (default: no limit)",
    )
    parser.add_argument(
        "--seed", type=seed_int, default=0,
        help="move-order seed, 0..2**64-1; 0 is the default order",
    )


#: The knob flags: option name, Rules field, and the values (None: on/off).
_KNOB_FLAGS: Final = (
    ("--kings", "kings", ("stable", "swap", "none")),
    ("--build", "build", ("any_suit", "alternate_colours", "same_suit", "other_suit")),
    ("--move-unit", "moves", ("one_card", "sequence", "supermove")),
    ("--empty-column", "empty_column", ("nothing", "any_card", "kings_only")),
    ("--foundation-build", "foundation_build", ("by_suit", "alternate_colours", "any_suit")),
)


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game NAME`` and one flag per knob (docs/rules.md), changing the game's knobs."""
    group = parser.add_argument_group(
        "game", "the game and its rules (docs/rules.md); a knob flag changes the game's rule"
    )
    group.add_argument(
        "--game", default="bakers_dozen", metavar="NAME",
        help="the preset to play (default bakers_dozen; an unknown name lists the presets)",
    )
    for flag, field, values in _KNOB_FLAGS:
        group.add_argument(flag, dest=f"knob_{field}", choices=values, default=None,
                           help=f"{field.replace('_', ' ')}: {', '.join(values)}")
    group.add_argument(
        "--foundation-return", dest="knob_foundation_return", action="store_true",
        default=None, help="the top card of a foundation may come back onto the tableau",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The Rules the ``--game`` and knob flags name.

    Raises
    ------
    RulesError
        For an unknown game (the message lists the presets) or an impossible
        combination of knobs.
    """
    from ..rules import find_rules

    rules = find_rules(args.game)
    knobs = {
        name[len("knob_"):]: value for name, value in vars(args).items()
        if name.startswith("knob_") and value is not None
    }
    return rules.replace(**knobs) if knobs else rules


#: What ``--layers`` plays, for its refusals (:func:`bakersdozen.solver.plays_layers`).
LAYERS_PLAY = ("--layers plays Baker's Dozen's play knobs (any layout), or the same with "
               "empty_column=kings_only (Portuguese Solitaire's)")


def layers_knobs_changed(rules: Rules) -> list[str]:
    """:func:`play_knobs_changed`, less ``empty_column=kings_only`` (which
    ``--layers`` plays): what keeps *rules* from the layered search."""
    return [knob for knob in play_knobs_changed(rules) if knob != "empty_column=kings_only"]


def play_knobs_changed(rules: Rules) -> list[str]:
    """The play knobs of *rules* that differ from Baker's Dozen's, as
    ``knob=value`` (empty for Baker's Dozen and Good Measure): ``--shortest``
    and ``--layers`` play those knobs only."""
    from ..solver import SHORTEST_PLAY

    return [
        f"{knob}={getattr(getattr(rules, knob), 'value', getattr(rules, knob))}"
        for knob, value in SHORTEST_PLAY.items() if getattr(rules, knob) != value
    ]


def read_board(path: str, rules: Rules | None = None) -> tuple[Deal, bool]:
    """Read and parse a board file (``-`` for standard input), at most 64 KiB.

    Parameters
    ----------
    path : str
        The file, ``-`` for standard input.
    rules : Rules or None
        The game the board is a position of; None for Baker's Dozen.

    Returns
    -------
    deal : Deal
    kings_moved : bool
        True if the game's Kings rule was applied.

    Raises
    ------
    ParseError
        If the file cannot be read or parsed; the message starts with the
        file name (``<stdin>`` for ``-``).
    """
    from ..model import parse_board
    from ..rules import BAKERS_DOZEN

    text = read_text(path, BOARD_LIMIT, "a board")
    try:
        return parse_board(text, rules=rules or BAKERS_DOZEN)
    except ParseError as error:
        raise ParseError(f"{display_name(path)}: {error}") from None


def deal_from_args(args: argparse.Namespace, rules: Rules) -> tuple[Deal, bool]:
    """The starting position a command names: PySol deal ``--deal N``, else the board file.

    Parameters
    ----------
    args : argparse.Namespace
        With ``deal`` (an int, or None) and ``file`` (a path, ``-`` for
        standard input).
    rules : Rules
        The game (``rules_from_args(args)``).

    Returns
    -------
    deal : Deal
    kings_moved : bool
        True if the game's Kings rule was applied to the board file
        (never for a PySol deal).

    Raises
    ------
    ParseError
        As :func:`read_board`.
    """
    from ..model import Deal

    if args.deal is not None:
        return Deal.pysol(args.deal, game=rules), False
    return read_board(args.file, rules)


def _game_options(game: str) -> str:
    """Advice naming the options that select *game* (a ``Rules.name``)."""
    preset, _, knobs = game.partition("+")
    flag_of = {field: flag for flag, field, _ in _KNOB_FLAGS}
    flag_of["foundation_return"] = "--foundation-return"
    options = [f"--game {preset}"]
    for knob, _, value in (item.partition("=") for item in knobs.split(",") if item):
        if knob not in flag_of:
            return f"play {game} (its {knob} has no flag; use the Python API)"
        if knob == "foundation_return":
            if value == "True":
                options.append(flag_of[knob])
            else:
                return f"play {game} (foundation_return off has no flag; use the Python API)"
        else:
            options.append(f"{flag_of[knob]} {value}")
    return "pass " + " ".join(options)


def read_moves_file(path: str, rules: Rules | None = None) -> tuple[Move, ...]:
    """Read a move list file (``-`` for standard input): one move per line, or JSON.

    Parameters
    ----------
    path : str
        The file, ``-`` for standard input.
    rules : Rules or None
        The game the moves are played under.  A ``solve --json`` record
        names the game it was solved under (``"game"``); if that is not
        ``rules.name``, the file is refused rather than replayed under the
        wrong rules.  None: not checked.

    Raises
    ------
    ParseError
        If the file cannot be read, a move cannot be read, or the record's
        game is not *rules*; the message starts with the file name and
        names the line (or the games, and the ``--game`` to pass).
    """
    import json

    from ..records import read_moves

    text = read_text(path, MOVES_LIMIT, "a move list")
    try:
        moves = read_moves(text)
    except ParseError as error:
        raise ParseError(f"{display_name(path)}: {error}") from None
    if rules is not None and text.lstrip("\ufeff \t\r\n").startswith("{"):
        try:
            game = json.loads(text.lstrip("\ufeff")).get("game")
        except (ValueError, AttributeError):
            game = None
        if isinstance(game, str) and game != rules.name:
            from ..rules import PRESETS

            if game.partition("+")[0] not in PRESETS:  # advice to pass it would fail too
                raise ParseError(
                    f"{display_name(path)}: the record's \"game\" {game[:80]!r} is no game "
                    f"this package plays (the presets are {', '.join(PRESETS)})"
                )
            raise ParseError(
                f"{display_name(path)}: the moves were solved under {game} (the record's "
                f"\"game\"), not {rules.name}: {_game_options(game)}"
            )
    return moves


def check_writable(path: str) -> None:
    """Check, before a long solve, that *path* can be written (it is not created).

    Raises
    ------
    OSError
        With *path* as its file name: its directory does not exist or is not
        a directory, *path* is a directory, or neither it nor its directory
        may be written.
    """
    import errno

    def fail(code: int) -> None:
        raise OSError(code, os.strerror(code), path)

    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        fail(errno.ENOTDIR if os.path.exists(parent) else errno.ENOENT)
    if os.path.isdir(path):
        fail(errno.EISDIR)
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        fail(errno.EACCES)


def write_html(path: str, deal: Deal, moves: tuple[Move, ...], title: str) -> None:
    """Write the replay page of *moves* from *deal* to *path* (``docs/replay.md``).

    Raises
    ------
    IllegalMoveError
        If a move cannot be played (the page is not written).
    OSError
        If the file cannot be written (the command line reports it).
    """
    from ..replay import replay_html

    page = replay_html(deal, moves, title=title)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)


#: Seconds a search runs before its progress line appears.
PROGRESS_DELAY: Final = 1.0


class SearchProgress:
    """The progress line of a command's searches on standard error: a terminal only.

    Pass it as ``progress=`` to :func:`bakersdozen.solve` (or ``hint``,
    ``review``): the engine calls it with ``(nodes, bytes)`` a few times a
    second.  The line shows the positions generated by the command's
    searches together (those functions count on from one search to the
    next), their rate, the memory the search holds now and the time elapsed; it
    appears once the command has searched for :data:`PROGRESS_DELAY`
    seconds and is erased when the command ends (:meth:`close`), so that
    a quick search shows nothing.  When standard error is not a terminal
    nothing is written: use :func:`search_progress`, which gives None then
    (and the engine reports nothing).
    """

    def __init__(self, command: str) -> None:
        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

        self._bar = tqdm(
            desc=f"bakersdozen {command}", unit=" pos", unit_scale=True, file=sys.stderr,
            delay=PROGRESS_DELAY, leave=False, dynamic_ncols=True, smoothing=0.3,
            bar_format="{desc}: {n_fmt} positions, {rate_fmt}{postfix} [{elapsed}]",
            postfix="0 MiB",
        )

    def __call__(self, nodes: int, held: int) -> None:
        self._bar.set_postfix_str(f"{held / 2**20:,.0f} MiB", refresh=False)
        self._bar.update(max(0, nodes - self._bar.n))

    def close(self) -> None:
        """Erase the line (if it appeared)."""
        self._bar.close()


class LayersProgress(SearchProgress):
    """The progress line of the layered search (``solve --layers``): that of
    :class:`SearchProgress`, and the progress value being expanded out of
    the greatest (a won position's), the positions stored, the bytes of the
    work directory's files (``--work-dir``) and an estimate of the time left.

    The layered search calls :meth:`layers` after each ``(nodes, bytes)``
    call.  The estimate assumes that the progress values left take as long
    as those done, on average: the time so far times the values left over
    those done.  It is rough: the middle values hold the most positions, so
    it is low while they are ahead and high once they are done.
    """

    def __init__(self, command: str) -> None:
        super().__init__(command)
        self._held = 0
        self._start = time.monotonic()

    def __call__(self, nodes: int, held: int) -> None:
        self._held = held
        super().__call__(nodes, held)

    def layers(self, value: int, most: int, stored: int, disk: int) -> None:
        """Show progress value *value* of *most*, *stored* positions, *disk* bytes."""
        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

        elapsed = time.monotonic() - self._start
        left = (tqdm.format_interval(elapsed * (most - value) / value)
                if 0 < value <= most else "?")
        self._bar.set_postfix_str(
            f"{self._held / 2**20:,.0f} MiB, progress {value}/{most}, "
            f"{tqdm.format_sizeof(stored)} stored, {disk / 2**20:,.1f} MiB disk, "
            f"~{left} left", refresh=True)

    def tracing(self, kept: int) -> None:
        """Show that the search reached a won position and is tracing its line
        back through *kept* bytes of kept records (a disk search; minutes
        for a hard deal, with no other progress meanwhile)."""
        self._bar.set_postfix_str(
            f"won: tracing the line back through {kept / 2**20:,.0f} MiB of kept records",
            refresh=True)


class search_progress:
    """``with search_progress("solve") as progress:``: a :class:`SearchProgress`
    (a :class:`LayersProgress` with *layers*) when standard error is a
    terminal, else None; closed on leaving."""

    def __init__(self, command: str, layers: bool = False) -> None:
        self._progress: SearchProgress | None = None
        try:
            terminal = sys.stderr.isatty()
        except (AttributeError, ValueError):  # closed or replaced by a test
            terminal = False
        if terminal:
            self._progress = LayersProgress(command) if layers else SearchProgress(command)

    def __enter__(self) -> SearchProgress | None:
        return self._progress

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.close()


def note_table_verdict(verdict: Verdict, number: int | None, rules: Rules) -> None:
    """After a search of PySol deal *number* (None: a board file) of *rules*
    ended with *verdict*, say on standard error what the published table knows.

    ``solve`` and ``hint`` call it, so that a user whose search stopped at a
    limit (unknown) learns the deal was decided (by another method or budget:
    the positions counted are that search's).  It says nothing unless
    *verdict* is unknown, *rules* is a preset as it is, its table covers
    *number*, and the table's verdict is solved or unsolvable; a table that
    cannot be read is said as a note.
    """
    from ..solution import Verdict

    if verdict is not Verdict.UNKNOWN or number is None:
        return
    line = _table_line(number, rules)
    if line:
        note(line)


def _table_line(number: int, rules: Rules) -> str | None:
    """:func:`note_table_verdict`'s line, or None."""
    from ..rules import RulesError
    from ..solution import Verdict
    from ..winnability import TableError, table_games, table_range, winnable

    if rules.name not in table_games():
        return None
    try:
        first, last = table_range(rules)
        if not first <= number <= last:
            return None
        known = winnable(number, rules, solve_outside=False)
    except RulesError:  # the preset with a knob changed
        return None
    except TableError as fault:  # the table cannot be read
        return f"note: {fault}"
    if known.verdict is Verdict.UNKNOWN:
        return None
    how = ("a winning line found in {:,} positions, replayed by the independent checker"
           if known.verdict is Verdict.SOLVED
           else "proved by a complete search of {:,} positions")
    return (f"note: this search stopped at a limit; the table shipped with the package "
            f"says deal {number} of {known.game} is {known.verdict.value} "
            f"({how.format(known.positions)}; bakersdozen.winnable() reads it)")
