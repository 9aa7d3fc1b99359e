"""The engine's move generator against the slow reference of docs/rules.md.

Random legal play from random deals (PySol deal numbers, and random shuffles
dealt with the stable Kings rule, full and reduced packs); at every step the
set of ``legal_moves(deal)`` (the compiled engine, through solver.py) must
equal the reference's set, with no duplicates.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import Deal, check, legal_moves
from conftest import initial_deals
from reference import reference_moves

deals = st.one_of(
    st.integers(1, 2**33).map(Deal.pysol),
    st.integers(1, 32000).map(Deal.pysol),
    initial_deals(),
)


@given(deals, st.data())
def test_legal_moves_match_reference(deal: Deal, data: st.DataObject) -> None:
    for _ in range(200):
        engine = legal_moves(deal)
        assert isinstance(engine, tuple)
        expected = reference_moves(deal)
        assert len(engine) == len(set(engine)), f"duplicate moves in\n{deal}"
        assert set(engine) == expected, f"position:\n{deal}"
        if not expected:
            break
        move = data.draw(st.sampled_from(sorted(expected, key=str)))
        deal = check(deal, [move]).position
