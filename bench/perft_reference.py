"""A slow, independent perft for Baker's Dozen, and the generator of perft.json.

Perft (the chess programmers' word) counts the move sequences of a given
length from a position, every legal move included (no pruning, positions
may repeat).  The counts in ``perft.json`` were computed ONCE by this file,
which is written from docs/rules.md ("Play") alone: it shares no code with the
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

The games of the family (``docs/rules.md``, "The family") have their own
counts in ``perft_family.json``, keyed by preset; their knobs are written
out below (:data:`PRESET_KNOBS`) from the rules text and PySolFC's classes,
and their PySol layouts are made here from PySolFC's deal hooks on top of
``pysol_cards``' shuffle, again without the package::

    python bench/perft_reference.py --family > bench/perft_family.json
"""

from __future__ import annotations

import copy
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
    """Read board text (docs/notation.md): one column per line, bottom card first."""
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


# ---------------------------------------------------------------------------
# The family: every knob (docs/rules.md).  A position is (columns, piles):
# piles[p] is the height of the foundation begun by the Ace of suit p.
# ---------------------------------------------------------------------------

#: The play knobs of each preset, and its layout: (PySol game id, columns,
#: Aces home before play).
PRESET_KNOBS: dict[str, dict[str, Any]] = {
    "bakers_dozen": dict(game=31, columns=13, aces=0, build="any", moves="one",
                         empty="nothing", found="suit"),
    "good_measure": dict(game=86, columns=10, aces=2, build="any", moves="one",
                         empty="nothing", found="suit"),
    "spanish_patience": dict(game=85, columns=13, aces=0, build="any", moves="one",
                             empty="nothing", found="colours"),
    "spanish_patience_ii": dict(game=664, columns=13, aces=0, build="any", moves="one",
                                empty="any", found="suit"),
    "portuguese_solitaire": dict(game=308, columns=13, aces=0, build="any", moves="one",
                                 empty="kings", found="suit"),
    "castles_in_spain": dict(game=83, columns=13, aces=0, build="colours", moves="super",
                             empty="any", found="suit"),
}
RED = "DH"


def on(upper: Card, lower: Card, build: str) -> bool:
    """May *upper* lie on *lower*: one rank lower, and the build rule."""
    if upper[0] != lower[0] - 1:
        return False
    if build == "colours":
        return (upper[1] in RED) != (lower[1] in RED)
    return True


def pile_for(piles: Foundations, card: Card, found: str) -> str | None:
    """The first pile (clubs, diamonds, hearts, spades) that takes *card*."""
    rank, suit = card
    for pile in SUITS:
        height = piles[pile]
        if height != rank - 1:
            continue
        if height == 0 or found == "suit":
            if pile == suit:
                return pile
            continue
        # Alternate colours from the pile's Ace: rank r has the Ace's colour
        # for odd r.
        want_red = (pile in RED) == (rank % 2 == 1)
        if (suit in RED) == want_red:
            return pile
    return None


FamilyMove = tuple[int, int, int]  # (source, target or -1, cards)


def family_moves(columns: Columns, piles: Foundations, knobs: dict[str, Any]) -> list[FamilyMove]:
    out: list[FamilyMove] = []
    empty_count = sum(1 for col in columns if not col)
    for source, col in enumerate(columns):
        if not col:
            continue
        if pile_for(piles, col[-1], knobs["found"]) is not None:
            out.append((source, -1, 1))
        run = 1
        if knobs["moves"] != "one":
            while run < len(col) and on(col[-run], col[-run - 1], knobs["build"]):
                run += 1
        for target, other in enumerate(columns):
            if target == source:
                continue
            for k in range(1, run + 1):
                if knobs["moves"] == "super":
                    if knobs["empty"] == "any":
                        free = empty_count - (0 if other else 1)
                        if k > 2 ** free:
                            break
                    elif k > 1:
                        break
                bottom = col[-k]
                if other:
                    ok = on(bottom, other[-1], knobs["build"])
                else:
                    ok = knobs["empty"] == "any" or (knobs["empty"] == "kings" and bottom[0] == 13)
                if ok:
                    out.append((source, target, k))
    return out


def family_perft(columns: Columns, piles: Foundations, knobs: dict[str, Any], depth: int) -> int:
    if depth == 0:
        return 1
    legal = family_moves(columns, piles, knobs)
    if depth == 1:
        return len(legal)
    total = 0
    for source, target, k in legal:
        unit = columns[source][-k:]
        del columns[source][-k:]
        if target < 0:
            pile = pile_for(piles, unit[0], knobs["found"])
            assert pile is not None
            piles[pile] += 1
            total += family_perft(columns, piles, knobs, depth - 1)
            piles[pile] -= 1
        else:
            columns[target].extend(unit)
            total += family_perft(columns, piles, knobs, depth - 1)
            del columns[target][-k:]
        columns[source].extend(unit)
    return total


