"""An independent check of an *unsolvable* verdict: the certificate verifier.

A certificate (docs/certificates.md) is a set of positions that holds the
deal, holds no won position, and is *closed*: every successor of a member,
under the moves that the lemmas of docs/certificates.md keep, is a member
or is dead by the deadlock lemma.  Then no member can be won, the deal
included (the proof is in docs/certificates.md, "Why a valid certificate
proves the deal lost").

This module re-implements the rules of play in plain Python and recomputes
every successor itself.  It shares no code with the compiled engine, the
solver or the certificate writer: it uses the package only for the card
vocabulary (:mod:`bakersdozen.cards`, :mod:`bakersdozen.model`), the rules
as data (:mod:`bakersdozen.rules`) and the error classes; a test
(``tests/test_imports.py``) keeps it so.  What it trusts is the list of
lemmas in docs/certificates.md, each proved there and tested by brute
force on reduced packs (``tests/test_certificates.py``).

The helpers below (positions as tuples of card indices, :func:`successors`,
:func:`deadlock`, :func:`encode`, :func:`decode`) are the verifier's model
of the game; the writer (:mod:`bakersdozen.certificate`) produces its sets
with the same model, so it cannot write a certificate this module would
reject for a difference of conventions.
"""

from __future__ import annotations

import heapq
import json
import lzma
import os
import time
from dataclasses import dataclass
from typing import BinaryIO

from .cards import Card
from .errors import BakersDozenError
from .model import Deal
from .rules import Build, EmptyColumn, FoundationBuild, MoveUnit, Rules, RulesError

__all__ = [
    "FORMAT_VERSION", "LEMMAS", "MAGIC", "CertificateError", "CertificateReport",
    "verify_certificate",
]

#: First line of every certificate file.
MAGIC = b"bakersdozen-certificate\n"
#: The format this module reads and the writer writes.
FORMAT_VERSION = 1
#: The lemmas a version-1 certificate relies on, by name (docs/certificates.md).
LEMMAS = ("safe-foundation", "lone-card", "deadlock")
#: A body ends with this marker and the number of positions (8 bytes, big-endian).
END = b"END!"
#: Bytes of a block's count of records.
COUNT_BYTES = 4
#: Bytes read from the decompressor at a time (the verifier's memory holds
#: this, the layer being read and the requirements on later layers).
CHUNK = 1 << 16

Position = tuple[tuple[tuple[int, ...], ...], tuple[int, int, int, int]]


class CertificateError(BakersDozenError, ValueError):
    """A certificate file cannot be read or written (not: is not valid)."""


@dataclass(frozen=True, slots=True)
class CertificateReport:
    """The outcome of :func:`verify_certificate`.

    Attributes
    ----------
    valid : bool
        True if the certificate proves the deal cannot be won.
    error : str or None
        The first thing wrong (which position, which move, which offset),
        None when valid.
    positions : int
        Member positions read (0 for a deal lost as dealt).
    layers : int
        Layers (blocks of the file) read.
    offset : int or None
        Where the error was found: a byte offset of the file for the
        header, else of the decompressed body (``"body offset"`` in the
        message); None when valid.
    seconds : float
        Wall-clock time of the check.
    peak_positions : int
        The most positions held at once: the layer being checked and those
        required of later layers (the memory of the check grows with it,
        not with ``positions``); 0 when not valid.
    """

    valid: bool
    error: str | None
    positions: int
    layers: int
    offset: int | None
    seconds: float
    peak_positions: int


# ---------------------------------------------------------------------------
# The game, as the verifier sees it: cards are indices 4 * (rank - 1) + suit
# ---------------------------------------------------------------------------

def _rank(c: int) -> int:
    return (c >> 2) + 1


def _card_name(c: int) -> str:
    return str(Card.from_index(c))


def covered_play(rules: Rules) -> list[str]:
    """The play knobs of *rules* the verifier does not cover (empty: covered)."""
    want = {
        "build": Build.ANY_SUIT, "moves": MoveUnit.ONE_CARD,
        "empty_column": EmptyColumn.NOTHING, "foundation_build": FoundationBuild.BY_SUIT,
        "foundation_return": False,
    }
    return [
        f"{knob}={getattr(getattr(rules, knob), 'value', getattr(rules, knob))}"
        for knob, value in want.items() if getattr(rules, knob) != value
    ]


