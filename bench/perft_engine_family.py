"""Generator of ``perft_engine_family.json``: perft counts for every knob of the family.

Perft counts the move sequences of a given length from a position (every
legal move, no pruning, positions may repeat; a move to the foundations is
one move, to the first pile that takes the card).  The counts here are
computed ONCE by the slow reference generator of ``tests/reference.py``
(written from docs/rules.md alone, sharing no code with the engine or the
checker), for each preset and for knob combinations on top of Baker's
Dozen that the presets do not cover (sequence moves, supermoves, empty
columns that take cards, foundation return, same-suit and other-suit
builds, foundations in any suit).  ``tests/test_engine_family.py`` checks
the compiled move generator (``bakersdozen.solver.perft``) against them.

Each rule set has two positions: PySolFC deal 1 of the preset, and a
mid-game position reached from it by random play of the reference's moves
(seeded; foundation moves preferred half of the time), so that empty
columns, sequences and foundation cards come into play.

Regenerate (a few minutes; only when positions or rule sets are added)::

    python bench/perft_engine_family.py > bench/perft_engine_family.json
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bakersdozen import Deal  # noqa: E402
from bakersdozen.rules import BAKERS_DOZEN, PRESETS, Rules  # noqa: E402
from reference import family_apply, family_moves, random_play  # noqa: E402

#: Knob changes on top of Baker's Dozen, beyond the presets.
COMBINATIONS: list[dict[str, Any]] = [
    {"moves": "sequence"},
    {"moves": "supermove"},
    {"moves": "supermove", "empty_column": "any_card"},
    {"empty_column": "any_card"},
    {"empty_column": "kings_only"},
    {"foundation_return": True},
    {"build": "same_suit"},
    {"build": "other_suit"},
    {"foundation_build": "any_suit"},
    {"moves": "sequence", "empty_column": "any_card", "foundation_return": True},
    {"build": "alternate_colours", "moves": "sequence", "empty_column": "kings_only"},
]

DEPTH = 4
MIDGAME_STEPS = 40
SEED = 2026


def rule_sets() -> dict[str, Rules]:
    out = dict(PRESETS)
    for knobs in COMBINATIONS:
        rules = BAKERS_DOZEN.replace(**knobs)
        out[rules.name] = rules
    return out


def perft(deal: Deal, rules: Rules, depth: int) -> int:
    """Move sequences of length *depth* from *deal* under the reference's moves."""
    if depth == 0:
        return 1
    moves = family_moves(deal, rules)
    if depth == 1:
        return len(moves)
    return sum(perft(family_apply(deal, m, rules), rules, depth - 1) for m in moves)


def record(deal: Deal, rules: Rules, origin: str) -> dict[str, Any]:
    counts = {}
    for d in range(1, DEPTH + 1):
        counts[str(d)] = perft(deal, rules, d)
        print(f"{rules.name} {origin}: depth {d} {counts[str(d)]}", file=sys.stderr, flush=True)
    return {
        "origin": origin,
        "columns": [[str(card) for card in column] for column in deal.columns],
        "foundations": list(deal.foundations),
        "ranks": deal.ranks,
        "perft": counts,
    }


def main() -> int:
    out: dict[str, Any] = {
        "about": (
            "Perft counts (move sequences of length N, every legal move, no pruning; a "
            "move to the foundations is one move, to the first pile that takes the card) "
            "computed once by bench/perft_engine_family.py with the reference generator "
            "of tests/reference.py, for each preset and knob combination (keyed by rules "
            "name; knobs as in Rules.knobs). Columns bottom card first; foundations are "
            "pile heights by pile (the pile begun by the Ace of clubs, diamonds, hearts, "
            "spades)."
        ),
        "rules": {},
    }
    for name, rules in rule_sets().items():
        deal = Deal.pysol(1, rules)
        mid = random_play(deal, random.Random(SEED), MIDGAME_STEPS)
        out["rules"][name] = {
            "knobs": rules.knobs,
            "positions": [
                record(deal, rules, "PySolFC deal 1"),
                record(mid, rules, f"{MIDGAME_STEPS} random reference moves (seed {SEED}) "
                                   "from PySolFC deal 1"),
            ],
        }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
