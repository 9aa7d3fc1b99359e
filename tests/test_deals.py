"""PySol deal numbers, checked against the pysol_cards package (the oracle)."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from bakersdozen import BakersDozenError, Card, Deal, Suit
from bakersdozen.rules import RulesError, find_rules, stable_kings, swap_kings


def oracle(number: int, which: int = RandomBase.DEALS_PYSOLFC) -> str:
    """PySol's Baker's Dozen deal *number* as pysol_cards prints it."""
    game = Game("bakers_dozen", number, which)
    return str(game.calc_layout_string(CardRenderer(True)))


LARGE = [2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1, 2**33, 10**9 + 7, 10**12 + 39,
         10**19, 2**63, 2**64 - 1]
NUMBERS = list(range(1, 151)) + list(range(31900, 32151)) + LARGE


@pytest.mark.parametrize("number", [n for n in NUMBERS if n != 32000])
def test_matches_pysol_cards_pysolfc_numbering(number: int) -> None:
    # The default numbering is PySolFC's: Mersenne Twister from 32000 up.
    assert Deal.pysol(number).to_text() == oracle(number)


def test_32000_follows_pysolfc_not_pysol_cards() -> None:
    # PySolFC's pysollib/pysolrandom.py, construct_random: "if 0 <= seed <
    # 32000: return LCRandom31(seed)", else MTRandom; pysol_cards switches at
    # "game_num <= 32000".  Deal 32000 is PySolFC's Mersenne Twister deal.
    ms = oracle(32000, RandomBase.DEALS_MS)
    assert oracle(32000) == ms  # pysol_cards: the Microsoft deal
    assert Deal.pysol(32000).to_text() != ms
    assert Deal.pysol(32000, numbering="pysol").to_text() == ms
    assert Deal.pysol(32000).to_text().splitlines()[:2] == ["AS 7H 7D 9D", "KC 3S 6H 5S"]


@pytest.mark.parametrize("number", list(range(1, 30)) + list(range(31990, 32011)) + LARGE)
def test_matches_pysol_cards_old_pysol_numbering(number: int) -> None:
    assert Deal.pysol(number, numbering="pysol").to_text() == oracle(
        number, RandomBase.DEALS_PYSOL
    )


def test_unknown_numbering() -> None:
    with pytest.raises(RulesError, match="unknown deal numbering 'ms'.*pysolfc, pysol"):
        Deal.pysol(1, numbering="ms")


# The first lines of PySolFC's layouts for the other games.  Source: PySolFC's
# own code, run step by step in a script kept outside this repository:
# pysollib/pysolrandom.py construct_random (LCRandom31 below 32000, else
# MTRandom from pysol_cards), pysollib/game/__init__.py Game.shuffle and
# _shuffleHookMoveToBottom, the _shuffleHook of each class of
# pysollib/games/bakersdozen.py, the talon dealt from its end one row at a
# time.  "home" lists the Aces Good Measure puts on the foundations.
PYSOLFC_LAYOUTS = {
    "good_measure": {
        2: ["home: AC AH", "JH AD 4H 6C JD", "TH 3H 6S 8C 4D", "5S 2H 7C JC 5C",
            "AS 9H KD TD 3S"],
        20: ["home: AC AS", "7S KS 5S JH 6D", "KD 2D 3S 3D 6H"],
        32000: ["home: AC AD", "AS 2H 4C TS 3C", "KC 6C TC 9S JC"],
        123456: ["home: AC AD", "QD 2H 4S 8H 8C", "7C 8D 6S 7H 8S"],
    },
    "spanish_patience": {
        2: ["JH 9H 9D QS", "TH TS 7S 6H", "5S 3S QH JS"],
        20: ["7S 6C 7C 5C", "4H QD JC 9S", "AD 8S 9H TS"],
        32000: ["AS 7H 7D 9D", "KC 3S 6H 5S", "8H TD QD 2C"],
        123456: ["QD 5H JD 9D", "7C 7D TS 8C", "KS 5C 9H 8S"],
    },
    # Portuguese Solitaire, Spanish Patience II and Castles in Spain share
    # the layout (no deal hook).
    "no_hook": {
        2: ["QD 6D KS 2H", "QC 2D 7C 3H", "KC 9C 6S AD"],
        20: ["KS 5D AC 2D", "5H 2C QH KD", "6S 4S JD JS"],
        32000: ["7S AC 5H 8C", "4D 9C QS 6C", "JS 2S AD 2H"],
        123456: ["3D TH KD 7S", "2D 2S 3C 8D", "2C JS 6D 2H"],
    },
}
CASES = [
    (game, number, lines)
    for key, layouts in PYSOLFC_LAYOUTS.items()
    for game in (
        ["spanish_patience_ii", "portuguese_solitaire", "castles_in_spain"]
        if key == "no_hook" else [key]
    )
    for number, lines in layouts.items()
]


@pytest.mark.parametrize(("game", "number", "lines"), CASES)
def test_pysolfc_layouts_of_the_family(game: str, number: int, lines: list[str]) -> None:
    deal = Deal.pysol(number, game)
    assert deal.rules is find_rules(game)
    got = [" ".join(str(c) for c in column) for column in deal.columns]
    if lines[0].startswith("home: "):
        home = sorted(str(Card(1, s)) for s in Suit if deal.foundations[s])
        assert "home: " + " ".join(home) == lines[0]
        assert deal.foundations.count(1) == 2 and deal.foundations.count(0) == 2
        lines = lines[1:]
        assert len(deal.columns) == 10 and all(len(c) == 5 for c in deal.columns)
    assert got[: len(lines)] == lines


def test_good_measure_kings_above_lower_cards_round_trip() -> None:
    # PySolFC swaps Kings for 10 columns, then takes the last two Aces dealt
    # out: the cards dealt after them shift, so a few layouts have a King
    # above a lower card (deals 2, 20, 67, ...).  Such a layout is a
    # position of good_measure and its board text reads back unchanged.
    def king_above(deal: Deal) -> bool:
        return any(
            any(c.rank == 13 and any(b.rank != 13 for b in col[:i]) for i, c in enumerate(col))
            for col in deal.columns
        )

    found = [n for n in range(1, 70) if king_above(Deal.pysol(n, "good_measure"))]
    assert found[:3] == [2, 20, 67]
    for number in found:
        deal = Deal.pysol(number, "good_measure")
        assert Deal.from_text(deal.to_text(), rules="good_measure") == deal
    share = sum(king_above(Deal.pysol(n, "good_measure")) for n in range(1, 1001)) / 1000
    assert 0.01 <= share <= 0.04


def test_good_measure_matches_rules_layout() -> None:
    deal = Deal.pysol(1, "good_measure")
    assert deal.cards_left == 50 and sum(deal.foundations) == 2


def test_no_pysol_numbers_for_changed_layouts() -> None:
    rules = find_rules("portuguese_solitaire").replace(kings="stable")
    assert rules.pysol_id is None
    with pytest.raises(RulesError, match="has no PySol deal numbers"):
        Deal.pysol(1, rules)
    # A play knob keeps the layout, and the deal numbers.
    easy = find_rules("bakers_dozen").replace(empty_column="any_card")
    assert Deal.pysol(5, easy).columns == Deal.pysol(5).columns


def test_deal_24_published_check_value() -> None:
    # docs/notation.md: deal 24 starts with the lines `KD 8H AC AS` and `KC 3D 8C 2S`.
    lines = Deal.pysol(24).to_text().splitlines()
    assert lines[:2] == ["KD 8H AC AS", "KC 3D 8C 2S"]
    assert len(lines) == 13


def test_deal_1_matches_notation_md() -> None:
    # docs/notation.md prints deal 1; its first and last lines.
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
        # docs/rules.md, "The deal", item 3, bottom -> top.
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
        # docs/rules.md, "How other programs differ": PySol swaps the King with a
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
    # layout only with PySol's own King placement (docs/rules.md).
    from bakersdozen.deals import pysol_columns

    differs = [
        n for n in range(1, 60)
        if any(swap_kings(c) != stable_kings(c) for c in pysol_columns(n))
    ]
    assert differs