def require_covered(rules: Rules) -> None:
    """Raise RulesError unless *rules* play as Baker's Dozen does (any layout)."""
    changed = covered_play(rules)
    if changed:
        raise RulesError(
            f"certificates cover Baker's Dozen's play only (Good Measure's too), and "
            f"{rules.name} has {', '.join(changed)}"
        )


def start_position(deal: Deal) -> Position:
    """The deal as a verifier position: columns of card indices, bottom first."""
    cols = tuple(tuple(c.index for c in col) for col in deal.columns)
    return cols, tuple(deal.foundations)  # type: ignore[return-value]


def is_won(position: Position) -> bool:
    """True when no card is left in the tableau."""
    return not any(position[0])


def _home(found: tuple[int, ...], c: int) -> bool:
    return found[c & 3] >= _rank(c)


def safe_move(position: Position) -> int | None:
    """The column whose top card goes home by the safe-foundation lemma, or None.

    Of the top cards that may go home and whose rank r is at most 2, or
    whose every card of rank r - 2 is home, the lowest card index is
    chosen (docs/certificates.md, lemma 1).
    """
    cols, found = position
    low = min(found)
    best, best_col = 64, None
    for j, col in enumerate(cols):
        if col:
            c = col[-1]
            r = _rank(c)
            if found[c & 3] == r - 1 and (r <= 2 or low >= r - 2) and c < best:
                best, best_col = c, j
    return best_col


SAFE = -2
FOUNDATION = -1


def move_text(card: int, onto: int) -> str:
    """A successor's move in words: *onto* is a card, FOUNDATION or SAFE."""
    if onto == SAFE:
        return f"{_card_name(card)} to its foundation (safe)"
    if onto == FOUNDATION:
        return f"{_card_name(card)} to its foundation"
    return f"{_card_name(card)} onto {_card_name(onto)}"


def successors(position: Position) -> list[tuple[int, int, int, int, Position]]:
    """The successors the lemmas keep, as (card, onto, source, target, position).

    *onto* is the card the moved card goes onto, or FOUNDATION, or SAFE
    (see :func:`move_text`); *source* and *target* are the indices of the
    columns the move changes (*target* -1 for a move home).  Lemma 1: if a safe foundation move exists, it
    is the only one (the lowest card).  Otherwise every legal move (a top
    card to its foundation, or onto the top card of another non-empty
    column one rank higher) except, by lemma 2, a column's only card onto
    another column.
    """
    cols, found = position
    j = safe_move(position)
    if j is not None:
        c = cols[j][-1]
        nf = list(found)
        nf[c & 3] += 1
        nc = list(cols)
        nc[j] = cols[j][:-1]
        return [(c, SAFE, j, -1, (tuple(nc), tuple(nf)))]  # type: ignore[list-item]
    out: list[tuple[int, int, int, int, Position]] = []
    tops = [(col[-1] >> 2, k) for k, col in enumerate(cols) if col]
    for j, col in enumerate(cols):
        if not col:
            continue
        c = col[-1]
        r = c >> 2  # rank - 1
        if found[c & 3] == r:
            nf = list(found)
            nf[c & 3] += 1
            nc = list(cols)
            nc[j] = col[:-1]
            out.append((c, FOUNDATION, j, -1, (tuple(nc), tuple(nf))))  # type: ignore[arg-type]
        if len(col) == 1:
            continue
        rest = col[:-1]
        for rank, k in tops:
            if rank == r + 1:
                other = cols[k]
                nc = list(cols)
                nc[j] = rest
                nc[k] = other + (c,)
                out.append((c, other[-1], j, k, (tuple(nc), found)))
    return out


def is_deadlock(position: Position, ranks: int, cards: int) -> bool:
    """Whether the bitboard *cards* is a deadlocked set (lemma 3).

    Non-empty, of tableau cards, and every card y of it, of rank r, has
    (a) a lower card of its suit beneath some card of the set, and (b)
    every card of rank r + 1 that is not home beneath some card of the set.
    """
    cols, found = position
    tab = 0
    beneath = 0
    for col in cols:
        high = -1
        for i, c in enumerate(col):
            tab |= 1 << c
            if cards >> c & 1:
                high = i
        for c in col[:max(high, 0)]:
            beneath |= 1 << c
    if cards == 0 or cards & ~tab:
        return False
    for y in range(52):
        if not cards >> y & 1:
            continue
        lower = 0
        for x in range(y & 3, y, 4):
            lower |= 1 << x
        if not beneath & lower:
            return False
        r = _rank(y)
        if r < ranks:
            for s in range(4):
                x = 4 * r + s
                if not _home(found, x) and not beneath >> x & 1:
                    return False
    return True


