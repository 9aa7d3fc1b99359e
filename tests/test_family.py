"""The family: check() against the slow reference on random play, for every
preset and random knob combinations, on reduced packs and the full pack."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import Card, Deal, IllegalMoveError, Move, check
from bakersdozen.model import FOUNDATION
from bakersdozen.rules import (
    PRESETS, Build, EmptyColumn, FoundationBuild, KingsRule, MoveUnit, Rules,
)
from reference import family_apply, family_deal, family_moves, pack


@st.composite
def family_rules(draw: st.DrawFn) -> Rules:
    """A preset, or a preset with random play knobs."""
    rules = draw(st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name)))
    if draw(st.booleans()):
        return rules
    foundation_build = draw(st.sampled_from(list(FoundationBuild)))
    return rules.replace(
        kings=draw(st.sampled_from(list(KingsRule))),
        build=draw(st.sampled_from(list(Build))),
        moves=draw(st.sampled_from(list(MoveUnit))),
        empty_column=draw(st.sampled_from(list(EmptyColumn))),
        foundation_build=foundation_build,
        foundation_return=(
            draw(st.booleans()) if foundation_build is FoundationBuild.BY_SUIT else False
        ),
    )


def _random_other_move(deal: Deal, rng: random.Random) -> Move:
    cards = [c for col in deal.columns for c in col] + [
        Card(h, s) for s, h in enumerate(deal.foundations) if h  # type: ignore[arg-type]
    ]
    card = rng.choice(cards or [Card(1, 0)])  # type: ignore[arg-type]
    last = min(len(deal.columns) + 1, 13)
    source = rng.randint(0, last)
    target = rng.choice([t for t in range(last + 1) if t != source])
    return Move(card, source, target)


@given(family_rules(), st.sampled_from([3, 4, 5, 6, 13]), st.randoms(use_true_random=False))
def test_checker_agrees_with_reference(rules: Rules, ranks: int, rng: random.Random) -> None:
    _agree(rules, ranks, rng)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("ranks", [4, 6, 13])
def test_checker_agrees_with_reference_on_every_preset(name: str, ranks: int) -> None:
    # The hypothesis test draws presets at random; this one plays each.
    for seed in range(3):
        _agree(PRESETS[name], ranks, random.Random(seed))


def _agree(rules: Rules, ranks: int, rng: random.Random) -> None:
    """Random play: check() accepts exactly the reference's moves, with its results."""
    cards = list(pack(ranks))
    rng.shuffle(cards)
    deal = family_deal(cards, ranks, rules)
    for _ in range(50):
        legal = family_moves(deal)
        for _ in range(6):
            move = _random_other_move(deal, rng)
            if move not in legal:
                with pytest.raises(IllegalMoveError):
                    check(deal, [move])
        if not legal:
            break
        ordered = sorted(legal, key=str)
        home = [m for m in ordered if m.to_foundation]
        move = rng.choice(home) if home and rng.random() < 0.4 else rng.choice(ordered)
        after = check(deal, [move]).position
        assert after == family_apply(deal, move)
        deal = after
    assert check(deal, []).won == deal.is_won


# -- hand-made positions: one per knob --------------------------------------


REST4 = "AC AD AH AS 2C 2D 2H 3H 3S"  # the rest of the pack of ranks 1..4


def test_sequence_move_named_by_its_bottom_card() -> None:
    rules = PRESETS["bakers_dozen"].replace(moves="sequence", empty_column="any_card")
    deal = Deal.from_text(f"4C 3D 2S\n4H\n:\n4S 4D 3C\n{REST4}\n", ranks=4, rules=rules)
    after = check(deal, ["3D 1>2"]).position
    assert after.columns[1] == tuple(Card.from_text(t) for t in "4H 3D 2S".split())
    assert check(deal, ["4C 1>3"]).position.columns[2][0] == Card.from_text("4C")
    with pytest.raises(IllegalMoveError, match="one card moves at a time"):
        check(deal.with_rules(PRESETS["bakers_dozen"]), ["3D 1>2"])
    with pytest.raises(IllegalMoveError, match="only one card goes to a foundation"):
        check(deal, ["3D 1>F"])


def test_sequence_must_be_built() -> None:
    rules = PRESETS["castles_in_spain"].replace(moves="sequence")
    deal = Deal.from_text("4C 3D 2H\n4H\n4S 3C\n4D\nAC AD AH AS 2C 2D 2S 3H 3S\n",
                          ranks=4, rules=rules)
    with pytest.raises(IllegalMoveError, match="not a built sequence: 2H does not go on 3D"):
        check(deal, ["3D 1>2"])
    assert check(deal, ["2H 1>3"]).position.columns[2][-1] == Card.from_text("2H")
    with pytest.raises(IllegalMoveError, match=r"builds down of the other colour"):
        check(deal, ["2H 1>3", "3D 1>2"])


