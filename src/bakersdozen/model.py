"""Moves and positions: the :class:`Move` and :class:`Deal` value types.

A :class:`Deal` is one position of a game of the Baker's Dozen family (its
:class:`~bakersdozen.rules.Rules`; Baker's Dozen by default): the columns
of cards, each listed bottom → top, plus the four foundations.  It
represents both an initial layout and any mid-game position.  A
:class:`Move` names one card, the column it leaves and where it goes.

Columns are numbered 1, 2, ... in the order of the board text lines
(``docs/notation.md``): column 1 is the first line.  :data:`FOUNDATION`
(``0``) is the target of a move to the card's own foundation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import deals, notation
from ._values import frozen_value
from .cards import KING, Card, Suit
from .errors import ArgumentError, ParseError, PositionError
from .rules import BAKERS_DOZEN, PRESETS, FoundationBuild, KingsRule, Rules, RulesError, find_rules

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

__all__ = ["FOUNDATION", "MAX_COLUMNS", "Move", "Deal", "parse_board"]

#: A :class:`Move`'s ``target`` when the card goes to a foundation, its
#: ``source`` when a card comes back from one.
FOUNDATION: Final = 0

#: The most columns a game of the family has (Baker's Dozen's 13); a
#: :class:`Move` names columns 1..MAX_COLUMNS, a position has at most its
#: game's :attr:`Rules.columns <bakersdozen.rules.Rules.columns>`.
MAX_COLUMNS: Final = 13

_FOUNDATION_WORDS: Final = frozenset({"F", "FOUNDATION", "HOME"})
#: The longest text :meth:`Move.from_text` reads.
MAX_MOVE_CHARS: Final = 100
_MOVE_RE: Final = re.compile(r"\s*(\S+)\s+(\S+?)\s*>\s*(\S+)\s*", re.UNICODE)


def _column_number(text: str, what: str, original: str) -> int:
    """Read a column number 1..13 written in a move; ParseError otherwise."""
    if not (text.isascii() and text.isdigit()):
        raise ParseError(f"{what} column {text!r} in move {original!r} is not a number 1..13")
    if len(text) > 3:  # int() of thousands of digits is slow, then refused
        raise ParseError(f"{what} column {text[:8]!r}... in move {original[:40]!r} is not in 1..13")
    number = int(text)
    if not 1 <= number <= MAX_COLUMNS:
        raise ParseError(f"{what} column {text!r} in move {original!r} is not in 1..13")
    return number


@frozen_value
class Move:
    """One move: a card, and the cards above it, leave a column (or a foundation).

    Parameters
    ----------
    card : Card
        The card that moves.  From a column it is the **bottom** card of
        what moves: the move carries *card* and every card above it in its
        column (just *card* when it is the top card, the usual case), so
        no count is written.  From a foundation it is the top card of that
        foundation.
    source : int
        Column number 1..13 (board text line order) the cards leave, or
        :data:`FOUNDATION` (0) for a card coming back from its foundation
        (games with ``Rules.foundation_return``).
    target : int
        Column number 1..13 the cards are put on, or :data:`FOUNDATION`
        (0) for a foundation.

    Raises
    ------
    TypeError
        If *card* is not a :class:`Card`, or *source* or *target* is not an
        int.
    ArgumentError
        A ValueError: if a column number is out of range, or *source*
        equals *target* (in particular, both foundations).

    Notes
    -----
    The human notation, ``str(move)``, is the card, the source, ``>`` and
    the target, a foundation written ``F``: ``"7C 1>2"`` moves the seven
    of clubs from column 1 onto column 2, ``"AS 3>F"`` the ace of spades
    from column 3 to a foundation, ``"9S 4>7"`` (in a game where sequences
    move) the nine of spades and the cards above it from column 4 onto
    column 7, ``"5H F>3"`` the five of hearts from its foundation back onto
    column 3.  :meth:`from_text` reads it back.  Which foundation a card
    goes to is not written: the one its rules give (the first accepting
    pile, ``docs/rules.md``).  Whether the move is legal in a position is
    not checked here; see :func:`bakersdozen.check`.
    """

    card: Card
    source: int
    target: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise TypeError(f"Move.card must be a Card, not {self.card!r}")
        for name in ("source", "target"):
            value = getattr(self, name)
            if type(value) is not int:
                raise TypeError(
                    f"Move.{name} must be an int (a column number 1..13 or FOUNDATION, 0), "
                    f"not {value!r}"
                )
            if not 0 <= value <= MAX_COLUMNS:
                raise ArgumentError(
                    f"Move.{name} must be a column number 1..13 or FOUNDATION (0), not {value!r}"
                )
        if self.source == self.target:
            if self.source == FOUNDATION:
                raise ArgumentError(
                    "Move.source and Move.target are both FOUNDATION (0): a move goes from a "
                    "foundation to a column, not to a foundation"
                )
            raise ArgumentError(
                f"Move.source and Move.target are both column {self.source}"
            )

    @property
    def to_foundation(self) -> bool:
        """True if the card goes to a foundation (``target == FOUNDATION``)."""
        return self.target == FOUNDATION

    @property
    def from_foundation(self) -> bool:
        """True if the card comes back from its foundation (``source == FOUNDATION``)."""
        return self.source == FOUNDATION

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse the human move notation, e.g. ``"7C 1>2"``, ``"AS 3>F"``, ``"5H F>3"``.

        Accepts any case, ``T`` or ``10`` for ten, suit symbols, spaces
        around ``>``, and ``F``, ``foundation`` or ``home`` for a foundation.

        Parameters
        ----------
        text : str
            One move.

        Returns
        -------
        Move

        Raises
        ------
        ParseError
            If *text* is not a move; the message quotes it with ``!r``.
        """
        if not isinstance(text, str):
            raise ParseError(f"a move must be given as str, not {type(text).__name__}")
        if len(text) > MAX_MOVE_CHARS:
            raise ParseError(
                f"a move is a few characters ('7C 1>2'), not {len(text)}: {text[:40]!r}..."
            )
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise ParseError(f"not a move: {text!r} (expected e.g. '7C 1>2' or 'AS 3>F')")
        card_text, source_text, target_text = match.groups()
        try:
            card = Card.from_text(card_text)
        except ParseError:
            raise ParseError(f"unknown card {card_text!r} in move {text!r}") from None
        if source_text.upper() in _FOUNDATION_WORDS:
            source = FOUNDATION
        else:
            source = _column_number(source_text, "source", text)
        if target_text.upper() in _FOUNDATION_WORDS:
            target = FOUNDATION
        else:
            target = _column_number(target_text, "target", text)
        if source == target:
            if source == FOUNDATION:
                raise ParseError(f"move {text!r} goes from a foundation to a foundation")
            raise ParseError(f"move {text!r} has the same source and target column")
        return cls(card, source, target)

    def __str__(self) -> str:
        source = "F" if self.source == FOUNDATION else str(self.source)
        target = "F" if self.target == FOUNDATION else str(self.target)
        return f"{self.card} {source}>{target}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