_NIBBLE_LOW = sum(1 << (4 * k) for k in range(13))
_SUIT = [sum(1 << (4 * k + s) for k in range(13)) for s in range(4)]


def deadlock(position: Position, ranks: int) -> int:
    """The greatest deadlocked set of *position* as a bitboard (0: none).

    Shrinking from the whole tableau: drop the cards that fail (a) or (b)
    of :func:`is_deadlock` with respect to B, the cards beneath some card
    of the set, and repeat until nothing drops (the union of two
    deadlocked sets is one, so this ends at the greatest).  Bitboards: bit
    4 * (rank - 1) + suit; (b) for every rank at once by filling each
    rank's nibble of the free supports, (a) by the lowest card of each
    suit in B.
    """
    cols = position[0]
    tab = 0
    prefixes = []
    for col in cols:
        acc = 0
        prefix = [0]
        for c in col:
            acc |= 1 << c
            prefix.append(acc)
        tab |= acc
        prefixes.append(prefix)
    F = tab
    while F:
        beneath = 0
        for col, prefix in zip(cols, prefixes):
            i = len(col) - 1
            while i >= 0 and not F >> col[i] & 1:
                i -= 1
            if i > 0:
                beneath |= prefix[i]
        free = tab & ~beneath
        free |= (free >> 1) | (free >> 2) | (free >> 3)
        G = F & ~(((free & _NIBBLE_LOW) * 0xF) >> 4)
        lows = 0
        for suit in _SUIT:
            low = beneath & suit
            if low:
                low &= -low
                lows |= suit & ~((low << 1) - 1)
        G &= lows
        if G == F:
            return F
        F = G
    return 0


# ---------------------------------------------------------------------------
# Layers and the compact form of a position (docs/certificates.md, "Format")
# ---------------------------------------------------------------------------

