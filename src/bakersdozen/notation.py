"""Board text (the Freecell Solver / PySol format) ⇄ columns and foundations.

The format is described in ``docs/notation.md``.  Reading is tolerant;
writing is canonical.  This module works on plain card data, below
:class:`~bakersdozen.model.Deal`, which builds on it
(:meth:`Deal.from_text <bakersdozen.Deal.from_text>`,
:meth:`Deal.to_text <bakersdozen.Deal.to_text>`).

Reading (:func:`~bakersdozen.parse_board`)
------------------------------------------
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
- A ``Freecells:`` line is accepted only if it is empty (the games of the
  Baker's Dozen family have no free cells).
- CRLF or CR line ends, a byte-order mark, leading/trailing spaces.
- At most :data:`MAX_BOARD_CHARS` characters: a board is a few hundred
  bytes, and anything far larger is refused before it is read.
- **Kings rule**: if the foundations hold no more than the game puts there
  before play, the text is taken as an initial layout and the game's Kings
  rule (``Rules.kings``) is applied
  to any column whose Kings are not at the bottom; :func:`read_board`
  reports whether it did.  Otherwise (a mid-game position) a King above
  another card is impossible in a game that moves Kings at the deal, and
  is refused.

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

from ._values import frozen_value
from .cards import _RANK_ALIASES, _SUIT_ALIASES, KING, RANK_NAMES, Card, Suit
from .errors import ParseError
from .rules import (
    BAKERS_DOZEN, FoundationBuild, KingsRule, Rules, apply_kings_rule, stable_kings,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

__all__ = [
    "BoardText", "MAX_BOARD_CHARS", "read_board", "format_board", "pretty_board", "stable_kings",
    "home_mismatch",
]

#: The longest board text read, in characters.  A board of the full pack is
#: under 1 KB (52 cards of 2-3 characters, a foundations line); this bound
#: lets a mistaken file (a log, a binary) fail at once instead of being read.
MAX_BOARD_CHARS: Final = 16384

#: Columns, each a tuple of cards bottom → top.
Columns = tuple[tuple[Card, ...], ...]

_FOUNDATION_PREFIX: Final = re.compile(r"(foundations?|founds?|decks)\s*:", re.IGNORECASE)
_FREECELL_PREFIX: Final = re.compile(r"freecells?\s*:", re.IGNORECASE)
# fc-solve's order for the foundations line.
_FOUNDATION_ORDER: Final = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


@frozen_value
class _Where:
    """Where a card was written: 1-based line and token numbers, as written."""

    line: int
    token: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}, token {self.token} ({self.text!r})"


def _kings_at_bottom(column: Sequence[Card], top_rank: int) -> bool:
    seen_other = False
    for card in column:
        if card.rank != top_rank:
            seen_other = True
        elif seen_other:
            return False
    return True


def _parse_rank(text: str) -> int | None:
    """A foundation's height: ``0`` for none, a rank name, or ``1`` (one card, the Ace)."""
    if text in ("0", "1"):
        return int(text)
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


@frozen_value
class BoardText:
    """What :func:`read_board` read: a position as plain card data.

    Attributes
    ----------
    columns : tuple of tuple of Card
        The columns in line order, each bottom → top.
    foundations : (int, int, int, int)
        The highest rank on each suit's foundation (clubs, diamonds, hearts,
        spades), 0 for none.
    ranks : int
        The pack's top rank.
    kings_moved : bool
        True if the text was an initial layout whose Kings were not all at
        the bottom, so that the game's Kings rule was applied.
    """

    columns: Columns
    foundations: tuple[int, int, int, int]
    ranks: int
    kings_moved: bool