def _as_tuple(value: object, what: str) -> tuple[object, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a sequence, not {value!r}")
    return tuple(value)


@frozen_value
class Deal:
    """A position of a game of the Baker's Dozen family: columns and foundations.

    Parameters
    ----------
    columns : tuple of tuple of Card
        At most ``rules.columns`` columns (13 for Baker's Dozen), in board
        text line order (column 1 first); each column lists its cards
        **bottom → top** (the last card is the playable one).  An empty
        tuple is an empty column.  Lists are accepted and stored as tuples.
    foundations : tuple of 4 int, default (0, 0, 0, 0)
        ``foundations[i]`` is the height of pile *i*, the foundation begun
        by the Ace of suit *i* (indexed by :class:`Suit`: clubs, diamonds,
        hearts, spades), 0 if it is empty.  With foundations by suit pile
        *i* holds exactly ranks ``1..foundations[i]`` of suit *i*.  With the
        other foundation builds (:class:`~bakersdozen.rules.FoundationBuild`)
        pile *i* holds the Ace of suit *i* and then one card of each rank
        up to its height, in alternating colours or any suit; the cards home
        are then every card of the pack not in a column, and they must fit
        the heights (:func:`bakersdozen.notation.home_mismatch`).
    ranks : int, default 13
        The pack holds ranks ``1..ranks`` of each of the four suits: 13 for
        the real game, 1..12 for the reduced packs tests use.
    rules : Rules, default BAKERS_DOZEN
        The game this is a position of (:mod:`bakersdozen.rules`).

    Raises
    ------
    TypeError
        If *columns* or a column is not a sequence, a column holds
        something other than a :class:`Card`, a foundation height or
        *ranks* is not an int, or *rules* is not a :class:`Rules`.
    PositionError
        A ValueError and an :class:`~bakersdozen.ArgumentError`:
        if *ranks* is outside 1..13, or the position is not one of the game: more columns than the game
        has, a card missing, repeated, above ``ranks`` or both in a column
        and on a foundation, home cards that do not fit the pile heights
        (foundations not by suit), or, in a game that moves Kings to the bottom at
        the deal, a top-rank card (a King) above a lower card in a column (a
        King never moves onto anything, so such a column cannot occur).

    Notes
    -----
    ``str(deal)`` is :meth:`to_text` (board text, ``docs/notation.md``) and
    :meth:`from_text` reads it back; ``repr()`` evaluates to an equal Deal.
    """

    columns: tuple[tuple[Card, ...], ...]
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)
    ranks: int = KING
    rules: Rules = BAKERS_DOZEN

    def __post_init__(self) -> None:
        if type(self.ranks) is not int:
            raise TypeError(f"Deal.ranks must be an int 1..13, not {self.ranks!r}")
        if not 1 <= self.ranks <= KING:
            raise PositionError(f"Deal.ranks must be an int 1..13, not {self.ranks!r}")
        if not isinstance(self.rules, Rules):
            raise TypeError(f"Deal.rules must be a Rules, not {self.rules!r}")
        columns = tuple(_as_tuple(c, "a column") for c in _as_tuple(self.columns, "Deal.columns"))
        foundations = _as_tuple(self.foundations, "Deal.foundations")
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "foundations", foundations)
        if len(columns) > self.rules.columns:
            raise PositionError(
                f"Deal.columns: a position of {self.rules.title} has at most "
                f"{self.rules.columns} columns, not {len(columns)}"
            )
        if len(foundations) != 4:
            raise PositionError(
                f"Deal.foundations needs 4 ranks (C, D, H, S), not {foundations!r}"
            )
        for suit, top in zip(Suit, foundations):
            if type(top) is not int:
                raise TypeError(
                    f"Deal.foundations: the {suit.name.lower()} foundation rank must be an "
                    f"int, not {top!r}"
                )
            if not 0 <= top <= self.ranks:
                raise PositionError(
                    f"Deal.foundations: the {suit.name.lower()} foundation rank must be "
                    f"0..{self.ranks}, not {top!r}"
                )
        tops: tuple[int, int, int, int] = foundations  # type: ignore[assignment]
        by_suit = self.rules.foundation_build is FoundationBuild.BY_SUIT
        seen: dict[Card, int] = {}
        for number, column in enumerate(columns, 1):
            for card in column:
                if not isinstance(card, Card):
                    raise TypeError(
                        f"Deal.columns: column {number} holds {card!r}, which is not a Card"
                    )
                if card.rank > self.ranks:
                    raise PositionError(
                        f"{card} in column {number} is above the pack's top rank {self.ranks}"
                    )
                if card in seen:
                    raise PositionError(f"{card} is in column {seen[card]} and in column {number}")
                if by_suit and card.rank <= tops[card.suit]:
                    raise PositionError(
                        f"{card} is in column {number} and on the "
                        f"{card.suit.name.lower()} foundation"
                    )
                seen[card] = number
            if self.rules.kings is not KingsRule.NONE:
                self._check_kings(number, column)  # type: ignore[arg-type]
        initial = sum(tops) <= self.rules.start_aces and max(tops) <= 1
        if self.ranks == KING and initial and len(columns) != self.rules.columns:
            # The rule of the board text reader: a full-pack layout with
            # fewer columns than the game deals is a mangled deal, not a
            # smaller game.
            raise PositionError(
                f"an initial layout of {self.rules.title} has {self.rules.columns} columns, "
                f"not {len(columns)}"
            )
        if not by_suit:
            mismatch = notation.home_mismatch(
                columns, tops, self.ranks, self.rules.foundation_build  # type: ignore[arg-type]
            )
            if mismatch is not None:
                raise PositionError(
                    "the foundation heights do not fit the cards not in a column "
                    f"({self.rules.title} builds its foundations in "
                    f"{self.rules.foundation_build}): {mismatch}"
                )
            return
        missing = [
            Card(rank, suit)
            for rank in range(1, self.ranks + 1)
            for suit in Suit
            if rank > tops[suit] and Card(rank, suit) not in seen
        ]
        if missing:
            raise PositionError("missing cards: " + " ".join(str(c) for c in missing))

    def _check_kings(self, number: int, column: tuple[Card, ...]) -> None:
        below_king = False
        for card in column:
            if card.rank == self.ranks:
                if below_king:
                    raise PositionError(
                        f"column {number} has {card} above a lower card; "
                        f"{self.rules.title} moves top-rank cards to the bottom at the "
                        "deal, and they never move onto another card"
                    )
            else:
                below_king = True

    # -- notation -----------------------------------------------------------

    @classmethod
    def from_text(
        cls, text: str, ranks: int | None = KING, rules: Rules | str = BAKERS_DOZEN
    ) -> Deal:
        """Read board text (``docs/notation.md``); see :func:`parse_board`.

        Raises
        ------
        ParseError
            If *text* is not a position; the message gives line and token.
        RulesError
            If *rules* names no game.
        """
        return parse_board(text, ranks=ranks, rules=rules)[0]

    def to_text(self) -> str:
        """Board text in the canonical form; see :func:`bakersdozen.notation.format_board`."""
        return notation.format_board(self.columns, self.foundations)

    def pretty(self) -> str:
        """A tableau view for people; see :func:`bakersdozen.notation.pretty_board`."""
        return notation.pretty_board(self.columns, self.foundations)

    @classmethod
    def pysol(
        cls, number: int, game: Rules | str = BAKERS_DOZEN, numbering: str = "pysolfc"
    ) -> Deal:
        """PySol's deal *number* of the game *game*; see :func:`bakersdozen.deals.pysol_deal`.

        Parameters
        ----------
        number : int
            The deal number, ``1..2**64 - 1``.
        game : Rules or str, default BAKERS_DOZEN
            A preset (or a name), or rules that keep a preset's layout knobs.
        numbering : {"pysolfc", "pysol"}, default "pysolfc"
            PySolFC's numbering (Mersenne Twister from 32000 up) or old
            PySol's (a 64-bit LCG above 32000).

        Raises
        ------
        DealNumberError
            If *number* is not an int in ``1..2**64 - 1``.
        RulesError
            If *game* names no preset, has no PySol numbering, or
            *numbering* is unknown.
        """
        rules = find_rules(game)
        columns, foundations = deals.pysol_deal(
            number, rules, numbering  # type: ignore[arg-type]
        )
        return cls(columns, foundations, rules=rules)

    def with_rules(self, rules: Rules | str) -> Deal:
        """The same cards as a position of the game *rules* (a preset name or Rules).

        Raises
        ------
        RulesError
            If *rules* names no preset, or the cards are not a position of
            that game (13 columns for a game of 12, a King above a lower
            card in a game that moves Kings to the bottom).
        TypeError
            If *rules* is neither a Rules nor a str.
        """
        game = find_rules(rules)
        if game == self.rules:
            return self
        try:
            return Deal(self.columns, self.foundations, self.ranks, game)
        except PositionError as error:
            raise RulesError(f"this position is not one of {game.title} ({game.name}): {error}"
                             ) from None

    @property
    def is_won(self) -> bool:
        """True if every card of the pack is on its foundation."""
        return all(top == self.ranks for top in self.foundations) and not any(self.columns)

    @property
    def cards_left(self) -> int:
        """Number of cards still in the tableau."""
        return sum(len(column) for column in self.columns)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        args = repr(self.to_text())
        if self.ranks != KING:
            args += f", ranks={self.ranks}"
        if self.rules != BAKERS_DOZEN:
            preset = PRESETS.get(self.rules.name)
            args += f", rules={self.rules.name!r}" if preset == self.rules else f", rules={self.rules!r}"
        return f"Deal.from_text({args})"


