"""The ``bakersdozen`` command line: a layer on top of the library.

One module per command, named as the command (the keys of :data:`COMMANDS`),
each with ``HELP``, ``add_arguments(parser)``
and ``run(args) -> exit status``; :mod:`._common` holds what they share.
No library module imports this package.  A command module imports the
library lazily, inside ``run``, so ``bakersdozen solve`` loads neither the
survey nor the benchmark.

Exit status: 0 success (``serve``: the end of its input); 1 unsolvable (``solve``, ``rate``), lost (``hint``,
``review``) or a worker process died
(``survey``, ``bench``); 2 bad input, or a file or the output that cannot
be read or written; 3 unknown (``solve``, ``rate``, ``hint``, ``review``: a limit
stopped the search); 4 the Dask scheduler cannot be reached or was lost
(``survey``);
130 interrupted (Ctrl-C); 141 the output is a pipe whose reader has gone
(``bakersdozen survey 1-1000 | head -1``: the command stops at once and
quietly, as a program killed by SIGPIPE would, with the status shells report
for it); 143 terminated (SIGTERM).  Every other failure is one line on
standard error: ``bakersdozen COMMAND: error: ...``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType

from .. import _interrupts
from ..errors import BakersDozenError
from ._common import (
    EXIT_BAD_INPUT, EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, EXIT_TERMINATED, Formatter, error, note,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any, NoReturn

__all__ = ["main", "build_parser", "COMMANDS", "Terminated"]

#: The commands, in the order ``--help`` lists them, with their one-line help
#: (each module's ``HELP``; a test checks they agree).  Only the module of the
#: command being run is imported.
COMMANDS: dict[str, str] = {
    "deal": "print PySol deal N as board text",
    "deals": "print winnable (or unsolvable, unknown) PySol deal numbers from the published tables",
    "show": "print a board file or PySol deal, after some moves, as a tableau or board text",
    "solve": "solve a board file or a PySol deal",
    "verify": "check a certificate that a deal is unsolvable, without the engine",
    "hint": "print the next move of a winning line from a position (board file)",
    "review": "find the first move after which a played game could no longer be won",
    "replay": "write a self-contained HTML page that replays a move list",
    "play": "play a deal in the browser, with hints and a live 'still winnable' status",
    "rate": "rate how hard a winnable deal is: the moves along a winning line that lose",
    "survey": "solve many deals, write one record per deal, summarise",
    "tasks": "sum up the task log of a layered search on disk in tasks: where its time went",
    "report": "write a self-contained HTML page of a survey's figures",
    "pysolfc": "install (or uninstall) the plug-in that makes PySolFC's Solver dialog use this solver",
    "bench": "benchmark the solver on PySol deals (and fc-solve)",
    "serve": "answer JSON requests (solve, hint, review...), one a line, on standard input",
}


class Terminated(BaseException):
    """Raised in the main thread when the process receives SIGTERM."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and a return value, never an exit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see {self.prog} --help)")


class _UsageError(Exception):
    pass


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every command, with the arguments of *command* (None: of all)."""
    import importlib

    from .._version import __version__

    parser = _Parser(prog="bakersdozen", description="Solve and inspect deals of Baker's Dozen.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)
    for name, help in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help, description=help)
        if command is None or name == command:
            module = importlib.import_module(f"{__name__}.{name}")
            module.add_arguments(sub_parser)
            sub_parser.set_defaults(_run=module.run)
    return parser


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _interrupts.note(Terminated)  # raised again where the survey waits, if swallowed
    raise Terminated()


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _interrupts.note(KeyboardInterrupt)
    raise KeyboardInterrupt


def _silence_stdout() -> None:
    """After a failed write, send what is left to /dev/null (no second error at exit)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real file (tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status (module documentation).  Never raises SystemExit
        itself: argparse's exits become return values.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    # The command is the first word not an option (only --help and --version
    # come before it); only its module is imported.
    command = next((w for w in words if not w.startswith("-")), "")
    parser = build_parser(command if command in COMMANDS else None)
    try:
        args, extras = parser.parse_known_args(words)
        if extras:  # argparse's own message names the top parser's --help
            raise _UsageError(
                f"unrecognized arguments: {' '.join(extras)} "
                f"(see {_help_for(words, extras[0], args.command)} --help)")
    except _UsageError as usage:
        if command in COMMANDS:
            return error(command, str(usage))
        return _top_error(str(usage))
    except SystemExit as exit_:  # --help, --version
        code = exit_.code
        return code if isinstance(code, int) else EXIT_BAD_INPUT
    command = args.command
    if sys.stdout is None:
        return error(command, "standard output is closed")
    try:
        previous: Any = signal.signal(signal.SIGTERM, _on_sigterm)
        main_thread = True
    except ValueError:  # not the main thread: leave signals alone
        main_thread = False
    # Ctrl-C as Python's own handler, but noted (the _interrupts module); an
    # ignored SIGINT (a job started with `&` by a shell) stays ignored
    previous_int: Any = signal.getsignal(signal.SIGINT) if main_thread else None
    if previous_int is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
    _interrupts.clear()
    try:
        status: int = args._run(args)
        sys.stdout.flush()
    except BakersDozenError as failure:
        return error(command, str(failure))
    except BrokenPipeError:  # `bakersdozen survey 1-1000 | head -1`: the reader had enough
        _silence_stdout()  # quietly, with the status of a SIGPIPE (module documentation)
        return EXIT_CLOSED_PIPE
    except OSError as failure:
        _silence_stdout()
        where = failure.filename or "standard output"
        return error(command, f"{where}: {failure.strerror or failure}")
    except MemoryError:
        return error(command, "out of memory")
    except KeyboardInterrupt:
        note(f"bakersdozen {command}: interrupted")
        return EXIT_INTERRUPTED
    except Terminated:
        note(f"bakersdozen {command}: terminated")
        return EXIT_TERMINATED
    finally:
        _interrupts.clear()
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
            if previous_int is signal.default_int_handler:
                signal.signal(signal.SIGINT, previous_int)
    return status


def _help_for(words: list[str], unknown: str, command: str) -> str:
    """The program whose ``--help`` lists the options next to *unknown*: the command's
    when *unknown* comes after the command's name, else ``bakersdozen``."""
    if command in words and unknown in words and words.index(unknown) < words.index(command):
        return "bakersdozen"
    return f"bakersdozen {command}"


def _top_error(message: str) -> int:
    note(f"bakersdozen: error: {message}")
    return EXIT_BAD_INPUT
