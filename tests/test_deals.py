"""PySol deal numbers, checked against the pysol_cards package (the oracle)."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from bakersdozen import BakersDozenError, Card, Deal
from bakersdozen.rules import stable_kings, swap_kings


def oracle(number: int) -> str:
    """PySol's Baker's Dozen deal *number* as pysol_cards prints it."""
    game = Game("bakers_dozen", number, RandomBase.DEALS_PYSOL)
    return str(game.calc_layout_string(CardRenderer(True)))


NUMBERS = (
    list(range(1, 151))
    + list(range(31900, 32151))
    + [2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1, 2**33, 10**9 + 7, 10**12 + 39,
       10**19, 2**63, 2**64 - 1]
)


@pytest.mark.parametrize("number", NUMBERS)
def test_matches_pysol_cards(number: int) -> None:
    assert Deal.pysol(number).to_text() == oracle(number)


def test_deal_24_published_check_value() -> None:
    # NOTATION.md: deal 24 starts with the lines `KD 8H AC AS` and `KC 3D 8C 2S`.
    lines = Deal.pysol(24).to_text().splitlines()
    assert lines[:2] == ["KD 8H AC AS", "KC 3D 8C 2S"]
    assert len(lines) == 13


def test_deal_1_matches_notation_md() -> None:
    # NOTATION.md prints deal 1; its first and last lines.
    lines = Deal.pysol(1).to_text().splitlines()
    assert lines[0] == "6H JH 5C AD"
    assert lines[-1] == "7D TS QC JD"


@pytest.mark.parametrize("number", [0, -1, 2**64, 10**20, "24", 24.0, True, None])
def test_out_of_range(number: object) -> None:
    with pytest.raises(BakersDozenError) as info:
        Deal.pysol(number)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert repr(number) in str(info.value)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_text(t) for t in text.split())


@pytest.mark.parametrize(
    "before, after",
    [
        # RULES.md, "The deal", item 3, bottom -> top.
        ("A♣ 2♦ K♠ 3♥", "K♠ A♣ 2♦ 3♥"),
        ("5♣ K♥ 9♦ K♠", "K♥ K♠ 5♣ 9♦"),
        ("K♦ 4♠ 7♣ 2♥", "K♦ 4♠ 7♣ 2♥"),
    ],
)
def test_stable_kings_rules_md(before: str, after: str) -> None:
    assert stable_kings(cards(before)) == cards(after)


@pytest.mark.parametrize(
    "before, after",
    [
        # RULES.md, "How other programs differ": PySol swaps the King with a
        # non-King lower in the column, changing the order of the others.
        ("A♣ 2♦ K♠ 3♥", "K♠ 2♦ A♣ 3♥"),
        ("5♣ K♥ 9♦ K♠", "K♥ K♠ 9♦ 5♣"),
        ("K♦ 4♠ 7♣ 2♥", "K♦ 4♠ 7♣ 2♥"),
        ("2♥ 3♥ 4♥ K♥", "K♥ 3♥ 4♥ 2♥"),
    ],
)
def test_swap_kings(before: str, after: str) -> None:
    assert swap_kings(cards(before)) == cards(after)


def test_deal_with_swap_differs_from_stable() -> None:
    # Some deal below 32000 has a King moved by the swap, so the layout
    # differs from what the stable rule would give: a deal number defines a
    # layout only with PySol's own King placement (RULES.md).
    from bakersdozen.deals import pysol_columns

    differs = [
        n for n in range(1, 60)
        if any(swap_kings(c) != stable_kings(c) for c in pysol_columns(n))
    ]
    assert differs
