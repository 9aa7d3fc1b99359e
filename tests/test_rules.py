"""The rules: the Baker's Dozen preset, knobs by name, impossible combinations."""

from __future__ import annotations

import doctest

import pytest

from bakersdozen import rules as rules_module
from bakersdozen.rules import (
    BAKERS_DOZEN, Build, EmptyColumn, FoundationBuild, KingsRule, MoveUnit, Rules, RulesError,
    find_rules,
)


def test_bakers_dozen_preset() -> None:
    # 13 x 4, kings to the bottom, down by rank in any suit, one card at a
    # time, empty columns never filled, by suit, no foundation return.
    assert BAKERS_DOZEN.columns == 13
    assert BAKERS_DOZEN.cards_per_column == 4
    assert BAKERS_DOZEN.kings is KingsRule.STABLE
    assert BAKERS_DOZEN.build is Build.ANY_SUIT
    assert BAKERS_DOZEN.empty_column is EmptyColumn.NOTHING
    assert BAKERS_DOZEN.foundation_return is False
    assert BAKERS_DOZEN.moves is MoveUnit.ONE_CARD
    assert BAKERS_DOZEN.foundation_build is FoundationBuild.BY_SUIT
    assert BAKERS_DOZEN.start_aces == 0


@pytest.mark.parametrize("name", ["bakers_dozen", "Baker's Dozen", "BAKERS-DOZEN", BAKERS_DOZEN])
def test_find_rules(name: object) -> None:
    assert find_rules(name) is BAKERS_DOZEN  # type: ignore[arg-type]


def test_unknown_game_lists_the_presets() -> None:
    with pytest.raises(RulesError, match=r"unknown game 'klondike'.*bakers_dozen"):
        find_rules("klondike")


def test_replace_names_the_changed_knobs() -> None:
    easy = BAKERS_DOZEN.replace(empty_column="any_card", moves="sequence")
    assert easy.empty_column is EmptyColumn.ANY_CARD and easy.moves is MoveUnit.SEQUENCE
    assert easy.name == "bakers_dozen+moves=sequence,empty_column=any_card"
    assert easy.replace(moves="one_card", empty_column="nothing") == BAKERS_DOZEN
    assert BAKERS_DOZEN.replace() is BAKERS_DOZEN
    assert BAKERS_DOZEN.replace(kings=KingsRule.SWAP).kings is KingsRule.SWAP


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"colour": "red"}, "unknown knob 'colour'"),
        ({"build": "diagonal"}, "unknown tableau build 'diagonal'.*any_suit"),
        ({"columns": 10}, "10 columns of 4 cards and 0 Aces.*40 cards, not the pack's 52"),
        ({"columns": 14, "cards_per_column": 4}, "columns must be an int 1..13"),
    ],
)
def test_impossible_rules_are_refused(knobs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        BAKERS_DOZEN.replace(**knobs)


@pytest.mark.parametrize(
    ("knobs", "message"),
    [({"foundation_return": 1}, "must be a bool"), ({"columns": "13"}, "columns must be an int")],
)
def test_knobs_of_a_wrong_type_are_type_errors(knobs: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        BAKERS_DOZEN.replace(**knobs)


def test_good_measure_layout_adds_up() -> None:
    # 10 columns of 5 and two Aces on the foundations: the 52 cards.
    rules = Rules("good_measure", "Good Measure", columns=10, cards_per_column=5, start_aces=2)
    assert rules.columns * rules.cards_per_column + rules.start_aces == 52


def test_docstring_examples() -> None:
    # The Kings rules' docstrings show the rules' worked examples; run them.
    failed, attempted = doctest.testmod(rules_module)
    assert attempted > 0 and failed == 0


# Each preset against its class in PySolFC's pysollib/games/bakersdozen.py.
PRESET_KNOBS = {
    "bakers_dozen": (31, 13, 4, 0, "stable", "any_suit", "one_card", "nothing", "by_suit"),
    "good_measure": (86, 10, 5, 2, "none", "any_suit", "one_card", "nothing", "by_suit"),
    "spanish_patience": (
        85, 13, 4, 0, "stable", "any_suit", "one_card", "nothing", "alternate_colours"),
    "spanish_patience_ii": (
        664, 13, 4, 0, "none", "any_suit", "one_card", "any_card", "by_suit"),
    "portuguese_solitaire": (
        308, 13, 4, 0, "none", "any_suit", "one_card", "kings_only", "by_suit"),
    "castles_in_spain": (
        83, 13, 4, 0, "none", "alternate_colours", "supermove", "any_card", "by_suit"),
}


@pytest.mark.parametrize("name", sorted(PRESET_KNOBS))
def test_presets(name: str) -> None:
    rules = find_rules(name)
    knobs = rules.knobs
    assert (rules.pysol_id, knobs["columns"], knobs["cards_per_column"], knobs["start_aces"],
            knobs["kings"], knobs["build"], knobs["moves"], knobs["empty_column"],
            knobs["foundation_build"]) == PRESET_KNOBS[name]
    assert rules.foundation_return is False
    assert find_rules(rules.title) is rules


def test_preset_list_in_error() -> None:
    with pytest.raises(RulesError, match="castles_in_spain"):
        find_rules("cruel")


def test_foundation_return_needs_foundations_by_suit() -> None:
    with pytest.raises(RulesError, match="foundation_return=True needs foundation_build=by_suit"):
        find_rules("spanish_patience").replace(foundation_return=True)
    assert BAKERS_DOZEN.replace(foundation_return=True).foundation_return is True


def test_replace_keeps_pysol_id_for_play_knobs_only() -> None:
    assert BAKERS_DOZEN.replace(moves="sequence").pysol_id == 31
    assert BAKERS_DOZEN.replace(kings="none").pysol_id is None
    assert BAKERS_DOZEN.replace(kings="none").replace(kings="stable") is BAKERS_DOZEN
