"""Board text ⇄ :class:`~bakersdozen.model.Deal` (the fc-solve / PySol format).

The format is described in NOTATION.md.  Reading is tolerant; writing is
canonical.

Reading (:func:`parse_board`)
-----------------------------
- One line per column, column 1 first; the first card on a line is the
  bottom card, the last the top (playable) card.
- Cards: rank ``A 2 .. 9 T J Q K`` (``10`` and ``1`` also accepted), suit
  ``C D H S`` or ``♣ ♦ ♥ ♠`` (hollow ``♧ ♢ ♡ ♤`` too), any case.
- A column line may start with ``:``.  A lone ``:`` is always an empty
  column.  Blank lines before the first column line and after the last one
  are ignored; a blank line *between* two column lines is an empty column.
- An optional foundations line, ``Foundations: H-0 C-2 D-A S-0`` (also
  ``Found:``, ``Founds:``, ``Foundation:``, ``Decks:``; any case): suit,
  dash, the highest rank on that foundation (``0`` for empty; ``T``, ``10``,
  ``K`` and the other rank names as for cards).  Suits not named are empty;
  a lone ``-`` (what ``pysol_cards`` writes for none) is ignored.
- A ``Freecells:`` line is accepted only if it is empty (Baker's Dozen has
  no free cells, RULES.md).
- CRLF or CR line ends, a byte-order mark, leading/trailing spaces.
- **Kings rule**: if nothing is on the foundations the text is taken as an
  initial layout and the *stable* Kings rule of RULES.md is applied to any
  column whose Kings are not at the bottom; :func:`parse_board` reports
  whether it did.  If some foundation is not empty (a mid-game position)
  a King above another card is impossible and is refused.

Writing (:func:`format_board`)
------------------------------
A ``Foundations: H-x C-x D-x S-x`` line first, only when some foundation
is not empty; then one line per column, cards separated by one space
(``KC TH AH 6S``); an empty column is written as a lone ``:``, which
Freecell Solver reads as an empty stack.  Every line ends in ``\\n``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import _RANK_ALIASES, _SUIT_ALIASES, KING, RANK_NAMES, Card, Suit
from .errors import ParseError
from .model import MAX_COLUMNS, Deal

__all__ = ["parse_board", "format_board", "pretty_board", "stable_kings"]

_FOUNDATION_PREFIX: Final = re.compile(r"(foundations?|founds?|decks)\s*:", re.IGNORECASE)
_FREECELL_PREFIX: Final = re.compile(r"freecells?\s*:", re.IGNORECASE)
# fc-solve's order for the foundations line.
_FOUNDATION_ORDER: Final = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a card was written: 1-based line and token numbers, as written."""

    line: int
    token: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}, token {self.token} ({self.text!r})"


def stable_kings(column: Sequence[Card], top_rank: int = KING) -> tuple[Card, ...]:
    """Apply the stable Kings rule of RULES.md to one column.

    Every card of rank *top_rank* moves to the bottom; the other cards keep
    their relative order, and so do the Kings (a stable partition, Kings
    first).

    Parameters
    ----------
    column : sequence of Card
        One column, bottom → top.
    top_rank : int, default 13
        The rank treated as King (the pack's top rank in a reduced pack).

    Returns
    -------
    tuple of Card
        The column after the rule, bottom → top.

    Examples
    --------
    The examples of RULES.md ("The deal", item 3):

    >>> from bakersdozen.cards import Card
    >>> col = [Card.from_text(t) for t in "A♣ 2♦ K♠ 3♥".split()]
    >>> " ".join(str(c) for c in stable_kings(col))
    'KS AC 2D 3H'
    >>> col = [Card.from_text(t) for t in "5♣ K♥ 9♦ K♠".split()]
    >>> " ".join(str(c) for c in stable_kings(col))
    'KH KS 5C 9D'
    """
    kings = [card for card in column if card.rank == top_rank]
    others = [card for card in column if card.rank != top_rank]
    return tuple(kings + others)


def _kings_at_bottom(column: Sequence[Card], top_rank: int) -> bool:
    seen_other = False
    for card in column:
        if card.rank != top_rank:
            seen_other = True
        elif seen_other:
            return False
    return True


def _parse_rank(text: str) -> int | None:
    if text == "0":
        return 0
    return _RANK_ALIASES.get(text.upper())


