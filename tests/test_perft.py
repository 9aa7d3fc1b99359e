"""The engine's perft against counts from an independent slow generator.

``bench/perft.json`` holds, for PySol deals 1, 24, 100, 617 and a mid-game
position, the number of move sequences of each length (every legal move,
no pruning) as computed once by ``bench/perft_reference.py``, which shares
no code with the package.  Here the compiled generator must reproduce them
at the small depths (fast); the benchmark suite checks the deepest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bakersdozen import Deal
from bakersdozen._position import Position
from bakersdozen.solver import _engine_args
from reference import reference_moves

DATA: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "bench" / "perft.json").read_text()
)
POSITIONS = DATA["positions"]
MAX_DEPTH = 5  # at most ~500 000 leaves per position: milliseconds


@pytest.mark.parametrize("case", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft_matches_stored_counts(case: dict[str, Any]) -> None:
    deal = Deal.from_text(case["board"])
    if case["deal"] is not None:
        assert deal == Deal.pysol(case["deal"])
    position = Position(*_engine_args(deal))
    key = position.key
    for depth in range(1, MAX_DEPTH + 1):
        assert position.perft(depth) == case["perft"][str(depth)], (case["name"], depth)
    assert position.perft(0) == 1
    assert position.key == key  # perft leaves the position as it found it


@pytest.mark.parametrize("case", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_stored_depth_one_is_the_reference_move_count(case: dict[str, Any]) -> None:
    # A third opinion on the data itself: tests/reference.py's move set.
    assert case["perft"]["1"] == len(reference_moves(Deal.from_text(case["board"])))


def test_data_covers_the_promised_positions() -> None:
    assert [p["deal"] for p in POSITIONS] == [1, 24, 100, 617, None]
    assert all(max(map(int, p["perft"])) >= 6 for p in POSITIONS)


# -- the family ---------------------------------------------------------------

_FAMILY_PATH = Path(__file__).resolve().parents[1] / "bench" / "perft_family.json"


def _family_cases() -> list[tuple[str, dict[str, Any]]]:
    if not _FAMILY_PATH.exists():
        return []
    data = json.loads(_FAMILY_PATH.read_text())
    return [(name, case) for name, cases in data["presets"].items() for case in cases]


def _reference_perft(deal: Deal, depth: int) -> int:
    from reference import family_apply, family_moves

    if depth == 0:
        return 1
    moves = family_moves(deal)
    if depth == 1:
        return len(moves)
    return sum(_reference_perft(family_apply(deal, m), depth - 1) for m in moves)


@pytest.mark.parametrize(
    ("preset", "case"), _family_cases(),
    ids=[f"{name}-{case['deal']}" for name, case in _family_cases()],
)
def test_family_perft_data_agrees_with_the_reference(preset: str, case: dict[str, Any]) -> None:
    # Two independent generators (bench/perft_reference.py and
    # tests/reference.py) and the deal numbers agree on the stored data.
    deal = Deal.from_text(case["board"], rules=preset)
    if case["deal"] is not None:
        assert deal == Deal.pysol(case["deal"], preset)
    for depth in (1, 2, 3):
        assert _reference_perft(deal, depth) == case["perft"][str(depth)], (preset, depth)


def test_family_data_covers_every_preset() -> None:
    from bakersdozen.rules import PRESETS

    assert {name for name, _ in _family_cases()} == set(PRESETS)
