"""``bakersdozen play``: play a deal in the browser, with hints and a live status.

Starts the play server (:mod:`bakersdozen.play.server`) on 127.0.0.1 (a
free port unless ``--port`` is given), prints its address and opens it in
the default browser (unless ``--no-browser``).  It serves until Ctrl-C or
SIGTERM, which end it at once (the engine's threads are daemons).  Exit
status 130 (Ctrl-C), 143 (SIGTERM), 2 bad input or an address that cannot
be bound.  See ``docs/play.md``.
"""

from __future__ import annotations

import argparse

from ._common import (
    add_limit_arguments, add_rules_arguments, deal_number, error, file_name, memory_mb,
    note, read_board, rules_from_args,
)

HELP = "play a deal in the browser, with hints and a live 'still winnable' status"


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: a free port), not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("file", nargs="?", type=file_name,
                        help="board text file to start with, or - for standard input")
    source.add_argument("--deal", type=deal_number, metavar="N",
                        help="PySol deal number N to start with (default 1)")
    parser.add_argument("--port", type=_port, default=0, metavar="P",
                        help="TCP port, 0..65535 (default 0: a free port)")
    parser.add_argument("--host", default="127.0.0.1", metavar="H",
                        help="address to bind (default 127.0.0.1; anyone who can reach another "
                        "address can use the server)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address only; do not open a browser")
    parser.add_argument("--workers", type=int, default=2, choices=range(1, 9), metavar="N",
                        help="engine threads, 1..8 (default 2)")
    add_limit_arguments(parser, default_time=5.0)
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=256.0, metavar="MB",
        help="MiB for each search, 1..1048576 (default 256)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request on standard error")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..play.api import PlayLimits, _knobs
    from ..play.server import PlayServer

    rules = rules_from_args(args)
    game: dict[str, object] = {"game": rules.name.split("+", 1)[0], "knobs": _knobs(rules)}
    if args.file is not None:
        deal, _ = read_board(args.file, rules)
        game["board"] = deal.to_text()
    else:
        game["deal"] = args.deal if args.deal is not None else 1
    limits = PlayLimits(time_limit=args.time_limit, max_nodes=args.max_nodes,
                    memory_mb=args.memory_mb, seed=args.seed)
    try:
        server = PlayServer((args.host, args.port), game, limits, workers=args.workers,
                            quiet=not args.verbose)
    except OSError as failure:
        return error("play", f"cannot listen on {args.host}:{args.port}: "
                     f"{failure.strerror or failure}")
    try:
        print(server.url, flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            note(f"bakersdozen play: note: listening on {args.host}: anyone who can reach that "
                 "address can use this server", flush=True)
        note("bakersdozen play: serving; Ctrl-C to stop", flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(server.url)
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return 0