def read_board(
    text: str, rules: Rules = BAKERS_DOZEN, ranks: int | None = KING
) -> BoardText:
    """Read board text (``docs/notation.md``) into columns and foundations.

    Parameters
    ----------
    text : str
        The board, one line per column (see the module docstring for what
        is accepted); at most :data:`MAX_BOARD_CHARS` characters.
    rules : Rules
        The game: how many columns it has, its Kings rule and how many Aces
        it puts on the foundations before play.
    ranks : int or None, default 13
        The pack's top rank (13 for the real game).  ``None`` infers it as
        the highest rank written, for the reduced packs tests use.

    Returns
    -------
    BoardText

    Raises
    ------
    ParseError
        If *text* is not a str or not a position of the game: too long,
        empty, an unknown token, a duplicate card (both places named),
        missing cards (listed), a card both in a column and on a foundation,
        a card above the top rank, more columns than the game has, a
        non-empty ``Freecells:`` line, or a King above another card in a
        mid-game position.  The message gives the line number and the token
        as written.
    """
    if not isinstance(text, str):
        raise ParseError(f"board text must be a str, not {type(text).__name__}")
    if len(text) > MAX_BOARD_CHARS:
        raise ParseError(
            f"board text of {len(text)} characters: a board is under 1 KB, and at most "
            f"{MAX_BOARD_CHARS} characters are read"
        )
    max_columns = rules.columns
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
                    f"line {number}: {line!r}: {rules.title} has no free cells"
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
            except ParseError as error:
                if "ambiguous" in str(error):
                    raise ParseError(f"line {number}, token {index}: {error}") from None
                raise ParseError(
                    f"line {number}, token {index}: unknown token {token!r} "
                    "(a card is a rank A 2..9 T J Q K and a suit C D H S, e.g. 'TH')"
                ) from None
            cards.append((card, _Where(number, index, token)))
        column_lines.append((number, cards))

    # Blank lines before the first and after the last column line are ignored.
    first = next((i for i, (_, cards) in enumerate(column_lines) if cards is not None), None)
    if first is None:
        column_lines = []
    else:
        last = max(i for i, (_, cards) in enumerate(column_lines) if cards is not None)
        column_lines = column_lines[first:last + 1]
    if not column_lines and not any(foundations):
        raise ParseError("empty board text: no columns and no foundations")
    if len(column_lines) > max_columns:
        number = column_lines[max_columns][0]
        raise ParseError(
            f"line {number}: more than {max_columns} columns "
            f"(this is column {max_columns + 1}; {rules.title} has {max_columns}; "
            "a blank line between columns is an empty column)"
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
    if rules.foundation_build is not FoundationBuild.BY_SUIT:
        # The home cards are the cards not written in a column.
        mismatch = home_mismatch(columns, foundations, ranks, rules.foundation_build)
        if mismatch is not None:
            where_line = f"line {foundation_line}: " if foundation_line else ""
            raise ParseError(
                f"{where_line}the foundation heights do not fit the cards not in a column "
                f"({rules.title} builds its foundations in {rules.foundation_build}): "
                + mismatch
            )
    for card, where in places.items():
        if rules.foundation_build is not FoundationBuild.BY_SUIT:
            break
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
    if missing and rules.foundation_build is FoundationBuild.BY_SUIT:
        raise ParseError(
            f"missing {len(missing)} card{'s' if len(missing) > 1 else ''}: "
            + " ".join(str(card) for card in missing)
        )

    # The foundations of an initial layout hold at most the Aces the game
    # puts there before play.
    initial = sum(foundations) <= rules.start_aces and max(foundations) <= 1
    if ranks == KING and initial and len(column_lines) < max_columns:
        # A deal of the real game has all its columns; fewer lines means
        # lost line breaks or a mangled file, not a smaller game.
        raise ParseError(
            f"{len(column_lines)} column lines (lines {column_lines[0][0]}-"
            f"{column_lines[-1][0]}); {rules.title} has {max_columns} "
            "(write an empty column as a lone ':')"
        )
    kings_moved = False
    for (_, entries), column in zip(column_lines, columns):
        if rules.kings is KingsRule.NONE or _kings_at_bottom(column, ranks):
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
                        f"{rules.title} moves Kings to the bottom at the deal, and a King "
                        "never moves onto another card"
                    )
        column[:] = apply_kings_rule(column, rules.kings, ranks)
        kings_moved = True
    return BoardText(
        tuple(tuple(column) for column in columns),
        (foundations[0], foundations[1], foundations[2], foundations[3]),
        ranks,
        kings_moved,
    )