class Frame:
    """What a deal fixes for the compact form: its columns, pack and home cards.

    Columns keep their identity in Baker's Dozen's play: an empty column
    takes nothing, so a column's bottom card never changes, and column *j*
    of a position is the one whose bottom card was dealt in column *j* of
    the deal (the form does not depend on the order the columns are
    listed in).

    In memory a position of a layer is one integer, its *wide* form: for
    each moved card *c*, the suit of the card it lies on at bits 2c, 2c + 1
    (the layer says which cards are moved).  On disk it is the *record*:
    the same suits for the moved cards only, in card order, above a 1.
    """

    #: Column forms remembered before the memo is emptied.
    MEMO = 1 << 18

    def __init__(self, dealt: tuple[tuple[int, ...], ...], found: tuple[int, ...], ranks: int):
        self.dealt = dealt
        self.start_found = tuple(found)
        self.ranks = ranks
        self.ncols = len(dealt)
        self.cards = [4 * (r - 1) + s for r in range(1, ranks + 1) for s in range(4)]
        self.key_bytes = 4 + self.ncols
        self.total_dealt = sum(len(col) for col in dealt)
        self._memo: dict[tuple[int, tuple[int, ...]], tuple[int, int]] = {}
        self._moved: dict[bytes, list[int]] = {}

    def dealt_height(self, j: int, col: tuple[int, ...]) -> int:
        """Height of column j's dealt part: the dealt prefix less its built top run."""
        dealt = self.dealt[j]
        k = 0
        n = min(len(col), len(dealt))
        while k < n and col[k] == dealt[k]:
            k += 1
        while k >= 2 and _rank(col[k - 1]) == _rank(col[k - 2]) - 1:
            k -= 1
        return k

    def column(self, j: int, col: tuple[int, ...]) -> tuple[int, int]:
        """(dealt height, wide bits of its moved cards) of column j holding *col*."""
        memo = self._memo
        got = memo.get((j, col))
        if got is None:
            k = self.dealt_height(j, col)
            wide = 0
            for i in range(k, len(col)):
                wide |= (col[i - 1] & 3) << (2 * col[i])
            if len(memo) >= self.MEMO:
                memo.clear()
            got = memo[(j, col)] = (k, wide)
        return got

    def progress(self, key: bytes) -> int:
        """Cards home plus dealt cards no longer in their dealt part."""
        return sum(key[:4]) + self.total_dealt - sum(key[4:])

    def order(self, key: bytes) -> tuple[int, bytes]:
        return self.progress(key), key

    def encode_wide(self, position: Position) -> tuple[bytes, int]:
        """(layer key, wide form) of a position whose column j is the deal's column j."""
        cols, found = position
        heights = bytearray(found)
        wide = 0
        column = self.column
        for j, col in enumerate(cols):
            k, bits = column(j, col)
            heights.append(k)
            wide |= bits
        return bytes(heights), wide

    def successor_forms(self, position: Position
                        ) -> list[tuple[int, int, bytes, int, Position]]:
        """:func:`successors` of *position* with their (layer key, wide form):
        (card, onto, key, wide, position).  Only the columns a move changes
        are looked at again; the result is :meth:`encode_wide`'s."""
        cols, found = position
        column = self.column
        infos = [column(j, col) for j, col in enumerate(cols)]
        heights = [h for h, _ in infos]
        wide = 0
        for _, bits in infos:
            wide |= bits
        out = []
        for card, onto, j, k, nxt in successors(position):
            ncols, nfound = nxt
            hj, bj = column(j, ncols[j])
            nheights = heights.copy()
            nheights[j] = hj
            nwide = wide ^ infos[j][1] ^ bj
            if k >= 0:
                hk, bk = column(k, ncols[k])
                nheights[k] = hk
                nwide ^= infos[k][1] ^ bk
            out.append((card, onto, bytes(nfound) + bytes(nheights), nwide, nxt))
        return out

    def moved(self, key: bytes) -> list[int]:
        """The moved cards of layer *key*, in card order."""
        got = self._moved.get(key)
        if got is None:
            fixed = 0
            for s in range(4):
                for r in range(1, key[s] + 1):
                    fixed |= 1 << (4 * (r - 1) + s)
            for j in range(self.ncols):
                for c in self.dealt[j][:key[4 + j]]:
                    fixed |= 1 << c
            got = [c for c in self.cards if not fixed >> c & 1]
            if len(self._moved) >= 4096:
                self._moved.clear()
            self._moved[key] = got
        return got

    def record(self, key: bytes, wide: int) -> bytes:
        """The on-disk record of a wide form."""
        value = 1
        for c in reversed(self.moved(key)):
            value = value << 2 | (wide >> (2 * c) & 3)
        return value.to_bytes(self.record_length(key), "big")

    def wide(self, key: bytes, record: bytes) -> int:
        """The wide form of a record; ValueError if its length does not fit the layer."""
        moved = self.moved(key)
        value = int.from_bytes(record, "big")
        if value >> (2 * len(moved)) != 1:
            raise ValueError(f"a record of {len(record)} bytes does not hold {len(moved)} "
                             f"moved cards")
        wide = 0
        for c in moved:
            wide |= (value & 3) << (2 * c)
            value >>= 2
        return wide

    def encode(self, position: Position) -> tuple[bytes, bytes]:
        """(layer key, record) of a position whose column j is the deal's column j."""
        key, wide = self.encode_wide(position)
        return key, self.record(key, wide)

    def record_length(self, key: bytes) -> int:
        return self.moved_count(key) // 4 + 1

    def moved_count(self, key: bytes) -> int:
        return 4 * self.ranks - sum(key[:4]) - sum(key[4:])

    def check_key(self, key: bytes) -> str | None:
        """Why *key* is not a layer key of this deal, or None."""
        if len(key) != self.key_bytes:
            return f"a layer key of {len(key)} bytes, not {self.key_bytes}"
        for s in range(4):
            if not self.start_found[s] <= key[s] <= self.ranks:
                return f"foundation {s} at height {key[s]}"
        for j in range(self.ncols):
            if key[4 + j] > len(self.dealt[j]):
                return f"column {j + 1}'s dealt part {key[4 + j]} cards high"
        for j in range(self.ncols):
            for c in self.dealt[j][:key[4 + j]]:
                if key[c & 3] >= _rank(c):
                    return f"{_card_name(c)} is both home and in column {j + 1}'s dealt part"
        return None

    def decode(self, key: bytes, record: bytes) -> Position:
        """The position of *record* in layer *key*; ValueError if it is none or not canonical."""
        return self.position(key, self.wide(key, record))

    def position(self, key: bytes, wide: int, check: bool = True) -> Position:
        """The position of a wide form in layer *key*; ValueError if none or not canonical.

        *check* False skips the test of the canonical form, for a wide form
        that :meth:`encode_wide` made.
        """
        found = tuple(key[:4])
        cols = [list(self.dealt[j][:key[4 + j]]) for j in range(self.ncols)]
        on: dict[int, int] = {}
        for c in self.moved(key):
            s = wide >> (2 * c) & 3
            r = _rank(c)
            if r >= self.ranks:
                raise ValueError(f"{_card_name(c)} is moved, and nothing ranks above it")
            below = 4 * r + s
            if found[s] > r:
                raise ValueError(f"{_card_name(c)} lies on {_card_name(below)}, which is home")
            if below in on:
                raise ValueError(f"{_card_name(c)} and {_card_name(on[below])} both lie on "
                                 f"{_card_name(below)}")
            on[below] = c
        for col in cols:
            while col and col[-1] in on:
                col.append(on.pop(col[-1]))
        if on:
            c = next(iter(on.values()))
            raise ValueError(f"{_card_name(c)} lies on a card that is not at the top of a column")
        position = (tuple(tuple(col) for col in cols), found)
        if not check:
            return position  # type: ignore[return-value]
        again = self.encode_wide(position)  # type: ignore[arg-type]
        if again != (key, wide):
            raise ValueError("the record is not in its canonical form (its layer is "
                             f"{again[0].hex()}, not {key.hex()})")
        return position  # type: ignore[return-value]