def family_layout(number: int, knobs: dict[str, Any]) -> tuple[Columns, Foundations]:
    """PySolFC's layout of deal *number*, from its deal hooks (docs/rules.md).

    pysollib/games/bakersdozen.py: Baker's Dozen and Spanish Patience swap
    each King with the first non-King dealt before it in its column, then
    reverse the list (the talon deals from its end); Good Measure does the
    same for 10 columns, then ``_shuffleHookMoveToBottom`` keeps the last
    two Aces dealt for the foundations; the others have no hook.
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import MTRandom, shuffle
    from pysol_cards.random_base import RandomBase

    if number >= 32000:  # PySolFC's construct_random: "0 <= seed < 32000"
        twister = MTRandom(number)
        cards = twister.shuffle(createCards(1))
    else:
        cards = shuffle(createCards(1), number, RandomBase.DEALS_MS)
    pack = [(c.rank, "CSHD"[c.suit]) for c in cards]
    n = knobs["columns"]
    if knobs["game"] in (31, 85, 86):
        order = list(pack)
        for i in [i for i, c in enumerate(order) if c[0] == 13]:
            j = i % n
            while j < i:
                if order[j][0] != 13:
                    order[i], order[j] = order[j], order[i]
                    break
                j += n
    else:
        order = pack[::-1]
    piles = {s: 0 for s in SUITS}
    for _ in range(knobs["aces"]):
        last = max(k for k, c in enumerate(order) if c[0] == 1)
        piles[order.pop(last)[1]] = 1
    return [order[c::n] for c in range(n)], piles


def _random_game(knobs: dict[str, Any], seed: int) -> tuple[Columns, Foundations, int]:
    """Random play from deal 1, kept at the last position with 3 moves or more
    (preferring one with an empty column); foundation moves first most of
    the time, and never straight back (a card shuttling between columns)."""
    columns, piles = family_layout(1, knobs)
    rng = random.Random(seed)
    kept, played = (copy.deepcopy(columns), dict(piles)), 0
    back = (-2, -2)
    for step in range(1, 61):
        legal = family_moves(columns, piles, knobs)
        empty = any(not c for c in columns)
        if len(legal) >= 3 and (empty or not any(not c for c in kept[0])):
            kept, played = (copy.deepcopy(columns), dict(piles)), step - 1
        if not legal:
            break
        home = [m for m in legal if m[1] < 0]
        forward = [m for m in legal if m[:2] != back] or legal
        source, target, k = (
            rng.choice(home) if home and rng.random() < 0.8 else rng.choice(forward)
        )
        back = (target, source)
        unit = columns[source][-k:]
        del columns[source][-k:]
        if target < 0:
            pile = pile_for(piles, unit[0], knobs["found"])
            assert pile is not None
            piles[pile] += 1
        else:
            columns[target].extend(unit)
    return kept[0], kept[1], played


def family_midgame(knobs: dict[str, Any]) -> tuple[Columns, Foundations, str]:
    """A mid-game position: the first seed from 2026 whose random game keeps
    10 moves or more, an empty column and 4 legal moves; else the longest."""
    best: tuple[Columns, Foundations, int, int] | None = None
    for seed in range(2026, 2126):
        columns, piles, played = _random_game(knobs, seed)
        if (played >= 10 and any(not c for c in columns)
                and len(family_moves(columns, piles, knobs)) >= 4):
            best = (columns, piles, played, seed)
            break
        if best is None or played > best[2]:
            best = (columns, piles, played, seed)
    assert best is not None
    columns, piles, played, seed = best
    return columns, piles, f"{played} random legal moves (seed {seed}) from PySolFC deal 1"


def family_main() -> int:
    out: dict[str, Any] = {
        "about": (
            "Perft counts per preset (move sequences of length N, every legal move, "
            "no pruning; a move to the foundations is one move whichever pile takes "
            "the card) computed once by bench/perft_reference.py --family from the "
            "rules of docs/rules.md, sharing no code with the package. Layouts are "
            "PySolFC's (its deal hooks on pysol_cards' shuffle). Boards are board "
            "text, bottom card first; Foundations gives pile heights."
        ),
        "presets": {},
    }
    for preset, knobs in PRESET_KNOBS.items():
        cases = []
        deep = 7 if preset == "castles_in_spain" else 6
        for number, depth in ((1, deep), (24, deep), (40000, deep), (None, 5)):
            origin = f"PySolFC deal {number}"
            if number is None:
                columns, piles, origin = family_midgame(knobs)
            else:
                columns, piles = family_layout(number, knobs)
            # An empty column is a lone ':' (a blank last line would be lost).
            text = "\n".join(line or ":" for line in render(columns, piles).split("\n")[:-1]) + "\n"
            counts = {}
            for d in range(1, depth + 1):
                counts[str(d)] = family_perft(columns, piles, knobs, d)
                print(f"{preset} {number} depth {d}: {counts[str(d)]}", file=sys.stderr, flush=True)
            cases.append({"deal": number, "origin": origin, "board": text, "perft": counts})
        out["presets"][preset] = cases
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--family"]:
        return family_main()
    out: dict[str, Any] = {
        "about": (
            "Perft counts (move sequences of length N, every legal move, no pruning) "
            "computed once by bench/perft_reference.py from the rules of docs/rules.md. "
            "Boards are board text (docs/notation.md), bottom card first."
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