def parse_board(
    text: str, ranks: int | None = KING, rules: Rules | str = BAKERS_DOZEN
) -> tuple[Deal, bool]:
    """Read board text (``docs/notation.md``) into a :class:`Deal`.

    Parameters
    ----------
    text : str
        The board, one line per column (see :mod:`bakersdozen.notation` for
        what is accepted).
    ranks : int or None, default 13
        The pack's top rank (13 for the real game).  ``None`` infers it as
        the highest rank written, for the reduced packs tests use.
    rules : Rules or str, default BAKERS_DOZEN
        The game, or a preset name.

    Returns
    -------
    deal : Deal
        The position.
    kings_moved : bool
        True if the text was an initial layout whose Kings were not all at
        the bottom, so that the game's Kings rule was applied.

    Raises
    ------
    ParseError
        If *text* is not a position of the game; the message gives the line
        number and the token as written (see
        :func:`bakersdozen.notation.read_board`).
    RulesError
        If *rules* names no game.
    """
    game = find_rules(rules)
    board = notation.read_board(text, game, ranks)
    try:
        deal = Deal(board.columns, board.foundations, board.ranks, game)
    except PositionError as error:  # pragma: no cover - read_board catches every case
        raise ParseError(f"not a position: {error}") from None
    return deal, board.kings_moved
