"""``bakersdozen serve --stdio``: answer JSON requests, one a line, on standard input.

A thin transport around :mod:`bakersdozen.protocol`: each line of standard
input is one request, and each gets one line of standard output, its
response, in order, flushed at once.  A line that is not a request (not
UTF-8, not JSON, too long, a wrong field) gets an error object; the server
goes on.  The end of input ends the server (exit status 0); Ctrl-C (130)
and SIGTERM (143) end it too, without answering the request in progress.
The options set the most a request may ask for.  docs/serve.md describes
the requests and responses.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import IO

from ._common import EXIT_OK, memory_mb, positive_int, time_limit

HELP = "answer JSON requests (solve, hint, review...), one a line, on standard input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..protocol import DEFAULT_LIMITS as default  # the server's defaults, stated once

    parser.add_argument(
        "--stdio", action="store_true", required=True,
        help="read requests from standard input, write responses to standard output "
        "(the one transport so far)",
    )
    parser.add_argument(
        "--time-limit", type=time_limit, default=default.time_limit, metavar="SECONDS",
        help="the most wall-clock seconds a search may take, and what a request that names no "
        "limit gets; > 0 and below 1e15, or 'none' (default 10)",
    )
    parser.add_argument(
        "--max-nodes", type=positive_int, default=default.max_nodes, metavar="N",
        help="the most positions a search may generate, 1..2**64-1 (default 100000000)",
    )
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=default.memory_mb, metavar="MB",
        help="the most MiB a search may use, 1..1048576 (default 512)",
    )


def _lines(stream: IO[bytes] | IO[str], limit: int) -> Iterator[tuple[bytes, bool]]:
    """``(line, truncated)`` for each line of *stream*, at most *limit* bytes of it kept.

    A longer line is read to its end and dropped, so that the next line
    starts where it should; *truncated* is then True.  A text stream (tests
    give StringIO) is read as UTF-8.
    """
    while True:
        read = stream.readline(limit + 1)
        if not read:
            return
        line = read.encode("utf-8", "surrogateescape") if isinstance(read, str) else read
        truncated = len(line) > limit and not line.endswith(b"\n")
        if truncated:
            while True:
                rest = stream.readline(1 << 16)
                if not rest or rest[-1:] in (b"\n", "\n"):
                    break
            line = line[:limit]
        yield line.rstrip(b"\r\n"), truncated


def run(args: argparse.Namespace) -> int:
    import sys

    from ..protocol import MAX_LINE_BYTES, ServerLimits, encode, handle_line

    limits = ServerLimits(time_limit=args.time_limit, max_nodes=args.max_nodes,
                    memory_mb=args.memory_mb)
    if sys.stdin is None:  # started with it closed (`<&-`)
        from ..errors import BakersDozenError

        raise BakersDozenError("standard input is closed")
    source = getattr(sys.stdin, "buffer", sys.stdin)
    out = getattr(sys.stdout, "buffer", None)
    for line, truncated in _lines(source, MAX_LINE_BYTES):
        response = encode(handle_line(line, limits, truncated=truncated))
        if out is not None:
            out.write(response)
            out.flush()
        else:
            sys.stdout.write(response.decode("ascii"))
            sys.stdout.flush()
    return EXIT_OK
