"""``python -m bakersdozen``: the command line (see :mod:`bakersdozen.cli`)."""

import sys

from .cli import main

sys.exit(main())