def test_supermove_limit_follows_pysol() -> None:
    # Castles in Spain: 2**e cards, e the empty columns besides the target.
    rules = PRESETS["castles_in_spain"]
    text = "5C 4D 3S 2H\n\n\n5S\nAC AD AH AS 5H 5D 4C 4H 4S 3C 3D 3H 2C 2D 2S\n"
    deal = Deal.from_text(text, ranks=5, rules=rules)
    # Two empty columns besides column 4: up to 4 cards.
    assert check(deal, ["4D 1>4"]).position.columns[3][-1] == Card.from_text("2H")
    # Into an empty column: one empty column besides it, up to 2 cards.
    assert check(deal, ["3S 1>2"]).moves == 1
    with pytest.raises(IllegalMoveError, match=r"3 cards.*1 empty column besides the target.*2\*\*1 = 2"):
        check(deal, ["4D 1>2"])
    # Empty columns that take nothing: one card at a time.
    with pytest.raises(IllegalMoveError, match="one card when empty columns do not take any card"):
        check(deal.with_rules(rules.replace(empty_column="nothing")), ["4D 1>4"])


def test_empty_column_rules() -> None:
    text = "AC 2C\n\n2D AD 2H AH 2S AS\n"
    portuguese = Deal.from_text(text, ranks=2, rules="portuguese_solitaire")
    with pytest.raises(IllegalMoveError, match="takes only a King"):
        check(portuguese, ["AS 3>2"])
    assert check(portuguese, ["2C 1>2"]).moves == 1
    assert check(portuguese.with_rules("spanish_patience_ii"), ["AS 3>2"]).moves == 1


def test_alternate_colour_foundation_first_pile() -> None:
    # Spanish Patience: clubs and spades piles hold one Ace each; 2D goes on
    # the first accepting pile (clubs), 2H then on spades.
    deal = Deal.from_text(
        "Foundations: C-A S-A\n2H\n2D\nAD AH\n2C 2S\n", ranks=2, rules="spanish_patience"
    )
    after = check(deal, ["2D 2>F"]).position
    assert after.foundations == (2, 0, 0, 1)
    assert check(after, ["2H 1>F"]).position.foundations == (2, 0, 0, 2)
    with pytest.raises(IllegalMoveError, match="no foundation pile accepts 2S"):
        check(deal, ["2S 4>F"])


def test_foundation_return() -> None:
    rules = PRESETS["bakers_dozen"].replace(foundation_return=True)
    deal = Deal.from_text("Foundations: C-A\n3D 2D\n3H 2H AH\n3S 2S AS\n3C 2C AD\n",
                          ranks=3, rules=rules)
    after = check(deal, ["AC F>1"]).position
    assert after.foundations == (0, 0, 0, 0) and after.columns[0][-1] == Card.from_text("AC")
    with pytest.raises(IllegalMoveError, match="foundation_return is off"):
        check(deal.with_rules("bakers_dozen"), ["AC F>1"])
    with pytest.raises(IllegalMoveError, match="not the top card of the hearts foundation"):
        check(deal, ["AH F>1"])


def test_other_suit_build() -> None:
    rules = PRESETS["bakers_dozen"].replace(build="other_suit")
    deal = Deal.from_text("3C 2C\n3D AD\n3H 2H AH\n3S 2S AS\n2D AC\n", ranks=3, rules=rules)
    with pytest.raises(IllegalMoveError, match=r"builds down of another suit \(other_suit\)"):
        check(deal, ["AC 5>1"])
    assert check(deal, ["AS 4>1"]).moves == 1


def test_good_measure_foundations_from_the_deal() -> None:
    deal = Deal.pysol(2, "good_measure")
    moves = family_moves(deal)
    for move in moves:
        assert check(deal, [move]).position == family_apply(deal, move)
    assert FOUNDATION == 0


# -- both verdicts occur for every preset on reduced packs --------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_both_verdicts_on_reduced_packs(name: str) -> None:
    from brute import family_line

    rules = PRESETS[name]
    rng = random.Random(9)
    verdicts = set()
    for _ in range(40):
        ranks = rng.choice([3, 4])
        cards = list(pack(ranks))
        rng.shuffle(cards)
        deal = family_deal(cards, ranks, rules)
        line = family_line(deal)
        verdicts.add(line is not None)
        if line is not None:  # every winning line is replayed by check()
            assert check(deal, line).won
        if len(verdicts) == 2:
            break
    assert verdicts == {True, False}


def test_family_search_agrees_with_the_bakers_dozen_search() -> None:
    # The family search over the reference's moves and the older Baker's
    # Dozen search (its own move rules) give the same verdicts.
    from brute import _family_solvable, brute_force_solvable

    rng = random.Random(31)
    verdicts = []
    for _ in range(30):
        cards = list(pack(4))
        rng.shuffle(cards)
        deal = family_deal(cards, 4, PRESETS["bakers_dozen"])
        verdict = brute_force_solvable(deal)
        assert _family_solvable(deal, PRESETS["bakers_dozen"]) == verdict
        verdicts.append(verdict)
    assert set(verdicts) == {True, False}


@pytest.mark.parametrize("name", list(PRESETS))
def test_solve_plays_every_preset(name: str) -> None:
    # solve() verifies its line with check() under the deal's rules; the
    # line is replayed here once more
    from bakersdozen import check, solve

    deal = Deal.pysol(2, name)
    solution = solve(deal, time_limit=30)
    assert solution.solved
    assert check(deal, solution.moves).won
