"""Shared hypothesis strategies and settings for the tests.

A test that starts a process starts it with :mod:`children` (its own process
group, default signal actions, the group killed in a ``finally``).
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bakersdozen import Deal
from reference import pack, random_play, stable_deal

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# PySol deal 1 of Baker's Dozen, as printed in docs/notation.md.
DEAL_1 = """\
6H JH 5C AD
2H 2C 4C 5S
9C 8H 3C 9S
KC TH AH 6S
KD 4S AS TC
8C TD JS 5H
3D 3S QD 7C
6C 7S 9D 7H
KS 4D QS 5D
8D AC 2S JC
8S 4H 3H 9H
KH QH 6D 2D
7D TS QC JD
"""


@st.composite
def initial_deals(draw: st.DrawFn, ranks: st.SearchStrategy[int] | None = None) -> Deal:
    """A random initial layout dealt from a shuffled (full or reduced) pack."""
    r = draw(ranks if ranks is not None else st.sampled_from([3, 5, 8, 13, 13]))
    cards = draw(st.permutations(pack(r)))
    return stable_deal(list(cards), r)


@st.composite
def positions(draw: st.DrawFn) -> Deal:
    """A random position reached by random legal play from a random deal."""
    deal = draw(initial_deals())
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(0, 120))
    return random_play(deal, random.Random(seed), steps)