def home_mismatch(
    columns: Sequence[Sequence[Card]],
    foundations: Sequence[int],
    ranks: int,
    build: FoundationBuild,
) -> str | None:
    """Why the cards not in a column cannot be the foundations' cards, or None.

    With foundations built by suit, pile *i* holds ranks ``1..h`` of suit
    *i*.  Otherwise a position records only each pile's height *h*: pile
    *i* holds the Ace of suit *i* and ``h - 1`` cards above it, and the
    cards *home* are the cards of the pack not in a column.  They fit the
    heights if, for every rank *r*, the home cards of rank *r* are what
    the piles with ``h >= r`` need there: for ``r = 1`` the Aces of those
    piles' suits; above, as many cards as there are such piles (any suit)
    or, for each colour, as many as those piles need of it (alternate
    colours: pile *i*'s card of rank *r* has its Ace's colour for odd *r*,
    the other colour for even *r*).  Within a colour the suits can be
    exchanged between piles, so these counts are also enough.

    Parameters
    ----------
    columns : sequence of sequence of Card
        The columns; cards above *ranks* or repeated are the caller's to refuse.
    foundations : sequence of 4 int
        Pile heights, indexed by the suit of each pile's Ace.
    ranks : int
        The pack's top rank.
    build : FoundationBuild
        How the foundations are built.

    Returns
    -------
    str or None
        A sentence saying which rank does not fit, or None.
    """
    placed = {card for column in columns for card in column}
    home = [
        Card(rank, suit)
        for rank in range(1, ranks + 1)
        for suit in Suit
        if Card(rank, suit) not in placed
    ]
    if build is FoundationBuild.BY_SUIT:
        wrong = [c for c in home if c.rank > foundations[c.suit]]
        wrong += [c for c in placed if c.rank <= foundations[c.suit]]
        if wrong:
            return "cards not where the foundation heights say: " + " ".join(
                str(c) for c in sorted(wrong)
            )
        return None
    for rank in range(1, ranks + 1):
        piles = [suit for suit in Suit if foundations[suit] >= rank]
        have = sorted(card for card in home if card.rank == rank)
        name = RANK_NAMES[rank]
        if rank == 1:
            want = [Card(1, suit) for suit in piles]
            if have != want:
                return (
                    f"the Aces home must be those of the piles begun ({' '.join(map(str, want)) or 'none'}), "
                    f"but the Aces not in a column are {' '.join(map(str, have)) or 'none'}"
                )
            continue
        if build is FoundationBuild.ALTERNATE_COLOURS:
            red = sum(1 for suit in piles if suit.is_red == (rank % 2 == 1))
            have_red = sum(1 for card in have if card.suit.is_red)
            if (have_red, len(have) - have_red) != (red, len(piles) - red):
                return (
                    f"the foundations hold {red} red and {len(piles) - red} black "
                    f"{name}s (alternate colours from each pile's Ace), but the {name}s not "
                    f"in a column are {' '.join(map(str, have)) or 'none'}"
                )
        elif len(have) != len(piles):
            return (
                f"the foundations hold {len(piles)} {name}s, but the {name}s not in a "
                f"column are {' '.join(map(str, have)) or 'none'}"
            )
    return None


def format_board(columns: Columns, foundations: Sequence[int]) -> str:
    """Write a position as canonical board text (Freecell Solver / PySol format).

    Parameters
    ----------
    columns : tuple of tuple of Card
        The columns, each bottom → top.
    foundations : sequence of 4 int
        The highest rank on each suit's foundation (clubs, diamonds,
        hearts, spades).

    Returns
    -------
    str
        ``Foundations: H-x C-x D-x S-x`` first if some foundation is not
        empty, then one line per column (``KC TH AH 6S``, bottom → top; an
        empty column is ``:``); every line ends in a newline.
        :func:`read_board` reads it back to the same position.
    """
    lines = []
    if any(foundations):
        lines.append(
            "Foundations: "
            + " ".join(f"{s.letter}-{RANK_NAMES[foundations[s]] if foundations[s] else '0'}"
                       for s in _FOUNDATION_ORDER)
        )
    for column in columns:
        lines.append(" ".join(str(card) for card in column) if column else ":")
    return "".join(line + "\n" for line in lines)


def pretty_board(columns: Columns, foundations: Sequence[int]) -> str:
    """A tableau view of a position for people, with suit symbols.

    Columns stand side by side under their numbers 1..13; row *i* shows the
    *i*-th card from the bottom of each column, so the playable (top) cards
    are the last of each column.  A last line shows the foundations.

    Parameters
    ----------
    columns : tuple of tuple of Card
        The columns, each bottom → top.
    foundations : sequence of 4 int
        The highest rank on each suit's foundation.

    Returns
    -------
    str
        Lines ending in newlines.
    """
    width = 4
    out = ["".join(f"{n:>{width}}" for n in range(1, len(columns) + 1)).rstrip()]
    height = max((len(column) for column in columns), default=0)
    for row in range(height):
        cells = [
            f"{column[row].symbol:>{width}}" if row < len(column) else " " * width
            for column in columns
        ]
        out.append("".join(cells).rstrip())
    empty = [str(n) for n, column in enumerate(columns, 1) if not column]
    if empty:
        out.append("empty columns: " + " ".join(empty))
    founds = []
    for suit in Suit:
        top = foundations[suit]
        founds.append(suit.symbol + " " + (Card(top, suit).symbol[:-1] if top else "-"))
    out.append("foundations: " + "  ".join(founds))
    return "".join(line + "\n" for line in out)
