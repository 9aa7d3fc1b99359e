"""The rules preset against RULES.md's table ("The family (variants)")."""

from __future__ import annotations

import doctest

import pytest

from bakersdozen import deals, notation
from bakersdozen.rules import BAKERS_DOZEN, Build, EmptyColumn, KingsRule


def test_bakers_dozen_preset() -> None:
    # RULES.md: 13 x 4, kings to bottom, down by rank any suit, never filled,
    # no foundation return.
    assert BAKERS_DOZEN.columns == 13
    assert BAKERS_DOZEN.cards_per_column == 4
    assert BAKERS_DOZEN.kings is KingsRule.STABLE
    assert BAKERS_DOZEN.build is Build.DOWN_ANY_SUIT
    assert BAKERS_DOZEN.empty_column is EmptyColumn.NEVER
    assert BAKERS_DOZEN.foundation_return is False


@pytest.mark.parametrize("module", [deals, notation])
def test_docstring_examples(module: object) -> None:
    # The docstrings quote RULES.md's Kings rule examples; run them.
    failed, attempted = doctest.testmod(module)  # type: ignore[arg-type]
    assert attempted > 0 and failed == 0
