"""Registers ``bakersdozen bench`` without importing :mod:`bakersdozen.bench`.

The package imports :mod:`bakersdozen.cli` (through ``survey``), and the CLI
imports this module to register its subcommands.  Were it to import
:mod:`bakersdozen.bench` itself, ``python -m bakersdozen.bench`` would find
the module already imported and warn (runpy's RuntimeWarning); so the
benchmark module is loaded only when the ``bench`` command is used.
"""

from __future__ import annotations

import argparse

from .cli import command

__all__: list[str] = []


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from .bench import add_arguments

    add_arguments(parser)


@command("bench", "benchmark the solver on PySol deals (and fc-solve)", _add_arguments)
def _run(args: argparse.Namespace) -> int:
    from .bench import run

    return run(args)
