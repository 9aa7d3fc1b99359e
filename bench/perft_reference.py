"""A slow, independent perft for Baker's Dozen, and the generator of perft.json.

Perft (the chess programmers' word) counts the move sequences of a given
length from a position, every legal move included (no pruning, positions
may repeat).  The counts in ``perft.json`` were computed ONCE by this file,
which is written from RULES.md ("Play") alone: it shares no code with the
package (not even the board reader) so that a bug in the compiled move
generator cannot hide in its own expected values.  The benchmarks and
``tests/test_perft.py`` check the engine against the stored counts.

The rules, as used here:

- only the top card of a column moves, one card at a time;
- it may go to its suit's foundation if it is the next rank there;
- it may go onto the top card of another *non-empty* column whose rank is
  exactly one higher, whatever the suit;
- nothing is ever put into an empty column.

Regenerate the data (minutes; only when positions are added)::

    python bench/perft_reference.py > bench/perft.json
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"

#: A card is (rank 1..13, suit letter); a position is (columns, foundations).
Card = tuple[int, str]
Columns = list[list[Card]]
Foundations = dict[str, int]


def parse(text: str) -> tuple[Columns, Foundations]:
    """Read board text (NOTATION.md): one column per line, bottom card first."""
    columns: Columns = []
    found = {s: 0 for s in SUITS}
    for line in text.splitlines():
        line = line.strip()
        if line.lower().startswith("foundations:"):
            for token in line.split()[1:]:
                suit, rank = token.split("-")
                found[suit] = 0 if rank == "0" else RANKS.index(rank) + 1
            continue
        line = line.lstrip(":").strip()
        columns.append([(RANKS.index(t[0]) + 1, t[1]) for t in line.split()])
    return columns, found


def render(columns: Columns, found: Foundations) -> str:
    """Board text with a ``Foundations:`` line (the inverse of :func:`parse`)."""
    head = "Foundations: " + " ".join(
        f"{s}-{RANKS[found[s] - 1] if found[s] else 0}" for s in "HCDS"
    )
    lines = [" ".join(RANKS[r - 1] + s for r, s in col) for col in columns]
    return head + "\n" + "\n".join(lines) + "\n"


def moves(columns: Columns, found: Foundations) -> list[tuple[int, int]]:
    """Every legal move as (source column, target column or -1 = foundation)."""
    out = []
    for source, col in enumerate(columns):
        if not col:
            continue
        rank, suit = col[-1]
        if found[suit] == rank - 1:
            out.append((source, -1))
        for target, other in enumerate(columns):
            if target != source and other and other[-1][0] == rank + 1:
                out.append((source, target))
    return out


def play(columns: Columns, found: Foundations, move: tuple[int, int]) -> Card:
    source, target = move
    card = columns[source].pop()
    if target < 0:
        found[card[1]] += 1
    else:
        columns[target].append(card)
    return card


def undo(columns: Columns, found: Foundations, move: tuple[int, int], card: Card) -> None:
    source, target = move
    if target < 0:
        found[card[1]] -= 1
    else:
        columns[target].pop()
    columns[source].append(card)


def perft(columns: Columns, found: Foundations, depth: int) -> int:
    """Number of move sequences of length *depth* from the position."""
    if depth == 0:
        return 1
    legal = moves(columns, found)
    if depth == 1:
        return len(legal)
    total = 0
    for move in legal:
        card = play(columns, found, move)
        total += perft(columns, found, depth - 1)
        undo(columns, found, move, card)
    return total


def midgame(text: str, seed: int, steps: int) -> str:
    """A mid-game position: *steps* random legal moves from *text*.

    Foundation moves are preferred half of the time so play gets somewhere.
    """
    columns, found = parse(text)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = moves(columns, found)
        if not legal:
            break
        home = [m for m in legal if m[1] < 0]
        play(columns, found, rng.choice(home) if home and rng.random() < 0.5 else rng.choice(legal))
    return render(columns, found)


def pysol_text(number: int) -> str:
    """PySol deal *number* as board text, from the pysol_cards package."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    game = Game("bakers_dozen", number, RandomBase.DEALS_PYSOL)
    return str(game.calc_layout_string(CardRenderer(True)))


#: (name, PySol deal number or None, deepest depth stored).
POSITIONS = [
    ("pysol-1", 1, 7),
    ("pysol-24", 24, 7),
    ("pysol-100", 100, 7),
    ("pysol-617", 617, 7),
    ("midgame-1", None, 7),
]


def main() -> int:
    out: dict[str, Any] = {
        "about": (
            "Perft counts (move sequences of length N, every legal move, no pruning) "
            "computed once by bench/perft_reference.py from the rules of RULES.md. "
            "Boards are board text (NOTATION.md), bottom card first."
        ),
        "positions": [],
    }
    for name, number, depth in POSITIONS:
        if number is not None:
            text = pysol_text(number)
            origin = f"PySol deal {number}"
        else:
            text = midgame(pysol_text(1), seed=2024, steps=40)
            origin = "40 random legal moves (seed 2024) from PySol deal 1"
        columns, found = parse(text)
        counts = {}
        for d in range(1, depth + 1):
            counts[str(d)] = perft(columns, found, d)
            print(f"{name} depth {d}: {counts[str(d)]}", file=sys.stderr, flush=True)
        out["positions"].append(
            {"name": name, "deal": number, "origin": origin, "board": text, "perft": counts}
        )
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
