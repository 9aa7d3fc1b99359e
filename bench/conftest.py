"""Shared data for the benchmark suites (run: ``python -m pytest bench --benchmark-only``).

These suites are kept out of the default test run (``testpaths = ["tests"]``
in pyproject.toml): a timed run is not a unit test.  They still check what
they time: perft counts against ``perft.json``, solver verdicts against
published results, every winning line with :func:`bakersdozen.check`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bakersdozen import Deal
from bakersdozen._position import Position
from bakersdozen.solver import _engine_args

PERFT_DATA: dict[str, Any] = json.loads((Path(__file__).with_name("perft.json")).read_text())
PERFT_POSITIONS: list[dict[str, Any]] = PERFT_DATA["positions"]


def position(deal: Deal) -> Position:
    """A fresh engine position for *deal*."""
    return Position(*_engine_args(deal))


@pytest.fixture(params=PERFT_POSITIONS, ids=[p["name"] for p in PERFT_POSITIONS])
def perft_case(request: pytest.FixtureRequest) -> dict[str, Any]:
    """One stored position with its reference perft counts."""
    case: dict[str, Any] = request.param
    return case
