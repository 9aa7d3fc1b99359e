"""``bakersdozen pysolfc install|uninstall``: this solver in PySolFC's Solver dialog.

``install`` writes a plug-in into PySolFC's plug-in folder
(``~/.PySolFC/plugins``) that makes PySolFC's Solver dialog and its demo
use this package for Baker's Dozen, Castles in Spain, Good Measure,
Portuguese Solitaire, Spanish Patience and Spanish Patience II
(:mod:`bakersdozen.pysolfc`); ``uninstall`` removes that file and nothing
else.  Both print the file's path.  Exit status 0, or 2 with one line on
standard error.
"""

from __future__ import annotations

import argparse

from ._common import EXIT_OK

HELP = "install (or uninstall) the plug-in that makes PySolFC's Solver dialog use this solver"


def _folder(text: str) -> str:
    """argparse type: a folder name, not empty (``--dir "$UNSET"`` wrote into the
    current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("the folder name is empty")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action", choices=("install", "uninstall"),
        help="install: write the plug-in (again); uninstall: remove it",
    )
    parser.add_argument(
        "--dir", metavar="FOLDER", default=None, type=_folder,
        help="PySolFC's plug-in folder (default ~/.PySolFC/plugins, as PySolFC finds it)",
    )
    parser.add_argument(
        "--game", action="append", metavar="NAME", default=None,
        help="install: take over only this game (a preset name; may be repeated; "
        "default all six)",
    )


def run(args: argparse.Namespace) -> int:
    from ..pysolfc import PYSOL_CLASSES, install_plugin, uninstall_plugin
    from ..rules import find_rules

    if args.action == "install":
        games = args.game if args.game else list(PYSOL_CLASSES)
        path = install_plugin(args.dir, games)
        titles = ", ".join(find_rules(game).title for game in games)
        print(f"wrote {path} (PySolFC's Solver dialog now uses bakersdozen for {titles}; "
              "restart PySolFC)")
        return EXIT_OK
    if args.game:
        from ..pysolfc import PySolFCError

        raise PySolFCError("--game is for install; uninstall removes the whole plug-in")
    removed = uninstall_plugin(args.dir)
    if removed is None:
        from ..pysolfc import PLUGIN_NAME, plugin_dir
        from pathlib import Path

        folder = Path(args.dir) if args.dir is not None else plugin_dir()
        print(f"nothing to remove: {folder / PLUGIN_NAME} does not exist")
    else:
        print(f"removed {removed}")
    return EXIT_OK