def _parse_foundations(
    body: str, number: int, prefix: str
) -> tuple[list[int], dict[Suit, _Where]]:
    tops = [0, 0, 0, 0]
    where: dict[Suit, _Where] = {}
    for index, token in enumerate(body.split(), 1):
        if token == "-":  # pysol_cards writes "Foundations: -" for none
            continue
        suit_text, dash, rank_text = token.partition("-")
        suit_index = _SUIT_ALIASES.get(suit_text.upper()) if dash else None
        rank = _parse_rank(rank_text) if dash else None
        if suit_index is None or rank is None:
            raise ParseError(
                f"line {number}: foundation token {index} {token!r} is not SUIT-RANK "
                f"(e.g. 'H-0', 'C-2', 'D-A', 'S-K') in the {prefix!r} line"
            )
        suit = Suit(suit_index)
        if suit in where:
            raise ParseError(
                f"line {number}: the {suit.name.lower()} foundation is given twice, "
                f"as {where[suit].text!r} and as {token!r}"
            )
        where[suit] = _Where(number, index, token)
        tops[suit] = rank
    return tops, where


def parse_board(text: str, ranks: int | None = KING) -> tuple[Deal, bool]:
    """Read board text (NOTATION.md) into a :class:`Deal`.

    Parameters
    ----------
    text : str
        The board, one line per column (see the module docstring for what
        is accepted).
    ranks : int or None, default 13
        The pack's top rank (13 for the real game).  ``None`` infers it as
        the highest rank written, for the reduced packs tests use.

    Returns
    -------
    deal : Deal
        The position.
    kings_moved : bool
        True if the text was an initial layout (nothing on the foundations)
        whose Kings were not all at the bottom, so that the stable Kings
        rule of RULES.md was applied.

    Raises
    ------
    ParseError
        If *text* is not a str or not a position: empty input, an unknown
        token, a duplicate card (both places named), missing cards (listed),
        a card both in a column and on a foundation, a card above the top
        rank, more than 13 columns, a non-empty ``Freecells:`` line, or a
        King above another card in a mid-game position.  The message gives
        the line number and the token as written.
    """
    if not isinstance(text, str):
        raise ParseError(f"board text must be a str, not {type(text).__name__}")
    if ranks is not None and (type(ranks) is not int or not 1 <= ranks <= KING):
        raise ParseError(f"the pack's top rank must be 1..13, not {ranks!r}")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]

    column_lines: list[tuple[int, list[tuple[Card, _Where]] | None]] = []
    foundations: list[int] = [0, 0, 0, 0]
    foundation_where: dict[Suit, _Where] = {}
    foundation_line = 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        match = _FOUNDATION_PREFIX.match(line)
        if match:
            if foundation_line:
                raise ParseError(
                    f"line {number}: a second foundations line {line!r} "
                    f"(the first is line {foundation_line})"
                )
            foundation_line = number
            foundations, foundation_where = _parse_foundations(
                line[match.end():], number, match.group(0)
            )
            continue
        match = _FREECELL_PREFIX.match(line)
        if match:
            rest = line[match.end():].split()
            if any(token != "-" for token in rest):
                raise ParseError(
                    f"line {number}: {line!r}: Baker's Dozen has no free cells (RULES.md)"
                )
            continue
        if line == "":
            column_lines.append((number, None))  # blank: empty column if between columns
            continue
        if line.startswith(":"):
            line = line[1:]
        cards: list[tuple[Card, _Where]] = []
        for index, token in enumerate(line.split(), 1):
            try:
                card = Card.from_text(token)
            except ParseError:
                raise ParseError(
                    f"line {number}, token {index}: unknown token {token!r} "
                    "(a card is a rank A 2..9 T J Q K and a suit C D H S, e.g. 'TH')"
                ) from None
            cards.append((card, _Where(number, index, token)))
        column_lines.append((number, cards))

    # Blank lines before the first and after the last column line are ignored.
    while column_lines and column_lines[0][1] is None:
        column_lines.pop(0)
    while column_lines and column_lines[-1][1] is None:
        column_lines.pop()
    if not column_lines and not any(foundations):
        raise ParseError("empty board text: no columns and no foundations")
    if len(column_lines) > MAX_COLUMNS:
        number = column_lines[MAX_COLUMNS][0]
        raise ParseError(
            f"line {number}: more than {MAX_COLUMNS} columns "
            f"(this is column {MAX_COLUMNS + 1}; a blank line between columns is an "
            "empty column)"
        )

    columns = [[card for card, _ in entries or ()] for _, entries in column_lines]
    places: dict[Card, _Where] = {}
    for _, entries in column_lines:
        for card, where in entries or ():
            if card in places:
                raise ParseError(
                    f"duplicate card {str(card)!r}: at {places[card]} and at {where}"
                )
            places[card] = where

    if ranks is None:
        highest = [card.rank for card in places] + foundations
        ranks = max(highest) if highest else 0
        if ranks < 1:
            raise ParseError("empty board text: no cards")
    for card, where in places.items():
        if card.rank > ranks:
            raise ParseError(f"{where}: card {str(card)!r} is above the pack's top rank {ranks}")
    for suit, where in foundation_where.items():
        if foundations[suit] > ranks:
            raise ParseError(
                f"{where}: foundation rank is above the pack's top rank {ranks}"
            )
    for card, where in places.items():
        if card.rank <= foundations[card.suit]:
            found = foundation_where[card.suit]
            raise ParseError(
                f"card {str(card)!r} at {where} is also on the "
                f"{card.suit.name.lower()} foundation ({found})"
            )
    missing = [
        Card(rank, suit)
        for rank in range(1, ranks + 1)
        for suit in Suit
        if rank > foundations[suit] and Card(rank, suit) not in places
    ]
    if missing:
        raise ParseError(
            f"missing {len(missing)} card{'s' if len(missing) > 1 else ''}: "
            + " ".join(str(card) for card in missing)
        )

    if ranks == 13 and not any(foundations) and len(column_lines) < MAX_COLUMNS:
        # A deal of the real game has 13 columns; fewer lines means lost
        # line breaks or a mangled file, not a smaller game.
        raise ParseError(
            f"{len(column_lines)} column lines (lines {column_lines[0][0]}-"
            f"{column_lines[-1][0]}); Baker's Dozen has {MAX_COLUMNS} "
            "(write an empty column as a lone ':')"
        )
    kings_moved = False
    initial = not any(foundations)
    for (_, entries), column in zip(column_lines, columns):
        if _kings_at_bottom(column, ranks):
            continue
        if not initial:
            other = False
            for card, where in entries or ():
                if card.rank != ranks:
                    other = True
                elif other:
                    raise ParseError(
                        f"{where}: {str(card)!r} is above a lower card in a mid-game "
                        "position (cards are on the foundations), which is impossible: "
                        "Kings go to the bottom at the deal and never move onto "
                        "another card (RULES.md)"
                    )
        column[:] = stable_kings(column, ranks)
        kings_moved = True

    try:
        deal = Deal(
            tuple(tuple(column) for column in columns),
            (foundations[0], foundations[1], foundations[2], foundations[3]),
            ranks,
        )
    except ValueError as error:  # pragma: no cover - every case is caught above
        raise ParseError(f"not a position: {error}") from None
    return deal, kings_moved