def frame_of(deal: Deal) -> Frame:
    """The frame of a deal, its columns in the order given."""
    cols, found = start_position(deal)
    return Frame(cols, found, deal.ranks)


# ---------------------------------------------------------------------------
# The header
# ---------------------------------------------------------------------------

def rules_knobs(rules: Rules) -> dict[str, object]:
    """The knobs of *rules* as JSON values (the header's ``knobs``)."""
    out: dict[str, object] = {}
    for knob in ("columns", "cards_per_column", "start_aces", "kings", "build", "moves",
                 "empty_column", "foundation_build", "foundation_return"):
        value = getattr(rules, knob)
        out[knob] = getattr(value, "value", value)
    return out


def deal_json(deal: Deal) -> dict[str, object]:
    """The deal as JSON: columns of card names (bottom first), foundations, ranks."""
    return {
        "columns": [" ".join(str(c) for c in col) for col in deal.columns],
        "foundations": list(deal.foundations),
        "ranks": deal.ranks,
    }


def _columns_of(value: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise ValueError("the deal's columns are not a list")
    out = []
    for text in value:
        if not isinstance(text, str):
            raise ValueError("a column of the deal is not a string")
        out.append(tuple(Card.from_text(t).index for t in text.split()))
    return tuple(out)


def read_header(stream: BinaryIO) -> tuple[dict[str, object], int]:
    """The header of a certificate and the file offset where its body starts."""
    magic = stream.read(len(MAGIC))
    if magic != MAGIC:
        raise _Invalid("not a certificate (the file does not begin with "
                       f"{MAGIC.decode().strip()!r})", 0)
    line = stream.readline(1 << 20)
    if not line.endswith(b"\n"):
        raise _Invalid("the header line is cut short or longer than 1 MiB", len(MAGIC))
    try:
        header = json.loads(line)
    except RecursionError:
        raise _Invalid("the header is not JSON (nested too deep)", len(MAGIC)) from None
    except ValueError as error:
        raise _Invalid(f"the header is not JSON ({error})", len(MAGIC)) from None
    if not isinstance(header, dict):
        raise _Invalid("the header is not a JSON object", len(MAGIC))
    return header, len(MAGIC) + len(line)


class _Invalid(Exception):
    """The certificate is not valid: why, and at which offset."""

    def __init__(self, message: str, offset: int | None) -> None:
        super().__init__(message)
        self.offset = offset


# ---------------------------------------------------------------------------
# The check
# ---------------------------------------------------------------------------

class _Body:
    """The decompressed body, read in chunks, with its offset."""

    def __init__(self, stream: BinaryIO, compression: str):
        self.stream = stream
        if compression == "lzma":
            self.dec: lzma.LZMADecompressor | None = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        elif compression == "none":
            self.dec = None
        else:
            raise _Invalid(f"unknown compression {compression!r} (lzma or none)", None)
        self.buf = bytearray()
        self.pos = 0
        self.offset = 0
        self.eof = False

    def _fill(self, n: int) -> None:
        while len(self.buf) - self.pos < n and not self.eof:
            if self.pos:
                del self.buf[:self.pos]
                self.pos = 0
            if self.dec is None:
                data = self.stream.read(CHUNK)
                if not data:
                    self.eof = True
                self.buf += data
                continue
            if self.dec.eof:
                self.eof = True
                if self.dec.unused_data or self.stream.read(1):
                    raise _Invalid("bytes after the end of the compressed body", None)
                break
            if self.dec.needs_input:
                data = self.stream.read(CHUNK)
                if not data:
                    raise _Invalid("the file is truncated (the compressed body ends early)",
                                   self.offset + len(self.buf) - self.pos)
            else:
                data = b""
            try:
                self.buf += self.dec.decompress(data, max_length=CHUNK)
            except lzma.LZMAError as error:
                raise _Invalid(f"the compressed body is corrupt ({error})",
                               self.offset + len(self.buf) - self.pos) from None

    def read(self, n: int, what: str) -> bytes:
        self._fill(n)
        if len(self.buf) - self.pos < n:
            raise _Invalid(f"the file is truncated: {what} cut short at body offset "
                           f"{self.offset}", self.offset)
        out = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        self.offset += n
        return out

    def at_end(self) -> bool:
        self._fill(1)
        return len(self.buf) - self.pos == 0


def _same_deal(frame_cols: tuple[tuple[int, ...], ...], deal: Deal) -> bool:
    mine = sorted(tuple(c.index for c in col) for col in deal.columns if col)
    return mine == sorted(col for col in frame_cols if col)


def _check(deal: Deal, path: str | os.PathLike[str]) -> tuple[int, int, int]:
    with open(path, "rb") as stream:
        header, body_start = read_header(stream)
        if header.get("format") != FORMAT_VERSION:
            raise _Invalid(f"format {header.get('format')!r}; this verifier reads format "
                           f"{FORMAT_VERSION}", len(MAGIC))
        rules = deal.rules
        if header.get("game") != rules.name or header.get("knobs") != rules_knobs(rules):
            raise _Invalid(f"the certificate is for {header.get('game')!r} with knobs "
                           f"{header.get('knobs')}, the deal is {rules.name!r} with knobs "
                           f"{rules_knobs(rules)}", len(MAGIC))
        lemmas = header.get("lemmas")
        if not isinstance(lemmas, list) or not set(lemmas) <= set(LEMMAS):
            raise _Invalid(f"lemmas {lemmas!r}: this verifier knows {', '.join(LEMMAS)}",
                           len(MAGIC))
        try:
            hdeal = header["deal"]
            assert isinstance(hdeal, dict)
            dealt = _columns_of(hdeal["columns"])
            found = tuple(hdeal["foundations"])
            ranks = hdeal["ranks"]
        except (KeyError, AssertionError, TypeError, ValueError) as error:
            raise _Invalid(f"the header's deal cannot be read ({error})", len(MAGIC)) from None
        if (ranks != deal.ranks or found != tuple(deal.foundations)
                or not _same_deal(dealt, deal)):
            raise _Invalid("the certificate is for another deal (its header's deal differs "
                           "from the one given)", len(MAGIC))
        if any(set(col) & set(other) for i, col in enumerate(dealt) for other in dealt[i + 1:]):
            raise _Invalid("the header's deal repeats a card", len(MAGIC))
        frame = Frame(dealt, found, ranks)
        start = (dealt, found)
        stated = header.get("positions")
        if not isinstance(stated, int) or isinstance(stated, bool) or stated < 0:
            raise _Invalid(f"the header's position count {stated!r} is not a count", len(MAGIC))
        stated_layers = header.get("layers")
        if (not isinstance(stated_layers, int) or isinstance(stated_layers, bool)
                or stated_layers < 0):
            raise _Invalid(f"the header's layer count {stated_layers!r} is not a count",
                           len(MAGIC))
        if header.get("start") == "dead":
            if stated_layers != 0:
                raise _Invalid(f"a deal declared dead has no layers, not {stated_layers}",
                               len(MAGIC))
            return _check_dead_start(header, start, ranks, stated, "deadlock" in lemmas)
        stream.seek(body_start)
        compression = header.get("compression")
        body = _Body(stream, compression if isinstance(compression, str) else "?")
        members, layers, peak = _check_body(body, frame, start, stated, set(lemmas))
        if layers != stated_layers:
            raise _Invalid(f"the header says {stated_layers} layers, the body holds {layers}",
                           len(MAGIC))
        return members, layers, peak


def _check_dead_start(header: dict[str, object], start: Position, ranks: int, stated: int,
                      allowed: bool) -> tuple[int, int, int]:
    if not allowed:
        raise _Invalid("the deal is declared dead but the lemmas do not list deadlock",
                       len(MAGIC))
    names = header.get("deadlock")
    try:
        assert isinstance(names, list)
        cards = 0
        for name in names:
            cards |= 1 << Card.from_text(str(name)).index
    except (AssertionError, ValueError) as error:
        raise _Invalid(f"the header's deadlocked cards cannot be read ({error})",
                       len(MAGIC)) from None
    if stated != 0:
        raise _Invalid(f"a deal declared dead has no positions, not {stated}", len(MAGIC))
    if not is_deadlock(start, ranks, cards):
        raise _Invalid("the deal is declared dead, but the cards " + " ".join(map(str, names))
                       + " are not a deadlocked set (lemma deadlock)", len(MAGIC))
    return 0, 0, 0


def _check_body(body: _Body, frame: Frame, start: Position, stated: int,
                lemmas: set[str]) -> tuple[int, int, int]:

    if lemmas != set(LEMMAS):
        raise _Invalid(f"a searched certificate uses the lemmas {', '.join(LEMMAS)}, "
                       f"not {', '.join(sorted(lemmas))}", len(MAGIC))
    ranks = frame.ranks
    skey, swide = frame.encode_wide(start)
    # requirements on layers not yet read: layer key -> {wide form: (from, card, onto)}
    pending: dict[bytes, dict[int, tuple[int, int, int]]] = {skey: {swide: (-1, -1, -1)}}
    heap = [frame.order(skey)]
    last: tuple[int, bytes] | None = None
    members = layers = 0
    held = peak = 1  # positions required of layers not yet read (the deal's, first)
    while True:
        block_at = body.offset
        head = body.read(len(END), "a block's layer key")
        if head == END:
            final = int.from_bytes(body.read(8, "the final count"), "big")
            if final != members:
                raise _Invalid(f"the end marker counts {final} positions, the body holds "
                               f"{members}", block_at)
            break
        key = head + body.read(frame.key_bytes - len(END), "a block's layer key")
        bad = frame.check_key(key)
        if bad:
            raise _Invalid(f"block {layers + 1} at body offset {block_at}: {bad}", block_at)
        order = frame.order(key)
        if last is not None and order <= last:
            raise _Invalid(f"block {layers + 1} at body offset {block_at}: layer {key.hex()} "
                           f"is out of order (layers must come by progress, then key, each "
                           f"once)", block_at)
        # layers required before this one and absent from the file: all dead
        while heap and heap[0] < order:
            gone = heapq.heappop(heap)[1]
            gone_wides = pending.pop(gone, {})
            held -= len(gone_wides)
            _all_dead(gone_wides, frame, gone, ranks, block_at)
        last = order
        count = int.from_bytes(body.read(COUNT_BYTES, "a block's count"), "big")
        length = frame.record_length(key)
        data = body.read(count * length, "a block's records")
        first = body.offset - len(data)
        layers += 1
        members += count
        wides: list[int] = []
        previous = b""
        for i in range(count):
            at = first + i * length
            record = data[i * length:(i + 1) * length]
            if record <= previous:
                raise _Invalid(f"position {i + 1} of layer {key.hex()} at body offset {at}: "
                               f"records must be sorted, each once", at)
            previous = record
            try:
                wides.append(frame.wide(key, record))
            except ValueError as error:
                raise _Invalid(f"the position at body offset {at} (layer {key.hex()}): "
                               f"{error}", at) from None
        layer = set(wides)
        dead_here: set[int] = set()
        required = pending.pop(key, {})
        held -= len(required)
        if heap and heap[0][1] == key:
            heapq.heappop(heap)
        positions = []
        for i, wide in enumerate(wides):
            at = first + i * length
            try:
                position = frame.position(key, wide)
            except ValueError as error:
                raise _Invalid(f"the position at body offset {at} (layer {key.hex()}): "
                               f"{error}", at) from None
            if is_won(position):
                raise _Invalid(f"the position at body offset {at} is won: a certificate "
                               f"holds no won position", at)
            positions.append(position)
        for wide, why in required.items():
            if wide not in layer:
                _must_be_dead(frame, key, wide, ranks, why, block_at, dead_here)
        forms = frame.successor_forms
        for i, position in enumerate(positions):
            at = first + i * length
            for card, onto, nkey, nwide, _ in forms(position):
                if nkey == key:
                    if nwide not in layer and nwide not in dead_here:
                        _must_be_dead(frame, key, nwide, ranks, (at, card, onto), at,
                                      dead_here)
                    continue
                want = pending.get(nkey)
                if want is None:
                    norder = frame.order(nkey)
                    if norder < order:
                        raise _Invalid(f"{move_text(card, onto)} from the position at body "
                                       f"offset {at} goes back to layer {nkey.hex()}, already "
                                       f"read (no move should lower the progress)", at)
                    want = pending[nkey] = {}
                    heapq.heappush(heap, norder)
                if nwide not in want:
                    want[nwide] = (at, card, onto)
                    held += 1
        peak = max(peak, held + count)
    if not body.at_end():
        raise _Invalid(f"bytes after the end marker at body offset {body.offset}", body.offset)
    while heap:
        _, key = heapq.heappop(heap)
        _all_dead(pending.pop(key, {}), frame, key, ranks, body.offset)
    if members != stated:
        raise _Invalid(f"the header says {stated} positions, the body holds {members}",
                       len(MAGIC))
    return members, layers, peak


def _all_dead(required: dict[int, tuple[int, int, int]], frame: Frame, key: bytes, ranks: int,
              offset: int) -> None:
    seen: set[int] = set()
    for wide, why in required.items():
        _must_be_dead(frame, key, wide, ranks, why, offset, seen)


def _must_be_dead(frame: Frame, key: bytes, wide: int, ranks: int,
                  why: tuple[int, int, int], offset: int, seen: set[int]) -> None:
    if wide in seen:
        return
    position = frame.position(key, wide, check=False)  # made by encode_wide
    if not deadlock(position, ranks):
        at, card, onto = why
        move = "the deal" if at < 0 else \
            f"{move_text(card, onto)} from the position at body offset {at}"
        raise _Invalid(f"a successor is missing: {move} reaches a position that is neither "
                       f"in the certificate (layer {key.hex()}, record "
                       f"{frame.record(key, wide).hex()}) nor dead by the deadlock lemma",
                       offset if at < 0 else at)
    seen.add(wide)


def verify_certificate(deal: Deal, path: str | os.PathLike[str]) -> CertificateReport:
    """Check that the certificate in *path* proves *deal* cannot be won.

    The check trusts only the rules of play and the lemmas of
    docs/certificates.md (safe foundation moves, a column's only card,
    deadlocked sets), and recomputes every successor itself in plain
    Python; it shares no code with the engine.  The file is read as a
    stream, layer by layer: memory holds one layer and the requirements
    on the layers still to come.

    Parameters
    ----------
    deal : Deal
        The deal (or any position) the certificate is claimed for.  Its
        rules must play as Baker's Dozen does (any layout, so Good Measure
        too).
    path : str or os.PathLike
        The certificate file (docs/certificates.md, "Format").

    Returns
    -------
    CertificateReport
        ``valid`` True, or the first thing wrong in ``error`` (which
        position, which move, which offset) and ``offset``.

    Raises
    ------
    TypeError
        If *deal* is not a Deal.
    RulesError
        If the deal's rules are not covered (another play than Baker's
        Dozen's).
    OSError
        If the file cannot be read.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"verify_certificate() needs a Deal, not {type(deal).__name__}")
    require_covered(deal.rules)
    began = time.perf_counter()
    try:
        members, layers, peak = _check(deal, path)
    except _Invalid as bad:
        return CertificateReport(False, str(bad), 0, 0, bad.offset,
                                 time.perf_counter() - began, 0)
    return CertificateReport(True, None, members, layers, None, time.perf_counter() - began,
                             peak)
