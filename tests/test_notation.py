"""Board text: tolerant reading, canonical writing, errors, the Kings rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import Card, Deal, Move, ParseError, Suit
from bakersdozen import parse_board
from bakersdozen.rules import stable_kings
from conftest import DEAL_1, positions

LINES = DEAL_1.splitlines()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_text(t) for t in text.split())


def test_reads_notation_example() -> None:
    deal, kings_moved = parse_board(DEAL_1)
    assert not kings_moved
    assert len(deal.columns) == 13
    assert deal.columns[0] == cards("6H JH 5C AD")  # first line = column 1, bottom first
    assert deal.columns[3][-1] == Card(6, Suit.SPADES)  # top of column 4
    assert deal.foundations == (0, 0, 0, 0)
    assert deal.to_text() == DEAL_1


def symbols(line: str) -> str:
    return line.translate(str.maketrans("CDHS", "♣♦♥♠")).replace("T", "10")


@pytest.mark.parametrize(
    "text",
    [
        DEAL_1.lower(),
        DEAL_1.replace("\n", "\r\n"),
        DEAL_1.replace("\n", "\r"),
        DEAL_1.replace("T", "10"),
        "\n".join(symbols(line) for line in LINES),
        "\n".join(": " + line for line in LINES),
        "\n".join(":" + line for line in LINES),
        "\n".join("  " + line.replace(" ", "   ") + " \t" for line in LINES),
        DEAL_1 + "\n\n  \n",
        "\n\n" + DEAL_1,
        "\ufeff" + DEAL_1,
        "Foundations: H-0 C-0 D-0 S-0\n" + DEAL_1,
        "founds: -\n" + DEAL_1,
        "Freecells:\n" + DEAL_1,
        "freecells: - - - -\n" + DEAL_1,
        DEAL_1.replace("AH", "A♡").replace("AD", "a♢"),
    ],
)
def test_tolerant_input(text: str) -> None:
    deal, kings_moved = parse_board(text)
    assert not kings_moved
    assert deal.to_text() == DEAL_1


MID_GAME = """\
Foundations: H-0 C-2 D-A S-0
6H JH 5C
2H 4C 5S
9C 8H 3C 9S
KC TH AH 6S
KD 4S AS TC
8C TD JS 5H
3D 3S QD 7C
6C 7S 9D 7H
KS 4D QS 5D
8D 2S JC
8S 4H 3H 9H
KH QH 6D 2D
7D TS QC JD
"""


@pytest.mark.parametrize(
    "prefix",
    ["Foundations:", "foundations:", "FOUND:", "Founds:", "Foundation:", "Decks:", "decks :"],
)
def test_foundation_prefixes(prefix: str) -> None:
    text = MID_GAME.replace("Foundations:", prefix)
    deal = Deal.from_text(text)
    assert deal.foundations == (2, 1, 0, 0)
    assert deal.to_text() == MID_GAME


@pytest.mark.parametrize(
    "line",
    ["Foundations: H-0 C-2 D-A S-0", "Foundations: C-2 D-1", "Foundations: D-a c-2",
     "Foundations: ♣-2 ♦-A ♥-0 ♠-0", "Foundations:C-2 D-A"],
)
def test_foundation_line_variants(line: str) -> None:
    text = MID_GAME.replace("Foundations: H-0 C-2 D-A S-0", line)
    assert Deal.from_text(text).foundations == (2, 1, 0, 0)


def test_foundation_ranks_t_10_k() -> None:
    won = "Foundations: H-K C-K D-K S-K\n"
    assert Deal.from_text(won).is_won
    hearts = [Card(r, Suit.HEARTS) for r in range(11, 14)]
    text = "Foundations: H-10 C-K D-K S-K\n" + " ".join(map(str, reversed(hearts))) + "\n"
    assert Deal.from_text(text).foundations == (13, 13, 10, 13)
    assert Deal.from_text(text.replace("H-10", "H-T")).foundations == (13, 13, 10, 13)


def test_empty_columns() -> None:
    # A lone ":" is an empty column; so is a blank line between column lines.
    deal = Deal.from_text("Foundations: H-K C-K D-K S-Q\n:\nKS\n:\n")
    assert deal.columns == ((), cards("KS"), ())
    assert deal.to_text() == "Foundations: H-K C-K D-K S-Q\n:\nKS\n:\n"
    assert Deal.from_text("Foundations: H-K C-K D-K S-Q\n\n:\nKS\n:\n\n").columns == (
        (), cards("KS"), ())
    assert Deal.from_text("Foundations: H-K C-K D-K S-J\nKS\n\nQS\n").columns == (
        cards("KS"), (), cards("QS"))


# -- the Kings rule -------------------------------------------------------------


def test_stable_kings_rules_examples() -> None:
    # docs/rules.md, "The deal", item 3.
    assert stable_kings(cards("A♣ 2♦ K♠ 3♥")) == cards("K♠ A♣ 2♦ 3♥")
    assert stable_kings(cards("5♣ K♥ 9♦ K♠")) == cards("K♥ K♠ 5♣ 9♦")
    assert stable_kings(cards("K♦ 4♠ 7♣ 2♥")) == cards("K♦ 4♠ 7♣ 2♥")


def test_parser_applies_stable_kings_rule_to_initial_layout() -> None:
    # Columns built from the docs/rules.md examples, in an otherwise valid layout.
    text = DEAL_1
    text = text.replace("KC TH AH 6S", "TH AH KC 6S")
    text = text.replace("KS 4D QS 5D", "4D KS QS 5D")
    deal, kings_moved = parse_board(text)
    assert kings_moved
    assert deal.columns[3] == cards("KC TH AH 6S")
    assert deal.columns[8] == cards("KS 4D QS 5D")
    text2 = DEAL_1.replace("KD 4S AS TC", "4S KD AS TC").replace("KH QH 6D 2D", "QH 6D KH 2D")
    deal2, moved2 = parse_board(text2)
    assert moved2
    assert deal2.columns[4] == cards("KD 4S AS TC")
    assert deal2.columns[11] == cards("KH QH 6D 2D")


def test_two_kings_keep_their_order() -> None:
    text = DEAL_1.replace("KC TH AH 6S", "TH KC AH 6S").replace("KD 4S AS TC", "4S AS KD TC")
    # Put both kings of docs/rules.md's second example shape into one column.
    text = text.replace("TH KC AH 6S", "TH KC AH KD").replace("4S AS KD TC", "4S AS 6S TC")
    deal, moved = parse_board(text)
    assert moved
    assert deal.columns[3] == cards("KC KD TH AH")


def test_mid_game_king_above_card_is_refused() -> None:
    text = MID_GAME.replace("KC TH AH 6S", "TH KC AH 6S")
    with pytest.raises(ParseError, match=r"line 5.*'KC'"):
        Deal.from_text(text)


# -- errors ------------------------------------------------------------------------


def error(text: object) -> str:
    with pytest.raises(ParseError) as info:
        parse_board(text)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_error_unknown_token() -> None:
    message = error(DEAL_1.replace("JS", "JX"))
    assert "line 6" in message and "token 3" in message and "'JX'" in message
    message = error(DEAL_1.replace("7D TS QC JD", "7D TS QC JD ,"))
    assert "line 13" in message and "','" in message


def test_error_duplicate_card() -> None:
    message = error(DEAL_1.replace("6S", "2H"))  # 2H is also on line 2
    assert "duplicate" in message and "'2H'" in message
    assert "line 2" in message and "line 4" in message


def test_error_duplicate_names_both_spellings() -> None:
    message = error(DEAL_1.replace("6S", "2♥"))
    assert "'2H'" in message and "'2♥'" in message


def test_error_missing_cards() -> None:
    message = error(DEAL_1.replace("7D TS QC JD\n", ""))
    assert "missing 4 cards" in message
    for name in ("7D", "TS", "QC", "JD"):
        assert name in message


def test_error_card_in_column_and_on_foundation() -> None:
    message = error("Foundations: C-A\n" + DEAL_1)
    assert "'AC'" in message and "foundation" in message and "line 11" in message
    assert "C-A" in message


def test_error_more_than_13_columns() -> None:
    message = error(DEAL_1.replace("KC TH AH 6S", "KC TH\nAH 6S"))
    assert "more than 13 columns" in message and "line 14" in message


def test_error_blank_lines_between_columns_count() -> None:
    message = error(DEAL_1.replace("\n", "\n\n"))
    assert "more than 13 columns" in message


@pytest.mark.parametrize("text", ["", "   ", "\n\n\n", "\r\n", "Foundations:\n"])
def test_error_empty_input(text: str) -> None:
    assert "empty" in error(text)


@pytest.mark.parametrize("value", [None, b"KC TH", 42, ["KC"]])
def test_error_non_str_input(value: object) -> None:
    assert "str" in error(value)
    with pytest.raises(ParseError):
        Deal.from_text(value)  # type: ignore[arg-type]


def test_error_freecells() -> None:
    message = error("Freecells: 7C\n" + DEAL_1)
    assert "free cells" in message and "line 1" in message


@pytest.mark.parametrize("token", ["H-X", "X-2", "H2", "H-", "H-14", "-2"])
def test_error_bad_foundation_token(token: str) -> None:
    message = error(f"Foundations: {token}\n" + DEAL_1)
    assert "line 1" in message and repr(token) in message


def test_error_foundation_suit_twice_and_two_lines() -> None:
    assert "twice" in error("Foundations: C-0 C-0\n" + DEAL_1)
    message = error("Foundations: C-0\nFound: D-0\n" + DEAL_1)
    assert "line 2" in message and "line 1" in message


def test_error_card_above_top_rank() -> None:
    message = error("AC AD AH AS\n2C 2D 2H 2S\nKC\n".replace("KC", "3C"))
    assert "missing" in message  # 13-rank pack by default
    with pytest.raises(ParseError, match="top rank 2"):
        parse_board("AC AD AH AS\n2C 2D 2H 2S\n3C\n", ranks=2)


def test_reduced_pack_ranks() -> None:
    text = "2C AD AH\n2D AC\n2H 2S AS\n"
    assert parse_board(text, ranks=None)[0].ranks == 2
    assert parse_board(text, ranks=2)[0].ranks == 2
    with pytest.raises(ParseError, match="missing"):
        parse_board(text)
    with pytest.raises(ParseError):
        parse_board(text, ranks=0)


# -- properties -----------------------------------------------------------------------


@given(positions())
def test_round_trip(deal: Deal) -> None:
    text = deal.to_text()
    again, kings_moved = parse_board(text, ranks=deal.ranks)
    assert again == deal
    assert not kings_moved


@given(positions())
def test_round_trip_through_symbols_and_crlf(deal: Deal) -> None:
    text = deal.to_text()
    messy = "\r\n".join(
        symbols(line) if not line.startswith("Foundations") else line.lower()
        for line in text.splitlines()
    )
    assert Deal.from_text(messy + "\r\n\r\n", ranks=deal.ranks) == deal


@given(st.text())
def test_fuzz_arbitrary_text(text: str) -> None:
    try:
        deal, _ = parse_board(text)
    except ParseError:
        return
    assert isinstance(deal, Deal)


TOKENS = st.sampled_from(
    LINES + ["", ":", "Foundations:", "C-2", "H-K", "D-A", "Freecells:", "KC", "AH", "10♥",
             "x", "-", "S-", "♠-Q", "Decks: S-3", "\r", "  ", "Found: C-1"]
)


@given(st.lists(st.lists(TOKENS, max_size=5).map(" ".join), max_size=16).map("\n".join))
def test_fuzz_plausible_text(text: str) -> None:
    try:
        deal, _ = parse_board(text, ranks=None)
    except ParseError:
        return
    assert parse_board(deal.to_text(), ranks=deal.ranks)[0] == deal


def test_pretty() -> None:
    deal = Deal.from_text(DEAL_1)
    pretty = deal.pretty().splitlines()
    assert pretty[0].split() == [str(n) for n in range(1, 14)]
    assert pretty[1].split()[:4] == ["6♥", "2♥", "9♣", "K♣"]  # bottom cards first
    assert pretty[2].split()[3] == "10♥"
    assert pretty[4].split()[0] == "A♦"  # top card of column 1 on the last row
    assert "foundations" in pretty[-1]
    mid = Deal.from_text(MID_GAME).pretty()
    assert "♣ 2" in mid and "♦ A" in mid


def test_huge_input_is_refused_at_once() -> None:
    # A board is under 1 KB; a megabyte of newlines or one long line of
    # cards fails at once instead of being tokenised.
    import time

    for text in ("\n" * 1_000_000, "AH " * 400_000):
        start = time.perf_counter()
        with pytest.raises(ParseError, match="a board is under 1 KB"):
            parse_board(text)
        assert time.perf_counter() - start < 1.0


def test_board_of_another_game_size_is_refused_by_name() -> None:
    message = error(DEAL_1.replace("KC TH AH 6S", "KC TH\nAH 6S"))
    assert "Baker's Dozen has 13" in message


def test_suit_symbols_with_the_emoji_variation_selector() -> None:
    # pasted text often writes a suit as U+2665 U+FE0F ("6♥️"): once "unknown token"
    emoji = {"C": "♣\ufe0f", "D": "♦\ufe0f", "H": "♥\ufe0f", "S": "♠\ufe0f"}
    text = "".join(emoji.get(char, char) for char in Deal.pysol(1).to_text())
    assert Deal.from_text(text) == Deal.pysol(1)
    assert Move.from_text("6♥\ufe0f 1>2") == Move.from_text("6H 1>2")
    with pytest.raises(ParseError):  # a letter with a selector is still not a card
        Card.from_text("6H\ufe0f")