def format_board(deal: Deal) -> str:
    """Write *deal* as canonical board text (fc-solve / PySol format).

    Parameters
    ----------
    deal : Deal

    Returns
    -------
    str
        ``Foundations: H-x C-x D-x S-x`` first if some foundation is not
        empty, then one line per column (``KC TH AH 6S``, bottom → top; an
        empty column is ``:``); every line ends in a newline.
        :func:`parse_board` reads it back to an equal Deal.
    """
    lines = []
    if any(deal.foundations):
        lines.append(
            "Foundations: "
            + " ".join(f"{s.letter}-{RANK_NAMES[deal.foundations[s]] if deal.foundations[s] else '0'}"
                       for s in _FOUNDATION_ORDER)
        )
    for column in deal.columns:
        lines.append(" ".join(str(card) for card in column) if column else ":")
    return "".join(line + "\n" for line in lines)


def pretty_board(deal: Deal) -> str:
    """A tableau view of *deal* for people, with suit symbols.

    Columns stand side by side under their numbers 1..13; row *i* shows the
    *i*-th card from the bottom of each column, so the playable (top) cards
    are the last of each column.  A last line shows the foundations.

    Parameters
    ----------
    deal : Deal

    Returns
    -------
    str
        Lines ending in newlines.
    """
    width = 4
    out = ["".join(f"{n:>{width}}" for n in range(1, len(deal.columns) + 1)).rstrip()]
    height = max((len(column) for column in deal.columns), default=0)
    for row in range(height):
        cells = [
            f"{column[row].symbol:>{width}}" if row < len(column) else " " * width
            for column in deal.columns
        ]
        out.append("".join(cells).rstrip())
    empty = [str(n) for n, column in enumerate(deal.columns, 1) if not column]
    if empty:
        out.append("empty columns: " + " ".join(empty))
    founds = []
    for suit in Suit:
        top = deal.foundations[suit]
        founds.append(suit.symbol + " " + (Card(top, suit).symbol[:-1] if top else "-"))
    out.append("foundations: " + "  ".join(founds))
    return "".join(line + "\n" for line in out)
