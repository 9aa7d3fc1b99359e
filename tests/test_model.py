"""Move and Deal values: notation, repr, validation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import FOUNDATION, ArgumentError, Card, Deal, Move, ParseError, PositionError, Suit
from conftest import DEAL_1, positions
from reference import pack, stable_deal

cards = st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit)))


@st.composite
def moves(draw: st.DrawFn) -> Move:
    source = draw(st.integers(0, 13))  # 0: back from a foundation
    target = draw(st.sampled_from([t for t in range(14) if t != source]))
    return Move(draw(cards), source, target)


def test_move_notation_examples() -> None:
    # The examples of the notation: 7 of clubs from column 1 onto column 2,
    # ace of spades from column 3 to its foundation.
    assert str(Move(Card(7, Suit.CLUBS), 1, 2)) == "7C 1>2"
    assert str(Move(Card(1, Suit.SPADES), 3, FOUNDATION)) == "AS 3>F"
    # A card back from its foundation; a sequence named by its bottom card.
    assert str(Move(Card(5, Suit.HEARTS), FOUNDATION, 3)) == "5H F>3"
    assert Move.from_text("5h home > 3") == Move(Card(5, Suit.HEARTS), FOUNDATION, 3)
    assert str(Move.from_text("9S 4>7")) == "9S 4>7"
    assert Move(Card(1, Suit.SPADES), 3, FOUNDATION).to_foundation
    assert not Move(Card(7, Suit.CLUBS), 1, 2).to_foundation


@pytest.mark.parametrize(
    "text, expected",
    [
        ("7C 1>2", Move(Card(7, Suit.CLUBS), 1, 2)),
        ("7c 1>2", Move(Card(7, Suit.CLUBS), 1, 2)),
        ("7♣ 1 > 2", Move(Card(7, Suit.CLUBS), 1, 2)),
        ("  10h 13>12 ", Move(Card(10, Suit.HEARTS), 13, 12)),
        ("TH 13>f", Move(Card(10, Suit.HEARTS), 13, FOUNDATION)),
        ("as 3>foundation", Move(Card(1, Suit.SPADES), 3, FOUNDATION)),
        ("A♠ 3 > Home", Move(Card(1, Suit.SPADES), 3, FOUNDATION)),
        ("KD 11>F", Move(Card(13, Suit.DIAMONDS), 11, FOUNDATION)),
    ],
)
def test_move_from_text_tolerant(text: str, expected: Move) -> None:
    assert Move.from_text(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "7C", "7C 1", "7C 1>", "7X 1>2", "7C 0>2", "7C 14>2", "7C 1>1", "7C 1>G",
     "7C 1>-2", "7C one>2", "1>2", "7C 1>2>3", "7C 1>٣"],
)
def test_move_from_text_rejects(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Move.from_text(text)
    assert repr(text) in str(info.value)


def test_move_from_text_rejects_non_str() -> None:
    with pytest.raises(ParseError):
        Move.from_text(b"7C 1>2")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [(Card(7, Suit.CLUBS), 0, 0), (Card(7, Suit.CLUBS), 14, 2),
     (Card(7, Suit.CLUBS), 1, 14), (Card(7, Suit.CLUBS), 1, -1), (Card(7, Suit.CLUBS), 2, 2)],
)
def test_move_validation(args: tuple[object, object, object]) -> None:
    with pytest.raises(ArgumentError):  # the package's error, and a ValueError
        Move(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [("7C", 1, 2), (None, 1, 2), (Card(7, Suit.CLUBS), 1.0, 2), (Card(7, Suit.CLUBS), True, 2)],
)
def test_move_wrong_types(args: tuple[object, object, object]) -> None:
    with pytest.raises(TypeError, match="Move"):
        Move(*args)  # type: ignore[arg-type]


@given(moves())
def test_move_round_trips(move: Move) -> None:
    assert Move.from_text(str(move)) == move
    assert eval(repr(move)) == move
    assert hash(Move.from_text(str(move))) == hash(move)


def test_move_is_frozen() -> None:
    move = Move.from_text("7C 1>2")
    with pytest.raises(AttributeError):
        move.source = 3  # type: ignore[misc]


# -- Deal -------------------------------------------------------------------


def full_deal() -> Deal:
    return stable_deal(pack(13))


def test_deal_accepts_lists_and_stores_tuples() -> None:
    deal = full_deal()
    again = Deal([list(col) for col in deal.columns], [0, 0, 0, 0])  # type: ignore[arg-type]
    assert again == deal
    assert isinstance(again.columns, tuple) and all(isinstance(c, tuple) for c in again.columns)
    assert isinstance(again.foundations, tuple)
    assert hash(again) == hash(deal)


def test_deal_refuses_more_than_13_columns() -> None:
    columns = [(card,) for card in pack(4)]  # 16 one-card columns
    with pytest.raises(ValueError, match="at most 13 columns"):
        Deal(tuple(columns), ranks=4)


def test_deal_refuses_missing_and_duplicate_cards() -> None:
    deal = full_deal()
    first = deal.columns[0]
    with pytest.raises(ValueError, match="missing cards"):
        Deal((first[:-1],) + deal.columns[1:])
    with pytest.raises(ValueError, match=str(first[-1])):
        Deal((first + (first[-1],),) + deal.columns[1:])


def test_deal_refuses_card_above_ranks_and_on_foundation() -> None:
    with pytest.raises(ValueError, match="top rank"):
        Deal(((Card(4, Suit.CLUBS),),) + tuple((c,) for c in pack(3)), ranks=3)
    deal = stable_deal(pack(3), 3)
    with pytest.raises(ValueError, match="foundation"):
        Deal(deal.columns, (1, 0, 0, 0), 3)


def test_deal_refuses_king_above_lower_card() -> None:
    # docs/rules.md: a mid-game position with a King above another card is impossible.
    # In a reduced pack of ranks 1..3 the top rank 3 plays the King.
    ace, king = Card(1, Suit.CLUBS), Card(3, Suit.CLUBS)
    rest = tuple((c,) for c in pack(3) if c not in (ace, king))
    with pytest.raises(ValueError, match="above a lower card"):
        Deal(((ace, king),) + rest, ranks=3)
    assert Deal(((king, ace),) + rest, ranks=3).columns[0] == (king, ace)


@pytest.mark.parametrize("foundations", [(0, 0, 0), (0, 0, 0, 14), (0, 0, 0, -1)])
def test_deal_refuses_bad_foundations(foundations: object) -> None:
    with pytest.raises(PositionError, match="Deal.foundations"):
        Deal(full_deal().columns, foundations)  # type: ignore[arg-type]


@pytest.mark.parametrize("foundations", [(0, 0, 0, "A"), "CDHS"])
def test_deal_refuses_foundations_of_a_wrong_type(foundations: object) -> None:
    with pytest.raises(TypeError, match="Deal.foundations"):
        Deal(full_deal().columns, foundations)  # type: ignore[arg-type]


@pytest.mark.parametrize("ranks", [0, 14])
def test_deal_refuses_bad_ranks(ranks: object) -> None:
    with pytest.raises(PositionError, match="Deal.ranks"):
        Deal((), (0, 0, 0, 0), ranks)  # type: ignore[arg-type]


@pytest.mark.parametrize("ranks", ["13", 12.0])
def test_deal_refuses_ranks_of_a_wrong_type(ranks: object) -> None:
    with pytest.raises(TypeError, match="Deal.ranks"):
        Deal((), (0, 0, 0, 0), ranks)  # type: ignore[arg-type]


def test_won_position() -> None:
    won = Deal(((),) * 13, (13, 13, 13, 13))
    assert won.is_won
    assert won.cards_left == 0
    assert not full_deal().is_won
    assert Deal((), (3, 3, 3, 3), 3).is_won


@given(positions())
def test_deal_repr_and_str(deal: Deal) -> None:
    assert eval(repr(deal)) == deal
    assert str(deal) == deal.to_text()


@given(st.text())
def test_move_from_text_fuzz(text: str) -> None:
    try:
        move = Move.from_text(text)
    except ParseError:
        return
    assert Move.from_text(str(move)) == move


def test_card_refuses_a_bool_rank() -> None:
    with pytest.raises(TypeError, match="rank"):
        Card(True, Suit.CLUBS)  # type: ignore[arg-type]


# -- rules and input bounds (the architecture issue's "API edges") ----------------


def test_deal_carries_its_rules() -> None:
    from bakersdozen import BAKERS_DOZEN

    deal = Deal.pysol(1)
    assert deal.rules is BAKERS_DOZEN
    assert Deal.pysol(1, game="bakers_dozen") == deal
    assert eval(repr(deal)) == deal  # noqa: S307 - the repr round-trip


def test_deal_refuses_a_layout_the_reader_refuses() -> None:
    # A full pack dealt 10 x 5 is not a Baker's Dozen layout, whether it
    # comes from text or from the constructor.
    cards = [Card.from_index(i) for i in range(52)]
    ten = [tuple(cards[i::10]) for i in range(10)]
    ten = [tuple(sorted(c, key=lambda x: x.rank != 13)) for c in ten]
    with pytest.raises(ValueError, match="has 13 columns, not 10"):
        Deal(tuple(ten))
    with pytest.raises(ValueError, match="at most 13 columns, not 14"):
        Deal(tuple([()] * 14), (13, 13, 13, 13))


def test_one_as_a_rank_names_both_readings() -> None:
    with pytest.raises(ParseError, match=r"'1D'.*Ace \('AD'\).*ten.*'TD' or '10D'"):
        Card.from_text("1D")
    with pytest.raises(ParseError, match="ambiguous card '1h'"):
        Deal.from_text(DEAL_1.replace("AH", "1h"))


def test_huge_column_number_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not in 1..13"):
        Move.from_text("7C " + "9" * 60 + ">2")
    with pytest.raises(ParseError, match="a few characters"):
        Move.from_text("7C " + "9" * 5000 + ">2")


# Foundations not built by suit: the cards home are those not in a column.
_PILES = "Foundations: C-2 H-1\n3C 2C AS\n3D AD\n3H 2H\n3S 2S\n"


def test_alternate_colour_foundations_home_cards() -> None:
    # Home: AC and a red 2 on the clubs pile, AH on the hearts pile.
    deal = Deal.from_text(_PILES, ranks=3, rules="spanish_patience")
    assert deal.foundations == (2, 0, 1, 0)
    assert Deal.from_text(deal.to_text(), ranks=3, rules="spanish_patience") == deal


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_PILES.replace("3H 2H", "3H 2H 2D").replace("3S 2S", "3S"),
         "1 red and 0 black 2s.*are 2S"),
        (_PILES.replace("3D AD", "3D"), "Aces home must be those of the piles begun"),
    ],
)
def test_alternate_colour_foundations_refused(text: str, message: str) -> None:
    from bakersdozen import ParseError

    with pytest.raises(ParseError, match=message):
        Deal.from_text(text, ranks=3, rules="spanish_patience")


def test_any_suit_foundations_take_any_card() -> None:
    from bakersdozen.rules import BAKERS_DOZEN

    rules = BAKERS_DOZEN.replace(foundation_build="any_suit")
    text = _PILES.replace("3H 2H", "3H 2H 2D").replace("3S 2S", "3S")
    assert Deal.from_text(text, ranks=3, rules=rules).foundations == (2, 0, 1, 0)
    with pytest.raises(ValueError, match="hold 1 2s"):
        Deal(Deal.from_text(_PILES, ranks=3, rules="spanish_patience").columns[:3],
             (2, 0, 1, 0), 3, rules)
