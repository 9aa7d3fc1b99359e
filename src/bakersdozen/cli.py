"""The ``bakersdozen`` command line: a thin shell over the API.

Exit status: 0 success, 2 bad input (a board that cannot be read, a deal
number out of range, bad arguments).  The ``solve`` command adds 1
(unsolvable) and 3 (unknown).

Subcommands register themselves with :func:`command`; each has a function
adding its arguments to an :class:`argparse.ArgumentParser` and a function
running it that returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from .errors import BakersDozenError, ParseError
from .model import FOUNDATION, Deal
from .solver import Solution, Verdict, solve

__all__ = ["main", "command", "read_board", "EXIT_OK", "EXIT_BAD_INPUT"]

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_UNKNOWN = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

KINGS_NOTE = "note: kings moved to the bottom (the stable Kings rule of the deal)"


@dataclass(frozen=True, slots=True)
class _Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


_COMMANDS: dict[str, _Command] = {}


def command(
    name: str, help: str, add_arguments: Callable[[argparse.ArgumentParser], None]
) -> Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]]:
    """Register a subcommand: decorate its ``run(args) -> exit status`` function.

    Parameters
    ----------
    name : str
        The subcommand's name, e.g. ``"deal"``.
    help : str
        One line for ``bakersdozen --help``.
    add_arguments : callable
        Adds the subcommand's arguments to its parser.
    """

    def register(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        _COMMANDS[name] = _Command(name, help, add_arguments, run)
        return run

    return register


def read_text(path: str, stdin: TextIO | None = None) -> str:
    """The text of a UTF-8 file (``-`` for standard input).

    Raises
    ------
    ParseError
        If it cannot be read; the message starts with the file name
        (``<stdin>`` for ``-``) and gives the reason.
    """
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            return (stdin or sys.stdin).read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ParseError(f"{name}: cannot read: {error}") from None


def read_board(path: str, stdin: TextIO | None = None) -> tuple[Deal, bool]:
    """Read and parse a board file (``-`` for standard input).

    Returns
    -------
    deal : Deal
    kings_moved : bool
        True if the stable Kings rule was applied (see
        :func:`bakersdozen.parse_board`).

    Raises
    ------
    ParseError
        If the file cannot be read or parsed; the message starts with the
        file name (``<stdin>`` for ``-``).
    """
    from .model import parse_board

    name = "<stdin>" if path == "-" else path
    text = read_text(path, stdin)
    try:
        return parse_board(text)
    except ParseError as error:
        raise ParseError(f"{name}: {error}") from None


# -- deal -----------------------------------------------------------------


def _deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", type=int, help="PySol deal number, 1 to 2**64 - 1")


@command("deal", "print PySol deal N as board text", _deal_arguments)
def _deal(args: argparse.Namespace) -> int:
    deal = Deal.pysol(args.number)
    sys.stdout.write(deal.to_text())
    return EXIT_OK


# -- show -----------------------------------------------------------------


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="board text file, or - for standard input")


@command("show", "read a board file and print it as a tableau", _show_arguments)
def _show(args: argparse.Namespace) -> int:
    deal, kings_moved = read_board(args.file)
    sys.stdout.write(deal.pretty())
    if kings_moved:
        print(KINGS_NOTE)
    return EXIT_OK


# -- solve ------------------------------------------------------------------


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}")
    return value


def _whole_number(text: str, low: int) -> int:
    """A whole number in low..2**64-1, or ArgumentTypeError saying so."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not low <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be a whole number in {low}..2**64-1, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer in 1..2**64-1."""
    return _whole_number(text, 1)


def seed_int(text: str) -> int:
    """argparse type: a move-order seed, a whole number in 0..2**64-1."""
    return _whole_number(text, 0)


def add_limit_arguments(parser: argparse.ArgumentParser, time_limit: float | None = 10.0) -> None:
    """The search-limit options shared by solve, survey and bench."""
    parser.add_argument(
        "--time-limit", type=positive_float, default=time_limit, metavar="SECONDS",
        help=f"wall-clock seconds per deal (default {time_limit})",
    )
    parser.add_argument(
        "--max-nodes", type=positive_int, default=None, metavar="N",
        help="positions the search may generate per deal (default: no limit)",
    )
    parser.add_argument(
        "--memory-mb", type=positive_float, default=512.0, metavar="MB",
        help="MiB for the transposition table per deal (default 512)",
    )
    parser.add_argument(
        "--seed", type=seed_int, default=0, help="move-order seed; 0 is the default order",
    )


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="board text file, or - for standard input")
    source.add_argument("--deal", type=int, metavar="N", help="PySol deal number N")
    add_limit_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def solution_record(solution: Solution) -> dict[str, object]:
    """The JSON form of a :class:`Solution` (columns 1..13, board-text order)."""
    return {
        "verdict": solution.verdict.value,
        "moves": [
            {
                "card": str(move.card),
                "source": move.source,
                "target": "foundation" if move.target == FOUNDATION else move.target,
            }
            for move in solution.moves
        ],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 6),
        "reason": solution.reason,
    }


_VERDICT_EXIT = {
    Verdict.SOLVED: EXIT_OK,
    Verdict.UNSOLVABLE: EXIT_UNSOLVABLE,
    Verdict.UNKNOWN: EXIT_UNKNOWN,
}


@command("solve", "solve a board file or a PySol deal", _solve_arguments)
def _solve(args: argparse.Namespace) -> int:
    if args.deal is not None:
        deal, kings_moved = Deal.pysol(args.deal), False
    else:
        deal, kings_moved = read_board(args.file)
    if kings_moved:
        print(KINGS_NOTE, file=sys.stderr)
    try:
        solution = solve(
            deal, time_limit=args.time_limit, max_nodes=args.max_nodes,
            memory_mb=args.memory_mb, seed=args.seed,
        )
    except ValueError as error:
        raise BakersDozenError(str(error)) from None
    if args.json:
        print(json.dumps(solution_record(solution)))
    else:
        out = [f"verdict: {solution.verdict.value}"]
        if solution.reason:
            out[0] += f" ({solution.reason} reached)"
        out += [f"{i:4d}. {move}" for i, move in enumerate(solution.moves, 1)]
        out.append(f"nodes: {solution.nodes}")
        out.append(f"seconds: {solution.seconds:.3f}")
        print("\n".join(out))
    return _VERDICT_EXIT[solution.verdict]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="bakersdozen", description="Solve and inspect deals of Baker's Dozen."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for cmd in _COMMANDS.values():
        sub_parser = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.add_arguments(sub_parser)
        sub_parser.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status (0 success, 2 bad input; see the module docstring).
        Never raises SystemExit itself: argparse's exits become return values.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else EXIT_BAD_INPUT
    try:
        status: int = args._run(args)
    except BakersDozenError as error:
        print(f"bakersdozen {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # pragma: no cover - e.g. `bakersdozen deal 1 | head -1`
        return EXIT_OK
    except KeyboardInterrupt:
        print(f"bakersdozen {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status


from . import survey as _survey  # noqa: E402,F401  registers "survey"
from . import _bench_cli  # noqa: E402,F401  registers "bench" (bench.py)
